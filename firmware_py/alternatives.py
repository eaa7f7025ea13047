"""What else a candidate's readings could mean: the same stack still in the air, or lying on the
board. Each is a candidate of its own, scored like any other (`inference.Inference.explain`):

- a landing, as its stack held 1-4 mm above the destination (`hovers`: a hand pausing before it
  lets go);
- a stack in the hand, as held still above its source at carry height (`held_above`: a player
  deciding where to put it);
- a stack gone from its space, as knocked aside and lying beside it (`knocked`): then a move
  onto a neighbour that reads no more than such a stack is asked about, never taken. So too a
  stack the last move just landed on (it may not move now): knocked aside, it is the same
  error as lifting it ("put it back"), never a changed move onto where it lies.
"""

from __future__ import annotations

from .candidates import Candidate
from .calibration import NEAR
from .spaces import NEIGHBOURS

HOVER_MM = (1.0, 2.0, 3.0, 4.0)
"""Heights above a stack at which a held stack is tried as hovering (closer counts as touching)."""
KNOCKED_RETURN = 0.03
"""A stack lying on the board 8-20 mm from a sensor: its return field there, relative to its
bottom piece's own reading (a 6x2 mm disc at 5 mm: -1.0 of 44.7 mT at 12 mm), with room."""
CARRY_LEVELS = (5, 7, 10)
"""Heights, in pieces, at which a lifted stack is tried as held above its source (30-60 mm)."""


class Alternatives:
    """The alternatives' half of `inference.Inference` (a mixin: it needs the inference's
    `model`)."""

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
        a bottom piece's own reading at 8-20 mm; a tenth of a mT or two on the spaces two
        steps away, as much as the cross-talk that tells candidates apart), and not as a
        landing would: the same
        meaning as the stack in the hand, so a move to a neighbour that reads no more than a
        stack lying there is asked about, never taken. So too the stack the last move just
        landed on ('badlift': it may not move now): knocked aside by the hand reaching for the
        next stack, it lies where a change to that move plus a ply onto the neighbour would
        land."""
        out = []
        cal = self.model.cal
        for c in cands:
            if ((c.chi2 > limit and any(not p.is_pass for p in c.plies))
                    or c.kind not in ("lifted", "badlift") or c.hover is not None):
                continue  # (one knocked from the recorded position, or after a forced pass
                # only, is always tried)
            if c.kind == "badlift" and not self._just_landed_on(c):
                continue  # (elsewhere a stack that may not move reads as lifted: "put it back")
            stack = c.board.stack(c.src) if not c.amends else None
            if not stack:
                continue
            pull = -cal.polarity[stack[0]] * KNOCKED_RETURN * cal.typical_unit()
            lo, hi = self.model.lying_range(stack)
            lo, hi = min(lo, pull, 0.0), max(hi, pull, 0.0)
            far_lo, far_hi = self.model.lying_range(stack, ring=2)
            free = {n: (min(far_lo, 0.0), max(far_hi, 0.0)) for n in NEAR[c.src]}
            free.update((n, (lo, hi)) for n in NEIGHBOURS[c.src])
            out.append(Candidate(c.kind, c.plies, c.board, c.stacks, c.pending, src=c.src,
                                 amends=c.amends, free=free))
        return out

    @staticmethod
    def _just_landed_on(c: Candidate) -> bool:
        """`c`'s stack in the hand is the one the last recorded move landed on."""
        moves = [p for p in c.board.move_stack if not p.is_pass]
        return not c.plies and bool(moves) and moves[-1].is_move and moves[-1].dst == c.src
