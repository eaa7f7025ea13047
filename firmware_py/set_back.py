"""A landing on a stack set back: asked about, never taken from the readings alone.

A stack seen gone from its space (lifted, knocked aside) and set back is never where it stood,
so its own reading may then be anything its pieces read off their places (`Reference.reseat`):
a landing on it adds less than that. Only its neighbours' cross-talk could tell, by a few
hundredths of a mT, and where the stack now sits moves that as much (rough 12-bit, mistakes
1.0, seed 31: c4 knocked aside as the last piece was about to be placed, and set back off its
place; its neighbours read 0.15 mT off, which "c5 placed and moved onto c4 at once" fitted
best, chi2 89 against 131 for the board as recorded: both plies were recorded, never made).
"""

from __future__ import annotations

from .candidates import Decision


def landed_on_set_back(d: Decision, set_back: set) -> Decision:
    """`d`, unless it commits a move onto a stack in `set_back` (`Reference.set_back`): then a
    question between it and the best meaning landing on none of them."""
    if d.kind != "commit" or not set_back:
        return d
    onto = {p.dst for p in d.best.plies if p.is_move} & set_back
    if not onto:
        return d
    rival = next((c for c in d.candidates if c is not d.best and c.chi2 < 1e9
                  and not any(p.is_move and p.dst in onto for p in c.plies)), None)
    if rival is None:
        return d
    return Decision("ambiguous", d.best, [d.best, rival], d.candidates)
