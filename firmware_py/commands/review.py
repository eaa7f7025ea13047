"""`dvonn-board review FILE [--game N] [--svg OUT] [--nodes N]`: the engine reviews a game.

Prints the evaluation after every ply of the moving phase (White's side, in pieces) with a
one-line graph, and the biggest swings as mistakes with the better move; `--svg OUT` writes
the evaluation graph as an SVG picture (the one the web view shows after a game). The file
may be any record `replay` reads; the same budget gives the same review on any machine.
"""

from __future__ import annotations

import sys

ORDER = 25


def register(subparsers) -> None:
    p = subparsers.add_parser("review", help="the engine's review of a game: evaluation, "
                                             "mistakes, a graph",
                              description="The engine's evaluation after every ply, the "
                                          "biggest swings marked as mistakes with the better "
                                          "move, and (--svg) the evaluation graph.")
    p.add_argument("file", metavar="FILE", help="a game record (our format, Little Golem, JSON)")
    p.add_argument("--game", type=int, default=1, metavar="N",
                   help="which game of a file holding several (default 1)")
    p.add_argument("--svg", metavar="OUT", default=None, help="write the evaluation graph here")
    p.add_argument("--nodes", type=int, default=None, metavar="N",
                   help="the engine's budget per position (default 4000; more is slower and "
                        "surer)")
    from ._options import add_language_argument
    add_language_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ._options import use_language
    use_language(args)
    from ..i18n import _
    from ..review import REVIEW_NODES, review, review_svg
    from .show import one_game

    prog = "dvonn-board review"
    nodes = REVIEW_NODES if args.nodes is None else args.nodes
    if not 100 <= nodes <= 10_000_000:
        print(f"{prog}: --nodes {nodes}: must be from 100 to 10000000", file=sys.stderr)
        return 2
    game, status = one_game(prog, args.file, args.game)
    if game is None:
        return status
    r = review(game.plies, nodes=nodes)
    print(r.text())
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(review_svg(r))
        except OSError as e:
            print(f"{prog}: --svg {args.svg}: {e}", file=sys.stderr)
            return 1
        print(_("wrote the evaluation graph to {path}").format(path=args.svg))
    return 0
