"""`dvonn-board bench startup`: how long the command takes to start, against Python itself.

Every run of `dvonn-board` pays for what it imports (about 1 s more on a Pi 4 when a command
imported numpy, rich, pyserial, sqlite3 and the AI up front). This runs, in turns so that a
busy machine slows all of them alike, `python -c "import argparse"` (the floor: the
interpreter and an argument parser), `dvonn-board --help` and `dvonn-board replay FILE` (a
whole game record), each in a fresh process, and prints the median wall time of each and its
ratio to the floor. The target: both within 2x the floor.

    dvonn-board bench startup [--runs N] [--json]
"""

from __future__ import annotations

import json

TARGET_RATIO = 2.0


def register(bench_subparsers) -> None:
    p = bench_subparsers.add_parser(
        "startup", help="start-up time of --help and replay against `python -c 'import "
                        "argparse'`",
        description="Median wall time of fresh processes, run in turns: the interpreter with "
                    "argparse, `dvonn-board --help`, `dvonn-board replay FILE`; and each "
                    f"one's ratio to the first (target: within {TARGET_RATIO:g}x).")
    p.add_argument("--runs", type=int, default=30, help="runs of each (default 30)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def commands(record: str) -> dict[str, list[str]]:
    """What is timed: the floor and the two commands, as the console script runs them."""
    import sys

    entry = "import sys; from firmware_py.cli import main; sys.exit(main())"
    return {
        "python -c 'import argparse'": [sys.executable, "-c", "import argparse"],
        "dvonn-board --help": [sys.executable, "-c", entry, "--help"],
        "dvonn-board replay FILE": [sys.executable, "-c", entry, "replay", record],
    }


def measure(runs: int) -> dict[str, float]:
    """Median seconds per command over `runs` turns."""
    import os
    import statistics
    import subprocess
    import tempfile
    import time
    from pathlib import Path

    from ..records import write_record

    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "game.txt"
        record.write_text(write_record(_a_whole_game()), encoding="utf-8")
        todo = commands(str(record))
        # Compiled modules cached as an installed package has them (in tmp, not in the tree),
        # even where PYTHONDONTWRITEBYTECODE is set; a first run of each fills the cache.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        times: dict[str, list[float]] = {name: [] for name in todo}
        for turn in range(runs + 1):
            for name, argv in todo.items():
                start = time.perf_counter()
                subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               check=True, env=env)
                if turn:
                    times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def _a_whole_game():
    import random

    from ..rules import Board

    rnd, board = random.Random(1), Board()
    while legal := board.legal_plies():
        board.push(rnd.choice(legal))
    return board


def run(args) -> int:
    if args.runs < 1:
        print("dvonn-board bench startup: --runs must be at least 1")
        return 2
    medians = measure(args.runs)
    floor = next(iter(medians.values()))
    ratios = {name: t / floor for name, t in medians.items()}
    if args.json:
        print(json.dumps({"runs": args.runs, "median_ms": {k: round(v * 1000, 1)
                                                           for k, v in medians.items()},
                          "ratio": {k: round(v, 2) for k, v in ratios.items()},
                          "target_ratio": TARGET_RATIO}))
        return 0
    print(f"start-up, median of {args.runs} fresh processes each, run in turns:")
    for name, t in medians.items():
        print(f"  {name:30} {t * 1000:6.1f} ms  {ratios[name]:4.2f}x")
    print(f"  target: within {TARGET_RATIO:g}x the first")
    return 0


if __name__ == "__main__":  # python -m firmware_py.tools.bench_startup [--runs N] [--json]
    import sys

    from firmware_py.cli import main

    sys.exit(main(["bench", "startup", *sys.argv[1:]]))
