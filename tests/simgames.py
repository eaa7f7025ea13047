"""Helpers for tests that run the controller against the simulated board (simulated time)."""

import random

from firmware_py.controller import Controller
from firmware_py.rules import Board, Ply
from dvonn_sim.board import SimBoard
from dvonn_sim.params import Params


def placed_board(seed: int) -> Board:
    """The position after 49 random placements (seeded)."""
    rnd = random.Random(seed)
    b = Board()
    while b.phase == 1:
        b.push(rnd.choice(b.legal_plies()))
    return b


def early_moves_board(seed: int) -> Board:
    """`placed_board(seed)` and then up to 19 random moves (no passes), seeded by `seed` too."""
    rnd = random.Random(seed)
    board = placed_board(seed)
    for _ in range(rnd.randrange(20)):
        board.push(rnd.choice([p for p in board.legal_plies() if not p.is_pass]))
    return board


def midgame_board(seed: int, plies: int = 56) -> Board:
    """The position after `plies` random plies (seeded): placements, then moves."""
    rnd = random.Random(seed)
    b = Board()
    while b.ply_count < plies:
        b.push(rnd.choice(b.legal_plies()))
    return b


def run(sim, c, seconds: float, watch=None) -> None:
    """Feed `seconds` of frames to the controller `c`; `watch(c)` after each frame."""
    end = sim.now + seconds
    while sim.now < end:
        c.feed(sim.read_frame())
        if watch is not None:
            watch(c)


def resume(board: Board, seed: int, noise: str = "default"):
    """A simulated board set up as `board` and a controller that has resumed on it."""
    sim = SimBoard(Params.from_noise(noise), seed=seed)
    sim.setup(board)
    c = Controller(board=board.copy())
    run(sim, c, 0.5)
    assert c.state.mode == "idle"
    return sim, c


def scene(board: Board, seed: int, params: Params):
    """A simulated board with `params` set up as `board`, a controller resumed on it, and the
    list of plies it records (the board's own, then each commit; an undo takes one back)."""
    sim = SimBoard(params, seed=seed)
    sim.setup(board)
    c = Controller(board=board.copy(), adc_max=sim.adc_max, reading_step=sim.reading_step)
    run(sim, c, 0.5)
    assert c.state.mode == "idle"
    stored = list(board.move_stack)
    c.on_commit, c.on_undo = stored.append, stored.pop
    return sim, c, stored


def tall_landing(seed: int, height: int) -> tuple[Board, Ply]:
    """Random placements, 10-29 random moves, then the first legal move onto a stack at least
    `height` tall that cuts nothing off (seeded)."""
    rnd = random.Random(seed)
    board = Board()
    while board.phase == 1:
        board.push(rnd.choice(board.legal_plies()))
    for _ in range(rnd.randrange(10, 30)):
        board.push(rnd.choice([p for p in board.legal_plies() if not p.is_pass]))
    ply = next(p for p in board.legal_plies()
               if p.is_move and board.height(p.dst) >= height and not board.isolated_by(p))
    return board, ply
