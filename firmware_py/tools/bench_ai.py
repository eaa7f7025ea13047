"""Strength of the computer opponent, measured by engine matches (colours alternate).

    python -m firmware_py.tools.bench_ai                      # everything below, modest game counts
    python -m firmware_py.tools.bench_ai --only default --games 100
    python -m firmware_py.tools.bench_ai --only ladder --ladder-games 20 --levels 1-3 --json

Three measurements, the targets of issue 8:
  default  the default level, on its clock, against `random` (target >= 99 % wins) and
           `greedy` (target >= 90 % wins)
  pi       the default level with the node budget a Pi gets in its time (PI_SLOWDOWN times
           fewer nodes than here), against `greedy`
  ladder   each level against the one below, with fixed node budgets (LEVEL_NODES: the nodes
           this machine searches in the level's time) and the levels' depth caps
           (LEVEL_DEPTHS), so the comparison does not depend on how busy the machine is; and
           deterministic given the seed.
Prints one line per match (and with --json one object per match), so partial runs count.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .. import ai
from ..match import play_match

PI_SLOWDOWN = 4  # a Raspberry Pi 4 runs this code 3-5x slower than the development machine


def level_nodes(level: int) -> int:
    return ai.LEVEL_NODES[level]


def matches(games: int, ladder_games: int, only: str | None,
            levels: tuple[int, int] | None = None) -> list[tuple[str, str, str, int]]:
    d = ai.DEFAULT_LEVEL
    out = []
    if only in (None, "default"):
        out += [("default vs random", f"ai:{d}", "random", games),
                ("default vs greedy", f"ai:{d}", "greedy", games)]
    if only in (None, "pi"):
        pi_nodes = level_nodes(d) // PI_SLOWDOWN
        out += [("default (Pi budget) vs greedy", f"ai:{d},nodes={pi_nodes}", "greedy", games)]
    if only in (None, "ladder"):
        lo, hi = levels or (min(ai.LEVEL_NODES), max(ai.LEVEL_NODES))
        ladder = [lv for lv in sorted(ai.LEVEL_NODES) if lo <= lv <= hi]
        for low, high in zip(ladder, ladder[1:]):
            out.append((f"level {high} vs level {low}", f"ai:{high},nodes={level_nodes(high)}",
                        f"ai:{low},nodes={level_nodes(low)}", ladder_games))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.tools.bench_ai", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="games per match against random/greedy")
    p.add_argument("--ladder-games", type=int, default=20, help="games per level pair")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", choices=("default", "pi", "ladder"))
    p.add_argument("--levels", metavar="LOW-HIGH", default=None,
                   help="the ladder only between these levels (e.g. 1-3: 2 vs 1 and 3 vs 2)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true", help="a line per game on stderr")
    args = p.parse_args(argv)
    levels = None
    if args.levels:
        try:
            lo, hi = (int(x) for x in args.levels.split("-"))
        except ValueError:
            p.error(f"--levels {args.levels!r}: expected LOW-HIGH, e.g. 1-3")
        levels = (lo, hi)

    def progress(r) -> None:
        if args.progress:
            print(f"  game {r.game}: {r.white} vs {r.black}: {r.winner} {r.score[0]}-{r.score[1]}",
                  file=sys.stderr, flush=True)
    print(f"default level {ai.DEFAULT_LEVEL}; level seconds {ai.LEVEL_TIMES}; "
          f"level nodes {ai.LEVEL_NODES}; level depth caps {ai.LEVEL_DEPTHS}", file=sys.stderr)
    for name, first, second, n in matches(args.games, args.ladder_games, args.only, levels):
        t0 = time.perf_counter()
        _, summary = play_match(first, second, n, args.seed, on_game=progress)
        s = summary.to_json()
        t = summary.first_total
        if args.json:
            print(json.dumps({"match": name, **s, "wall_seconds": round(time.perf_counter() - t0)}),
                  flush=True)
        else:
            print(f"{name:32} {first:>20} vs {second:<20} {n:4d} games  "
                  f"W-D-L {t.wins}-{t.draws}-{t.losses}  {100 * summary.score_rate():5.1f} %  "
                  f"margin {s['mean_margin']:+5.1f}  s/ply mean {s['mean_seconds']['first']:.3f}"
                  f" max {s['max_seconds']['first']:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
