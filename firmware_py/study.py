"""Study: set up a recorded position on the board and play on, or replay a game ply by ply.

- `start_from(store, record, ply)` writes the record's first `ply` plies to the store as a new
  game; the session then resumes it as it resumes any game: the controller checks the pieces
  against it and the LEDs guide the players to build it (orange: a stack belongs here, pink:
  this should be empty), while `setup_lines` lists every stack bottom to top in the terminal
  and on the page (`session.rebuild`, as after a takeback). Once the board matches, play goes on.
- `RecordPlayer`s (one per colour) make the session show each next ply of a record on the LEDs
  the way the computer's move is shown (the stack to lift double-flashes teal, its destination
  flashes lime) and record only that ply (`script.Script`); so a game is replayed on the board,
  each ply waiting until the players have carried it out.

>>> from firmware_py.records import read_record
>>> record = read_record("e3 f3 g3 a1")
>>> players = [RecordPlayer(c, record.plies) for c in (0, 1)]
>>> str(players[1].update(Board.from_plies(["e3"])))       # Black's next ply in the record
'f3'
>>> setup_lines(Board.from_plies(["e3", "f3"]))
['e3: one D', 'f3: one D']
"""

from __future__ import annotations

from .errors import RecordError
from .i18n import _
from .rules import Board, Ply
from .rebuild import rebuild_lines


def position_at(plies: list[Ply], ply: int | None) -> Board:
    """The record's position after `ply` plies (None: all); RecordError naming what is wrong."""
    n = len(plies) if ply is None else ply
    if not 0 <= n <= len(plies):
        raise RecordError(f"--ply {ply}: the record has {len(plies)} plies (0..{len(plies)})")
    board = Board.from_plies(plies[:n])
    if board.is_over():
        raise RecordError(f"--ply {n}: the game is over there; choose an earlier ply "
                          f"(at most {n - 1})")
    return board


def start_from(store, record, ply: int | None = None, tags: dict | None = None) -> int:
    """A new game in `store` holding the record's first `ply` plies (None: all); its id."""
    board = position_at(record.plies, ply)
    game_tags = {k: v for k, v in record.tags.items() if k not in ("Result", "PlyTimes")}
    game_tags.update(tags or {})
    game_tags["Setup"] = f"from a record, after ply {board.ply_count}"
    game = store.new_game(game_tags)
    for n, p in enumerate(board.move_stack):
        store.add_ply(game, p, index=n)
    return game


def setup_lines(board: Board) -> list[str]:
    """What to put on an empty board to build `board`: one line per stack, bottom to top."""
    return rebuild_lines(Board(), board)


class RecordPlayer:
    """The plies of one colour in a record, shown as the computer's are (`session.computer`):
    `update(board)` is the record's next ply while the board's game follows the record."""

    def __init__(self, colour: int, plies: list[Ply]):
        self.colour = colour
        self.plies = list(plies)
        self.name = _("the record")  # who shows the ply (script.Script.names)

    def update(self, board: Board) -> Ply | None:
        n = board.ply_count
        if board.turn != self.colour or n >= len(self.plies) or board.is_over():
            return None
        if board.move_stack != self.plies[:n]:
            return None  # the game left the record (a takeback and another ply)
        return self.plies[n]

    def done(self, board: Board) -> bool:
        return board.ply_count >= len(self.plies)
