"""ai.leaf.Leaf, the search's one-pass leaf evaluation, against evaluation.value of both_sides."""

import random

import pytest

from firmware_py.ai.evaluation import DEFAULT_WEIGHTS, Weights, both_sides, value
from firmware_py.ai.leaf import Leaf
from firmware_py.rules import N_PLACEMENTS, PASS, WHITE, Board


def positions(games: int, seed: int) -> list[Board]:
    """Moving-phase positions of random games, every third ply, with the passes they meet."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = Board()
        while not board.is_over():
            board.push(rng.choice(board.legal_plies()))
            if board.ply_count >= N_PLACEMENTS and board.ply_count % 3 == 0:
                out.append(board.copy())
        out.append(board.copy())  # a finished game
    return out


@pytest.mark.parametrize("weights", [DEFAULT_WEIGHTS,
                                     Weights(material=60, near3=15, near4=5, reach0=30,
                                             reach2=10, reach3=7, tempo=-20, prey=0)])
def test_a_leaf_is_worth_what_the_evaluation_says_or_none_when_the_mover_cannot_move(weights):
    leaf = Leaf(weights)
    boards = positions(20, seed=5)
    stuck = 0
    for board in boards:
        sw, sb = both_sides(board)
        mover_moves = (sw if board.turn == WHITE else sb)[0]
        expected = value(board, weights, sw, sb) if mover_moves else None
        assert leaf(board) == expected, board.fen()
        if expected is None:
            stuck += 1
            assert board.legal_plies() in ([], [PASS])
    assert stuck >= 20  # every game's end at least: the None path is exercised
    assert len(boards) > 200


def test_with_early_weights_a_leaf_is_worth_what_the_weights_for_its_stack_count_say():
    """Leaf(weights, early): each position valued by phase_weights for the stacks on its board
    (EARLY_WEIGHTS from EARLY_FULL stacks up, the weights in force from EARLY_PLAIN down)."""
    from firmware_py.ai.evaluation import EARLY_FULL, EARLY_PLAIN, phase_weights

    early = Weights(moves=25, mobile=10, latent=35, near1=150, near2=70)
    leaf = Leaf(DEFAULT_WEIGHTS, early)
    counts = set()
    for board in positions(20, seed=6):
        sw, sb = both_sides(board)
        mover_moves = (sw if board.turn == WHITE else sb)[0]
        n = board._occ.bit_count()
        wt = phase_weights(early, DEFAULT_WEIGHTS, n)
        assert leaf(board) == (value(board, wt, sw, sb) if mover_moves else None), board.fen()
        counts.add(n)
    # positions in the early phase, in between and after it
    assert max(counts) >= EARLY_FULL and min(counts) <= EARLY_PLAIN
    assert any(EARLY_PLAIN < n < EARLY_FULL for n in counts)
    assert phase_weights(early, DEFAULT_WEIGHTS, EARLY_FULL) is early
    assert phase_weights(early, DEFAULT_WEIGHTS, EARLY_PLAIN) is DEFAULT_WEIGHTS
