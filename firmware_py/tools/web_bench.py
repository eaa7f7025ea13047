"""How quickly the page follows the board: `python -m firmware_py.tools.web_bench [--json]`.

Two figures, each over real servers and a WebSocket client that talks as the page does:

- change -> page (`--changes N`): a `StateSource` on a free loopback port changes N times (one
  ply each, as the session does after a commit); the wall time from `update()` to the `state`
  message arriving. Target: well under 100 ms.
- click -> recorded (`--placements N`): the simulator (`dvonn-board sim`, real time) and a
  placement phase clicked in: the wall time from sending `place` (what a click on an empty space
  sends) to the `state` message that lists the placement as recorded. This is the whole pipeline:
  the simulated hand sets the piece down, the sensors feel it, the controller waits until the
  board has been still for its settle time (200 ms), commits to the game store, and the server
  pushes. Target: under 0.4 s.

Prints median and p90 (and mean/p99/max for the push) in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ..rules import Board
from ..state import BoardState
from ..web.server import WebThread
from ..web.source import StateSource


def _quantile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


async def _measure(url: str, source: StateSource, changes: int) -> list[float]:
    import aiohttp

    lags = []
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(url.rstrip("/") + "/ws") as ws:
            for _ in range(3):  # hello, state, leds
                await ws.receive()
            state = source.state()
            for _ in range(changes):
                board = state.board
                if board.is_over():
                    state.board = board = Board()
                board.push(board.legal_plies()[0])
                t0 = time.perf_counter()
                source.update(state)
                while True:
                    msg = json.loads((await ws.receive(timeout=5)).data)
                    if msg["type"] == "state" and msg["game"]["ply"] == board.ply_count:
                        break
                lags.append((time.perf_counter() - t0) * 1000)
    return lags


def measure(changes: int = 200) -> dict:
    """change -> page: {'changes', 'mean_ms', 'p99_ms', 'max_ms'}."""
    source = StateSource(BoardState(board=Board(), mode="idle"))
    with WebThread(source, port=0) as web:
        lags = asyncio.run(_measure(web.url, source, changes))
    lags.sort()
    return {"changes": changes, "mean_ms": statistics.fmean(lags),
            "p99_ms": _quantile(lags, 0.99), "max_ms": lags[-1]}


async def _click_placements(url: str, placements: list, timeout: float) -> list[float]:
    import aiohttp

    from ..spaces import SPACES

    async def next_state(ws, deadline: float) -> dict:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError
            msg = json.loads((await ws.receive(timeout=left)).data)
            if msg["type"] == "state":
                return msg["game"]
            if msg["type"] == "error":
                raise RuntimeError(msg["message"])

    lags = []
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(url.rstrip("/") + "/ws") as ws:
            deadline = time.perf_counter() + 30  # the empty board is read first
            while (await next_state(ws, deadline))["mode"] != "idle":
                pass
            for n, ply in enumerate(placements, 1):
                t0 = time.perf_counter()
                await ws.send_json({"type": "place", "space": SPACES[ply.dst]})
                while (await next_state(ws, t0 + timeout))["ply"] < n:
                    pass
                lags.append((time.perf_counter() - t0) * 1000)
    return lags


def measure_clicks(placements: int = 49, seed: int = 1, timeout: float = 10.0) -> dict:
    """click -> recorded over the first `placements` placements of a random game, in the
    simulator at real time: {'placements', 'median_ms', 'p90_ms', 'max_ms'}."""
    from dvonn_sim.compose import simulated_board

    from ..controller import Controller
    from ..web.simulator import SimulatorRun

    rnd, board = random.Random(seed), Board()
    while board.ply_count < min(placements, 49):
        board.push(rnd.choice(board.legal_plies()))
    with tempfile.TemporaryDirectory() as tmp:
        with SimulatorRun(lambda b: Controller(board=b), Path(tmp) / "bench.sqlite3",
                          simulated_board("default", seed=seed, speed=1.0), port=0) as run:
            lags = asyncio.run(_click_placements(run.web.url, board.move_stack, timeout))
    lags.sort()
    return {"placements": len(lags), "median_ms": statistics.median(lags),
            "p90_ms": _quantile(lags, 0.9), "max_ms": lags[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py.tools.web_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200,
                        help="state changes pushed to the page (0: skip)")
    parser.add_argument("--placements", type=int, default=49,
                        help="placements clicked in the simulator, 1..49 (0: skip)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 0 <= args.placements <= 49 or args.changes < 0:
        parser.error("--placements takes 0..49 and --changes 0 or more")
    result = {}
    if args.changes:
        result["push"] = r = measure(args.changes)
        if not args.json:
            print(f"change -> page over {r['changes']} changes: mean {r['mean_ms']:.1f} ms, "
                  f"p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms", flush=True)
    if args.placements:
        result["click"] = r = measure_clicks(args.placements)
        if not args.json:
            print(f"click -> recorded over {r['placements']} placements (simulator, real time): "
                  f"median {r['median_ms']:.0f} ms, p90 {r['p90_ms']:.0f} ms, "
                  f"max {r['max_ms']:.0f} ms")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
