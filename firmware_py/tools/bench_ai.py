"""Strength of the computer opponent, measured by engine matches (colours alternate).

    python -m firmware_py.tools.bench_ai                      # everything below, modest game counts
    python -m firmware_py.tools.bench_ai --only default --games 100
    python -m firmware_py.tools.bench_ai --only ladder --ladder-games 20 --levels 1-3 --json
    nice -n 10 python -m firmware_py.tools.bench_ai --only classic --classic-games 100
    nice -n 19 python -m firmware_py.tools.bench_ai --only speed --before main   # a speed-up
    nice -n 19 python -m firmware_py.tools.bench_ai --only pace --pace-games 10 --budget-scale 0.15

Six measurements, the targets of issues 8 and 15 and what the node budgets rest on:
  default  the default level, on its clock, against `random` (target >= 99 % wins) and
           `greedy` (target >= 90 % wins)
  pi       the default level with the node budget a Pi gets in its time (PI_SLOWDOWN times
           fewer nodes than here), against `greedy`
  ladder   each level against the one below, with fixed node budgets (LEVEL_NODES: the nodes
           this machine searches in the level's time) and the levels' depth caps
           (LEVEL_DEPTHS), so the comparison does not depend on how busy the machine is; and
           deterministic given the seed.
  classic  the default level against the engine before issue 15 (`ai:classic`) at its default
           level, each with the nodes its own engine searches in the level's time here (equal
           time, repeatable): from each side's own placements, and from the same placement
           phases (played by ai:classic against itself, colours swapped), which measures the
           moving phase alone. Targets: 90 % and 70 % of the games.
  speed    nodes per CPU second of the new engine and of ai:classic, side by side on the same
           16 moving-phase positions (the median; what LEVEL_NODES, the node budgets worth a
           level's time here, rest on); with --before REV, also the engine of that git
           revision of this repository (a speed-up measured in one run, on the same load)
  pace     CPU time a ply of the default level and of ai:classic, each with its node budget,
           in games between them (tables and caches kept from move to move, as in play),
           placements and moves apart: how many times ai:classic's nodes the new engine
           searches in the same time where a level's time goes, the moves
Prints one line per match (and with --json one object per match), so partial runs count.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .. import ai
from ..ai import classic
from ..match import play_match, play_openings

PI_SLOWDOWN = 4  # a Raspberry Pi 4 runs this code 3-5x slower than the development machine
OPENINGS_BY = "ai:classic,nodes=2000"  # who plays the shared placement phases


SPEED_POSITIONS = 16
SPEED_NODES = 6000  # nodes a search, per position and engine


def speed_positions(count: int = SPEED_POSITIONS, seed: int = 1) -> list:
    """Moving-phase positions of quick self-play games, from the first move to the middle."""
    import random

    from ..rules import N_PLACEMENTS, Board

    out = []
    for n in range(count):
        rng = random.Random(seed * 1000 + n)
        board, searcher = Board(), ai.Searcher(rng, table_bits=12)
        stop = N_PLACEMENTS + 2 * (n % 8)
        while board.ply_count < stop and not board.is_over():
            board.push(ai.choose(board, 1, rng, nodes=200, searcher=searcher).ply)
        if not board.is_over():
            out.append(board)
    return out


def speed(nodes: int = SPEED_NODES, count: int = SPEED_POSITIONS, seed: int = 1,
          before: str | None = None) -> dict:
    """Median nodes per CPU second of each engine, all searching the same positions in turn
    (so a change of machine load hits them alike). before: a git revision whose engine is
    measured too ("before_nodes_per_cpu_s")."""
    import random
    import statistics

    engines = [("new", ai.Searcher, None), ("classic", classic.Searcher, None)]
    if before is not None:
        engines.append(("before", *revision_engine(before)))
    rates: dict[str, list[float]] = {name: [] for name, _, _ in engines}
    for board in speed_positions(count, seed):
        for name, make, board_class in engines:
            position = board if board_class is None else board_class.from_plies(
                [str(p) for p in board.move_stack])
            searcher = make(random.Random(0))
            t0 = time.process_time()
            result = searcher.search(position, nodes=nodes)
            cpu = time.process_time() - t0
            rates[name].append(result.nodes / max(cpu, 1e-6))
    med = {name: statistics.median(r) for name, r in rates.items()}
    out = {"match": "speed", "positions": len(rates["new"]), "nodes_per_search": nodes,
           "new_nodes_per_cpu_s": round(med["new"]),
           "classic_nodes_per_cpu_s": round(med["classic"]),
           "ratio": round(med["new"] / med["classic"], 2)}
    if before is not None:
        out.update(before=before, before_nodes_per_cpu_s=round(med["before"]),
                   ratio_to_before=round(med["new"] / med["before"], 3))
    return out


def pace(games: int = 10, scale: float = 1.0, seed: int = 1) -> dict:
    """CPU milliseconds a placement and a move of the default level and of ai:classic, with
    their level node budgets times `scale`, over `games` games between them (colours
    alternating), and the new engine's nodes relative to ai:classic's at equal time a move."""
    from ..players import AIPlayer, ClassicPlayer
    from ..rules import N_PLACEMENTS, PASS, Board

    d = ai.DEFAULT_LEVEL
    budgets = {"new": level_nodes(d, scale), "classic": level_nodes(d, scale, classic.LEVEL_NODES)}
    spent = {(name, phase): [0, 0.0] for name in budgets for phase in ("placement", "move")}
    for g in range(games):
        new = AIPlayer(d, seed * 1000 + g, nodes=budgets["new"])
        old = ClassicPlayer(d, seed * 1000 + g, nodes=budgets["classic"])
        sides = (("new", new), ("classic", old)) if g % 2 == 0 else (("classic", old), ("new", new))
        board = Board()
        while not board.is_over():
            if board.legal_plies() == [PASS]:
                board.push(PASS)  # no choice: neither engine thinks
                continue
            name, player = sides[board.turn]
            t0 = time.process_time()
            ply = player(board)
            tally = spent[name, "placement" if board.ply_count < N_PLACEMENTS else "move"]
            tally[0] += 1
            tally[1] += time.process_time() - t0
            board.push(ply)
    ms = {k: 1000 * t / max(n, 1) for k, (n, t) in spent.items()}
    ratio = ms["new", "move"] / max(ms["classic", "move"], 1e-9)
    return {"match": "pace", "games": games, "new_nodes": budgets["new"],
            "classic_nodes": budgets["classic"],
            "new_ms": {"placement": round(ms["new", "placement"], 1),
                       "move": round(ms["new", "move"], 1)},
            "classic_ms": {"placement": round(ms["classic", "placement"], 1),
                           "move": round(ms["classic", "move"], 1)},
            "move_time_ratio": round(ratio, 2),
            "nodes_ratio_at_equal_time": round(budgets["new"] / budgets["classic"] / ratio, 2)}


def revision_engine(rev: str):
    """(Searcher, Board) of git revision `rev` of this repository, imported from a temporary
    copy under another package name. ValueError saying why if git cannot give it."""
    import importlib
    import io
    import os
    import subprocess
    import tarfile
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    try:
        data = subprocess.run(["git", "-C", str(root), "archive", rev, "firmware_py"],
                              capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        why = getattr(e, "stderr", b"") or str(e).encode()
        raise ValueError(f"no engine at git revision {rev!r}: "
                         f"{why.decode(errors='replace').strip()}") from None
    tmp = tempfile.mkdtemp(prefix="dvonn-before-")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tmp, filter="data")
    name = "firmware_py_before_" + "".join(c for c in rev if c.isalnum())
    os.rename(os.path.join(tmp, "firmware_py"), os.path.join(tmp, name))
    sys.path.insert(0, tmp)
    try:
        search = importlib.import_module(f"{name}.ai.search")
        rules = importlib.import_module(f"{name}.rules")
    finally:
        sys.path.remove(tmp)
    return search.Searcher, rules.Board


def level_nodes(level: int, scale: float = 1.0, table: dict[int, int] | None = None) -> int:
    return max(1, round((table or ai.LEVEL_NODES)[level] * scale))


def matches(games: int, ladder_games: int, only: str | None,
            levels: tuple[int, int] | None = None, classic_games: int = 100,
            scale: float = 1.0) -> list[tuple[str, str, str, int, bool]]:
    """(name, first SPEC, second SPEC, games, from shared openings) of each match to play.
    scale: multiplies every node budget (e.g. 0.15 for quicker matches that keep the ratios)."""
    def budget(level: int, table: dict[int, int] | None = None) -> int:
        return level_nodes(level, scale, table)

    d = ai.DEFAULT_LEVEL
    out = []
    if only in (None, "default"):
        out += [("default vs random", f"ai:{d}", "random", games, False),
                ("default vs greedy", f"ai:{d}", "greedy", games, False)]
    if only in (None, "pi"):
        pi_nodes = budget(d) // PI_SLOWDOWN
        out += [("default (Pi budget) vs greedy", f"ai:{d},nodes={pi_nodes}", "greedy", games,
                 False)]
    if only in (None, "ladder"):
        lo, hi = levels or (min(ai.LEVEL_NODES), max(ai.LEVEL_NODES))
        ladder = [lv for lv in sorted(ai.LEVEL_NODES) if lo <= lv <= hi]
        for low, high in zip(ladder, ladder[1:]):
            out.append((f"level {high} vs level {low}", f"ai:{high},nodes={budget(high)}",
                        f"ai:{low},nodes={budget(low)}", ladder_games, False))
    if only in (None, "classic"):
        new = f"ai:{d},nodes={budget(d)}"
        old = f"ai:classic,nodes={budget(d, classic.LEVEL_NODES)}"
        out += [("default vs classic", new, old, classic_games, False),
                ("default vs classic, same placements", new, old, classic_games, True)]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.tools.bench_ai", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="games per match against random/greedy")
    p.add_argument("--ladder-games", type=int, default=20, help="games per level pair")
    p.add_argument("--classic-games", type=int, default=100,
                   help="games per match against ai:classic")
    p.add_argument("--budget-scale", type=float, default=1.0, metavar="F",
                   help="multiply every node budget by F (e.g. 0.15: quicker matches, the "
                        "same ratios between the players)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", choices=("default", "pi", "ladder", "classic", "speed", "pace"))
    p.add_argument("--pace-games", type=int, default=10, help="games for pace (default 10)")
    p.add_argument("--before", metavar="REV",
                   help="speed: also measure the engine of this git revision (e.g. main)")
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
    if not args.budget_scale > 0:
        p.error(f"--budget-scale {args.budget_scale}: must be more than 0")
    if args.only in (None, "speed"):
        try:
            r = speed(seed=args.seed, before=args.before)
        except ValueError as e:
            p.error(f"--before {args.before}: {e}")
        before = (f", {args.before} {r['before_nodes_per_cpu_s']} (new/{args.before} "
                  f"{r['ratio_to_before']}x)" if args.before else "")
        print(json.dumps(r) if args.json else
              f"{'speed':36} nodes per CPU second, median of {r['positions']} positions: new "
              f"{r['new_nodes_per_cpu_s']}, ai:classic {r['classic_nodes_per_cpu_s']} "
              f"({r['ratio']}x){before}", flush=True)
    if args.only in (None, "pace"):
        if args.pace_games < 1:
            p.error(f"--pace-games {args.pace_games}: must be at least 1")
        r = pace(args.pace_games, args.budget_scale, args.seed)
        print(json.dumps(r) if args.json else
              f"{'pace':36} CPU ms a placement / a move over {r['games']} games: new "
              f"{r['new_ms']['placement']} / {r['new_ms']['move']} ({r['new_nodes']} nodes), "
              f"ai:classic {r['classic_ms']['placement']} / {r['classic_ms']['move']} "
              f"({r['classic_nodes']} nodes): moves {r['move_time_ratio']}x the time, "
              f"{r['nodes_ratio_at_equal_time']}x the nodes at equal time", flush=True)
    for name, first, second, n, shared in matches(args.games, args.ladder_games, args.only,
                                                  levels, args.classic_games,
                                                  args.budget_scale):
        t0 = time.perf_counter()
        openings = play_openings(OPENINGS_BY, (n + 1) // 2, args.seed) if shared else None
        _, summary = play_match(first, second, n, args.seed, on_game=progress,
                                openings=openings)
        s = summary.to_json()
        t = summary.first_total
        if args.json:
            print(json.dumps({"match": name, **s, "wall_seconds": round(time.perf_counter() - t0)}),
                  flush=True)
        else:
            print(f"{name:36} {first:>20} vs {second:<24} {n:4d} games  "
                  f"W-D-L {t.wins}-{t.draws}-{t.losses}  {100 * summary.score_rate():5.1f} %  "
                  f"margin {s['mean_margin']:+5.1f}  s/ply mean {s['mean_seconds']['first']:.3f}"
                  f" max {s['max_seconds']['first']:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
