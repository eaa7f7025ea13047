"""`dvonn-board bench remote`: the time from a ply recorded on one board to its LEDs lit on the
other, board to board over the loopback interface.

Two processes play whole games (`dvonn_sim.remote_play`: each a simulated board, its session and
scripted people; one hosts, the other joins). Each notes, on the machine's monotonic clock
(shared by both processes), when its record grew and when it first lit the other side's ply;
the latency of a ply is the moment the other board lit it minus the moment its own board
recorded it. Printed: the median and the 99th percentile, each direction and both together.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path


def register(bench_subparsers) -> None:
    p = bench_subparsers.add_parser("remote", help="commit-to-LED latency, board to board",
                                    description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    p.add_argument("--plies", type=int, default=None,
                   help="stop each game after N plies (default: whole games)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def latencies(source: dict, target: dict) -> list[float]:
    """Seconds from `source` recording a ply to `target` lighting it, for the plies `target`
    lit (its `shown[k]`: the ply after k plies; `source.committed[k + 1]`: when it was k+1)."""
    out = []
    for k, lit in target["shown"].items():
        recorded = source["committed"].get(str(int(k) + 1))
        if recorded is not None and lit >= recorded:
            out.append(lit - recorded)
    return out


def play_pair(seed: int, plies: int | None, folder: Path) -> tuple[dict, dict]:
    """One game between two processes; (host's result, joiner's result)."""
    limit = [] if plies is None else ["--plies", str(plies)]
    cmd = [sys.executable, "-m", "dvonn_sim.remote_play"]
    host = subprocess.Popen(cmd + ["host", "--db", str(folder / f"host{seed}.sqlite3"),
                                   "--seed", str(seed)] + limit,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        link = json.loads(host.stdout.readline())["link"]
        joined = subprocess.run(cmd + ["join", link, "--db", str(folder / f"join{seed}.sqlite3"),
                                       "--seed", str(seed + 1000)] + limit,
                                capture_output=True, text=True, timeout=600)
        out, _ = host.communicate("", timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
    if joined.returncode != 0:
        raise RuntimeError(joined.stderr.strip().splitlines()[-1] if joined.stderr else "failed")
    return json.loads(out.splitlines()[-1]), json.loads(joined.stdout.splitlines()[-1])


def quantile_ms(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1e3, 1) if values else 0.0


def run(args) -> int:
    if args.games < 1:
        print("dvonn-board bench remote: --games must be at least 1", file=sys.stderr)
        return 2
    to_join, to_host, same = [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.games):
            hosted, joined = play_pair(args.seed + i, args.plies, Path(folder))
            to_join += latencies(hosted, joined)
            to_host += latencies(joined, hosted)
            same += hosted["record"] == joined["record"]
    both = to_join + to_host
    figures = {"games": args.games, "identical_records": same, "plies_lit": len(both),
               "median_ms": quantile_ms(both, 0.5), "p99_ms": quantile_ms(both, 0.99),
               "host_to_join_median_ms": quantile_ms(to_join, 0.5),
               "join_to_host_median_ms": quantile_ms(to_host, 0.5),
               "max_ms": quantile_ms(both, 1.0)}
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{args.games} games board to board over loopback, {same} with identical records")
    print(f"  commit to LED on the other board: median {figures['median_ms']} ms, "
          f"p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms ({len(both)} plies)")
    print(f"  host -> joining board: median {figures['host_to_join_median_ms']} ms; "
          f"joining board -> host: median {figures['join_to_host_median_ms']} ms")
    return 0 if same == args.games else 1
