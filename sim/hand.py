"""A virtual hand moving pieces on the simulated board, with human timing.

Each call queues an action; actions run one after another on the board's clock and advance as
frames are read (nothing happens between frames). While the hand holds a stack, its magnets are
in the air and the sensors under its path feel them: a stack is lifted in a few hundred ms,
carried 30-60 mm above the board (over other sensors), and set down on top of whatever stands at
the destination. Durations are drawn from `Params.timing` (jittered by the board's seed).

Actions (spaces are indices or names like 'e3'):

    hand.lift(space, count=None)    lift the whole stack (or its top `count` pieces)
    hand.put(space)                 carry what the hand holds to `space` and set it down
    hand.remove(space)              lift a stack and drop it in the box beside the board
    hand.discard()                  drop what the hand holds in the box
    hand.stow()                     put what the hand holds back in the reserve
    hand.place(space, kind)         take a new piece ('W', 'B', 'D') from the reserve, set it down
    hand.knock(space)               knock a stack 8-15 mm off its space (it lies there, loose)
    hand.restore(space=None)        push a knocked stack back onto its space
    hand.slide(src, dst, via=())    move a stack low over the board, hovering over each `via`
    hand.wait(seconds)              do nothing for a while

`hand.idle()` says whether everything queued is done; `hand.holding` what is in the air and
`hand.where()` where. An action that cannot be done (lifting an
empty space...) raises `HandError` at once when the hand is idle; if it only turns out impossible
when its turn comes, it is skipped and noted in `hand.log`.

>>> from dvonn_sim.board import SimBoard
>>> board = SimBoard(seed=2)
>>> board.setup({"e3": "W", "f3": "B"})
>>> board.hand.lift("e3"); board.hand.put("f3")
>>> frame = board.run(3.0)
>>> board.stack("f3"), board.hand.idle()
(('B', 'W'), True)
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from firmware_py.i18n import _
from firmware_py.spaces import N_SPACES, SPACES, parse_space

from .physics import space_xy
from .pieces import Loose


class HandError(ValueError):
    """A hand action that cannot be done in the board's current state."""


@dataclass
class Segment:
    """The held stack's bottom magnet moves from p0 to p1 (x, y, h in mm) between t0 and t1."""

    t0: float
    t1: float
    p0: tuple[float, float, float]
    p1: tuple[float, float, float]
    ease: bool = False  # slow at both ends (lifting off, setting down)
    on_start: Callable[[], None] | None = None
    on_end: Callable[[], None] | None = None
    started: bool = False


@dataclass
class _Action:
    label: str
    check: Callable[[], str | None]
    plan: Callable[[float], list[Segment]]
    not_before: float


class Hand:
    """One hand over the board (see the module docstring). Created by `SimBoard` as `board.hand`."""

    def __init__(self, board, rng: np.random.Generator):
        self.board = board
        self.rng = rng
        self.held: list = []  # the pieces in the air, bottom up
        self.log: list[tuple[float, str]] = []  # (time, what happened), for tests and people
        self._xy = space_xy(board.params.space_pitch_mm)
        xs, ys = self._xy[:, 0], self._xy[:, 1]
        cx, cy = float(xs.mean()), float(ys.mean())
        high = board.params.sensor_gap_mm + 80.0
        # Off-board places: each player's reserve, the DVONN pieces' corner, the box.
        self.spots = {
            "W": (cx, float(ys.min()) - 90.0, high),
            "B": (cx, float(ys.max()) + 90.0, high),
            "D": (float(xs.min()) - 90.0, cy, high),
            "box": (float(xs.max()) + 100.0, cy, high),
        }
        self.pos: tuple[float, float, float] = self.spots["box"]
        self._queue: collections.deque[_Action] = collections.deque()
        self._segments: collections.deque[Segment] = collections.deque()
        self._free = 0.0

    # -- state ----------------------------------------------------------------------------------
    def idle(self) -> bool:
        """Nothing queued and nothing under way."""
        return not self._queue and not self._segments

    @property
    def holding(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.held)

    def where(self) -> tuple[float, float, float] | None:
        """Where the held stack is now (x, y mm on the board, h mm of its bottom magnet above
        the sensors), or None when the hand holds nothing."""
        if not self.held:
            return None
        x, y, h = self.position(np.array([self.board.now]))
        return float(x[0]), float(y[0]), float(h[0])

    def xy(self, space: int) -> tuple[float, float]:
        return float(self._xy[space, 0]), float(self._xy[space, 1])

    # -- actions --------------------------------------------------------------------------------
    def lift(self, space, count: int | None = None) -> None:
        """Lift the stack on `space` (all of it, or its top `count` pieces) to carry height."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand already holds a stack")
            st = self.board.stacks[s]
            if not st:
                return _("{space} is empty").format(space=SPACES[s])
            if count is not None and not 1 <= count <= len(st):
                return _("cannot lift {count} of the {height} pieces on {space}").format(
                    count=count, height=len(st), space=SPACES[s])
            return None

        def plan(start):
            st = self.board.stacks[s]
            n = len(st) if count is None else count
            x, y = self.xy(s)
            h0 = self._rest_h(len(st) - n)
            t1 = start + self._draw("lift")

            def take():
                self.held = self.board.take_up(s, n)

            return [Segment(start, t1, (x, y, h0), (x, y, self._carry_h()), True, take)]

        self._enqueue(_("lift {space}").format(space=SPACES[s]), check, plan)

    def put(self, space) -> None:
        """Carry the held stack to `space` and set it down there (on top of any stack)."""
        s = _space(space)

        def plan(start):
            x, y = self.xy(s)
            segs = self._travel(start, (x, y, max(self.pos[2], self._carry_h())))
            t = segs[-1].t1 if segs else start
            top = segs[-1].p1 if segs else self.pos
            rest = (x, y, self._rest_h(len(self.board.stacks[s])))
            chance = self.board.params.hover_chance
            if chance and self.board.stacks[s] and self.rng.uniform() < chance:
                # A person often stops just above the stack landed on before letting go.
                above = (x, y, rest[2] + self._draw("hover_mm"))
                t1 = t + self._draw("set_down")
                t2 = t1 + self._draw("hover")
                return segs + [Segment(t, t1, top, above, True), Segment(t1, t2, above, above),
                               Segment(t2, t2 + 0.06, above, rest, True, None,
                                       lambda: self._drop_on(s))]
            return segs + [Segment(t, t + self._draw("set_down"), top, rest, True, None,
                                   lambda: self._drop_on(s))]

        self._enqueue(_("put {space}").format(space=SPACES[s]), self._needs_held, plan)

    def remove(self, space, count: int | None = None) -> None:
        """Take the stack on `space` off the board (into the box)."""
        self.lift(space, count)
        self.discard()

    def discard(self) -> None:
        """Drop the held stack into the box beside the board: its pieces leave the game."""
        def plan(start):
            segs = self._travel(start, self.spots["box"])
            if not segs:
                segs = [Segment(start, start, self.pos, self.pos)]

            def drop():
                self.board.removed.extend(self.held)
                self.held = []

            segs[-1].on_end = drop
            return segs

        self._enqueue(_("discard"), self._needs_held, plan)

    def stow(self) -> None:
        """Put the held pieces back in the reserve (a piece placed by mistake)."""
        def plan(start):
            segs = self._travel(start, self.spots[self.held[0].kind])
            if not segs:
                segs = [Segment(start, start, self.pos, self.pos)]

            def back():
                self.board._return_to_reserve(self.held)
                self.held = []

            segs[-1].on_end = back
            return segs

        self._enqueue(_("stow"), self._needs_held, plan)

    def place(self, space, kind: str) -> None:
        """Take a new `kind` piece from the reserve (beside the board) and set it on `space`."""
        s = _space(space)
        if kind not in self.spots or kind == "box":
            raise HandError(f"no piece kind {kind!r} (W, B or D)")

        def check():
            if self.held:
                return _("the hand already holds a stack")
            if not self.board.available(kind):
                return _("no {kind} piece left in the reserve").format(kind=kind)
            return None

        def plan(start):
            spot = self.spots[kind]

            def take():
                self.held = [self.board.take_from_reserve(kind)]
                self.pos = spot

            return [Segment(start, start, spot, spot, False, take)]

        self._enqueue(_("take {kind}").format(kind=kind), check, plan)
        self.put(s)

    def knock(self, space, direction: float | None = None, distance_mm: float | None = None):
        """Knock the stack on `space` sideways along the surface (default 8-15 mm, any way)."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand holds a stack")
            if not self.board.stacks[s]:
                return _("{space} is empty").format(space=SPACES[s])
            return None

        def plan(start):
            x, y = self.xy(s)
            a = self.rng.uniform(0, 2 * math.pi) if direction is None else direction
            d = self.rng.uniform(8.0, 15.0) if distance_mm is None else distance_mm
            end = (x + d * math.cos(a), y + d * math.sin(a), self._rest_h(0))
            st = self.board.stacks[s]

            def take():
                self.held = self.board.take_up(s, len(st))

            def lie():
                self.board.loose.append(Loose(self.held, end[0], end[1], s))
                self.held = []

            return [Segment(start, start + self._draw("knock"), (x, y, self._rest_h(0)), end,
                            False, take, lie)]

        self._enqueue(_("knock {space}").format(space=SPACES[s]), check, plan)

    def restore(self, space=None) -> None:
        """Push a knocked stack (the one from `space`, or the first) back onto its space."""
        s = None if space is None else _space(space)

        def find():
            for lo in self.board.loose:
                if s is None or lo.home == s:
                    return lo
            return None

        def check():
            if self.held:
                return _("the hand holds a stack")
            if find() is None:
                return (_("no knocked stack") if s is None else
                        _("no knocked stack from {space}").format(space=SPACES[s]))
            return None

        def plan(start):
            lo = find()
            x, y = self.xy(lo.home)
            p0 = (lo.x, lo.y, self._rest_h(0))

            def take():
                self.board.loose.remove(lo)
                self.held = lo.pieces

            t1 = start + 3 * self._draw("knock") + 0.1
            return [Segment(start, t1, p0, (x, y, self._rest_h(len(self.board.stacks[lo.home]))),
                            True, take, lambda: self._drop_on(lo.home))]

        self._enqueue(_("restore"), check, plan)

    def slide(self, src, dst, via=(), count: int | None = None) -> None:
        """Move a stack from src to dst low over the board, hovering a moment just above each
        space in `via` (as a person sliding a stack across a space on the way)."""
        s, d = _space(src), _space(dst)
        vias = [_space(v) for v in via]
        self.lift_low(s, count)

        def plan(start):
            segs, t, cur = [], start, self.pos
            for v in vias:
                x, y = self.xy(v)
                hover = (x, y, self._rest_h(len(self.board.stacks[v])) + self._clearance())
                segs += self._travel(t, hover, low=True, start_pos=cur)
                t = segs[-1].t1 if segs else t
                segs.append(Segment(t, t + self._draw("dwell"), hover, hover))
                t, cur = segs[-1].t1, hover
            x, y = self.xy(d)
            above = (x, y, self._rest_h(len(self.board.stacks[d])) + self._clearance())
            segs += self._travel(t, above, low=True, start_pos=cur)
            t = segs[-1].t1 if segs else t
            segs.append(Segment(t, t + self._draw("set_down") / 2, above,
                                (x, y, self._rest_h(len(self.board.stacks[d]))), True, None,
                                lambda: self._drop_on(d)))
            return segs

        self._enqueue(_("slide to {space}").format(space=SPACES[d]), self._needs_held, plan)

    def lift_low(self, space, count: int | None = None) -> None:
        """Raise a stack (or its top `count` pieces) just clear of its neighbours (for slides)."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand already holds a stack")
            if not self.board.stacks[s]:
                return _("{space} is empty").format(space=SPACES[s])
            return None

        def plan(start):
            st = self.board.stacks[s]
            n = len(st) if count is None else max(1, min(count, len(st)))
            x, y = self.xy(s)
            h0 = self._rest_h(len(st) - n)

            def take():
                self.held = self.board.take_up(s, n)

            return [Segment(start, start + self._draw("lift") / 2, (x, y, h0),
                            (x, y, h0 + self._clearance()), True, take)]

        self._enqueue(_("lift {space} low").format(space=SPACES[s]), check, plan)

    def wait(self, seconds: float) -> None:
        """Do nothing (holding whatever is held) for `seconds`."""
        def plan(start):
            return [Segment(start, start + max(0.0, seconds), self.pos, self.pos)]

        self._enqueue(f"wait {seconds:.2f}", lambda: None, plan)

    def cancel(self) -> None:
        """Forget queued actions that have not started (what is under way finishes)."""
        self._queue.clear()

    def drop_plan(self) -> None:
        """Forget everything, including the action under way (for `SimBoard.reset`)."""
        self._queue.clear()
        self._segments.clear()
        self.pos = self.spots["box"]

    # -- the board's side -----------------------------------------------------------------------
    def advance_to(self, t: float) -> None:
        """Apply every pick-up and set-down due by time t (called by the board per frame batch)."""
        while True:
            if not self._segments:
                if not self._queue:
                    return
                action = self._queue[0]
                start = max(self._free, action.not_before)
                if start > t:
                    return
                self._queue.popleft()
                why = action.check()
                if why is not None:
                    self.log.append((start, _("skipped {action}: {why}").format(
                        action=action.label, why=why)))
                    continue
                self.log.append((start, action.label))
                self._segments.extend(action.plan(start))
                self._free = start
                continue
            seg = self._segments[0]
            if seg.t0 > t:
                return
            if not seg.started:
                seg.started = True
                if seg.on_start:
                    seg.on_start()
                    self.board.changed()
            if seg.t1 > t:
                return
            self._segments.popleft()
            self.pos = seg.p1
            self._free = seg.t1
            if seg.on_end:
                seg.on_end()
                self.board.changed()

    def next_change(self, t: float) -> float:
        """The next moment after t at which something is picked up, set down or starts."""
        if self._segments:
            seg = self._segments[0]
            return seg.t1 if seg.started else seg.t0
        if self._queue:
            return max(self._free, self._queue[0].not_before, t + 1e-6)
        return math.inf

    def position(self, times: np.ndarray):
        """x, y, h (arrays like times) of the held stack's bottom magnet."""
        times = np.asarray(times, dtype=float)
        if self._segments and self._segments[0].started:
            seg = self._segments[0]
            span = seg.t1 - seg.t0
            u = np.clip((times - seg.t0) / span, 0.0, 1.0) if span > 0 else np.ones_like(times)
            if seg.ease:
                u = u * u * (3 - 2 * u)
            return tuple(a + (b - a) * u for a, b in zip(seg.p0, seg.p1))
        return tuple(np.full(times.shape, c) for c in self.pos)

    # -- helpers --------------------------------------------------------------------------------
    def _enqueue(self, label, check, plan) -> None:
        if self.idle():
            why = check()
            if why is not None:
                raise HandError(_("cannot {action}: {why}").format(action=label, why=why))
        self._queue.append(_Action(label, check, plan, self.board.now))
        self.board.changed()

    def _needs_held(self) -> str | None:
        return None if self.held else _("the hand holds nothing")

    def _drop_on(self, space: int) -> None:
        self.board.land(space, self.held)
        self.held = []

    def _draw(self, what: str) -> float:
        lo, hi = getattr(self.board.params.timing, what)
        return float(self.rng.uniform(lo, hi))

    def _rest_h(self, level: int) -> float:
        p = self.board.params
        return p.sensor_gap_mm + p.piece_pitch_mm * level

    def _clearance(self) -> float:
        return float(self.rng.uniform(1.0, 3.0))

    def _carry_h(self) -> float:
        p = self.board.params
        lo, hi = p.carry_height_mm
        tallest = max(len(s) for s in self.board.stacks) * p.piece_pitch_mm
        return p.sensor_gap_mm + max(float(self.rng.uniform(lo, hi)), tallest + 10.0)

    def _travel(self, start: float, to, low: bool = False, start_pos=None) -> list[Segment]:
        """A straight move of the held stack from where it is to `to` (low: just clear of the
        stacks on the way), at a human speed."""
        p0 = start_pos or self.pos
        if low:
            # Over the stacks in between, not through them.
            clear = self._rest_h(self._tallest_near(p0, to)) + self._clearance()
            mid = max(p0[2], to[2], clear)
            a, b = (p0[0], p0[1], mid), (to[0], to[1], mid)
            segs, t = [], start
            for q0, q1 in ((p0, a), (a, b), (b, to)):
                dist = math.dist(q0, q1)
                if dist > 0.5:
                    dt = max(0.08, dist / self._draw("carry_speed") * 2)
                    segs.append(Segment(t, t + dt, q0, q1))
                    t += dt
            return segs
        dist = math.dist(p0, to)
        if dist < 0.5:
            return []
        dt = max(self.board.params.timing.shortest_carry, dist / self._draw("carry_speed"))
        return [Segment(start, start + dt, p0, to)]

    def _tallest_near(self, p0, p1) -> int:
        """Height of the tallest stack within 15 mm of the straight line p0-p1 (x, y)."""
        a, b = np.array(p0[:2]), np.array(p1[:2])
        ab = b - a
        L2 = float(ab @ ab)
        u = np.clip(((self._xy - a) @ ab) / L2, 0, 1) if L2 > 0 else np.zeros(N_SPACES)
        d = np.linalg.norm(self._xy - (a + u[:, None] * ab), axis=1)
        hs = [len(self.board.stacks[i]) for i in np.nonzero(d < 15.0)[0]]
        return max(hs, default=0)


def _space(space) -> int:
    if isinstance(space, str):
        return parse_space(space)
    if not (isinstance(space, (int, np.integer)) and 0 <= space < N_SPACES):
        raise HandError(f"no space {space!r} (0..{N_SPACES - 1} or a name like 'e3')")
    return int(space)
