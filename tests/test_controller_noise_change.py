"""A board whose noise rises in the middle of a game (a failing power supply, a motor nearby)
keeps reacting: the settle detector follows the noise it sees instead of waiting forever for a
stillness the sensors can no longer show."""

from __future__ import annotations

import pytest

from firmware_py.settle import Settler
from tests.simgames import placed_board, resume, run


@pytest.mark.parametrize("level", ["poor", "bad"])
def test_a_lift_is_seen_after_the_noise_rises_mid_game(level):
    board = placed_board(3)
    sim, c = resume(board, seed=3)
    assert c.state.mode == "idle"
    sim.set_noise(level)
    run(sim, c, 3.0)  # the players look at the board for a while
    src = board.mobile_stacks()[0]
    sim.hand.lift(src)
    seen = []
    run(sim, c, 6.0, watch=lambda c: seen.append(c.state.mode == "lifted" and c.state.lifted))
    assert src in seen


def test_the_settler_raises_its_tolerance_only_for_noise_all_over_the_board():
    import random

    rnd = random.Random(1)
    quiet = Settler(0.2, tolerance=5.0, refresh_s=0.35)
    t = 0.0
    snaps = 0
    for i in range(300):  # 3 s of readings with 7 codes of noise on every sensor
        t += 0.01
        snaps += quiet.feed(t, [2000 + rnd.gauss(0, 7) for _ in range(49)]) is not None
    assert quiet.tolerance >= 6 * 5.0 and snaps >= 1
    hand = Settler(0.2, tolerance=5.0, refresh_s=0.35)
    t = 0.0
    for i in range(300):  # a hand moving over three sensors, the rest quiet
        t += 0.01
        raw = [2000 + rnd.gauss(0, 0.7) for _ in range(49)]
        for s in (10, 11, 12):
            raw[s] += 50 * ((i // 3) % 2)
        hand.feed(t, raw)
    assert hand.tolerance == 5.0
