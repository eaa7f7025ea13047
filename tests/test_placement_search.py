"""The searched placements (ai.placement_search): the search's choice is the minimax choice
of its evaluation, and its evaluation prefers what it should."""

import random
from dataclasses import replace

from firmware_py.ai.placement_search import DEFAULT_SETUP, search_placement, setup_value
from firmware_py.rules import N_PLACEMENTS, Board, Ply
from firmware_py.spaces import INDEX, distance

QUIET = replace(DEFAULT_SETUP, noise=0)


def minimax(board: Board, depth: int) -> int:
    if depth == 0 or board.ply_count >= N_PLACEMENTS:
        return setup_value(board, QUIET)
    best = None
    for ply in board.legal_plies():
        board.push(ply)
        v = -minimax(board, depth - 1)
        board.pop()
        best = v if best is None else max(best, v)
    return best


def test_the_search_chooses_a_best_placement_by_plain_minimax():
    rnd = random.Random(3)
    for plies in (40, 43):
        board = Board()
        while board.ply_count < plies:
            board.push(rnd.choice(board.legal_plies()))
        values = {}
        for ply in board.legal_plies():
            board.push(ply)
            values[ply] = -minimax(board, 2)
            board.pop()
        chosen = search_placement(board, random.Random(0), QUIET, budget=10**6, depth=3)
        assert values[chosen] == max(values.values())


def test_a_piece_goes_next_to_a_dvonn_piece_not_far_away():
    board = Board.from_plies(["e3", "f3", "g3", "a1"])  # White to place
    ply = search_placement(board, random.Random(1))
    assert min(distance(ply.dst, INDEX[s]) for s in ("e3", "f3", "g3")) == 1


def test_a_piece_shut_in_by_its_own_pieces_costs():
    # White on b1 and b2: a piece on a1 would have one neighbour (a2) not White's.
    board = Board.from_plies(["e3", "f3", "g3", "k5", "b1", "k4", "b2", "i5"])
    for space, crowded in (("a1", 1), ("d1", 0)):
        board.push(Ply.parse(space))
        gain = setup_value(board, QUIET) - setup_value(board, replace(QUIET, crowd=0))
        board.pop()
        assert gain == -DEFAULT_SETUP.crowd * crowded  # White's clump: Black (to place) gains
