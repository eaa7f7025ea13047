"""Move inference: which position explains a settled snapshot, and is the evidence clear?

The candidates are whole board configurations reachable from the recorded position: the
position itself, every legal ply from it and one more ply (so a fast reply is not lost), each
with its cut-off stacks still on the board or already taken off (as the board reads them), a
stack held in the hand after any of these, and a stack set down on a space it may not go to.
While the last move is provisional (see `explain`), also its stack lifted off again: in the
hand, back on its source, or on another destination (`Candidate.amends`).
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
from dataclasses import dataclass, field

from .board_model import BoardModel
from .rules import N_PLACEMENTS, PASS, Board, Ply
from .spaces import N_SPACES, NEIGHBOURS

OCCUPIED_MT = 15.0  # a reading this far from its baseline is a stack (a bottom magnet is >= 40)
HOVER_MM = (1.0, 2.0, 3.0, 4.0)
"""Heights above a stack at which a held stack is tried as hovering (closer counts as touching)."""
KNOCKED_RETURN = 0.03
"""A stack lying on the board 8-20 mm from a sensor: its return field there, relative to its
bottom piece's own reading (a 6x2 mm disc at 5 mm: -1.0 of 44.7 mT at 12 mm), with room."""
Z_LIMIT = 8.0
"""A ply that leaves one sensor this many standard deviations from what it says is looked at
again with positions left open (`second_look`) before anything is decided: however well the
rest fits, one space it cannot explain is where the pieces may sit otherwise."""
CARRY_LEVELS = (5, 7, 10)
"""Heights, in pieces, at which a lifted stack is tried as held above its source (30-60 mm)."""
ADC_ERROR_CODES = 0.2
"""The ADC's own error between two readings that noise dithers (codes RMS): counted for the
direct scanner's fractional readings (`Inference.reading_step` < 1)."""


@dataclass
class Candidate:
    """One way the board could be now.

    kind: 'match' (the recorded position, perhaps with some cut-off stacks taken off), 'commit'
    (plies were made), 'lifted' (after `plies`, the stack from `src` is in the hand), 'relift'
    (the stack the last ply landed on is in the hand again), 'badlift' (after `plies`, a stack
    that may not move is in the hand), 'illegal' (after `plies`, the stack from `src` was set
    down on `dst`, where it may not go).
    board: the rules position after `plies`; stacks: what stands on each space physically;
    pending: spaces whose cut-off stacks are still on the board.
    amends: `plies` start from the position before the last recorded move, not after it: the
    stack it moved was lifted off its destination again (a hand that had only paused above
    it) and is in the hand ('lifted'), back on its source ('match') or on another
    destination ('commit').
    """

    kind: str
    plies: tuple[Ply, ...]
    board: Board
    stacks: list
    pending: frozenset
    src: int | None = None
    dst: int | None = None
    chi2: float = math.inf
    hover: tuple | None = None  # (space, level, pieces, lift_mm): held just above a stack
    amends: bool = False
    # Readings left open by where a stack knocked off its space lies: sensor -> (low, high)
    # codes its field may add there (`Inference.knocked`).
    free: dict | None = None

    @property
    def key(self) -> tuple:
        """What the candidate means: candidates with equal keys are the same decision."""
        moves = tuple(p for p in self.plies if not p.is_pass)
        return (self.kind, moves, self.src, self.dst, self.amends)

    @property
    def last_dst(self) -> int | None:
        moves = [p for p in self.plies if not p.is_pass]
        if self.kind == "illegal":
            return self.dst
        return moves[-1].dst if moves else None


@dataclass
class Decision:
    """The result of `Inference.explain`.

    kind: 'match' | 'commit' | 'lifted' | 'relift' | 'badlift' | 'illegal' (the best
    candidate's kind, decided) or
    'ambiguous' (several candidates fit about as well: `rivals` holds them, best first) or
    'unexplained' (nothing fits: `lost` / `extra` are the occupancy differences from the
    recorded position; `illegal_lift` a space lifted that may not move).
    provisional: a landing decided while a stack held just above it would fit about as well
    (the hand may still move on: the caller lets the next snapshots amend it).
    """

    kind: str
    best: Candidate | None = None
    rivals: list[Candidate] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    illegal_lift: list[int] = field(default_factory=list)
    provisional: bool = False


class Inference:
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

    # -- occupancy ---------------------------------------------------------------------------
    def occupancy(self, values) -> frozenset:
        """The spaces whose (reliable) sensors read a stack."""
        cal = self.model.cal
        limit = OCCUPIED_MT * cal.codes_per_mt
        bad = self.unreliable  # a faulty sensor's space is never seen occupied
        return frozenset(s for s in range(N_SPACES)
                         if s not in bad and abs(values[s] - cal.baseline[s]) > limit)

    def polarity_ok(self, space: int, kind: str, values, stacks) -> bool:
        """Whether the piece just placed on `space` reads like a `kind` piece: by polarity, and
        a DVONN piece against a White one (same polarity on the reference board) by strength."""
        cal = self.model.cal
        if space in self.unreliable:
            return True  # nothing to check the kind with (the placement is asked, not guessed)
        r = values[space] - cal.baseline[space] - self.model.crosstalk_at(space, stacks)
        if (r > 0) != (cal.polarity[kind] > 0):
            return False
        if kind != "D":
            return True  # the three DVONN pieces are placed first: none is left to mistake
        # DVONN and White differ in strength only (57 against 44.7 mT at the datasheet gain):
        # less than magnets, sensors and placement spread together before anything is learned.
        # So a piece is refused only when no DVONN piece on any board could read that weakly
        # (a White piece placed instead may pass: its place in the record is still right).
        return abs(r) >= self.model.weakest("D") * cal.typical_unit()

    # -- candidates --------------------------------------------------------------------------
    def candidates(self, board: Board, pending: dict, occ: frozenset, values,
                   moved: frozenset | None = None, amendable: bool = False
                   ) -> list[Candidate]:
        """Every configuration reachable from `board` (with the cut-off stacks `pending`
        {space: stack} still standing) whose occupancy equals `occ`. Illegal set-downs are
        tried only on the spaces in `moved` (those whose reading changed: default all).
        amendable: the last move was recorded while its stack could still have been held just
        above its destination: add the candidates that change it (`Candidate.amends`)."""
        expected = {s for s in range(N_SPACES) if board.height(s)} | set(pending)
        bad = self.unreliable
        occ = frozenset(occ - bad)  # a faulty sensor's space: anything the game allows there
        gone = (expected - occ - bad) | (expected & bad)  # sources, removals, lifted stacks
        new = (occ - expected) | (bad - expected)  # placements (or stacks set on empty spaces)
        out: list[Candidate] = []

        def physical(bd: Board, pend: dict, drop: frozenset) -> list:
            stacks = bd.stacks()
            for r, st in pend.items():
                if r in occ or (r in bad and r not in drop):
                    stacks[r] = st
            return stacks

        def occ_of(stacks) -> frozenset:
            return frozenset(s for s in range(N_SPACES) if stacks[s] and s not in bad)

        def here(bd: Board, plies: tuple, pend: dict, node: bool, drop: frozenset) -> None:
            stacks = physical(bd, pend, drop)
            kept = frozenset(r for r in pend if r in occ or (r in bad and r not in drop))
            if node and occ_of(stacks) == occ:
                out.append(Candidate("commit" if plies else "match", plies, bd, stacks, kept))
            moves = [p for p in plies if not p.is_pass]
            # (A lift from a faulty sensor's space cannot be seen: never a candidate of its own.)
            if moves and moves[-1].is_move and moves[-1].dst in gone - bad:
                # The stack just landed on lifted again (to adjust it, or to answer a question):
                # the landing itself is hidden in the hand, so this never decides anything.
                held = list(stacks)
                held[moves[-1].dst] = ()
                if occ_of(held) == occ:
                    out.append(Candidate("relift", plies, bd, held, kept, src=moves[-1].dst))
            movers = ([s for s in bd.mobile_stacks() if s in gone and s not in bad]
                      if bd.phase == 2 else [])
            relifted = moves[-1].dst if moves and moves[-1].is_move else None
            passing = bd.phase == 2 and bd.legal_plies() == [PASS]  # the other one moves next
            for s in () if passing else gone - bad:  # a stack that may not move, lifted
                if stacks[s] and s not in movers and s != relifted and s not in pend:
                    held = list(stacks)
                    held[s] = ()
                    if occ_of(held) == occ:
                        out.append(Candidate("badlift", plies, bd, held, kept, src=s))
            for s in movers:  # the stack from s in the hand, or set down where it may not go
                held = list(stacks)
                held[s] = ()
                if occ_of(held) == occ:
                    out.append(Candidate("lifted", plies, bd, held, kept, src=s))
                    if not plies:
                        legal = set(bd.destinations(s))
                        for d in range(N_SPACES):
                            if held[d] and d not in legal and (moved is None or d in moved):
                                put = list(held)
                                put[d] = held[d] + stacks[s]
                                out.append(Candidate("illegal", plies, bd, put, kept, s, d))

        def visit(bd: Board, plies: tuple, pend: dict, node: bool = True) -> None:
            # A cut-off stack on a faulty sensor's space: still there, or cleared (only its
            # cross-talk can tell)
            blind = [r for r in pend if r in bad]
            for n in range(1 << len(blind)):
                here(bd, plies, pend, node,
                     frozenset(r for k, r in enumerate(blind) if n >> k & 1))
            if len([p for p in plies if not p.is_pass]) >= self.depth:
                return
            stacks = physical(bd, pend, frozenset())
            legal = bd.legal_plies()
            if legal == [PASS]:  # a forced pass is recorded with the move after it
                passed = bd.copy()
                passed._push(PASS)
                visit(passed, plies + (PASS,), pend, node=False)
                return
            for ply in legal:
                if ply.is_pass:
                    continue
                if ply.is_move and ply.src not in gone and not (
                        bd.ply_count == N_PLACEMENTS and ply.src == bd.move_stack[-1].dst):
                    continue
                if ply.is_placement:
                    if ply.dst not in new:
                        # The last piece may already be on its way again: the first move
                        # made from its space before the board settled.
                        if bd.ply_count != N_PLACEMENTS - 1:
                            continue
                    elif not self.polarity_ok(ply.dst, bd.piece_to_place(), values, stacks):
                        continue
                nb = bd.copy()
                nb._push(ply)
                npend = dict(pend)
                npend.update(nb.last_removed)
                visit(nb, plies + (ply,), npend)

        visit(board, (), dict(pending))
        amend = self._amendable(board, pending, occ) if amendable else None
        if amend is not None:
            prev, ppend, last = amend
            # The last move's stack lifted off its destination again: in the hand, back on its
            # source, or set down on another of its destinations (with its removals pending).
            options = [("lifted", prev, (), ppend), ("match", prev, (), ppend)]
            for ply in prev.legal_plies():
                if ply.is_move and ply.src == last.src and ply.dst != last.dst:
                    nb = prev.copy()
                    nb._push(ply)
                    options.append(("commit", nb, (ply,), {**ppend, **nb.last_removed}))
            for kind, bd, plies, pend in options:
                stacks = physical(bd, pend, frozenset())
                if kind == "lifted":
                    stacks[last.src] = ()
                if occ_of(stacks) == occ:
                    kept = frozenset(r for r in pend if r in occ)
                    out.append(Candidate(kind, plies, bd, stacks, kept, amends=True,
                                         src=last.src if kind == "lifted" else None))
        return out

    def _amendable(self, board: Board, pending: dict, occ: frozenset):
        """(position before the last move, the cut-off stacks still standing before it, the
        move) when the last recorded ply is a move that can still be changed: no stack it cut
        off has been touched (a hand clearing them has let go of the moved stack) and no
        faulty sensor is involved; else None."""
        if not board.move_stack or not board.move_stack[-1].is_move:
            return None
        last = board.move_stack[-1]
        removed = board.last_removed
        if (any(r not in pending or r not in occ for r in removed)
                or {last.src, last.dst} & self.unreliable):
            return None
        prev = board.copy()
        prev.pop()
        return prev, {r: st for r, st in pending.items() if r not in removed}, last

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
        # Rounding averages out only when noise dithers it: a whole-code reading's noise must
        # reach half a code, as must each raw sample's (reading noise * sqrt(N)) in a mean of
        # N samples; else the rounding may bias every reading alike.
        step = self.reading_step
        # The ADC's own error (INL, DNL: up to a code on an MCP3008) that no averaging removes
        # leaves about ADC_ERROR_CODES between two dithered means: 0.04 mT on 10 bits, as much
        # as a landing on a tall stack. Whole 12-bit codes: a quarter of that, under `floor`.
        adc_error = ADC_ERROR_CODES ** 2 if step < 1 else 0.0
        loose = self.loose
        wide = 3 if self.model.open_positions else 2

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
            q = step * step / 12.0 if n2 > 0.25 * step else 1.0 / 6.0 * (frames + ref_frames) / 2
            v0.append((n2 + q) * (1.0 / frames + 1.0 / ref_frames) + floor + adc_error
                      + (loose[s][wide] if s in loose else 0.0))
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
    def hovers(self, cands: list[Candidate], limit: float) -> list[Candidate]:
        """For each landing fitting within `limit`: the same stack held just above instead."""
        out = []
        for c in cands:
            if c.chi2 > limit or c.kind not in ("commit", "illegal"):
                continue
            if c.kind == "illegal":
                src, dst, board, plies = c.src, c.dst, c.board, c.plies
                moved = c.stacks[dst][len(c.stacks[dst]) - len(board.stack(src)):]
                below = c.stacks[dst][:len(c.stacks[dst]) - len(moved)]
                pending = c.pending
            else:
                last = max(i for i, p in enumerate(c.plies) if not p.is_pass)
                ply = c.plies[last]
                if ply.is_placement:
                    continue
                board = c.board.copy()
                for _ in range(len(c.plies) - last):
                    board.pop()
                if any(r not in c.pending for r in board.isolated_by(ply)):
                    continue  # its cut-off stacks are already gone: it did land
                src, dst, plies = ply.src, ply.dst, c.plies[:last]
                moved = board.stack(src)
                below = board.stack(dst)
                pending = frozenset(r for r in c.pending if r not in board.isolated_by(ply))
            stacks = list(c.stacks)
            stacks[dst] = below
            stacks[src] = ()
            for r in board.isolated_by(ply) if c.kind == "commit" else ():
                stacks[r] = board.stack(r)
            for lift in HOVER_MM:
                out.append(Candidate("lifted", plies, board, stacks, pending, src=src,
                                     hover=(dst, len(below), moved, lift), amends=c.amends))
        return out

    def held_above(self, cands: list[Candidate], limit: float) -> list[Candidate]:
        """For each lifted stack fitting within `limit`: the same stack held still in the air
        above its source, at carry height (a player deciding where to put it)."""
        out = []
        for c in cands:
            if c.chi2 <= limit and c.kind == "lifted" and c.hover is None:
                pieces = c.board.stack(c.src)
                for level in CARRY_LEVELS:
                    out.append(Candidate("lifted", c.plies, c.board, c.stacks, c.pending,
                                         src=c.src, hover=(c.src, level, pieces, 0.0),
                                         amends=c.amends))
        return out

    def knocked(self, cands: list[Candidate], limit: float) -> list[Candidate]:
        """For each stack gone from its space fitting within `limit`: the same stack knocked
        aside, lying on the board beside its space rather than in the hand. Its field reads on
        the neighbours as a return field, opposite to its bottom magnet (up to about 2.5 % of
        a bottom piece's own reading at 8-20 mm), and not as a landing would: the same
        meaning as the stack in the hand, so a move to a neighbour that reads no more than a
        stack lying there is asked about, never taken."""
        out = []
        cal = self.model.cal
        for c in cands:
            if (c.chi2 > limit and c.plies) or c.kind != "lifted" or c.hover is not None:
                continue  # (one knocked from the recorded position is always tried)
            stack = c.board.stack(c.src) if not c.amends else None
            if not stack:
                continue
            pull = -cal.polarity[stack[0]] * KNOCKED_RETURN * cal.typical_unit()
            free = {n: (min(pull, 0.0), max(pull, 0.0)) for n in NEIGHBOURS[c.src]}
            out.append(Candidate("lifted", c.plies, c.board, c.stacks, c.pending, src=c.src,
                                 amends=c.amends, free=free))
        return out

    def explain(self, board: Board, pending: dict, snapshot, ref, ref_frames: int, ref_stacks,
                age_s: float, amendable: bool = False) -> Decision:
        """Decide what `snapshot` (a settle.Snapshot) shows, given the recorded `board`, the
        cut-off stacks still `pending` ({space: stack}) and the reference readings `ref` of the
        physical stacks `ref_stacks`; `amendable`: the last move was provisional."""
        values = snapshot.values
        occ = self.occupancy(values)
        cal = self.model.cal
        moved = frozenset(s for s in range(N_SPACES) if abs(values[s] - ref[s])
                          > 3.0 * cal.noise[s] * (1.0 / snapshot.frames + 1.0 / ref_frames) ** 0.5
                          + 0.03 * cal.codes_per_mt)
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
        looked = cands[0].chi2 > self.fit_limit
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
