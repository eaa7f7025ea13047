"""The controller's cost per frame on recorded frames: `python -m firmware_py.tools.bench_frames`.

Autoplays a seeded game per noise level on the simulator, records its sensor frames, then feeds
the same frames to fresh controllers several times and prints the median CPU time per frame.
Same frames every run, so two versions of the controller compare side by side (run it in each
checkout, alternating); `dvonn-board bench inference` measures inside the live loop instead.

    python -m firmware_py.tools.bench_frames [--levels default bad] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def record(noise: str, seed: int, mistakes: float) -> list:
    """The frames of one autoplayed game."""
    import dvonn_sim.board
    from dvonn_sim.autoplay import play_game

    frames = []
    read = dvonn_sim.board.SimBoard.read_frame

    def recording(self, *args, **kwargs):
        frame = read(self, *args, **kwargs)
        frames.append(frame)
        return frame

    dvonn_sim.board.SimBoard.read_frame = recording
    try:
        play_game(seed=seed, noise=noise, mistakes=mistakes)
    finally:
        dvonn_sim.board.SimBoard.read_frame = read
    return frames


def replay(frames) -> tuple[float, int]:
    """(CPU microseconds per frame, plies recorded) for a fresh controller fed `frames`."""
    from firmware_py.controller import Controller

    c = Controller()
    start = time.process_time()
    for frame in frames:
        c.feed(frame)
    return 1e6 * (time.process_time() - start) / len(frames), c.state.board.ply_count


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.tools.bench_frames",
                                description=__doc__.splitlines()[0])
    p.add_argument("--levels", nargs="+", default=["default", "bad"],
                   choices=["clean", "default", "poor", "bad"])
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--mistakes", type=float, default=0.2)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    for level in args.levels:
        frames = record(level, args.seed, args.mistakes)
        runs = [replay(frames) for _ in range(max(1, args.repeat))]
        result = {"level": level, "frames": len(frames), "plies": runs[0][1],
                  "us_per_frame_median": round(statistics.median(r[0] for r in runs), 2),
                  "us_per_frame_all": [round(r[0], 2) for r in runs]}
        if args.json:
            print(json.dumps(result))
        else:
            print(f"{level:8s} {result['frames']} frames, {result['plies']} plies: "
                  f"{result['us_per_frame_median']} us a frame (median of {len(runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
