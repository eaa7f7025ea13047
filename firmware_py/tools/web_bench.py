"""How late a change reaches the page: `python -m firmware_py.tools.web_bench [--changes N] [--json]`.

Serves a `StateSource` on a free loopback port, connects a WebSocket client as the page does,
then changes the state N times (one ply each, as the session does after a commit) and measures
the wall time from `update()` to the `state` message arriving. Prints mean, p99 and max in
milliseconds (the target: well under 100 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time

from ..rules import Board
from ..state import BoardState
from ..web.server import WebThread
from ..web.source import StateSource


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
    source = StateSource(BoardState(board=Board(), mode="idle"))
    with WebThread(source, port=0) as web:
        lags = asyncio.run(_measure(web.url, source, changes))
    lags.sort()
    return {"changes": changes, "mean_ms": statistics.fmean(lags),
            "p99_ms": lags[min(len(lags) - 1, int(0.99 * len(lags)))], "max_ms": lags[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py.tools.web_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    r = measure(args.changes)
    if args.json:
        print(json.dumps(r))
    else:
        print(f"change -> page over {r['changes']} changes: mean {r['mean_ms']:.1f} ms, "
              f"p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
