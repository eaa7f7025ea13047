"""The computer opponent: legal choices in both phases, exact search values, determinism."""

import random

import pytest

from firmware_py import ai
from firmware_py.rules import BLACK, N_PLACEMENTS, PASS, WHITE, Board, Ply
from firmware_py.spaces import INDEX


def random_board(seed: int, plies: int) -> Board:
    rnd = random.Random(seed)
    board = Board()
    while board.ply_count < plies and not board.is_over():
        board.push(rnd.choice(board.legal_plies()))
    return board


def minimax(board: Board, depth: int) -> int:
    """Plain negamax with the engine's conventions (a forced pass costs no depth)."""
    legal = board.legal_plies()
    if not legal:
        return ai.final_value(board)
    if legal == [PASS]:
        board.push(PASS)
        v = -minimax(board, depth)
        board.pop()
        return v
    if depth == 0:
        return ai.evaluate(board)
    best = -ai.INF
    for ply in legal:
        board.push(ply)
        best = max(best, -minimax(board, depth - 1))
        board.pop()
    return best


@pytest.mark.parametrize("seed,plies", [(1, 70), (2, 66), (3, 72), (4, 68)])
def test_alpha_beta_value_equals_plain_minimax(seed, plies):
    board = random_board(seed, plies)
    if board.is_over():
        pytest.skip("random game ended early")
    exact = ai.Searcher(random.Random(0), reductions=False, frontier_margins=())
    result = exact.search(board, depth=3)
    assert result.depth == 3 or abs(result.value) > ai.WIN // 2
    expected = minimax(board, result.depth)
    assert result.value == expected
    board.push(result.ply)  # and the chosen ply achieves that value
    assert -minimax(board, result.depth - 1) == expected


def test_evaluation_counts_the_stacks_each_player_tops():
    # Equal material (2 pieces each), but White's are in two stacks and Black's in one.
    stacks = {"c3": "D", "d3": "W", "e3": "W", "g3": "BB"}
    only_stacks = ai.Weights(material=0, mobile_stack=0, move=0, dvonn_stack=0, tempo=0,
                             threat=0, counter=0, stack=100)
    assert ai.evaluate(Board.from_stacks(stacks, WHITE), only_stacks) == 100
    assert ai.evaluate(Board.from_stacks(stacks, BLACK), only_stacks) == -100  # for the mover


def test_frontier_pruning_saves_nodes_at_the_same_depth():
    board = random_board(6, 58)
    assert not board.is_over()
    searches = {margins: ai.Searcher(random.Random(0), frontier_margins=margins).search(
        board, depth=4) for margins in ((), (300,), ai.FRONTIER_MARGINS)}
    exact, depth1, both = searches.values()
    assert exact.depth == depth1.depth == both.depth == 4
    assert both.nodes < depth1.nodes < exact.nodes  # pruning two plies up saves more again
    assert board.is_legal(both.ply)


@pytest.mark.parametrize("level", sorted(ai.LEVEL_DEPTHS))
def test_low_levels_stop_at_their_depth(level):
    board = random_board(8, 60)
    result = ai.choose(board, level, random.Random(0), nodes=200_000)
    assert result.depth == ai.LEVEL_DEPTHS[level] and result.nodes < 200_000


def test_choices_are_legal_in_both_phases_and_board_is_untouched():
    rng = random.Random(7)
    board = Board()
    while not board.is_over():
        before = board.fen()
        ply = ai.choose_ply(board, rng=rng, nodes=300)
        assert board.fen() == before
        assert board.is_legal(ply), (board.fen(), ply)
        board.push(ply)
    assert board.ply_count > N_PLACEMENTS


def test_node_budget_makes_play_deterministic():
    board = random_board(11, 55)
    a = [ai.choose(board, rng=random.Random(3), nodes=2000) for _ in range(2)]
    assert a[0].ply == a[1].ply and a[0].nodes == a[1].nodes and a[0].value == a[1].value
    assert a[0].nodes <= 2000


def test_takes_the_move_that_cuts_off_the_opponent():
    # Row 3: a3 B, b3 B, c3 W, d3 D, e3 W. White's c3d3 cuts a3 and b3 off the DVONN piece.
    board = Board.from_stacks({"a3": "B", "b3": "B", "c3": "W", "d3": "D", "e3": "W"})
    assert str(ai.choose_ply(board, rng=random.Random(1), depth=2)) == "c3d3"


def test_wins_a_decided_ending_and_reports_it():
    board = Board.from_stacks({"a3": "B", "b3": "B", "c3": "W", "d3": "D", "e3": "W"})
    result = ai.choose(board, rng=random.Random(1), depth=6)
    assert result.value > ai.WIN // 2 and result.pv[0] == result.ply


def test_placement_search_iterates_only_depths_that_reach_phase_2():
    rng = random.Random(2)
    board = Board()
    while N_PLACEMENTS - board.ply_count > ai.PLACEMENT_SEARCH_EMPTIES:
        board.push(ai.choose_placement(board, rng))
    # Shallower iterations would score every leaf 0 (placement leaves are not evaluated).
    for nodes in (60, 200, 2000):
        result = ai.Searcher(random.Random(0)).search(board, nodes=nodes)
        assert result.depth == 0 or result.depth > ai.PLACEMENT_SEARCH_EMPTIES
        assert board.is_legal(result.ply)


def test_single_legal_ply_is_returned_without_search():
    board = random_board(5, N_PLACEMENTS - 1)  # the 49th placement is forced
    result = ai.choose(board, rng=random.Random(0), nodes=100)
    assert result.ply == board.legal_plies()[0] and result.nodes == 0


def test_placement_heuristic_prefers_spaces_near_dvonn_pieces():
    board = Board.from_plies(["e3", "c3", "h3"])  # DVONN pieces placed; Black places now
    scores = ai.placement_scores(board)
    assert set(scores) == set(range(49)) - {INDEX["e3"], INDEX["c3"], INDEX["h3"]}
    assert scores[INDEX["d3"]] > scores[INDEX["k5"]]


def test_game_over_and_bad_level_are_clear_errors():
    board = Board.from_stacks({"d3": "D", "e3": "W"})
    board.push(Ply.parse("e3d3"))
    assert board.is_over()
    with pytest.raises(ValueError, match="over"):
        ai.choose_ply(board, nodes=10)
    with pytest.raises(ValueError, match="level 7"):
        ai.choose_ply(Board(), level=7)


def test_thinker_answers_only_for_its_colour_and_the_current_position():
    thinker = ai.Thinker(BLACK, level=1, seed=2, nodes=300)
    board = random_board(21, 56)
    if board.turn != BLACK:
        board.push(board.legal_plies()[0])
    assert ai.Thinker(WHITE, nodes=10).update(board) is None  # not its turn: never starts
    first = thinker.update(board)
    assert thinker.wait(10.0)
    ply = thinker.update(board)
    assert first in (None, ply) and board.is_legal(ply)
    assert thinker.last.ply == ply
    # A new position: the old answer is not given for it.
    board.push(ply)
    board.push(board.legal_plies()[0])
    assert board.turn == BLACK and not board.is_over()
    assert thinker.update(board) is None  # the previous search is done: this one starts
    assert thinker.wait(10.0)
    assert board.is_legal(thinker.update(board))
