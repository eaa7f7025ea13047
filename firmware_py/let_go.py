"""The open move's stack let go: a still board read with another stack in the hand.

A landing read while its stack may still be in the hand stays open (`recorder`) until the
board has been still for the hold time or a stack is lifted near where it could go. A stack
lifted far from there leaves it open, and a board still under that stack held high (set down
where it may not go and lifted off again, say) may then fit best as the move landed
elsewhere with that stack set down beyond: both were recorded, wrong (rough 12-bit, mistakes
1.0, seed 9: e4e2 taken open, g1 lifted, set on f5 and held 42 mm above it; read as e4g4 with
g1g3). But the one hand holds that other stack: it has let the move's stack go. So a still
board read with another stack in the hand makes the move final, when every meaning that fits
keeps the move as recorded, also among those in which the move was set down elsewhere and
that stack lifted at once (`AMEND_THEN_NEXT`: then its set-down decides, rough 12-bit seed
39: e5 slid over f5 to d4 as i4 was lifted).
"""

from __future__ import annotations

from .candidates import AMEND_THEN_NEXT


def let_go(d, recorder, reference, board, pending, snap) -> None:
    """`d`, the decision about the settled `snap`: when it reads another stack than the open
    last move's in the hand ('lifted', or 'ambiguous' with every rival keeping the move as
    recorded), and so does the board read with that move set down elsewhere, the move is
    final. Not while it is in doubt otherwise (carried on, read landed elsewhere, asked about,
    or open for the next stack's set-down: `Recorder.moved_on`)."""
    last = board.move_stack[-1] if board.move_stack else None
    best = d.best
    if (not recorder.provisional or last is None or not last.is_move or best is None
            or d.kind not in ("lifted", "ambiguous") or best.kind != "lifted"
            or best.src == last.dst or recorder.carried or recorder.moved_on is not None
            or recorder.in_doubt or recorder.asked_about or _changes_move(d)):
        return
    again = reference.explain(reference.inference, board, pending, snap,
                              amendable=AMEND_THEN_NEXT)
    if again.best is not None and not _changes_move(again):
        recorder.provisional = False


def _changes_move(d) -> bool:
    """Whether the best of `d` or one of its rivals changes the last move."""
    return any(c.amends for c in [d.best, *d.rivals])
