"""`dvonn-board match --white SPEC --black SPEC --games N [--seed S] [--openings FILE |
--placements SPEC] [--reply-timeout S] [--json]`: engine games, also against outside programs
(prog:COMMAND)."""

from __future__ import annotations

import json
import sys

ORDER = 40


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "match", help="play engine games between two players (no physics)",
        description="Play engine games between two players and print each game's winner and "
                    "score, then a summary (wins, draws, losses per side). SPEC: random, "
                    "greedy, ai:LEVEL (1..5, by time per move), ai:LEVEL,nodes=N, "
                    "ai:LEVEL,depth=D, ai:LEVEL,time=SECONDS, ai:LEVEL,game=SECONDS (for the "
                    "whole game), ai:classic (the engine before issue 15, same options) or "
                    "prog:COMMAND (an outside program speaking the CodeCup DVONN protocol on "
                    "stdin/stdout, started once per game, e.g. prog:/tmp/prima/player; a garbled "
                    "or illegal reply, or none within --reply-timeout, loses that game). "
                    "Colours alternate between games unless --fixed-colours.")
    p.add_argument("--white", required=True, metavar="SPEC", help="the first player (White "
                   "in odd-numbered games)")
    p.add_argument("--black", required=True, metavar="SPEC", help="the second player")
    p.add_argument("--games", type=int, default=10, metavar="N")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="makes the match "
                   "reproducible (exactly so without time limits)")
    p.add_argument("--fixed-colours", action="store_true",
                   help="the --white player has White in every game")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per game per line, then a summary object")
    p.add_argument("--record", action="store_true", help="also print each game's plies")
    p.add_argument("--reply-timeout", type=float, default=None, metavar="SECONDS",
                   help="how long a prog: player may take for one reply before it loses the "
                        "game (default 60; its own clock is its business)")
    p.add_argument("--placements", metavar="SPEC",
                   help="both colours' placements are made by this player, and --white and "
                        "--black take over for the moving phase (a player that is SPEC itself "
                        "plays on): measures the moving phase apart, also against a prog: "
                        "player, which --openings cannot")
    p.add_argument("--openings", metavar="FILE",
                   help="placement phases, one per line (49 ply tokens; a longer game record "
                        "counts up to its 49th ply): each pair of games starts from the next "
                        "one, colours swapped, so the moving phase is measured on its own")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..match import play_match, read_openings
    from ..players import is_program, parse_spec

    for spec in (args.white, args.black, *([args.placements] if args.placements else [])):
        try:
            parse_spec(spec)
        except ValueError as e:
            print(f"dvonn-board match: {e}", file=sys.stderr)
            return 2
    if args.reply_timeout is not None and args.reply_timeout <= 0:
        print(f"dvonn-board match: --reply-timeout {args.reply_timeout:g}: must be positive",
              file=sys.stderr)
        return 2
    if args.openings and args.placements:
        print("dvonn-board match: give --openings or --placements, not both", file=sys.stderr)
        return 2
    if args.openings and any(is_program(s) for s in (args.white, args.black)):
        print("dvonn-board match: --openings cannot be used with a prog: player (the CodeCup "
              "protocol starts every game from the empty board; --placements SPEC splits the "
              "phases instead)", file=sys.stderr)
        return 2
    if args.placements and any(is_program(s) and s.strip() != args.placements.strip()
                               for s in (args.white, args.black)):
        print(f"dvonn-board match: --placements {args.placements}: a prog: player must make "
              "the placements itself (the CodeCup protocol starts every game from the empty "
              "board)", file=sys.stderr)
        return 2
    if args.games < 1:
        print(f"dvonn-board match: --games {args.games}: must be at least 1", file=sys.stderr)
        return 2
    openings = None
    if args.openings:
        try:
            openings = read_openings(args.openings)
        except ValueError as e:
            print(f"dvonn-board match: --openings {e}", file=sys.stderr)
            return 2

    def show(r) -> None:
        if args.json:
            obj = r.to_json()
            if not args.record:
                obj.pop("record")
            print(json.dumps(obj), flush=True)
            return
        w, b = r.score
        who = "draw" if r.winner == "draw" else f"{r.winner} ({getattr(r, r.winner)}) wins"
        opening = "" if r.opening is None else f" (opening on line {r.opening})"
        forfeit = "" if r.forfeit is None else f" by forfeit: {r.forfeit}"
        print(f"game {r.game}: {r.white} (white) vs {r.black} (black): {who} {w}-{b}, "
              f"{r.plies} plies{opening}{forfeit}", flush=True)
        if args.record:
            print("  " + " ".join(r.record))

    _, summary = play_match(args.white, args.black, args.games, args.seed,
                            alternate=not args.fixed_colours, on_game=show, openings=openings,
                            reply_timeout=args.reply_timeout, placements=args.placements)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(summary.text())
    return 0
