"""The last move made final by lifting the stack on another of its landings, one that may not
move (an error): the hand may have set the move's stack down there and lifted it again at once,
before the board was ever still with it there (default 12-bit, mistakes 1.0, seed 74: d3 slid
low over c2 on its way to d4, d3c2 was taken open, and d4, a stack of 3 then, lifted by mistake
made it final).

Set back, that stack is never read exactly where it stood (`Reference.reseat`): its own sensor
tells little, and a landing on a tall stack shows more on its neighbours than on its own sensor.
Until the next ply, a match reading far off on those neighbours has the move's alternatives
checked, as one reading far off on its other landings does (`Decisions._misread_last`). Only
after such an error: in a game without one no question is added.
"""

from __future__ import annotations

from .last_move import elsewhere
from .spaces import NEIGHBOURS


class LandingLifted:
    """The (ply count, last move, space) of such a lift, while it may still matter."""

    def __init__(self):
        self._lifted: tuple | None = None

    def note(self, board, d, made_final: bool) -> None:
        """The decision `d` read as the lift of a stack made the last move of `board` final."""
        if (made_final and d.kind == "badlift" and d.best is not None
                and d.best.src in elsewhere(board)):
            self._lifted = (board.ply_count, board.move_stack[-1], d.best.src)

    def watched(self, board) -> set:
        """Where a board that matches but reads far off has the last move checked: its other
        landings (`elsewhere`: a hand that paused over one space set the stack down on another,
        a tall stack there, as the next stack was touched); after such a lift also the lifted
        space's neighbours, but for the move's own source and landing and theirs (the move as
        recorded explains those)."""
        others = elsewhere(board)
        if (not others or self._lifted is None
                or self._lifted[:2] != (board.ply_count, board.move_stack[-1])):
            return others
        last, space = board.move_stack[-1], self._lifted[2]
        near = set(NEIGHBOURS[space]) - {last.src, last.dst}
        return others | (near - set(NEIGHBOURS[last.src]) - set(NEIGHBOURS[last.dst]))
