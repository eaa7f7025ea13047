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


def test_the_play_outs_tables_by_bit_length_agree_with_the_rules_tables():
    # The play-out indexes spaces by k = padded bit + 1 (a bit's bit_length()).
    from firmware_py.bitboards import BOARD, DEST, NB, S2P
    from firmware_py.tools.bench_rules import AROUND, BIT, REACH

    for p in S2P:
        k = p + 1
        assert BIT[k] == 1 << p and (1 << p).bit_length() == k
        assert AROUND[k] & BOARD == NB[p] | 1 << p
        assert REACH[k][:len(DEST[p])] == DEST[p] and not any(REACH[k][len(DEST[p]):])
        assert len(REACH[k]) == 50  # a stack of all 49 pieces is looked up too


def test_a_seed_plays_the_same_games_as_before_the_speed_ups():
    # Speeding the play-out up must not change its games: seeds 0-2 as first measured.
    assert [tuple(random_game(random.Random(s))) for s in range(3)] == [
        ((12, 12), 82, 32, 1015), ((29, 9), 90, 38, 1095), ((20, 8), 84, 34, 1137)]
