"""Whole games through the whole pipeline (simulator -> controller -> LEDs -> scripted players),
in simulated time: the controller must record exactly what the players played, never a wrong
ply, whatever mistakes they make."""

import pytest

from dvonn_sim.autoplay import count_wrong, play_game


@pytest.mark.parametrize("seed", [11, 12])
def test_random_game_with_mistakes_is_recorded_exactly(seed):
    r = play_game(seed=seed, noise="default", mistakes=0.15)
    assert r.wrong == 0
    assert r.match, (r.truth, r.record)
    assert r.plies > 49  # the placement phase and moves
    assert sum(r.mistakes.values()) > 0  # the players really made mistakes
    assert r.auto + r.asked >= r.plies - r.truth.count("pass")


def test_scripted_opening_on_a_bad_board_is_never_wrong():
    script = ["e3", "f3", "g3", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1"]
    r = play_game(seed=5, noise="bad", script=script, mistakes=0.3)
    assert r.wrong == 0
    assert r.record == script


def test_count_wrong():
    assert count_wrong(["e3", "f3"], ["e3", "f3", "g3"]) == 0  # a missing ply is not wrong
    assert count_wrong(["e3", "g3"], ["e3", "f3"]) == 1
    assert count_wrong(["e3", "f3", "g3"], ["e3", "f3"]) == 1
