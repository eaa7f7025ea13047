"""A ply and how it is written: the game's small vocabulary, apart from the position.

DVONN has three kinds of ply. While the 49 pieces go onto the board, a ply is a *placement* on
one empty space: written as the space's name, ``e3``. Once every space is full, a ply is a
*move* of a whole stack from one space onto another: written as the two names, ``e3f3`` (``e3-f3``
and ``e3:f3`` are read too, in any case). A player with no move while the other still has one
*passes*: written ``pass``.

A `Ply` is a pair of space indices (see `firmware_py.spaces`), with -1 for "none":

>>> Ply.parse("e3"), Ply.parse("E3-f3"), Ply.parse("pass") == PASS
(Ply(src=-1, dst=23), Ply(src=23, dst=24), True)
>>> str(Ply(23, 24)), Ply(23, 24).is_move
('e3f3', True)

Whether a ply is legal is the position's business: `firmware_py.rules.Board` (``is_legal``,
``push``).
"""

from __future__ import annotations

from typing import NamedTuple

from .spaces import INDEX, SPACES, parse_space

WHITE, BLACK = 0, 1
PLAYER_NAMES = ("white", "black")
PIECES = ("W", "B", "D")  # white, black, DVONN; a stack is a tuple of them from the bottom up


class Ply(NamedTuple):
    """A placement (src == -1, dst = space), a move (src, dst) or a pass (-1, -1).

    >>> str(Ply.parse("E3-f3")), str(Ply.parse("e3")), str(Ply.parse("pass"))
    ('e3f3', 'e3', 'pass')
    """

    src: int
    dst: int

    @property
    def is_pass(self) -> bool:
        return self.dst < 0

    @property
    def is_placement(self) -> bool:
        return self.src < 0 <= self.dst

    @property
    def is_move(self) -> bool:
        return self.src >= 0

    def __str__(self) -> str:
        if self.dst < 0:
            return "pass"
        if self.src < 0:
            return SPACES[self.dst]
        return SPACES[self.src] + SPACES[self.dst]

    @classmethod
    def parse(cls, token: str) -> "Ply":
        """'e3', 'e3f3', 'e3-f3', 'e3:f3' in any case, or 'pass'. ValueError otherwise."""
        t = token.strip().lower()
        if t == "pass":
            return PASS
        for sep in "-:":
            t = t.replace(sep, "")
        if t in INDEX:
            return cls(-1, INDEX[t])
        a, b = t[:2], t[2:]  # every space name is two characters
        if a in INDEX and b in INDEX:
            return cls(INDEX[a], INDEX[b])
        parse_space(t)  # raises a clear ValueError naming the token
        raise ValueError(f"not a ply: {token!r}")


PASS = Ply(-1, -1)
