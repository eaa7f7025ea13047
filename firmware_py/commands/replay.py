"""`dvonn-board replay FILE... [--json]`: replay game records and report how each one ends.

With --json, one object per game on its own line (a JSON file holding several games gives one
line per game, with `game` numbering them): file, ok, plies, finished, score, winner, and on an
illegal record error, ply (1-based index of the offending token) and token. Exit status 0 when
every record was legal, 1 otherwise.
"""

from __future__ import annotations

import json
import sys

ORDER = 20


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help="replay game records and check them",
                              description="Replay game records (ours, Little Golem, JSON, plain tokens).")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object per game and line")
    from ._options import add_language_argument
    add_language_argument(p)
    p.set_defaults(func=run)


def outcome(path: str, record, board, error, game: int | None = None) -> dict:
    """The JSON-ready summary of one replayed game."""
    from ..rules import PLAYER_NAMES

    white, black = board.score()
    winner = board.winner()
    out = {
        "file": path,
        "ok": error is None,
        "plies": board.ply_count,
        "finished": board.is_over(),
        "score": {"white": white, "black": black},
        "winner": PLAYER_NAMES[winner] if winner in (0, 1) else winner,
    }
    if game is not None:
        out["game"] = game
    if record is not None and record.resigned is not None:
        out["resigned"] = PLAYER_NAMES[record.resigned]
    if error is not None:
        out.update(error=str(error), ply=error.ply, token=error.token)
        if error.line is not None:
            out["line"] = error.line
    return out


def run(args) -> int:
    from ._options import use_language
    use_language(args)
    from ..records import replay_file

    all_ok = True
    write = sys.stdout.write
    for path in args.files:
        games = replay_file(path)
        several = len(games) > 1
        for n, (record, board, error) in enumerate(games, 1):
            result = outcome(path, record, board, error, n if several else None)
            all_ok &= result["ok"]
            if args.json:
                write(json.dumps(result) + "\n")
            else:
                write(describe(result) + "\n")
    return 0 if all_ok else 1


def describe(r: dict) -> str:
    from ..i18n import _, ngettext

    name = (_("{file} game {n}").format(file=r["file"], n=r["game"]) if "game" in r
            else r["file"])
    s = r["score"]
    words = dict(name=name, plies=r["plies"], white=s["white"], black=s["black"])
    if not r["ok"]:
        return _("{name}: ILLEGAL: {error}").format(name=name, error=r["error"])
    n = r["plies"]
    if r["finished"]:
        text = {"draw": ngettext(
                    "{name}: {plies} ply, finished, draw (White {white}, Black {black})",
                    "{name}: {plies} plies, finished, draw (White {white}, Black {black})", n),
                "white": ngettext(
                    "{name}: {plies} ply, finished, white wins (White {white}, Black {black})",
                    "{name}: {plies} plies, finished, white wins (White {white}, Black {black})",
                    n),
                "black": ngettext(
                    "{name}: {plies} ply, finished, black wins (White {white}, Black {black})",
                    "{name}: {plies} plies, finished, black wins (White {white}, Black {black})",
                    n)}[r["winner"]]
        return text.format(**words)
    if "resigned" in r:
        return (ngettext("{name}: {plies} ply, white resigned (White {white}, Black {black})",
                         "{name}: {plies} plies, white resigned (White {white}, Black {black})", n)
                if r["resigned"] == "white" else
                ngettext("{name}: {plies} ply, black resigned (White {white}, Black {black})",
                         "{name}: {plies} plies, black resigned (White {white}, Black {black})", n)
                ).format(**words)
    return ngettext("{name}: {plies} ply, not finished (White {white}, Black {black})",
                    "{name}: {plies} plies, not finished (White {white}, Black {black})",
                    n).format(**words)
