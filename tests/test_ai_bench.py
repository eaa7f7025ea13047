"""The strength benchmark's match list and output (tiny game counts: figures are not asserted)."""

import json

from firmware_py import ai
from firmware_py.tools import bench_ai


def test_match_list_covers_the_targets():
    names = [m[0] for m in bench_ai.matches(10, 4, None)]
    assert names[:3] == ["default vs random", "default vs greedy", "default (Pi budget) vs greedy"]
    ladder = bench_ai.matches(10, 4, "ladder")
    assert len(ladder) == len(ai.LEVEL_NODES) - 1
    assert ladder[0][1:] == ("ai:2,nodes=8000", "ai:1,nodes=2000", 4)


def test_bench_prints_one_json_object_per_match(capsys, monkeypatch):
    monkeypatch.setattr(ai, "LEVEL_NODES", {1: 100, 2: 200, 3: 400, 4: 800, 5: 1600})
    assert bench_ai.main(["--only", "pi", "--games", "2", "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert row["match"] == "default (Pi budget) vs greedy" and row["games"] == 2
    assert row["first"] == "ai:3,nodes=100"


def test_ladder_can_be_limited_to_some_levels():
    pairs = [(m[1], m[2]) for m in bench_ai.matches(10, 4, "ladder", (3, 4))]
    assert pairs == [("ai:4,nodes=60000", "ai:3,nodes=20000")]
