"""`dvonn-board bench inference`: how well and how cheaply the controller reads the board.

Whole autoplayed games (see `autoplay`) on each simulated board (`--presets`: default, a
careful builder's; rough, every imperfection at its worst; ideal, none), with each ADC (`--adc`:
12-bit RP2040 scanner, 10-bit MCP3008) and at each noise level of sensing.md (clean 0, default
0.1, poor 0.3, bad 1.0 mT RMS per raw sample); per row: the share of plies recognised without
asking, the plies asked, wrong commits (must be 0), games recorded exactly, games stalled
(nothing recorded for two minutes), how long after the board settled (`SETTLE_S` after the hand
let go) a ply was recorded (median and p95, simulated time; questions included), and the
controller's wall time per frame (mean, p99, the longest frame: the heaviest decision).

    dvonn-board bench inference [--games N] [--seed S] [--mistakes RATE] [--levels ...]
                                [--presets ...] [--adc 12 10] [--set KEY=VALUE ...]
                                [--beyond] [--json]

`--beyond` plays, instead of the noise levels, boards that no preset covers, one difference at a
time (`dvonn_sim.params.BEYOND`: a thicker top, weaker magnets, sensors with large offsets, fast
drift...): boards the controller was never tuned to.
"""

from __future__ import annotations

import json

LEVELS = ("clean", "default", "poor", "bad")
PRESETS = ("default", "rough", "ideal")
SETTLE_S = 0.2  # the controller's default settle time


def register(bench_subparsers) -> None:
    p = bench_subparsers.add_parser(
        "inference", help="move recognition across noise levels: share without asking, wrong "
                          "commits, cost per frame",
        description="Autoplayed games at each noise level (simulated time, scripted players "
                    "reading the LEDs): share of plies recognised without asking, wrong "
                    "commits (must be 0), processing time per frame.")
    p.add_argument("--games", type=int, default=3, help="games per noise level (default 3)")
    p.add_argument("--seed", type=int, default=1, help="first seed (game i uses seed+i)")
    p.add_argument("--mistakes", type=float, default=0.0, metavar="RATE",
                   help="chance per ply of a human mistake (default 0)")
    p.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS,
                   help="noise levels to run (default: all four)")
    p.add_argument("--presets", nargs="+", default=["default", "rough"], choices=PRESETS,
                   help="simulated boards to run (default: default rough)")
    p.add_argument("--adc", nargs="+", type=int, default=[12, 10], choices=(12, 10),
                   help="ADC bits to run (default: 12 10)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="board",
                   help="change one number of every simulated board (as `sim --autoplay "
                        "--set`); may be given again")
    p.add_argument("--beyond", action="store_true",
                   help="instead of the noise levels: boards no preset covers, one difference "
                        "at a time (a thicker top, N35 magnets, sensors with 20 mT offsets, "
                        "fast drift...), each at the default noise level")
    p.add_argument("--json", action="store_true", help="one JSON object per row")
    p.set_defaults(func=run)


def measure(level: str, games: int, seed: int, mistakes: float, preset: str = "default",
            adc_bits: int = 12, board: dict | None = None) -> dict:
    """Figures for one board, ADC and noise level over `games` autoplayed games; `board`:
    changes beyond the preset (`Params.changed`)."""
    from dvonn_sim.autoplay import play_game, quantile_ms

    results = [play_game(seed=seed + i, noise=level, mistakes=mistakes, preset=preset,
                         adc_bits=adc_bits, board=board) for i in range(games)]
    plies = sum(r.auto + r.asked for r in results)
    frames = sum(r.frames for r in results)
    after = sorted(max(0.0, d - SETTLE_S) for r in results for _, d in r.delays)
    return {
        "preset": preset,
        "adc_bits": adc_bits,
        "noise": level,
        "games": games,
        "mistakes": mistakes,
        "plies": plies,
        "auto": sum(r.auto for r in results),
        "asked": sum(r.asked for r in results),
        "auto_share": round(sum(r.auto for r in results) / plies, 4) if plies else 0.0,
        "wrong": sum(r.wrong for r in results),
        "games_exact": sum(r.match for r in results),
        "stalled": sum(r.stalled for r in results),
        "resyncs": sum(r.resyncs for r in results),
        "after_settle_ms_median": quantile_ms(after, 0.5),
        "after_settle_ms_p95": quantile_ms(after, 0.95),
        "frame_us_mean": round(sum(r.frame_us_mean * r.frames for r in results) / frames, 1),
        "frame_us_p99": max(r.frame_us_p99 for r in results),
        "decide_ms_max": max(r.decide_ms_max for r in results),
    }


def run(args) -> int:
    prog = "dvonn-board bench inference"
    if args.games < 1:
        print(f"{prog}: --games must be at least 1")
        return 2
    from dvonn_sim.params import BEYOND, settings
    from ..commands.sim import board_changes
    try:
        for preset in args.presets:
            for adc_bits in args.adc:
                board_changes(args.board, preset, adc_bits)  # checked before the first game
    except ValueError as e:  # a ProfileError names the key
        print(f"{prog}: {e}")
        return 2
    # (label, lines): the noise levels on the boards as given, or --beyond's boards.
    variants = ([(name, lines) for name, lines in BEYOND.items()] if args.beyond
                else [("", [])])
    levels = ["default"] if args.beyond else args.levels
    if not args.json:
        print(f"{args.games} autoplayed game(s) per row, mistakes {args.mistakes:g}"
              + "".join(f", {line}" for line in args.board))
        print(f"{'board':8} {'adc':>3} {'noise':8} {'plies':>6} {'auto':>7} {'asked':>6} "
              f"{'wrong':>6} {'exact':>6} {'stalls':>6} "
              f"{'settle+ms':>9} {'p95':>5} {'us/frame':>9} {'p99 us':>8} {'max ms':>7}"
              + ("  beyond the preset" if args.beyond else ""))
    wrong = 0
    rows = [(p, a, lv, v) for v in variants for p in args.presets for a in args.adc
            for lv in levels]
    for preset, adc_bits, level, (name, lines) in rows:
        changes = settings(args.board + lines)
        f = measure(level, args.games, args.seed, args.mistakes, preset, adc_bits, changes)
        wrong += f["wrong"]
        if name:
            f["beyond"] = name
        if args.json:
            print(json.dumps(f), flush=True)
        else:
            print(f"{preset:8} {adc_bits:3d} {level:8} {f['plies']:6d} "
                  f"{f['auto_share'] * 100:6.1f}% {f['asked']:6d} "
                  f"{f['wrong']:6d} {f['games_exact']:3d}/{f['games']:<2d} {f['stalled']:6d} "
                  f"{f['after_settle_ms_median']:9.0f} {f['after_settle_ms_p95']:5.0f} "
                  f"{f['frame_us_mean']:9.1f} {f['frame_us_p99']:8.0f} {f['decide_ms_max']:7.1f}"
                  + (f"  {name}" if name else ""), flush=True)
    return 1 if wrong else 0
