"""The per-frame benchmark records a real game and replays it (figures printed, not asserted)."""

import json

from firmware_py.tools import bench_frames


def test_bench_frames_replays_a_recorded_game(capsys):
    assert bench_frames.main(["--levels", "clean", "--repeat", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["level"] == "clean" and out["frames"] > 1000 and out["plies"] > 49
