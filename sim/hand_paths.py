"""Where and how fast the virtual hand moves a stack: the heights, speeds and routes of a person.

`hand.Hand` says what is moved where; `Paths` turns that into distances, in mm above the
sensors (where the magnets' fields are felt), and seconds of the board's clock:

- `rest_h(level)`: a magnet resting `level` pieces up a stack;
- `carry_h()`: a stack carried in the air, over the tallest stack on the board;
- `clearance()`: a stack slid low, just over what it passes;
- `travel(start, p0, to, low)`: straight `Segment`s from p0 to `to` at a human speed (low: up
  over the stacks in between, across, and down, never through a stack);
- `draw(what)`: a duration or distance from `Params.timing`, jittered by the board's seed.

Every figure comes from the hand's random generator in the order the hand asks for them, so a
seed replays the same motions.
"""

from __future__ import annotations

import math

import numpy as np

from firmware_py.spaces import N_SPACES

from .hand_timeline import Segment


class Paths:
    """The geometry and timing of one hand's motions on `board` (its params and stacks).

    rng: the hand's generator (shared: draws keep their order); xy: the spaces' centres (mm).
    """

    def __init__(self, board, rng: np.random.Generator, xy: np.ndarray):
        self._board = board
        self._rng = rng
        self._xy = xy

    def draw(self, what: str) -> float:
        """A duration (s) or distance (mm) for `what`, drawn from `Params.timing`'s range."""
        lo, hi = getattr(self._board.params.timing, what)
        return float(self._rng.uniform(lo, hi))

    def rest_h(self, level: int) -> float:
        """Height (mm above the sensors) of a magnet resting `level` pieces up a stack."""
        p = self._board.params
        return p.sensor_gap_mm + p.piece_pitch_mm * level

    def clearance(self) -> float:
        """How far (mm) a stack slid low clears what it passes over."""
        return float(self._rng.uniform(1.0, 3.0))

    def carry_h(self) -> float:
        """Carry height (mm above the sensors): `carry_height_mm`, always over the tallest stack."""
        p = self._board.params
        lo, hi = p.carry_height_mm
        tallest = max(len(s) for s in self._board.stacks) * p.piece_pitch_mm
        return p.sensor_gap_mm + max(float(self._rng.uniform(lo, hi)), tallest + 10.0)

    def travel(self, start: float, p0, to, low: bool = False) -> list[Segment]:
        """A straight move of the held stack from `p0` (where it is) to `to` (low: just clear
        of the stacks on the way), at a human speed."""
        if low:
            # Over the stacks in between, not through them.
            clear = self.rest_h(self.tallest_near(p0, to)) + self.clearance()
            mid = max(p0[2], to[2], clear)
            a, b = (p0[0], p0[1], mid), (to[0], to[1], mid)
            segs, t = [], start
            for q0, q1 in ((p0, a), (a, b), (b, to)):
                dist = math.dist(q0, q1)
                if dist > 0.5:
                    dt = max(0.08, dist / self.draw("carry_speed") * 2)
                    segs.append(Segment(t, t + dt, q0, q1))
                    t += dt
            return segs
        dist = math.dist(p0, to)
        if dist < 0.5:
            return []
        dt = max(self._board.params.timing.shortest_carry, dist / self.draw("carry_speed"))
        return [Segment(start, start + dt, p0, to)]

    def tallest_near(self, p0, p1) -> int:
        """Height of the tallest stack within 15 mm of the straight line p0-p1 (x, y)."""
        a, b = np.array(p0[:2]), np.array(p1[:2])
        ab = b - a
        L2 = float(ab @ ab)
        u = np.clip(((self._xy - a) @ ab) / L2, 0, 1) if L2 > 0 else np.zeros(N_SPACES)
        d = np.linalg.norm(self._xy - (a + u[:, None] * ab), axis=1)
        hs = [len(self._board.stacks[i]) for i in np.nonzero(d < 15.0)[0]]
        return max(hs, default=0)
