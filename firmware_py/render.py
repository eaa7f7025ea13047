"""Terminal drawing of a DVONN position with rich: the hex board, the score and whose turn.

Each space is three characters: an empty space shows its name dimmed, a lone DVONN piece a red
`D`, a stack its top colour and height (`W3`, `B1`) with a red `*` when a DVONN piece is inside.
White's stacks are dark on light, Black's light on dark::

            c5  d5  e5 ...
    W2* B1  D   ...

>>> from firmware_py.rules import Board
>>> b = Board.from_plies(["e3"])
>>> "D" in board_text(b).plain and "f3" in board_text(b).plain
True
>>> status_text(b).plain
'Black to place a DVONN piece · ply 1 · White 0, Black 0'
"""

from __future__ import annotations

from rich.console import Console, Group
from rich.text import Text

from .i18n import N_, _
from .rules import WHITE, Board
from .spaces import COORDS, SPACES

CELL = 4  # characters per space, separator included
STYLE = {
    "W": "bold black on grey85",
    "B": "bold white on grey23",
    "D": "bold white on red3",
    "empty": "grey42",
    "dvonn_mark": "bold red1",
    "highlight": "reverse",
}
TO_PLACE = {
    (WHITE, "D"): N_("White to place a DVONN piece"), (1, "D"): N_("Black to place a DVONN piece"),
    (WHITE, "W"): N_("White to place a white piece"), (1, "W"): N_("Black to place a white piece"),
    (WHITE, "B"): N_("White to place a black piece"), (1, "B"): N_("Black to place a black piece"),
}
"""The status line's first part in phase 1, by whose turn and which piece."""


def cell(board: Board, space: int, highlighted: bool = False) -> Text:
    """The three-character picture of one space."""
    stack = board.stack(space)
    if not stack:
        t = Text(f"{SPACES[space]:<3}", style=STYLE["empty"])
    elif stack == ("D",):
        t = Text(" D ", style=STYLE["D"])
    else:
        top = stack[-1]
        t = Text(f"{top}{len(stack)}", style=STYLE[top])
        if "D" in stack:
            t.append("*", style=STYLE["dvonn_mark"])
        t.pad_right(3 - len(t.plain))
    if highlighted:
        t.stylize(STYLE["highlight"])
    return t


def board_text(board: Board, highlight=()) -> Text:
    """The hex board, row 5 at the top, row 1 at the bottom; `highlight`: spaces to reverse."""
    marked = set(highlight)
    rows: dict[int, list[tuple[int, int]]] = {}
    for space, (col, row) in enumerate(COORDS):
        rows.setdefault(row, []).append((col, space))
    out = Text()
    for row in sorted(rows, reverse=True):
        line = Text(f"{row + 1} ", style=STYLE["empty"])
        x = 0
        for col, space in rows[row]:
            want = CELL * col - 2 * row + 8  # half a cell further left per row up
            line.append(" " * (want - x))
            line.append_text(cell(board, space, space in marked))
            x = want + 3
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def status_text(board: Board) -> Text:
    """Whose turn (or the outcome), the ply number and the score."""
    white, black = board.score()
    white_turn = board.turn == WHITE
    if board.phase == 1:
        doing = _(TO_PLACE[board.turn, board.piece_to_place()])
    elif board.is_over():
        winner = board.winner()
        doing = (_("Game over: draw") if winner == "draw" else
                 _("Game over: White wins") if winner == WHITE else _("Game over: Black wins"))
    elif not board.has_moves(board.turn):
        doing = (_("White has no move and must pass") if white_turn else
                 _("Black has no move and must pass"))
    else:
        doing = _("White to move") if white_turn else _("Black to move")
    return Text(_("{doing} · ply {ply} · White {white}, Black {black}").format(
        doing=doing, ply=board.ply_count, white=white, black=black))


def legend_text(highlighted: bool = False) -> Text:
    """What the cells mean, for a reader who has not seen the board drawn before (two lines).

    >>> print(legend_text().plain)
    W5: White's stack of 5 (white on top) · B7*: Black's of 7, a DVONN piece inside
     D : a lone DVONN piece · e3: an empty space
    """
    t = Text()
    for picture, style, meaning, end in (
            ("W5", "W", _("White's stack of 5 (white on top)"), " · "),
            ("B7", "B", _("Black's of 7, a DVONN piece inside"), "\n"),
            (" D ", "D", _("a lone DVONN piece"), " · "),
            ("e3", "empty", _("an empty space"), ""),
            ("e3", "highlight", _("the last ply's spaces"), "")):
        if style == "highlight":
            if not highlighted:
                break
            t.append(" · ")
        t.append(picture, style=STYLE[style])
        if picture == "B7":
            t.append("*", style=STYLE["dvonn_mark"])
        t.append(f": {meaning}{end}")
    return t


def render(board: Board, highlight=()) -> Group:
    """Board and status line, ready for `Console.print`."""
    return Group(board_text(board, highlight), status_text(board))


def print_board(board: Board, console: Console | None = None, highlight=()) -> None:
    (console or Console()).print(render(board, highlight))


__all__ = ["board_text", "cell", "legend_text", "print_board", "render", "status_text"]
