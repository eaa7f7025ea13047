"""Forward model of the whole board: what every sensor should read for a given set of stacks.

A sensor reads its baseline, plus its own stack (each piece's magnet, weaker the higher it sits:
44.7 / 7.0 / 2.2 / 0.9 ... mT on the reference board), plus cross-talk from the stacks on nearby
spaces (a few tenths of a mT, opposite sign). The model is *calibrated*: the strength of the
bottom piece on each sensor and each neighbour's cross-talk are measured while the pieces are
placed (`calibration`); only the shape of the fall-off with height, relative to a bottom piece,
comes from the magnet geometry in `board_build.Geometry` (the exact field of a disc magnet).

The controller asks for *changes*: `delta(changes, ref, stacks)` predicts how each affected
sensor moves from a settled reference snapshot when some spaces change stacks, with a variance
for the model's own uncertainty. Changes are exact where the board told us (a space emptied
returns to its baseline) and relative elsewhere (a piece set on a stack adds a fraction of the
bottom piece's measured response).

>>> from firmware_py.calibration import Calibration
>>> m = BoardModel(Calibration.nominal())
>>> [round(m.axial("W", k), 3) for k in range(3)]      # relative to a bottom White piece
[1.0, 0.156, 0.048]
"""

from __future__ import annotations

import math

from .board_build import BoardSpec, Geometry, Magnet, Tolerances, disc_bz, xy
from .board_ranges import LEVELS, LandingFit, Ranges
from .calibration import NEAR, Calibration
from .spaces import N_SPACES

UNREAD_OFFSET_MT = 20.0  # how far a cheap Hall sensor (SS49E class) may sit off mid-scale
__all__ = ["BoardModel", "LandingFit", "LEVELS", "BoardSpec", "Geometry", "Magnet", "Tolerances",
           "disc_bz", "xy"]  # (the build's description is `board_build`'s, the ranges
                             # `board_ranges`')


class BoardModel(Ranges):
    """The board's forward model over a `Calibration` (see the module docstring)."""

    def __init__(self, cal: Calibration, geometry: Geometry | None = None,
                 rel_own: float = 0.05, rel_xt: float = 0.3,
                 tolerances: Tolerances | None = None):
        self.cal = cal
        self.geo = geometry or Geometry()
        self.tol = tol = tolerances or Tolerances()
        # Uncertainty of a piece's on-axis effect that is the model's own (the fall-off shape).
        self.rel_own = rel_own
        # Uncertainty of cross-talk changes: a piece 2.5 mm nearer a neighbour gives it a
        # third more (the field falls off about as the cube of the distance).
        self.rel_xt = rel_xt
        # Normally pieces set on a stack are predicted from the piece that taught the sensor;
        # `open_positions` also leaves open where they sit and how far a landing pushed the
        # stack below (the inference's second look, when nothing fits otherwise).
        self.open_positions = False
        self.landings = LandingFit()
        self._lying: dict | None = None  # ring -> (low, high) per level: `lying_range`
        self._position_spread(tol)
        self._version = -1
        self._xt: dict = {}
        self._xtk: dict = {}
        self._xt_stacks = None
        self._xt_at: dict = {}
        g = self.geo
        ref = disc_bz(g.magnets["W"], 0.0, g.sensor_gap_mm)
        self._axial = {k: [disc_bz(m, 0.0, g.sensor_gap_mm + g.piece_pitch_mm * lv) / ref
                           for lv in range(LEVELS)] for k, m in g.magnets.items()}
        # Cross-talk fall-off with height, relative to a bottom White piece at the same distance.
        self._dist: dict[tuple[int, int], float] = {}
        rhos = set()
        for s in range(N_SPACES):
            for t in NEAR[s]:
                (xs, ys), (xt, yt) = xy(s, g.space_pitch_mm), xy(t, g.space_pitch_mm)
                rho = round(math.hypot(xs - xt, ys - yt), 3)
                self._dist[(s, t)] = rho
                rhos.add(rho)
        self._lat: dict[tuple[str, float], list[float]] = {}
        self._lat_abs: dict[float, float] = {}
        for rho in sorted(rhos):
            base = disc_bz(g.magnets["W"], rho, g.sensor_gap_mm, n_phi=48, n_z=4)
            self._lat_abs[rho] = base / ref
            for k, m in g.magnets.items():
                self._lat[(k, rho)] = [
                    disc_bz(m, rho, g.sensor_gap_mm + g.piece_pitch_mm * lv, n_phi=48, n_z=4)
                    / base for lv in range(LEVELS)]

    # -- relative physics --------------------------------------------------------------------
    def axial(self, kind: str, level: int) -> float:
        """On-axis effect of a `kind` piece at `level` (0 = bottom) relative to a bottom White."""
        if level >= LEVELS:
            return 0.0  # too high to read, as in `stack_crosstalk` (a legal stack may be taller)
        if kind == "D":  # the DVONN strength is learned; the fall-off shape comes from geometry
            learned = self.cal.dvonn_factor() / self._axial["D"][0]
            return self._axial["D"][level] * learned
        return self._axial[kind][level]

    def nominal_axial(self, kind: str, level: int = 0) -> float:
        """axial() from the magnet geometry alone (nothing learned)."""
        return self._axial[kind][level]

    def lateral(self, kind: str, level: int, sensor: int, space: int) -> float:
        """Cross-talk of a `kind` piece at `level` on `space`, relative to a bottom White there."""
        return self._lat[(kind, self._dist[(sensor, space)])][level]

    def crosstalk(self, sensor: int, space: int) -> float:
        """Codes at `sensor` per bottom White piece on `space` (learned, else from geometry)."""
        self._check_version()
        v = self._xt.get((sensor, space))
        if v is None:
            v = self._xt[(sensor, space)] = self._crosstalk(sensor, space)
        return v

    def _check_version(self) -> None:
        if self._version != self.cal.version:  # the calibration learned something
            self._version = self.cal.version
            self._xt = {}
            self._xtk = {}
            self._xt_stacks = None

    def _crosstalk(self, sensor: int, space: int) -> float:
        v = self.cal.crosstalk.get((sensor, space))
        if v is not None:  # measured with the bottom piece placed there
            return v / self.lateral(self.cal.kind[space] or "W", 0, sensor, space)
        return self.cal.unit(sensor) * self._lat_abs[self._dist[(sensor, space)]]

    # -- prediction --------------------------------------------------------------------------
    def piece_own(self, space: int, kind: str, level: int) -> float:
        """Codes a `kind` piece at `level` adds to the sensor under `space` (level >= 1)."""
        return self.cal.polarity[kind] * self.cal.unit(space) * self.axial(kind, level)

    def stack_crosstalk(self, sensor: int, space: int, stack, start: int = 0) -> float:
        """Codes at `sensor` from the pieces stack[start:] resting on `space`."""
        self._check_version()
        per = self._xtk.get((sensor, space))
        if per is None:
            x = self.crosstalk(sensor, space)
            pol = self.cal.polarity
            rho = self._dist[(sensor, space)]
            per = self._xtk[(sensor, space)] = {
                k: [pol[k] * x * v for v in self._lat[(k, rho)]] for k in self.geo.magnets}
        total = 0.0
        for level in range(start, min(len(stack), LEVELS)):
            total += per[stack[level]][level]
        return total

    def crosstalk_at(self, sensor: int, stacks) -> float:
        """Total cross-talk at `sensor` from every stack within two steps (cached for the last
        list of stacks asked about: the reference position, asked about again and again)."""
        self._check_version()
        if stacks is not self._xt_stacks:
            self._xt_stacks = stacks
            self._xt_at = {}
        v = self._xt_at.get(sensor)
        if v is None:
            v = self._xt_at[sensor] = sum(self.stack_crosstalk(sensor, t, stacks[t])
                                          for t in NEAR[sensor] if stacks[t])
        return v

    def delta(self, changes: dict, ref, stacks, memo: dict | None = None
              ) -> tuple[dict[int, float], dict[int, float]]:
        """Predicted change of each affected sensor, and its model variance (codes, codes²).

        changes: {space: new stack} for the spaces whose stack changes: () (emptied: lifted or
            removed), the old stack with pieces added on top (a move's landing), or anything
            else (a takeback: pieces taken off the top, a stack rebuilt).
        ref: the settled readings of the reference position `stacks` (49 stacks).
        memo: a dict kept across calls with the same `ref` and `stacks` (candidates share most
            of their changes: the same source emptied, the same stacks cut off).
        """
        if len(changes) == 1 and memo is None:
            (t, new), = changes.items()
            d, var = self._change(t, new, ref, stacks)
            return dict(d), dict(var)
        d: dict[int, float] = {}
        var: dict[int, float] = {}
        for t, new in changes.items():
            key = (t, new)
            part = memo.get(key) if memo is not None else None
            if part is None:
                part = self._change(t, new, ref, stacks)
                if memo is not None:
                    memo[key] = part
            pd, pv = part
            for s, x in pd.items():
                d[s] = d.get(s, 0.0) + x
            for s, x in pv.items():
                var[s] = var.get(s, 0.0) + x
        return d, var

    def _change(self, t: int, new, ref, stacks) -> tuple[dict[int, float], dict[int, float]]:
        """delta() of one space's change."""
        d: dict[int, float] = {}
        var: dict[int, float] = {}
        rel_own, rel_xt = self.rel_own, self.rel_xt
        base = self.cal.baseline
        old = stacks[t]
        if not new:  # emptied: the sensor returns to its baseline plus cross-talk
            xt_old = self.crosstalk_at(t, stacks)
            d[t] = d.get(t, 0.0) + (base[t] + xt_old - ref[t])
            # The sensor's gain may have moved while the stack stood on it: the baseline
            # followed what the stack read, not only the offset.
            gone = (ref[t] - base[t] - xt_old) * self.tol.gain_drift
            var[t] = var.get(t, 0.0) + (rel_xt * xt_old) ** 2 + self._base_var(t) + gone ** 2
            for s in NEAR[t]:
                x = -self.stack_crosstalk(s, t, old)
                d[s] = d.get(s, 0.0) + x
                var[s] = var.get(s, 0.0) + (rel_xt * x) ** 2
        else:  # pieces added on top (a landing, a placement), taken off, or a stack rebuilt
            keep = 0  # the bottom pieces that stay
            while keep < min(len(old), len(new)) and old[keep] == new[keep]:
                keep += 1
            own, v = 0.0, 0.0
            if keep == 0 and old:  # a new bottom piece: its strength is known only roughly
                xt_old = self.crosstalk_at(t, stacks)
                own += base[t] + xt_old - ref[t]
                v += (rel_xt * xt_old) ** 2 + self._base_var(t)
                x = self.cal.polarity[new[0]] * self.cal.typical_unit() * self.axial(new[0], 0)
                own += x
                v += (self.own_spread(0) * x) ** 2
                start_new = 1
            else:
                for level in range(keep, len(old)):
                    x = self.piece_own(t, old[level], level)
                    own -= x
                    v += (rel_own * x) ** 2
                start_new = keep
                if self.open_positions and keep and len(new) > keep:
                    # A landing may push the stack below sideways: its pieces read more or
                    # less, by up to the field's steepest slope times the push.
                    push = self.nudge_span(t, old[:keep])
                    v += push * push / 3.0
            if keep and len(new) > keep:
                # A landing nudges the stack below and sits off it: how far this board's
                # landings have read from the model so far (`LandingFit`), per bottom piece.
                v += (self.landings.rel() * self.cal.unit(t)) ** 2
            for level in range(start_new, len(new)):
                x = self.piece_own(t, new[level], level)
                own += x
                # A new bottom piece: against the sensor's typical response, so its magnet, the
                # sensor's gain and where it sits are all unknown. Pieces set on a stack are
                # predicted from the bottom piece that taught this sensor: the model's own.
                spread = self.own_spread(level) if (self.open_positions or not level) else 0.0
                v += ((rel_own + spread) * x) ** 2
            d[t] = d.get(t, 0.0) + own
            var[t] = var.get(t, 0.0) + v
            for s in NEAR[t]:
                x = (self.stack_crosstalk(s, t, new, keep)
                     - self.stack_crosstalk(s, t, old, keep))
                d[s] = d.get(s, 0.0) + x
                var[s] = var.get(s, 0.0) + (rel_xt * x) ** 2
        return d, var

    def floating(self, t: int, level: int, pieces, lift_mm: float):
        """Change and variance from `pieces` held `lift_mm` above the stack of height `level` on
        `t` (a hand hovering a stack just above a space it might land on)."""
        g = self.geo
        pol = self.cal.polarity
        unit = self.cal.unit(t)
        d: dict[int, float] = {}
        var: dict[int, float] = {}
        own = v = 0.0
        ref = disc_bz(g.magnets["W"], 0.0, g.sensor_gap_mm)
        for k, kind in enumerate(pieces):
            lv = level + k
            h = g.sensor_gap_mm + g.piece_pitch_mm * lv + lift_mm
            x = pol[kind] * unit * disc_bz(g.magnets[kind], 0.0, h) / ref
            if kind == "D":
                x *= self.axial("D", 0) / self._axial["D"][0]
            own += x
            v += (self.rel_own * x) ** 2
        d[t], var[t] = own, v
        frac = lift_mm / g.piece_pitch_mm
        for s in NEAR[t]:
            xs = self.crosstalk(s, t)
            total = 0.0
            for k, kind in enumerate(pieces):
                lat = self._lat[(kind, self._dist[(s, t)])]
                lv = level + k
                a = lat[min(lv, LEVELS - 1)]
                b = lat[min(lv + 1, LEVELS - 1)]
                total += pol[kind] * xs * (a + (b - a) * frac)
            d[s] = total
            var[s] = (self.rel_xt * total) ** 2
        return d, var

    def _base_var(self, t: int) -> float:
        if t in self.cal.unread:  # never read empty: a cheap sensor's offset, +-20 mT
            return (UNREAD_OFFSET_MT * self.cal.codes_per_mt) ** 2
        if self.cal.baseline_known:
            return (0.05 * self.cal.codes_per_mt) ** 2
        return (3.0 * self.cal.codes_per_mt) ** 2  # unknown offset: +-3 mT spread

    def absolute(self, stacks) -> list[float]:
        """What every sensor should read with `stacks` on the board (bottom pieces from their
        learned responses): for checking a whole position, e.g. when resuming a game."""
        out = []
        for s in range(N_SPACES):
            st = stacks[s]
            v = self.cal.baseline[s] + self.crosstalk_at(s, stacks)
            if st:
                r = self.cal.response[s]
                v += r if r is not None else self.piece_own(s, st[0], 0)
                for level in range(1, len(st)):
                    v += self.piece_own(s, st[level], level)
            out.append(v)
        return out
