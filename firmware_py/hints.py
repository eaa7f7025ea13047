"""Hints: the engine's best move for the player to move, shown on the LEDs when asked for.

A hint is asked for by a press of the confirm button while the board waits for a move (confirm
has nothing else to do then), a dedicated `hint` button if the board has one, or the web page.
The engine thinks on a thread (`ai.Thinker`, the hint level), and once it has chosen, the move
is shown as the computer's move is: the stack to lift double-flashes teal, the space to put it
flashes lime ("a suggestion"). Nothing is recorded: the player may play it or anything else.
The hint goes out when the position changes or the button is pressed again; `--hints off`
(tournaments) refuses every request.

`Hints` quacks like the computer's thinkers for `computer_hint` (`update(board)`), which picks
the ply the LEDs show for a position from the computer's thinkers or the hint asked for.

>>> from firmware_py.rules import Board
>>> hints = Hints(level=1, nodes=200)
>>> board = Board.from_plies(["e3"])
>>> hints.request(board)
'hint: the engine is thinking'
>>> hints.wait(5.0) and board.is_legal(hints.update(board))
True
>>> hints.update(Board.from_plies(["e3", "f3"])) is None   # another position: no hint there
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .i18n import _
from .rules import PASS, Board, Ply

if TYPE_CHECKING:
    from .state import BoardState

HINT_LEVEL = 3


def to_move(board: Board) -> Board:
    """The position a hint is for: after a forced pass, the other player's move."""
    if board.phase == 2 and board.legal_plies() == [PASS]:
        board = board.copy()
        board.push(PASS)
    return board


def computer_hint(state: BoardState, thinkers: Sequence) -> Ply | None:
    """The computer's ply for the controller's position (`thinker.update(board)` of each
    `ai.Thinker`), in every mode: the controller holds a ply on the computer's turn to it even
    while it asks or flags a mistake (the LEDs show it only while idle or lifted). A forced
    pass is recorded with the other side's move, so the hint is that side's ply; a pass itself
    is never a hint. Also used by `autoplay` (simulated time)."""
    hint = None
    board = state.board
    if board.phase == 2 and board.legal_plies() == [PASS]:
        board = board.copy()  # the pass is recorded with the other player's move
        board.push(PASS)
    for thinker in thinkers:
        hint = thinker.update(board) or hint
    return None if hint is not None and hint.is_pass else hint


class Hints:
    """enabled: False refuses hints (`--hints off`). computer: colours the computer plays (no
    hints on its turns: it shows its own move). level, nodes: the engine's budget."""

    def __init__(self, enabled: bool = True, level: int = HINT_LEVEL, nodes: int | None = None,
                 computer=()):
        self.enabled = enabled
        self.level, self.nodes = level, nodes
        self.computer = frozenset(computer)
        self._for: tuple | None = None  # the position a hint was asked for
        self._thinkers: dict[int, object] = {}

    def request(self, board: Board) -> str:
        """Ask for a hint at `board` (again: hide it). Returns the line to show."""
        if not self.enabled:
            return _("hints are off for this game")
        if board.is_over():
            return _("the game is over: no hint")
        board = to_move(board)
        pos = (board.ply_count, board.key(), board.turn)
        if board.turn in self.computer:
            return _("the computer is to move: it shows its own move")
        if self._for == pos:
            self._for = None
            return _("hint hidden")
        self._for = pos
        self._thinker(board.turn).update(board)  # starts the search
        return _("hint: the engine is thinking")

    def clear(self) -> None:
        self._for = None

    @property
    def asked(self) -> bool:
        return self._for is not None

    def update(self, board: Board):
        """The hinted ply for `board` once the engine has chosen (None: not asked for this
        position, or still thinking). `board` is the position to move in: after a forced
        pass, with the pass pushed (as `computer_hint` passes it)."""
        if self._for is None:
            return None
        if (board.ply_count, board.key(), board.turn) != self._for:
            if board.ply_count != self._for[0] - 1:  # (not the same position before a pass)
                self._for = None  # the game went on or back: the hint is stale
            return None
        return self._thinker(board.turn).update(board)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the engine (tests, tools)."""
        return all(t.wait(timeout) for t in self._thinkers.values())

    def _thinker(self, colour: int):
        if colour not in self._thinkers:
            from .ai import Thinker
            self._thinkers[colour] = Thinker(colour, level=self.level, nodes=self.nodes)
        return self._thinkers[colour]
