"""A stack the open move cuts off, read cleared while that move is in doubt: perhaps in the hand.

A move read landed elsewhere since it was taken (`Recorder.in_doubt`) may have landed there, and
the stacks the move as recorded cuts off may then be no cut-off stacks at all. A stack lifted
from among them reads, on the still board, as cleared: the move as recorded stands, and after
the hold time it is final. But whether that stack was cleared or is held depends on the move:
the still board proves nothing about it (rough 10-bit, mistakes 1.0, seed 18: c2 slid over c4
to e2, c2c4 taken open; e2 read best since; f2, which c2c4 cuts off and c2e2 does not, lifted by
mistake and held 4 s; read as c2c4 with f2 cleared, chi2 76, final after the hold time, where
c2e2 with f2 in the hand was never tried). So the board is read also with the move landed
elsewhere and that stack in the hand (`AMEND_CLEARED_THEN_NEXT`), also when it may not move
then (lifted by mistake, to be cleared: an error); when that fits better than the move as
recorded by the margin (c2e2 with f2 in the hand, chi2 22), the move stays open until the
stack is set down (`Recorder.moved_on`), which decides.
"""

from __future__ import annotations

from .candidates import AMEND_CLEARED_THEN_NEXT, Decision


def held_cut_off(d, recorder, reference, board, pending, snap):
    """`d`, the still board read as the open move in doubt as recorded with some of the stacks
    it cuts off cleared: when the move landed elsewhere with one of those stacks in the hand
    fits better by the margin, that ('lifted', or 'badlift' if it may not move then; the move
    open until the stack is set down: `Recorder.moved_on`). Else `d` itself."""
    best = d.best
    if (not recorder.provisional or not recorder.in_doubt or recorder.moved_on is not None
            or best is None or best.kind != "match" or best.amends):
        return d
    cleared = {s for s in board.last_removed if s in pending and s not in best.pending}
    if not cleared:
        return d
    again = reference.explain(reference.inference, board, pending, snap,
                              amendable=AMEND_CLEARED_THEN_NEXT)
    held = again.best
    if (held is None or not held.amends or held.kind not in ("lifted", "badlift")
            or held.src not in cleared
            or any(not c.amends for c in again.rivals)):  # (the move as recorded fits too)
        return d
    recorder.moved_on = held.src
    return Decision(held.kind, held, [held], again.candidates)
