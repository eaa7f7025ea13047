"""`dvonn-board bench rules`: prints the figures (timings are printed, never asserted)."""

import json
import random

import pytest

from firmware_py.tools.bench_rules import board_game, random_game, run
from firmware_py.cli import main


def test_bench_rules_json_fields(capsys):
    assert main(["bench", "rules", "--games", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 20 and out["engine"] == "fast"
    assert out["games_per_second"] > 0 and out["plies_per_second"] > 0
    assert 49 < out["plies_per_game"] < 200 and 1 < out["moves_per_turn"] < 100
    assert out["white_wins"] + out["black_wins"] + out["draws"] == 20


def test_bench_rules_text(capsys):
    assert main(["bench", "rules", "--games", "5", "--board"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "plies/s" in out and "moves per turn" in out


def test_bench_rules_compare_prints_the_ratio(capsys):
    assert main(["bench", "rules", "--games", "40", "--compare", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ratio = out["fast_games_per_second"] / out["board_games_per_second"]
    assert out["ratio"] == pytest.approx(ratio, abs=0.02) and out["ratio"] > 0
    assert main(["bench", "rules", "--games", "20", "--compare"]) == 0
    assert "Board API" in capsys.readouterr().out


def test_same_seed_same_games_and_both_engines_see_similar_games():
    assert run(30, seed=7)[2:] == run(30, seed=7)[2:]
    fast, board = run(200, seed=3), run(200, seed=3, engine="board")
    assert abs(fast.moves_per_turn - board.moves_per_turn) < 3
    assert abs(fast.plies / 200 - board.plies / 200) < 3


def test_results_are_plausible():
    for seed in range(20):
        fast = random_game(random.Random(seed))
        slow = board_game(random.Random(seed))
        for r in (fast, slow):
            assert sum(r.score) <= 49 and r.plies >= 50 and r.moves_seen >= r.turns
