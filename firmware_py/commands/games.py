"""`dvonn-board games list|export ID|takeback`: the stored games.

    dvonn-board games list [--json]              every game: id, start, plies, result, players
    dvonn-board games export ID [--out FILE] [--format ours|lg]
                                                 one game in our record format (or Little
                                                 Golem's transcript)
    dvonn-board games takeback [ID]              take back the last ply of the unfinished game

`--db FILE` (or `$DVONN_BOARD_DB`), before or after the action, picks the database; the default
lives in the user's data directory, and the simulator's games are beside it in
sim-games.sqlite3. None of these creates a database. A takeback while `dvonn-board play` runs
is picked up by the board within a second (a ply it commits meanwhile is refused and taken back).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import StoreError


ORDER = 40


def add_db_argument(parser, default=None) -> None:
    parser.add_argument("--db", metavar="FILE", default=default,
                        help="the game database (default: $DVONN_BOARD_DB, else games.sqlite3 in "
                             "the user's data directory)")


def register(subparsers) -> None:
    p = subparsers.add_parser("games", help="list, export or take back stored games",
                              description="The games stored by `dvonn-board play` and `sim`.")
    sub = p.add_subparsers(dest="games_command", metavar="ACTION", required=True)
    ls = sub.add_parser("list", help="list every stored game")
    ls.add_argument("--json", action="store_true", help="one JSON object per game per line")
    ex = sub.add_parser("export", help="write a game in our record format")
    ex.add_argument("id", type=int, metavar="ID")
    ex.add_argument("--out", metavar="FILE", default=None, help="write here instead of stdout")
    ex.add_argument("--format", choices=("ours", "lg"), default="ours",
                    help="ours (default: tags, numbered plies, the result) or lg (a Little "
                         "Golem transcript, which `replay` and `review` also read)")
    tb = sub.add_parser("takeback", help="take back the last ply of a game")
    tb.add_argument("id", type=int, metavar="ID", nargs="?", default=None,
                    help="the game (default: the unfinished one)")
    add_db_argument(p)
    for q in (ls, ex, tb):  # also after the action; not given there, it keeps the one before
        add_db_argument(q, default=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..store import Store

    action = {"list": _list, "export": _export, "takeback": _takeback}[args.games_command]
    try:
        # Nothing here creates a database: there is nothing to list or take back in a new one.
        with Store(args.db, create=False) as store:
            return action(store, args)
    except StoreError as e:
        if args.games_command == "list" and str(e).startswith("no game database"):
            print(f"no games: {e}")
            _mention_sim_games(args)
            return 0
        print(f"dvonn-board games {args.games_command}: {e}", file=sys.stderr)
        return 1


def _mention_sim_games(args) -> None:
    """The simulator keeps its games apart: say where, when they exist and were not listed."""
    from ..store import default_path, sim_path

    sim = sim_path()
    if args.db is None and default_path() != sim and sim.is_file():
        print(f"the simulator's games are in {sim}: dvonn-board games --db {sim} list")


def _players(tags: dict[str, str]) -> str:
    white, black = tags.get("White"), tags.get("Black")
    return f"{white or '?'} - {black or '?'}" if white or black else ""


def _list(store: Store, args) -> int:
    games = store.games()
    if args.json:
        for g in games:
            print(json.dumps({"id": g.id, "started": g.started, "finished": g.finished,
                              "plies": g.ply_count, "result": g.result, "tags": g.tags}))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"games in {store.path}", title_justify="left")
    for column in ("id", "started (UTC)", "plies", "result", "players", "event"):
        table.add_column(column)
    for g in games:
        table.add_row(str(g.id), g.started[:19].replace("T", " "), str(g.ply_count),
                      g.result or "unfinished", _players(g.tags), g.tags.get("Event", ""))
    Console().print(table if games else f"no games in {store.path}")
    _mention_sim_games(args)
    return 0


def _export(store: Store, args) -> int:
    text = store.export(args.id)  # (checks that the stored plies replay)
    if getattr(args, "format", "ours") == "lg":
        from ..little_golem import write_little_golem
        text = write_little_golem(store.record(args.id))
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as e:
            print(f"dvonn-board games export: --out {args.out}: {e}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


def _takeback(store: Store, args) -> int:
    if args.id is None:
        info = store.unfinished()
        if info is None:
            print("dvonn-board games takeback: no unfinished game (give an ID)", file=sys.stderr)
            return 1
        game_id = info.id
    else:
        game_id = args.id
    from rich.console import Console

    from ..render import render
    from ..rebuild import rebuild_lines

    before = store.board(game_id)
    if not before.move_stack:
        print(f"dvonn-board games takeback: game {game_id} has no ply to take back",
              file=sys.stderr)
        return 1
    after = before.copy()
    taken = []
    while True:  # the last ply, and the forced passes recorded after it (as the board does)
        ply = store.undo_ply(game_id)
        after.pop()
        taken.insert(0, str(ply))
        if not ply.is_pass or not after.move_stack:
            break
    console = Console()
    console.print(f"game {game_id}: took back ply {after.ply_count + 1} "
                  f"({' '.join(taken)}). Rebuild:")
    for line in rebuild_lines(before, after):
        console.print(f"  {line}")
    console.print(render(after))
    return 0
