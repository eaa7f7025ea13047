"""The stack last read in the hand, read gone as a cut-off stack cleared: asked about, never taken.

While a stack is in the hand (`BoardState.lifted`), the next still board may read another move
landed that cuts that stack off, and the stack gone as if cleared at once. The player then held
a stack that was not yet cut off, set it back, made another move and cleared it, all before the
board was still: far less likely than the held stack's own move with a second stack lifted at
once (a stack that stays, lifted by mistake after a move that cuts others off). Which of the
two it was rests only on how many pieces the landing added to a tall stack, a few hundredths of
a mT on bad noise (default 12-bit bad, mistakes 0.6, seed 40: h3g3 played and i3 lifted at
once, read as i3g3 with h3 cleared, chi2 74 against 105). So it is a question between the two:
the board waits for the hand (the held stack's own move leaves a stack in it), then asks about
the landing; the stack in the hand set back, the board is read afresh.
"""

from __future__ import annotations

from .candidates import Decision


def cleared_from_hand(d: Decision, held: int | None) -> Decision:
    """`d`, unless it commits a move that takes the stack on `held` (last read in the hand) as
    gone without moving it: then a question between it and the best meaning that moves it."""
    if d.kind != "commit" or held is None or d.best.stacks[held]:
        return d
    if any(p.is_move and p.src == held for p in d.best.plies):
        return d
    rival = next((c for c in d.candidates if c.chi2 < 1e9
                  and any(p.is_move and p.src == held for p in c.plies)), None)
    if rival is None:
        return d
    return Decision("ambiguous", d.best, [d.best, rival], d.candidates)
