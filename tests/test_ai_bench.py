"""The strength benchmark's match list and output (tiny game counts: figures are not asserted)."""

import json

import pytest

from firmware_py import ai
from firmware_py.tools import bench_ai


def test_match_list_covers_the_targets():
    names = [m[0] for m in bench_ai.matches(10, 4, None)]
    assert names[:3] == ["default vs random", "default vs greedy", "default (Pi budget) vs greedy"]
    ladder = bench_ai.matches(10, 4, "ladder")
    assert len(ladder) == len(ai.LEVEL_NODES) - 1
    assert ladder[0][1:] == (f"ai:2,nodes={ai.LEVEL_NODES[2]}", f"ai:1,nodes={ai.LEVEL_NODES[1]}",
                             4, False)
    classic = bench_ai.matches(10, 4, "classic", classic_games=100)
    assert [m[1:] for m in classic] == [("ai:3,nodes=34600", "ai:classic,nodes=20000", 100, s)
                                         for s in (False, True)]
    quick = bench_ai.matches(10, 4, "classic", classic_games=100, scale=0.15)
    assert quick[0][1:3] == ("ai:3,nodes=5190", "ai:classic,nodes=3000")


def test_bench_prints_one_json_object_per_match(capsys, monkeypatch):
    monkeypatch.setattr(ai, "LEVEL_NODES", {1: 100, 2: 200, 3: 400, 4: 800, 5: 1600})
    assert bench_ai.main(["--only", "pi", "--games", "2", "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert row["match"] == "default (Pi budget) vs greedy" and row["games"] == 2
    assert row["first"] == "ai:3,nodes=100"


def test_classic_match_from_shared_placements(capsys, monkeypatch):
    monkeypatch.setattr(ai, "LEVEL_NODES", {1: 100, 2: 200, 3: 300, 4: 800, 5: 1600})
    monkeypatch.setattr(bench_ai.classic, "LEVEL_NODES", {3: 200})
    monkeypatch.setattr(bench_ai, "OPENINGS_BY", "random")
    assert bench_ai.main(["--only", "classic", "--classic-games", "2", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["match"] for r in rows] == ["default vs classic",
                                         "default vs classic, same placements"]
    assert rows[1]["first"] == "ai:3,nodes=300" and rows[1]["second"] == "ai:classic,nodes=200"
    assert all(r["games"] == 2 for r in rows)


def test_pace_times_placements_and_moves_of_both_engines_in_games_between_them(capsys):
    r = bench_ai.pace(games=1, scale=0.01)
    assert (r["new_nodes"], r["classic_nodes"]) == (346, 200)
    for side in ("new_ms", "classic_ms"):
        assert r[side]["placement"] > 0 and r[side]["move"] > 0
    assert r["nodes_ratio_at_equal_time"] == pytest.approx(
        346 / 200 / r["move_time_ratio"], rel=0.05)
    assert bench_ai.main(["--only", "pace", "--pace-games", "1", "--budget-scale", "0.01"]) == 0
    assert "the nodes at equal time" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench_ai.main(["--only", "pace", "--pace-games", "0"])


def test_ladder_can_be_limited_to_some_levels():
    pairs = [(m[1], m[2]) for m in bench_ai.matches(10, 4, "ladder", (3, 4))]
    assert pairs == [("ai:4,nodes=103800", "ai:3,nodes=34600")]


def test_memory_tool_plays_a_game_within_the_tables_size(capsys):
    from firmware_py.tools import ai_memory

    r = ai_memory.measure(nodes=150, bits=6, seed=2)  # 2^6 entries a table: it fills up
    assert r["plies"] >= 49 and 0 < r["entries"] <= r["entries_max"] == 128
    assert r["bytes_per_entry"] > 50 and r["max_rss_mb"] > 0
    assert ai_memory.main(["--nodes", "100", "--memory-mb", "512", "--seed", "3"]) == 0
    assert "two tables of 2^16" in capsys.readouterr().out
    for bad in (["--nodes", "0"], ["--bits", "40"], ["--memory-mb", "0"]):
        with pytest.raises(SystemExit):
            ai_memory.main(bad)
    assert "must be" in capsys.readouterr().err


def test_speed_compares_both_engines_on_the_same_positions():
    r = bench_ai.speed(nodes=300, count=2)
    assert r["positions"] == 2 and r["new_nodes_per_cpu_s"] > 0 and r["classic_nodes_per_cpu_s"] > 0
    assert all(b.ply_count >= 49 and not b.is_over() for b in bench_ai.speed_positions(2))


def test_speed_measures_an_earlier_revision_side_by_side(capsys):
    r = bench_ai.speed(nodes=300, count=2, before="HEAD")
    assert r["before"] == "HEAD" and r["before_nodes_per_cpu_s"] > 0 and r["ratio_to_before"] > 0
    with pytest.raises(SystemExit):
        bench_ai.main(["--only", "speed", "--before", "no-such-revision-here"])
    assert "no engine at git revision 'no-such-revision-here'" in capsys.readouterr().err
