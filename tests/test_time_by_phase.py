"""tools.time_by_phase: a level's time a move, by stacks left."""

from firmware_py.tools import time_by_phase


def test_counts_every_ply_of_ours_in_one_band_and_reports_them(capsys):
    rows, margins = time_by_phase.measure("random", games=1, seed=2, seconds=0.02)
    assert len(margins) == 1
    placements = rows["place"]
    assert len(placements) in (24, 25)  # ours of the 49 placements, one of them a DVONN piece
    assert all(0 <= s < 1.0 and depth >= 0 for s, depth, _ in placements)
    assert sum(len(v) for k, v in rows.items() if k != "place") > 0
    assert time_by_phase.main(["--against", "random", "--games", "1", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "place" in out and "40+" in out and out.splitlines()[-1].startswith("all")
