"""How fast the simulator runs: ``python -m dvonn_sim.bench [--games 3] [--noise default]``.

Prints, per game of scripted random play with mistakes (no controller): plies, board time,
frames, wall time and frames per wall second. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import time

from .board import SimBoard
from .params import NOISE_LEVELS, Params
from .players import Mistakes, play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dvonn_sim.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--noise", default="default", choices=list(NOISE_LEVELS))
    parser.add_argument("--mistakes", type=float, default=0.1)
    args = parser.parse_args(argv)
    total_frames = total_wall = 0.0
    for seed in range(args.games):
        board = SimBoard(Params.from_noise(args.noise), seed=seed)
        start = time.perf_counter()
        players = play(board, seed=seed, mistakes=Mistakes(rate=args.mistakes))
        wall = time.perf_counter() - start
        frames = round(board.now / board.frame_period) + 1
        total_frames += frames
        total_wall += wall
        print(f"game {seed}: {players.truth.ply_count} plies, {sum(players.made.values())} "
              f"mistakes, {board.now:.0f} s of board time, {frames} frames, {wall:.2f} s wall, "
              f"{frames / wall:,.0f} frames/s")
    print(f"all: {total_frames / total_wall:,.0f} frames per wall second "
          f"({1e6 * total_wall / total_frames:.1f} us per frame)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
