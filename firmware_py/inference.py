"""Move inference: which position explains a settled snapshot, and is the evidence clear?

The candidates are whole board configurations reachable from the recorded position
(`candidates`: the position itself, every legal ply and one more, cut-off stacks on or off, a
stack in the hand or set down where it may not go, the last provisional move changed) and what
else their readings could mean (`alternatives`: a stack hovering, held, or knocked aside).
Occupancy (a stack's own field is 40-60 mT) decides which of them are possible at all: it sees
sources, placements and removals. Among those left, the analogue readings decide: each candidate
predicts how every sensor moved from the reference snapshot (`board_model`), and the candidate
whose prediction fits best wins if

- its fit is plausible (chi-square below `fit_limit`, given the noise and the model's own
  uncertainty), and
- every candidate that would mean something else fits worse by at least `margin` (chi-square
  units: 25 is a five-sigma difference).

Otherwise nothing is decided: the caller asks the player (`Decision.kind == 'ambiguous'`) or waits
(`'unexplained'`). This module never changes the game; the controller acts on its `Decision`.

Just after the board settles, a landing is also tried as its stack held 1-4 mm above the
destination. A hover that fits clearly better (by `hover_margin`) is a stack still in the hand;
otherwise the landing is decided at once, `provisional` when a hover fits about as well (on a
tall stack the field cannot tell them apart): the hand may yet move on, and the next snapshots
may amend it.
"""

from __future__ import annotations

import math

from .alternatives import Alternatives
from .board_model import BoardModel
from .calibration import NOMINAL_UNIT_MT
from .candidates import AMEND_NONE, Candidate, Decision, Reachable
from .faint_stacks import unsure_standing
from .rules import Board
from .spaces import N_SPACES

OCCUPIED_MT = 15.0  # a reading this far from its baseline is a stack (a bottom magnet is >= 40)
MIN_OCCUPIED_MT = 5.0
"""However weak a board's pieces read, a stack is never seen on less: ten times the cross-talk of
a piece on a neighbouring space (0.2-0.5 mT at 25-30 mm)."""
Z_LIMIT = 8.0
"""A ply that leaves one sensor this many standard deviations from what it says is looked at
again with positions left open (`second_look`) before anything is decided: however well the
rest fits, one space it cannot explain is where the pieces may sit otherwise."""
ADC_ERROR_CODES = 0.2
"""The ADC's own error between two readings that noise dithers (codes RMS): counted for the
direct scanner's fractional readings (`Inference.reading_step` < 1)."""


class Inference(Reachable, Alternatives):
    """Explains settled snapshots against the recorded game (see the module docstring)."""

    def __init__(self, model: BoardModel, margin: float = 25.0, fit_limit: float = 250.0,
                 drift_mt_per_min: float = 0.05, depth: int = 2, hold_s: float = 0.9,
                 hover_margin: float = 9.0):
        self.model = model
        self.hover_margin = hover_margin
        self.hold_s = hold_s
        self.margin = margin
        self.fit_limit = fit_limit
        self.drift_mt_per_min = drift_mt_per_min
        self.depth = depth
        # Sensors known to be faulty (dead, stuck): their readings are never evidence; the
        # occupancy of their spaces comes from the game, and their neighbours' cross-talk is
        # all that is left to see a change there (too faint to decide: the player is asked).
        self.unreliable: frozenset = frozenset()
        # The finest step of a reading (codes): 1 for whole codes (the serial scanner), 1/N
        # for the direct scanner's mean of N raw samples (set by the controller).
        self.reading_step = 1.0
        # Sensors whose reference may not be what they read at rest: a landing read while
        # its stack may still have been held just above it. sensor -> (low, high, variance,
        # wide variance): the reading may since have moved by anything from low to high
        # (codes), give or take the variance (codes²; the wide one when positions are left
        # open, `second_look`). Set by the caller until the board has been still long enough
        # for no hand to be hovering.
        self.loose: dict[int, tuple[float, float, float, float]] = {}
        # The spaces with a stack in the reference (set by it): how far (codes) from its
        # baseline each still reads that stack (`faint_stacks.standing_limits`).
        self.standing: dict[int, float] = {}
        # Per sensor, how far its drift may be off what its reference was moved on by (codes
        # per second, `Drift.unsure`; set by the reference): allowed for as the reference ages.
        self.drift_unsure: list[float] | None = None

    # -- occupancy ---------------------------------------------------------------------------
    def occupancy(self, values) -> frozenset:
        """The spaces whose (reliable) sensors read a stack."""
        cal = self.model.cal
        bad = self.unreliable  # a faulty sensor's space is never seen occupied
        return frozenset(s for s in range(N_SPACES)
                         if s not in bad and abs(values[s] - cal.baseline[s]) > self.limit(s))

    def limit(self, space: int) -> float:
        """How far (codes) from its baseline a reading on `space` is a stack: `OCCUPIED_MT`, or
        less on a board whose pieces have read weaker than the datasheet's (never more, nor less
        than `MIN_OCCUPIED_MT`). A 7 mm gap on a rough board reads a White or Black piece at
        14-26 mT: rough 10-bit seed 2, the first Black piece (h3) read -14.4 mT, was seen as
        nothing, and the next placement was recorded in its place (a wrong ply)."""
        standing = self.standing.get(space)
        if standing is not None:
            return standing
        cal = self.model.cal
        weak = min(1.0, cal.typical_unit() / (NOMINAL_UNIT_MT * cal.codes_per_mt))
        return max(OCCUPIED_MT * weak, MIN_OCCUPIED_MT) * cal.codes_per_mt

    def polarity_ok(self, space: int, kind: str, values, stacks) -> bool:
        """Whether the piece just placed on `space` reads like a `kind` piece: by polarity, and
        a DVONN piece against a White one (same polarity on the reference board) by strength,
        once this board's pieces have been learned (a saved calibration, an earlier game)."""
        cal = self.model.cal
        if space in self.unreliable:
            return True  # nothing to check the kind with (the placement is asked, not guessed)
        r = values[space] - cal.baseline[space] - self.model.crosstalk_at(space, stacks)
        if (r > 0) != (cal.polarity[kind] > 0):
            return False
        if kind != "D" or not cal.strength_learned():
            # The three DVONN pieces are placed first: none is left to mistake for them. And
            # before this board has shown what a piece reads, a weak DVONN piece is no evidence
            # of a wrong one: the datasheet's strength is not this board's (a 7 mm gap, or N35
            # magnets at 6 mm, read DVONN pieces at 20.7-24 mT against 57; issue 19: refused,
            # and confirm marked a healthy sensor faulty).
            return True
        # DVONN and White differ in strength only (57 against 44.7 mT at the datasheet gain):
        # less than magnets, sensors and placement spread together. So a piece is refused only
        # when no DVONN piece could read that weakly against what this board's pieces have
        # read (a White piece placed instead may pass: its place in the record is still right).
        return abs(r) >= self.model.weakest("D") * cal.typical_unit()

    def dithered(self, space: int) -> bool:
        """Whether noise dithers the rounding of `space`'s readings, so that averaging resolves
        steps finer than one: a whole-code reading's noise must reach half a code, as must each
        raw sample's (reading noise * sqrt(N)) in a mean of N samples. Else a reading sits on
        one code, off its true value by up to half a code, and steps by a whole one as it
        drifts."""
        return self.model.cal.noise[space] ** 2 > 0.25 * self.reading_step

    def changed(self, values, frames: int, ref, ref_frames: int) -> frozenset:
        """The spaces whose mean reading over `frames` differs from `ref` (over `ref_frames`)
        by more than noise and rounding can. (A reading that noise does not dither steps by a
        whole code as it drifts across a code's edge: such a step is no change of its own.)"""
        return frozenset(s for s in range(N_SPACES)
                         if abs(values[s] - ref[s]) > self.change_limit(s, frames, ref_frames))

    def change_limit(self, space: int, frames: int, ref_frames: int) -> float:
        """The most (codes) a mean reading of `space` over `frames` can differ from one over
        `ref_frames` with nothing changed there (`changed`)."""
        cal = self.model.cal
        scale = (1.0 / frames + 1.0 / ref_frames) ** 0.5
        least = 0.03 * cal.codes_per_mt
        return 3.0 * cal.noise[space] * scale + least + (0.0 if self.dithered(space) else 1.0)

    # -- scoring -----------------------------------------------------------------------------
    def misfits(self, cand: Candidate, values, frames: int, ref, ref_frames: int, ref_stacks,
                age_s: float, z_limit: float = 8.0) -> list[int]:
        """The spaces whose readings `cand` explains worst (|z| above `z_limit`), worst first:
        where to look when a position matches by occupancy but not by field (a knocked stack,
        a piece swapped for another)."""
        zs: list[tuple[float, int]] = []
        self.score([cand], values, frames, ref, ref_frames, ref_stacks, age_s, zs)
        return [s for z, s in sorted(zs, reverse=True) if z > z_limit]

    def score(self, cands: list[Candidate], values, frames: int, ref, ref_frames: int,
              ref_stacks, age_s: float, zs: list | None = None, memo: dict | None = None
              ) -> None:
        """Set each candidate's chi-square: how well its predicted change from `ref` (the
        settled readings of `ref_stacks`, `age_s` seconds old) fits `values`. With `zs` (one
        candidate), the |z| of every sensor is appended to it as (|z|, space)."""
        cal = self.model.cal
        floor = (0.02 * cal.codes_per_mt) ** 2 + (self.drift_mt_per_min * cal.codes_per_mt
                                                 * age_s / 60.0) ** 2
        # Rounding averages out only when noise dithers it (`dithered`); else the rounding may
        # bias every reading alike.
        step = self.reading_step
        # The ADC's own error (INL, DNL: up to a code on an MCP3008) that no averaging removes
        # leaves about ADC_ERROR_CODES between two dithered means: 0.04 mT on 10 bits, as much
        # as a landing on a tall stack. Whole 12-bit codes: a quarter of that, under `floor`.
        adc_error = ADC_ERROR_CODES ** 2 if step < 1 else 0.0
        loose = self.loose
        wide = 3 if self.model.open_positions else 2
        unsure = self.drift_unsure or [0.0] * N_SPACES

        def gap(r: float, s: int, free=None) -> float:
            """How far a change r lies outside what a hover ending (or a knocked stack lying
            near, `free`) could add on s."""
            lo = hi = 0.0
            if s in loose:
                lo, hi = loose[s][:2]
            if free and s in free:
                lo, hi = lo + free[s][0], hi + free[s][1]
            return r - lo if r < lo else (r - hi if r > hi else 0.0)

        r0 = [values[s] - ref[s] for s in range(N_SPACES)]
        v0 = []
        for s in range(N_SPACES):
            if s in self.unreliable:
                v0.append(1e12)  # a faulty sensor: its reading says nothing
                continue
            n2 = cal.noise[s] ** 2
            q = step * step / 12.0 if self.dithered(s) else 1.0 / 6.0 * (frames + ref_frames) / 2
            v0.append((n2 + q) * (1.0 / frames + 1.0 / ref_frames) + floor + adc_error
                      + (unsure[s] * age_s) ** 2 + (loose[s][wide] if s in loose else 0.0))
        chi0 = [gap(r0[s], s) ** 2 / v0[s] for s in range(N_SPACES)]
        total0 = sum(chi0)
        for c in cands:
            changes = {t: c.stacks[t] for t in range(N_SPACES) if c.stacks[t] != ref_stacks[t]}
            if not changes:
                c.chi2 = total0
                if zs is not None:
                    zs.extend((math.sqrt(chi0[s]), s) for s in range(N_SPACES))
                continue
            d, var = self.model.delta(changes, ref, ref_stacks, {} if memo is None else memo)
            if c.hover is not None:
                t, level, pieces, lift = c.hover
                fd, fv = self.model.floating(t, level, tuple(pieces), lift)
                for k, x in fd.items():
                    d[k] = d.get(k, 0.0) + x
                    var[k] = var.get(k, 0.0) + fv[k]
            free = c.free
            if free:
                for k in free:
                    d.setdefault(k, 0.0)
                    var.setdefault(k, 0.0)
            chi = total0
            for s, ds in d.items():
                r = gap(r0[s] - ds, s, free)
                chi += r * r / (v0[s] + var[s]) - chi0[s]
            c.chi2 = chi
            if zs is not None:
                zs.extend((abs(gap(r0[s] - d.get(s, 0.0), s, free))
                           / math.sqrt(v0[s] + var.get(s, 0.0)), s) for s in range(N_SPACES))

    @staticmethod
    def _changes_game(cand: Candidate) -> bool:
        # A stack in the hand after plies not yet recorded carries them too: they are recorded
        # once it is set down (or when a question about it is answered), so their landings are
        # held to the same evidence as a commit's.
        return cand.kind == "commit" or cand.amends or bool(cand.plies)

    def worst_z(self, cand: Candidate, values, frames, ref, ref_frames, ref_stacks, age_s,
                open_positions: bool = False) -> float:
        """The largest |z| of any sensor under `cand` (scored strictly, or with positions left
        open as in the second look)."""
        zs: list = []
        model = self.model
        model.open_positions = open_positions
        chi2 = cand.chi2  # (its score stays the one it was ranked by)
        try:
            self.score([cand], values, frames, ref, ref_frames, ref_stacks, age_s, zs)
        finally:
            model.open_positions = False
            cand.chi2 = chi2
        return max((z for z, _ in zs), default=0.0)

    def _leans_on_lying(self, cands: list[Candidate]) -> bool:
        """The best (`cands` sorted) is a stack knocked aside that fits only by what it may add
        lying near (the same stack plain in the hand fits worse by the margin): a landing on
        one of those neighbours may have nudged the stack below, an unknown its strict score
        does not allow. Then every candidate gets the second look's unknowns too."""
        best = cands[0]
        if not best.free:
            return False
        plain = [c.chi2 for c in cands if c.kind == best.kind and c.src == best.src
                 and c.plies == best.plies and c.amends == best.amends
                 and c.hover is None and not c.free]
        return bool(plain) and min(plain) - best.chi2 > self.margin

    def second_look(self, cands, values, frames, ref, ref_frames, ref_stacks, age_s):
        """Nothing fits: score every candidate again with what no board tells left open for
        the pieces each one moves (where they sit, how far a landing pushed the stack below:
        `BoardModel.open_positions`). Spaces a candidate leaves unchanged stay as strict, so
        the true landing, off only by such unknowns, can now fit and still beat every other
        meaning by the margin; nothing else changes."""
        model = self.model
        model.open_positions = True
        try:
            self.score(cands, values, frames, ref, ref_frames, ref_stacks, age_s, None, {})
        finally:
            model.open_positions = False
        return sorted(cands, key=lambda c: c.chi2)

    # -- decision ----------------------------------------------------------------------------
    def explain(self, board: Board, pending: dict, snapshot, ref, ref_frames: int, ref_stacks,
                age_s: float, amendable: int = AMEND_NONE) -> Decision:
        """Decide what `snapshot` (a settle.Snapshot) shows, given the recorded `board`, the
        cut-off stacks still `pending` ({space: stack}) and the reference readings `ref` of the
        physical stacks `ref_stacks`; `amendable`: the last move was provisional (`candidates`)."""
        values = snapshot.values
        occ = self.occupancy(values)
        d = self._explain(occ, board, pending, snapshot, ref, ref_frames, ref_stacks, age_s,
                          amendable)
        unsure = unsure_standing(self, values, occ) if d.kind == "unexplained" else ()
        if not unsure:
            return d
        # Nothing fits with the stacks read too faint to stand taken as gone: read them as
        # standing too. What that explains is never taken unasked (the occupancy was a guess).
        again = self._explain(occ | unsure, board, pending, snapshot, ref, ref_frames,
                              ref_stacks, age_s, amendable)
        if again.best is None or (d.best is not None and again.best.chi2 >= d.best.chi2):
            return d
        if again.kind == "commit" or (again.kind == "match"
                                      and (again.best.amends or again.best.plies)):
            return Decision("ambiguous", again.best, [again.best], again.candidates)
        return again

    def _explain(self, occ: frozenset, board: Board, pending: dict, snapshot, ref,
                 ref_frames: int, ref_stacks, age_s: float, amendable: int) -> Decision:
        """`explain` with the spaces holding a stack given (`occ`)."""
        values = snapshot.values
        moved = self.changed(values, snapshot.frames, ref, ref_frames)
        cands = self.candidates(board, pending, occ, values, moved, amendable)
        if not cands:
            expected = {s for s in range(N_SPACES) if board.height(s)} | set(pending)
            lost = sorted(expected - occ - self.unreliable)
            extra = sorted(occ - expected - self.unreliable)
            bad = []
            if board.phase == 2:
                movers = set(board.mobile_stacks())
                bad = [s for s in lost if s not in movers and s not in pending]
            return Decision("unexplained", lost=lost, extra=extra, illegal_lift=bad)
        memo: dict = {}
        self.score(cands, values, snapshot.frames, ref, ref_frames, ref_stacks, age_s, None, memo)
        cands.sort(key=lambda c: c.chi2)
        provisional = False
        if snapshot.time - snapshot.stable_since < self.hold_s:
            extra = self.hovers(cands, cands[0].chi2 + 2 * self.margin)
            if extra:
                self.score(extra, values, snapshot.frames, ref, ref_frames, ref_stacks, age_s,
                           None, memo)
                extra.sort(key=lambda c: c.chi2)
                if cands[0].kind == "commit":
                    # A move landed, or its stack is held just above: only a hover that fits
                    # clearly better holds the move back. Otherwise it is recorded now, and
                    # changed if the hand moves on (see `amends`).
                    if extra[0].chi2 <= cands[0].chi2 - self.hover_margin:
                        return Decision("lifted", extra[0], [extra[0]], cands + extra)
                    provisional = extra[0].chi2 < cands[0].chi2 + self.hover_margin
                else:
                    cands = sorted(cands + extra, key=lambda c: c.chi2)
        held = self.held_above(cands, cands[0].chi2 + 2 * self.margin)
        held += self.knocked(cands, cands[0].chi2 + 2 * self.margin)
        if held:
            self.score(held, values, snapshot.frames, ref, ref_frames, ref_stacks, age_s, None,
                       memo)
            cands = sorted(cands + held, key=lambda c: c.chi2)
        looked = cands[0].chi2 > self.fit_limit or self._leans_on_lying(cands)
        if looked:
            cands = self.second_look(cands, values, snapshot.frames, ref, ref_frames,
                                     ref_stacks, age_s)
        args = (values, snapshot.frames, ref, ref_frames, ref_stacks, age_s)
        if not looked and self._changes_game(cands[0]) and self.worst_z(cands[0], *args) > Z_LIMIT:
            cands = self.second_look(cands, *args)
            looked = True
        best = cands[0]
        landed = best.kind in ("commit", "illegal")
        close = [c for c in cands if c.chi2 - best.chi2 < (
            self.hover_margin if landed and c.hover is not None else self.margin)]
        if best.kind == "match" and not best.amends:
            # The recorded move fits best as it stands: changing it takes clearer evidence
            # than a rival within the margin (the hand has moved on: then it no longer fits).
            close = [c for c in close if not (c.amends and c.kind == "commit")]
        keys = {c.key for c in close}
        if best.chi2 > self.fit_limit:
            return Decision("unexplained", best, close, cands)
        if len(keys) > 1:
            seen, rivals = set(), []
            for c in close:
                if c.key not in seen:
                    seen.add(c.key)
                    rivals.append(c)
            return Decision("ambiguous", best, rivals, cands)
        return Decision(best.kind, best, [best], cands,
                        provisional=provisional and best.kind == "commit")
