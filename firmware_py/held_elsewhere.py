"""The last move set down elsewhere and the next stack still in the hand: when a board read
just after the lift that made the move final says so, the move stays open until that stack is
set down, and its set-down decides both (`decisions.Decisions.went_on`).

A hand that slid a stack low over one landing and set it down on another, then lifted the next
stack at once, leaves the move read where it paused, made final by that lift. With the next
stack in the hand, the board cannot tell the move landed elsewhere from the move as recorded
with that stack held over (or set down on) where the move really went: nothing is recorded
while a stack is held, so the move is kept open when the meaning that fits best is the move
landed elsewhere (rough 10-bit, mistakes 1.0, seed 39: h1 slid over i1 to i2, h2 lifted 0.1 s
later; h1i2 with h2 in the hand, chi2 48, against h1i1 with h2 held above i2, 54).

>>> from types import SimpleNamespace as NS
>>> moved = NS(kind="lifted", amends=True, plies=["h1i2"], src=10, chi2=48.0)
>>> on_top = NS(kind="commit", amends=False, plies=[NS(src=10)], src=None, chi2=65.0)
>>> held_elsewhere(NS(kind="ambiguous", rivals=[moved, on_top])) is moved
True
>>> held_elsewhere(NS(kind="ambiguous", rivals=[moved, on_top]), than=40.0) is None
True
"""

from __future__ import annotations


def held_elsewhere(again, than: float | None = None):
    """`again` (the meanings in which the last move was set down elsewhere and the next stack
    lifted, `AMEND_THEN_NEXT`) says the move landed elsewhere and the next stack is (perhaps
    still) in the hand: that candidate; else None. Rivals that record nothing, the same change
    with the stack set down, a stack lifted that may not move after the move as recorded (an
    error only if the move landed as recorded), or that stack set down on the move as recorded
    leave it so: its set-down decides. With `than` (the chi-square of the move as recorded
    with that stack in the hand), only a meaning that fits better."""
    best = next((c for c in again.rivals if c.kind == "lifted"), None)
    if (again.kind not in ("lifted", "ambiguous") or best is None or not best.amends
            or not best.plies or than is not None and best.chi2 >= than):
        return None
    for c in again.rivals:
        if c.amends:
            ok = c.plies[:1] == best.plies[:1]
        elif c.kind == "badlift":
            ok = all(p.is_pass for p in c.plies)
        elif c.kind == "commit":
            ok = bool(c.plies) and c.plies[0].src == best.src  # set down on the move as is
        else:
            ok = not c.plies and c.kind in ("lifted", "illegal")
        if not ok:
            return None
    return best
