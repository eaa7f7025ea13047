"""The other side's plies as a "thinker" for the session: the remote player is another source
of the shown ply (the session asks `update(board)` each step, as it asks `ai.Thinker`).

`Line` holds the plies agreed so far (the host's record, plus the remote ply shown but not yet
carried out). For the position on the board it answers the next ply of the line when that ply is
the other side's: the LEDs show it, and the controller records only it on that side's turns.

>>> from firmware_py.rules import BLACK, Board
>>> line = Line(BLACK)
>>> line.set(["e3", "f3"])
>>> str(line.update(Board.from_plies(["e3"])))    # Black's ply after e3: f3
'f3'
>>> line.update(Board.from_plies(["e3", "f3"])) is None   # White's turn: nothing to show
True
>>> line.update(Board.from_plies(["d3"])) is None   # another game than the line's
True
"""

from __future__ import annotations

import threading

from ..i18n import _
from ..rules import PASS, WHITE, Board, Ply


def tokens(plies) -> list[str]:
    """Plies as record tokens ('e3', 'e3f3', 'pass')."""
    return [str(p) for p in plies]


def turn_start(record: list[str], index: int) -> int:
    """The number of the turn a ply at `index` belongs to: a forced pass is recorded with the
    move after it, so a move right after a pass is numbered like that pass.

    >>> turn_start(["e3", "pass", "a1b1"], 2), turn_start(["e3", "f3"], 1)
    (1, 1)
    """
    if index > 0 and record[index - 1] == "pass":
        return index - 1
    return index


def position_for(record: list[str]) -> Board:
    """The position after `record`, with a forced pass pushed: the board the next move is made
    on. ValueError naming the ply when the record is not legal."""
    board = Board()
    for i, token in enumerate(record):
        ply = Ply.parse(token)
        if not board.is_legal(ply):
            raise ValueError(f"ply {i + 1} {token}: {board._check(ply)}")
        board.push(ply)
    if board.phase == 2 and board.legal_plies() == [PASS]:
        board.push(PASS)
    return board


class Line:
    """The agreed plies of a game, read by the session's loop, written by the network thread.

    colour: the side whose plies come from far away (rules.WHITE or BLACK).
    """

    def __init__(self, colour: int):
        self.colour = colour
        # "black (far away) plays e3: ..."
        self.name = _("white (far away)") if colour == WHITE else _("black (far away)")
        self._lock = threading.Lock()
        self._plies: tuple[Ply, ...] = ()

    def set(self, record) -> None:
        """The agreed plies (tokens or `Ply`s), from the start of the game."""
        plies = tuple(p if isinstance(p, Ply) else Ply.parse(p) for p in record)
        with self._lock:
            self._plies = plies

    @property
    def plies(self) -> tuple[Ply, ...]:
        with self._lock:
            return self._plies

    def update(self, board: Board) -> Ply | None:
        """The line's next ply at `board` when it is this side's (None otherwise)."""
        line = self.plies
        k = board.ply_count
        if k >= len(line) or board.turn != self.colour or line[k].is_pass:
            return None
        if tuple(board.move_stack) != line[:k]:
            return None
        return line[k]
