"""The ways the board could be now, reachable from the recorded game: `Candidate`, and the
`Decision` taken among them (`inference`).

`Reachable.candidates` lists every configuration the recorded position could have become: the
position itself, every legal ply from it and one more ply (so a fast reply is not lost), each
with its cut-off stacks still on the board or already taken off (as the board reads them), a
stack held in the hand after any of these, a stack set down on a space it may not go to and,
while the last move is provisional, its stack lifted off again (`Candidate.amends`). Occupancy
alone decides which of them are possible at all; the readings then rank them (`inference`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .rules import N_PLACEMENTS, PASS, Board, Ply
from .spaces import N_SPACES

# How far the last recorded move may still change (`Reachable.candidates`' `amendable`): not
# at all; its stack set down elsewhere; or that, with the next player's stack lifted since (or
# the move taken back, with the same player's next stack lifted since);
# AMEND_CLEARED: as AMEND_LAST, also once the stacks it cut off have begun to be cleared (a
# final move in doubt: the board reads differently where it went or could have gone);
# AMEND_CLEARED_THEN_NEXT: both (a move in doubt, one of the stacks it cuts off in the hand:
# perhaps the next player's, which the other landing does not cut off).
AMEND_NONE, AMEND_LAST, AMEND_THEN_NEXT, AMEND_CLEARED, AMEND_CLEARED_THEN_NEXT = 0, 1, 2, 3, 4


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
    # Landings that read as on the board still just before, though they change it clearly
    # (`unseen_landing`): asked about, never taken unseen (`LandingWait.set_down_unseen`).
    unchanged: frozenset = frozenset()

    def as_recorded(self) -> list[Candidate]:
        """The candidate of the board standing as the game records it (a 'match' that does
        not change the last move), as a list of at most one."""
        return [c for c in self.candidates if c.kind == "match" and not c.amends][:1]


class Reachable:
    """The candidates' half of `inference.Inference` (a mixin: it needs the inference's
    `unreliable` sensors, its `depth` and its `polarity_ok`)."""

    def candidates(self, board: Board, pending: dict, occ: frozenset, values,
                   moved: frozenset | None = None, amendable: int = AMEND_NONE
                   ) -> list[Candidate]:
        """Every configuration reachable from `board` (with the cut-off stacks `pending`
        {space: stack} still standing) whose occupancy equals `occ`. Illegal set-downs are
        tried only on the spaces in `moved` (those whose reading changed: default all).
        amendable: AMEND_LAST when the last move was recorded while its stack could still have
        been held just above its destination: add the candidates that change it
        (`Candidate.amends`); AMEND_THEN_NEXT: also those where the next player's stack was
        lifted or moved after it changed."""
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
        amend = (self._amendable(board, pending, occ,
                                 amendable in (AMEND_CLEARED, AMEND_CLEARED_THEN_NEXT))
                 if amendable else None)
        then_next = amendable in (AMEND_THEN_NEXT, AMEND_CLEARED_THEN_NEXT)
        # (In doubt, a stack the move as recorded cuts off may be in the hand although it may
        # not move after the move landed elsewhere: lifted by mistake, to be cleared.)
        cut_off = board.last_removed if amendable == AMEND_CLEARED_THEN_NEXT else ()
        if amend is not None:
            prev, ppend, last = amend
            # The last move's stack lifted off its destination again: in the hand, back on its
            # source, or set down on another of its destinations (with its removals pending;
            # AMEND_THEN_NEXT: perhaps with the next player's stack lifted or moved since).
            options = [("lifted", prev, (), ppend), ("match", prev, (), ppend)]
            for ply in prev.legal_plies():
                if ply.is_move and ply.src == last.src and ply.dst != last.dst:
                    nb = prev.copy()
                    nb._push(ply)
                    if not then_next:
                        options.append(("commit", nb, (ply,), {**ppend, **nb.last_removed}))
                        continue
                    start = len(out)  # and the next player's stack lifted or moved since
                    visit(nb, (ply,), {**ppend, **nb.last_removed})
                    out[start:] = [c for c in out[start:] if c.kind in ("commit", "lifted")
                                   or c.kind == "badlift" and c.src in cut_off]
                    for c in out[start:]:
                        c.amends = True
            if then_next:
                # ... or set back on its source (a move taken while its stack may still have
                # been in the hand), the same player's next stack lifted or moved at once. The
                # stack set back stands there: a source read empty was never seen set back
                # (not cleared unseen as cut off by that next move).
                start = len(out)
                visit(prev, (), ppend)
                out[start:] = [c for c in out[start:] if c.kind in ("commit", "lifted")
                               and (c.plies[0].src if c.plies else c.src) != last.src
                               and c.stacks[last.src]]
                for c in out[start:]:
                    c.amends = True
            for kind, bd, plies, pend in options:
                stacks = physical(bd, pend, frozenset())
                if kind == "lifted":
                    stacks[last.src] = ()
                if occ_of(stacks) == occ:
                    kept = frozenset(r for r in pend if r in occ)
                    out.append(Candidate(kind, plies, bd, stacks, kept, amends=True,
                                         src=last.src if kind == "lifted" else None))
        return out

    def _amendable(self, board: Board, pending: dict, occ: frozenset, cleared: bool = False):
        """(position before the last move, the cut-off stacks still standing before it, the
        move) when the last recorded ply is a move that can still be changed: no stack it cut
        off has been touched (a hand clearing them has let go of the moved stack; `cleared`:
        unless the move is in doubt, then the stacks cleared must be ones the other landing
        cuts off too, or nothing fits) and no faulty sensor is involved; else None."""
        if not board.move_stack or not board.move_stack[-1].is_move:
            return None
        last = board.move_stack[-1]
        removed = board.last_removed
        if (not cleared and any(r not in pending or r not in occ for r in removed)
                or {last.src, last.dst} & self.unreliable):
            return None
        prev = board.copy()
        prev.pop()
        return prev, {r: st for r, st in pending.items() if r not in removed}, last
