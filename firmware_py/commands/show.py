"""`dvonn-board show FILE [--ply N] [--game G]`: draw a recorded position as a hex board."""

from __future__ import annotations

import sys

ORDER = 21


def register(subparsers) -> None:
    p = subparsers.add_parser("show", help="draw the position of a game record",
                              description="Draw a game record's position (the end, or after "
                                          "ply N) as a hex board: stacks with height and top "
                                          "colour, DVONN pieces, score and whose turn.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--ply", type=int, default=None,
                   help="show the position after this many plies (default: the end; 0: empty)")
    p.add_argument("--game", type=int, default=1, help="which game of a multi-game file (1-based)")
    from ._options import add_language_argument
    add_language_argument(p)
    p.set_defaults(func=run)


def one_game(prog: str, path: str, number: int):
    """(game number `number` of the record file, 0), or (None, exit status) after saying why
    on stderr (1: the file cannot be read; 2: it holds no such game)."""
    from ..errors import RecordError
    from ..records import read_file

    try:
        games = read_file(path)
    except (OSError, UnicodeDecodeError, RecordError) as e:
        print(f"{prog}: {path}: {e}", file=sys.stderr)
        return None, 1
    if not 1 <= number <= len(games):
        print(f"{prog}: --game {number}: {path} holds {len(games)} game(s)", file=sys.stderr)
        return None, 2
    return games[number - 1], 0


def run(args) -> int:
    from ._options import use_language
    use_language(args)
    from rich.console import Console

    from ..i18n import _
    from ..render import legend_text, render
    from ..rules import Board
    from ..spaces import SPACES

    console = Console()
    game, status = one_game("dvonn-board show", args.file, args.game)
    if game is None:
        return status
    plies = game.plies
    n = len(plies) if args.ply is None else args.ply
    if not 0 <= n <= len(plies):
        print(f"dvonn-board show: --ply {n}: the game has plies 0..{len(plies)}", file=sys.stderr)
        return 2
    board = Board.from_plies(plies[:n])
    last = plies[n - 1] if n else None
    highlight = [s for s in (last.src, last.dst) if s >= 0] if last else []
    console.print(render(board, highlight))
    console.print(legend_text(bool(highlight)))
    if last is not None:
        removed = ", ".join(SPACES[s] for s in sorted(board.last_removed))
        console.print(_("last ply: {ply} (removed: {spaces})").format(ply=last, spaces=removed)
                      if removed else _("last ply: {ply}").format(ply=last))
    if n == len(plies) and game.resigned is not None:
        console.print(_("White resigned.") if game.resigned == 0 else _("Black resigned."))
    return 0

