"""`dvonn-board bench ...`: benchmarks that print figures (speed is measured here, never asserted
in tests).

    dvonn-board bench rules [--games N] [--json] [--board]   random complete games per second

Other benchmarks plug in as sibling subcommands from their own modules: `bench inference` lives
in firmware_py/tools/bench_inference.py, which, when present, must offer `register(bench_subparsers)`
(adding its subparser and `func`); this module imports it only if it exists, and that module
should import its heavy dependencies inside its run function so `dvonn-board --help` stays fast.
"""

from __future__ import annotations

import importlib
import importlib.util
import json

ORDER = 80
PLUGINS = ("firmware_py.tools.bench_inference",  # each offers register(bench_subparsers)
           "firmware_py.tools.bench_startup", "firmware_py.tools.bench_remote",
           "firmware_py.tools.bench_serial")


def register(subparsers) -> None:
    bench = subparsers.add_parser("bench", help="benchmarks (rules, ...)",
                                  description="Benchmarks that print figures.")
    sub = bench.add_subparsers(dest="bench", metavar="BENCHMARK", required=True)
    rules = sub.add_parser("rules", help="random complete games per second",
                           description="Uniformly random complete games (random placements, "
                                       "then random legal moves and forced passes until neither "
                                       "player can move), timed on one core.")
    rules.add_argument("--games", type=int, default=5000, help="games to play (default 5000)")
    rules.add_argument("--seed", type=int, default=1)
    rules.add_argument("--json", action="store_true", help="print one JSON object")
    rules.add_argument("--board", action="store_true",
                       help="play through the public Board API (legal_plies/push) instead of "
                            "the playout fast path")
    rules.add_argument("--compare", action="store_true",
                       help="also play a quarter as many games through the Board API, "
                            "alternating with the fast path, and print the speed ratio")
    rules.set_defaults(func=run_rules)
    for name in PLUGINS:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(sub)


def run_rules(args) -> int:
    from ..tools.bench_rules import run

    if args.games < 1:
        print("dvonn-board bench rules: --games must be at least 1")
        return 2
    engine = "board" if args.board else "fast"
    if args.compare:
        return _compare(args)
    result = run(args.games, args.seed, engine)
    figures = result.as_dict()
    figures["engine"] = engine
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{result.games} random games ({engine}) in {result.seconds:.2f} s on one core")
    print(f"  games/s:        {result.games_per_second:,.0f}")
    print(f"  plies/s:        {result.plies_per_second:,.0f}  "
          f"({figures['plies_per_game']} plies per game)")
    print(f"  moves per turn: {result.moves_per_turn:.1f}  (legal moves, phase 2 turns with a move)")
    n = result.games
    print(f"  results:        White {result.white_wins / n:.0%}, Black {result.black_wins / n:.0%}, "
          f"draw {result.draws / n:.0%}")
    return 0


def _compare(args) -> int:
    """The fast path and the Board API side by side: five rounds, alternating, medians of the
    games per CPU second (so load from other programs shifts both alike)."""
    import statistics

    from ..tools.bench_rules import run

    rates = {"fast": [], "board": []}
    for round_ in range(5):
        for engine, games in (("fast", args.games), ("board", max(1, args.games // 4))):
            rates[engine].append(run(max(1, games // 5), args.seed + round_,
                                     engine).games_per_second)
    fast, board = statistics.median(rates["fast"]), statistics.median(rates["board"])
    if args.json:
        print(json.dumps({"fast_games_per_second": round(fast, 1),
                          "board_games_per_second": round(board, 1),
                          "ratio": round(fast / board, 2)}))
        return 0
    print(f"fast path {fast:,.0f} games/s, Board API {board:,.0f} games/s (medians of 5 "
          f"alternating rounds, CPU time): {fast / board:.2f}x")
    return 0
