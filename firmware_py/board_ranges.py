"""What no board tells its software, as ranges the forward model (`board_model`) allows for: how
much not knowing where pieces sit can change a reading (`Ranges`: a new piece against the
typical one, a stack set back, nudged by a landing, or knocked aside and lying by a neighbour,
the weakest a DVONN piece can read), and how far this board's landings on stacks have read
from the model so far (`LandingFit`).

>>> fit = LandingFit()
>>> fit.rel()
0.0
"""

from __future__ import annotations

import math

from .board_build import Tolerances, disc_bz

LEVELS = 16  # the pieces of a stack a sensor reads (higher ones add nothing: `BoardModel.axial`)


class LandingFit:
    """How much worse this board's landings on stacks fit the model than the model expects: a
    landing nudges the stack below and sits off it by amounts no board tells. On a carefully
    built board a landing's own reading stays within about `EXPECTED` of its prediction
    (relative to the bottom piece's response), which the model's own spread covers; on a rough
    one a nudge alone moves a bottom piece's reading by several mT. `rel()` is the RMS excess
    over `EXPECTED`, learned from every landing the game explains once the board is still
    (`Reference`): none until landings show it.

    >>> fit = LandingFit()
    >>> fit.rel()
    0.0
    >>> for _ in range(20): fit.learn(0.1)
    >>> round(fit.rel(), 2)
    0.1
    """

    EXPECTED = 0.015  # relative RMS of a careful board's landings (the model covers it)
    CAP = 0.25        # a residual beyond this is something else (a knocked stack), not a nudge

    def __init__(self):
        self.mean_square = self.EXPECTED ** 2
        self.count = 0

    def learn(self, rel: float) -> None:
        """One landing's residual at its space, relative to the bottom piece's response."""
        rel = min(abs(rel), self.CAP)
        self.count += 1
        w = max(1.0 / (self.count + 2), 0.1)  # the prior counts as two landings
        self.mean_square += w * (rel * rel - self.mean_square)

    def rel(self) -> float:
        return max(self.mean_square - self.EXPECTED ** 2, 0.0) ** 0.5


class Ranges:
    """The ranges' half of `board_model.BoardModel` (a mixin: it needs the model's `geo`,
    `tol`, `cal`, `piece_own`, `axial` and `nominal_axial`)."""

    def _position_spread(self, tol: Tolerances) -> None:
        """From the magnet geometry, how much not knowing where pieces sit can change a
        reading: `_own_rel[level]`, the RMS relative error of a piece's predicted effect at
        `level` (0: a new bottom piece against the typical one; above: against the bottom
        piece that taught the sensor)."""
        g = self.geo
        m = g.magnets["W"]
        ref = disc_bz(m, 0.0, g.sensor_gap_mm)

        def low(level: int) -> float:
            """The weakest a piece at `level` reads, anywhere it may sit (relative)."""
            h = g.sensor_gap_mm + g.piece_pitch_mm * level
            reach = min(tol.placement_mm + tol.misalign_mm * level, m.diameter_mm)
            return disc_bz(m, reach, h, n_phi=48, n_z=4) / disc_bz(m, 0.0, h)

        self._low = [low(level) for level in range(LEVELS)]
        # A new piece's magnet may also sit off the centre of the piece (a learned response
        # includes that): for the weakest a piece not yet learned can read.
        reach = min(tol.placement_mm + tol.magnet_offset_mm, m.diameter_mm)
        self._low_magnet = (disc_bz(m, reach, g.sensor_gap_mm, n_phi=48, n_z=4)
                             / disc_bz(m, 0.0, g.sensor_gap_mm))
        # The steepest change of a piece's field per mm it is pushed sideways (relative to a
        # centred bottom piece), anywhere its magnet may sit (the piece set off its space, the
        # magnet off the piece's centre): what a nudge can do to a stack below. The field falls
        # steepest under the magnet's rim (3 mm off a 6 mm disc 5 mm below), not at the
        # farthest (rough 12-bit seed 34: a DVONN piece's magnet 2.5 mm off, pushed 0.8 mm,
        # read 6.9 mT less).
        self._slope = []
        for level in range(LEVELS):
            h = g.sensor_gap_mm + g.piece_pitch_mm * level
            reach = min(tol.placement_mm + tol.misalign_mm * level + tol.magnet_offset_mm,
                        m.diameter_mm)
            field = [disc_bz(m, 0.25 * k, h, n_phi=48, n_z=4)
                     for k in range(int(reach / 0.25) + 3)]
            self._slope.append(max(abs(field[k] - field[k + 4]) / ref
                                   for k in range(len(field) - 4)))
        # A factor anywhere in [low, 1], against a prediction of 1: its RMS error.
        spread = [(1 - low(level)) * (1 / 4 + 1 / 12) ** 0.5 for level in range(LEVELS)]
        strengths = tol.strength * (2 / 3) ** 0.5  # two pieces' strengths, each +- strength
        self._own_rel = [math.sqrt(strengths ** 2 + spread[0] ** 2 + (tol.gain / 3 ** 0.5) ** 2)]
        self._own_rel += [math.sqrt(strengths ** 2 + spread[lv] ** 2 + spread[0] ** 2)
                          for lv in range(1, LEVELS)]

    def weakest(self, kind: str) -> float:
        """The weakest a bottom `kind` piece can read, relative to a typical bottom White one:
        a weak magnet on a low-gain sensor, off the centre of its piece, set down as far
        off-centre as people do."""
        tol = self.tol
        return (self.nominal_axial(kind) * (1 - tol.strength) * (1 - tol.gain)
                * self._low_magnet)

    def reseat_range(self) -> tuple[float, float]:
        """A stack set back on its own space, anywhere people set pieces down: the factor by
        which its own reading may change, (low, high), from the bounds of where its magnet may
        sit (off-centre as far as `Tolerances.placement_mm`, and the piece set back turned:
        its magnet up to `magnet_offset_mm` off the piece's centre anew; against exactly
        centred)."""
        low = self._low_magnet
        return low - 1.0, 1.0 / low - 1.0

    def reseat_bounds(self, space: int, stack) -> tuple[float, float]:
        """A stack set back on `space` (its own sensor, codes from the baseline): the lowest
        and highest its pieces can read anywhere people set them down, each piece on its own
        (a stack set back is misaligned anew). The bottom piece is held against its learned
        response, itself read wherever that piece sat then; so it may read from `low` to
        1 / `low` of it. Without a learned response: (0, 0), nothing known."""
        cal = self.cal
        resp = cal.response[space]
        if resp is None or not stack or cal.kind[space] != stack[0]:
            return 0.0, 0.0
        low = self._low
        ends = sorted((resp * low[0], resp / low[0]))
        lo, hi = ends
        for level in range(1, min(len(stack), LEVELS)):
            x = self.piece_own(space, stack[level], level)
            a, b = sorted((x * low[level], x))
            lo, hi = lo + a, hi + b
        return lo, hi

    def lying_range(self, stack, ring: int = 1) -> tuple[float, float]:
        """A stack knocked off its space, lying on the board 8-15 mm away: the least and most
        (codes) it adds to the reading of a space `ring` steps from its own (1: a neighbour,
        10-17 mm from it on the side it went; 2: one two steps away, 28-65 mm, where its
        return field is still a tenth of a mT or two, as much as the cross-talk the
        candidates are told apart by). Its bottom magnet gives a return field there (against
        its polarity), the pieces above it a field with it: both are left open, piece by
        piece."""
        if self._lying is None:
            g = self.geo
            ref = disc_bz(g.magnets["W"], 0.0, g.sensor_gap_mm)
            self._lying = {}
            for r, rhos in ((1, (10.0, 11.0, 12.0, 13.5, 15.0, 17.0)),
                            (2, (28.0, 33.0, 40.0, 50.0, 65.0))):
                self._lying[r] = []
                for level in range(LEVELS):
                    h = g.sensor_gap_mm + g.piece_pitch_mm * level
                    vals = [disc_bz(g.magnets["W"], rho, h, n_phi=48, n_z=4) / ref
                            for rho in rhos]
                    self._lying[r].append((min(vals), max(vals)))
        unit = self.cal.typical_unit()
        lo = hi = 0.0
        for level, kind in enumerate(stack[:LEVELS]):
            a, b = (self.cal.polarity[kind] * unit * x for x in self._lying[ring][level])
            lo, hi = lo + min(a, b), hi + max(a, b)
        return lo, hi

    def nudge_span(self, space: int, stack) -> float:
        """The most (codes) `stack` (its pieces, bottom first) on `space` can read differently
        after a landing pushed it sideways by up to `Tolerances.nudge_mm`: each piece by its
        own strength (a DVONN piece reads stronger than the White or Black unit)."""
        return self.cal.unit(space) * self.tol.nudge_mm * sum(
            self._slope[min(lv, LEVELS - 1)] * self.axial(kind, 0)
            for lv, kind in enumerate(stack))

    def pushed_span(self, space: int, stack) -> float:
        """The most (codes) `stack` on `space` can read differently after a stack set down on
        it where it may not go was taken off again: as a landing's push (`nudge_span`), or
        as far as this board's landings have shown a stack below to move (`LandingFit`: three
        times their RMS, per bottom piece), when that is more. (nudge_mm 2 on a rough 10-bit
        board, seed 1: i4 read 18 mT off once j2, set on it by mistake, was taken off and set
        on i2; the board went on reading j2 set down on i4, an error no one could put right,
        asked "did you play j2j3?", and stalled.)"""
        return max(self.nudge_span(space, stack), 3.0 * self.landings.rel() * self.cal.unit(space))

    def own_spread(self, level: int) -> float:
        """RMS relative error of a piece's predicted effect at `level` (see `_position_spread`)."""
        return self._own_rel[min(level, LEVELS - 1)]
