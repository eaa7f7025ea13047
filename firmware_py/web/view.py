"""The controller's state as the JSON the page draws: plain names, lists and numbers only.

`board_view(state)` is everything about the game and what the board is waiting for;
`led_view(frame)` the LEDs as hex colours; `layout()` the geometry and colour language, sent once.
Spaces are named ('c3'), stacks written bottom-up ('BDW': a black piece, a DVONN piece, a white
piece on top).

>>> from firmware_py.rules import Board
>>> from firmware_py.state import BoardState
>>> v = board_view(BoardState(board=Board.from_plies(["e3", "f3"]), mode="idle"))
>>> v["stacks"]["e3"], v["turn"], v["to_place"], v["moves"]
('D', 'white', 'D', ['e3', 'f3'])
"""

from __future__ import annotations

from ..colours import PATTERN_WORDS, PATTERNS, SIGNAL_WORDS, SIGNALS
from ..guidance import signals
from ..i18n import _
from ..interfaces import LedFrame
from ..records import write_record
from ..rules import PLAYER_NAMES, Board
from ..spaces import COORDS, SPACES
from ..state import BoardState

PIECE_WORDS = {"W": "white", "B": "black", "D": "DVONN"}


def _names(spaces) -> list[str]:
    return [SPACES[s] for s in spaces]


def stacks_view(stacks) -> dict[str, str]:
    """{space name: stack bottom-up as letters} for the occupied spaces."""
    return {SPACES[i]: "".join(s) for i, s in enumerate(stacks) if s}


def winner_text(board: Board) -> str | None:
    w = board.winner()
    if w is None:
        return None
    return "draw" if w == "draw" else PLAYER_NAMES[w]


def board_view(state: BoardState) -> dict:
    """The game and the controller's marks, ready for json.dumps."""
    b = state.board
    white, black = b.score()
    return {
        "mode": state.mode,
        "message": state.message,
        "stacks": stacks_view(b.stacks()),
        "turn": PLAYER_NAMES[b.turn],
        "phase": b.phase,
        "ply": b.ply_count,
        "to_place": b.piece_to_place(),
        "score": {"white": white, "black": black},
        "winner": winner_text(b) if getattr(state.clock, "flagged", None) is None
        else PLAYER_NAMES[1 - state.clock.flagged],  # won on time
        "moves": [str(p) for p in b.move_stack],
        "lifted": None if state.lifted is None else SPACES[state.lifted],
        "destinations": _names(state.destinations),
        "remove": _names(state.remove),
        "ask": _names(state.ask),
        "error": _names(state.error),
        "missing": _names(state.missing),
        "extra": _names(state.extra),
        "hint": None if state.hint is None else str(state.hint),
        "signals": {SPACES[s]: name for s, name in signals(state).items()},
        "clock": None if state.clock is None else state.clock.as_dict(),
    }  # no frame time: it moves with every frame, and the page is sent only what changed


def led_view(frame: LedFrame | None) -> list[str] | None:
    """The 49 LED colours as '#rrggbb' in space order (None: no LED frame yet)."""
    if frame is None:
        return None
    return ["#%02x%02x%02x" % rgb for rgb in frame.spaces]


def record_text(state: BoardState) -> str:
    """The game so far in the project's record format (see `records`)."""
    return write_record(state.board, tags={"Event": "dvonn-board game"})


def layout() -> dict:
    """What never changes: space names and grid coordinates, and the LED colour language."""
    return {
        "spaces": list(SPACES),
        "coords": [list(c) for c in COORDS],
        "signals": {s.name: {"rgb": "#%02x%02x%02x" % s.rgb, "pattern": s.pattern,
                             "meaning": _(s.meaning), "label": _(SIGNAL_WORDS[s.name]),
                             "pattern_word": _(PATTERN_WORDS[s.pattern])} for s in SIGNALS},
        "patterns": {name: {"period": p.period, "on": [list(x) for x in p.on],
                            "description": p.description} for name, p in PATTERNS.items()},
        "pieces": PIECE_WORDS,
    }

