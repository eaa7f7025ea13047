"""The DVONN rules engine (API CONTRACT: implementation in progress, see issue 2).

Every other part of the project codes against exactly this API. Implementers may add, but not
change, what is below without updating every caller.

Pieces are one-letter codes: 'W' white, 'B' black, 'D' DVONN. A stack is a tuple of codes from
the bottom up: ('B', 'D', 'W') is owned by White. Players are WHITE = 0 and BLACK = 1.
Spaces are indices 0..48 (see `spaces`).
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import IllegalPly
from .spaces import INDEX, SPACES, parse_space

WHITE, BLACK = 0, 1
PLAYER_NAMES = ("white", "black")
PIECES = ("W", "B", "D")


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


class Board:
    """A DVONN game from the empty board: position, side to move, history (push/pop).

    Construction: Board() is the empty board at the start of the placement phase.

    State (read-only for callers):
      turn            WHITE or BLACK: the player to move (or to pass)
      phase           1 (placing) or 2 (moving); `is_over()` once neither player can move
      ply_count       plies pushed so far (passes included)
      move_stack      list of the Ply pushed so far
    Queries:
      stack(space) -> tuple[str, ...]      () when empty
      stacks() -> list[tuple[str, ...]]    all 49
      height(space) -> int
      owner(space) -> WHITE | BLACK | None (None: empty or a lone DVONN piece)
      piece_to_place() -> 'D' | 'W' | 'B' | None   (None in phase 2)
      legal_plies() -> list[Ply]   placements in phase 1; moves in phase 2; [PASS] when the player
                                   to move has no move but the game goes on; [] when over
      is_legal(ply) -> bool
      mobile_stacks() -> list[int] the spaces the player to move may move from
      destinations(src) -> list[int] legal destinations of the stack on src for the player to move
      isolated_by(ply) -> list[int] spaces whose stacks the move would cut off (removed after it),
                                   computed without making the move
      last_removed -> dict[int, tuple[str, ...]] what the last push removed (space -> stack)
      score() -> tuple[int, int]   (white, black): total height of the stacks each player tops
      is_over() -> bool            neither player can move (phase 2)
      winner() -> WHITE | BLACK | 'draw' | None (None while not over)
      key() -> int                 position hash (Zobrist-like; equal positions, equal keys,
                                   includes side to move and phase)
    Changes:
      push(ply)          raises IllegalPly and changes nothing when illegal
      pop() -> Ply       undoes the last push exactly (removals restored)
      copy() -> Board    independent copy (history included)
    """
