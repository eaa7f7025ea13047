"""A player holding a stack still in the air, deciding where to put it, sees it shown as lifted
with its destinations: the board does not ask "which did you land on?" for two seconds, even
where a landing on a tall stack would read almost the same. Simulated time only."""

import random

import pytest

from firmware_py.controller import Controller
from firmware_py.rules import Board
from dvonn_sim.board import SimBoard
from dvonn_sim.params import Params


def position(seed: int) -> tuple[Board, int]:
    rnd = random.Random(seed)
    board = Board()
    while board.phase == 1:
        board.push(rnd.choice(board.legal_plies()))
    rnd = random.Random(seed)
    for _ in range(rnd.randrange(30)):
        board.push(rnd.choice([p for p in board.legal_plies() if not p.is_pass]))
    return board, rnd.choice(board.mobile_stacks())


@pytest.mark.parametrize("seed", [23, 29])  # a single piece over stacks five and more tall
def test_a_stack_held_still_in_the_air_is_shown_as_lifted(seed):
    board, src = position(seed)
    sim = SimBoard(Params.from_noise("default"), seed=seed)
    sim.setup(board)
    c = Controller(board=board.copy())
    while sim.now < 0.5:
        c.feed(sim.read_frame())
    assert c.state.mode == "idle"
    modes = []
    sim.hand.lift(src)
    end = sim.now + 1.8
    while sim.now < end:
        c.feed(sim.read_frame())
        modes.append(c.state.mode)
    assert "asking" not in modes
    assert c.state.mode == "lifted" and c.state.lifted == src
    assert c.state.board.ply_count == board.ply_count
