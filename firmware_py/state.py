"""What the controller knows and wants the players to see: one plain dataclass.

The controller (`firmware_py.controller`) owns and updates a `BoardState`; everything that
shows the game (LED guidance, the terminal, the web view) only reads it. Spaces are indices
0..48 (see `spaces`); lists are sorted and never None.

>>> from firmware_py.rules import Board
>>> s = BoardState(board=Board())
>>> s.mode, s.lifted, s.ask
('calibrating', None, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .i18n import _
from .rules import PASS, Board, Ply
from .spaces import SPACES

MODES = ("calibrating", "idle", "lifted", "removing", "asking", "error", "unexplained",
         "link_lost", "paused", "over")
"""What the controller is doing:

calibrating  reading the empty board's baselines (or waiting for the board to match a resumed game)
idle         waiting for the player to move: the board matches the recorded position
lifted       a stack is lifted: `lifted` is its source, `destinations` where it may go
removing     a move was committed; the stacks it cut off (`remove`) are still on the board
asking       a set-down could not be told apart: `ask` holds the candidate destinations
error        something illegal is on the board (`error`: wrong stack lifted, illegal set-down,
             wrong piece kind placed) until corrected
unexplained  the board has matched nothing for a few seconds: `missing` / `extra` show the way back
link_lost    no frames from the scanner: play paused, nothing lost
paused       play paused on purpose (e.g. a takeback being rebuilt)
over         the game is over (`board.winner()`)
"""


@dataclass
class BoardState:
    """The controller's view of the game, read by guidance, terminal and web.

    board        the recorded game (rules.Board, history included)
    mode         one of MODES
    lifted       the space a stack was lifted from, or None
    destinations legal destinations of the lifted stack
    remove       spaces whose stacks must be taken off (cut off by the last move)
    ask          candidate destinations the player is asked to choose between
    ask_faulty   the asked space whose sensor is faulty (a lift there is not seen: confirm
                 answers it), lit apart from the others
    error        spaces flagged as illegal (wrong lift, illegal set-down, wrong piece placed)
    missing      spaces that should hold a stack and read empty
    extra        spaces that should be empty and read occupied
    hint         a computer move to show, or None
    message      one line of human text, e.g. "remove the stacks on c3, d3"
    time         the frame clock (seconds) of the last update
    clock        the game clock as shown (`clock.ClockReading`), or None without a clock
    drifting     spaces whose sensors drift faster than the board can follow, as the message
                 names them (`FaultWatch.drifting`): lit while idle; no mark, they stay
    """

    board: Board
    mode: str = "calibrating"
    lifted: int | None = None
    destinations: list[int] = field(default_factory=list)
    remove: list[int] = field(default_factory=list)
    ask: list[int] = field(default_factory=list)
    ask_faulty: list[int] = field(default_factory=list)
    error: list[int] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    hint: Ply | None = None
    message: str = ""
    time: float = 0.0
    clock: object | None = None  # a clock.ClockReading, set by the session
    drifting: list[int] = field(default_factory=list)

    def clear_marks(self) -> None:
        """Forget every per-space mark: lifted, destinations, remove, ask (and ask_faulty),
        error, missing, extra."""
        self.lifted = None
        self.destinations = []
        self.remove = []
        self.ask = []
        self.ask_faulty = []
        self.error = []
        self.missing = []
        self.extra = []

    def show_settled(self, pending, note: str = "") -> None:
        """The board matches the game: stacks to remove (`pending`), the end, or whose turn
        (with `note`, e.g. the faulty sensors)."""
        self.clear_marks()
        if pending:
            self.mode = "removing"
            self.remove = sorted(pending)
            self.message = _("remove the stacks on {spaces}").format(
                spaces=", ".join(SPACES[s] for s in self.remove))
        elif self.board.is_over():
            self.mode = "over"
            w = self.board.winner()
            self.message = (_("game over: a draw") if w == "draw" else
                            _("game over: white wins") if w == 0 else _("game over: black wins"))
        else:
            self.mode = "idle"
            self.message = note

    def show_lifted(self, src: int, board: Board | None = None, remove=()) -> None:
        """The stack from `src` in the hand, with its destinations on `board` (default: the
        recorded position; a candidate's when a ply before the lift is not recorded yet) and
        the cut-off stacks `remove` still to take off."""
        self.clear_marks()
        self.mode = "lifted"
        self.lifted = src
        board = board or self.board
        if board.legal_plies() == [PASS]:  # the other player passes and moves again
            board = board.copy()
            board.push(PASS)
        self.destinations = board.destinations(src)
        self.remove = list(remove)
        self.message = _("{space} lifted: set it down on {spaces}").format(
            space=SPACES[src], spaces=", ".join(SPACES[s] for s in self.destinations) or "?")
