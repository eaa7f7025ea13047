"""One test per rule point of ../shared/rules/NOTES.md (and the rulebook), on set-up positions."""

import pytest

from firmware_py.errors import IllegalPly
from firmware_py.rules import BLACK, PASS, WHITE, Board, Ply
from firmware_py.spaces import INDEX, SPACES


def names(spaces):
    return [SPACES[s] for s in spaces]


def plies(board):
    return [str(p) for p in board.legal_plies()]


def test_stack_moves_exactly_its_height_in_a_line_over_empty_and_occupied_spaces():
    b = Board.from_stacks({"a3": "BBW", "b3": "B", "d3": "D", "c3": "W"})
    # a3 (height 3) reaches d3 over the occupied b3 and c3; c3 (1) is next to d3 and b3.
    assert names(b.destinations(INDEX["a3"])) == ["d3"]
    b2 = Board.from_stacks({"a3": "BBW", "d3": "D"})
    assert names(b2.destinations(INDEX["a3"])) == ["d3"]  # across two empty spaces


def test_a_move_must_end_on_an_occupied_space():
    b = Board.from_stacks({"a3": "WW", "b3": "D", "g1": "B", "h1": "B"})
    assert b.destinations(INDEX["a3"]) == []  # c3 and a5 are empty, c5 is off the board
    with pytest.raises(IllegalPly, match="c3 is empty"):
        b.push(Ply.parse("a3c3"))
    with pytest.raises(IllegalPly, match="exactly 2"):
        b.push(Ply.parse("a3b3"))


def test_stacks_of_five_move_only_along_rows_and_of_eleven_never():
    b = Board.from_stacks({"e3": "WWWWW", "j3": "D", "e1": "B", "e5": "B"})
    assert names(b.destinations(INDEX["e3"])) == ["j3"]
    eleven = Board.from_stacks({"a3": "W" * 11, "k3": "D", "b3": "B"})
    assert eleven.destinations(INDEX["a3"]) == [] and eleven.mobile_stacks() == []


def surrounded_e3(centre="W", ring=("D", "B", "B", "B", "B", "B")):
    spaces = ("d3", "f3", "e2", "e4", "d2", "f4")
    return dict(zip(spaces, ring)) | {"e3": centre}


def test_a_stack_surrounded_on_all_six_sides_may_not_move():
    b = Board.from_stacks(surrounded_e3() | {"g3": "B"})
    assert INDEX["e3"] not in b.mobile_stacks()
    with pytest.raises(IllegalPly, match="surrounded"):
        b.push(Ply.parse("e3f3"))


def test_a_lone_dvonn_piece_counts_as_occupied_for_surrounding():
    b = Board.from_stacks(surrounded_e3(ring=("D", "D", "D", "B", "B", "B")))
    # White's only piece e3 is shut in by three DVONN pieces and three black pieces: it passes.
    assert b.legal_plies() == [PASS] and INDEX["e3"] not in b.mobile_stacks()


def test_edge_spaces_are_never_surrounded():
    # a1's three neighbours are all occupied, yet it may move: the board edge does not surround.
    b = Board.from_stacks({"a1": "W", "b1": "D", "a2": "B", "b2": "B"})
    assert sorted(names(b.destinations(INDEX["a1"]))) == ["a2", "b1", "b2"]


def test_a_lone_dvonn_piece_cannot_move_but_may_be_landed_on_and_scores_for_nobody():
    b = Board.from_stacks({"e3": "D", "f3": "W", "k5": "D", "k4": "D"})
    assert b.owner(INDEX["e3"]) is None and b.score() == (1, 0)
    assert plies(b) == ["f3e3"]
    b.push(Ply.parse("f3e3"))
    assert b.stack(INDEX["e3"]) == ("D", "W") and b.owner(INDEX["e3"]) == WHITE
    assert b.score() == (2, 0)  # the DVONN piece in White's stack counts for White


def test_a_stack_holding_a_dvonn_piece_at_any_depth_keeps_its_links_and_is_its_owners():
    b = Board.from_stacks({"a3": "DBW", "b3": "B", "c3": "W", "e3": "D", "f3": "B"})
    assert b.owner(INDEX["a3"]) == WHITE and b.score() == (4, 2)
    b.push(Ply.parse("c3b3"))  # b3 now hangs only on a3, whose DVONN piece is at the bottom
    assert b.last_removed == {} and b.stack(INDEX["b3"]) == ("B", "W")


def test_moving_a_stack_with_a_dvonn_piece_takes_the_link_with_it():
    b = Board.from_stacks({"a3": "DBW", "b3": "B", "d3": "B", "e3": "D"})
    assert "a3d3" in plies(b)
    assert names(b.isolated_by(Ply.parse("a3d3"))) == ["b3"]
    b.push(Ply.parse("a3d3"))
    assert b.stack(INDEX["d3"]) == ("B", "D", "B", "W") and list(b.last_removed) == [INDEX["b3"]]


def test_everything_not_linked_to_a_dvonn_piece_is_removed_after_every_move():
    # Chain: d3(D) - e3(W) - f3(B) - g3(W) ; and h3(B) hanging on g3.
    b = Board.from_stacks({"d3": "D", "e3": "W", "f3": "B", "g3": "W", "h3": "B"})
    # White moves e3 onto d3: f3, g3 and h3 lose their link and are removed, White's g3 too.
    assert names(b.isolated_by(Ply.parse("e3d3"))) == ["f3", "g3", "h3"]
    b.push(Ply.parse("e3d3"))
    assert b.last_removed == {INDEX["f3"]: ("B",), INDEX["g3"]: ("W",), INDEX["h3"]: ("B",)}
    assert b.stacks().count(()) == 48 and b.score() == (2, 0)
    b.pop()
    assert b.stack(INDEX["g3"]) == ("W",) and b.score() == (2, 2)


def test_moving_the_dvonn_piece_away_cuts_off_what_it_held():
    # b1 holds the only DVONN piece. Moving it 2 to d1: c1 still touches d1, but b2 touched
    # only b1 (its neighbours are a1 b1 a2 c2 b3 c3) and is cut off.
    b = Board.from_stacks({"b1": "DW", "c1": "B", "d1": "W", "b2": "B"})
    assert names(b.isolated_by(Ply.parse("b1d1"))) == ["b2"]
    b.push(Ply.parse("b1d1"))
    assert b.stack(INDEX["d1"]) == ("W", "D", "W") and list(b.last_removed) == [INDEX["b2"]]


def test_an_isolated_dvonn_piece_is_never_removed():
    b = Board.from_stacks({"a1": "D", "b1": "W", "c1": "B", "e3": "D", "f3": "B"})
    b.push(Ply.parse("b1c1"))  # a1 is left alone: it stays, linked to itself
    assert b.stack(INDEX["a1"]) == ("D",) and INDEX["a1"] not in b.last_removed


def test_pass_only_without_moves_and_rechecked_every_turn():
    # Black's only piece e3 is surrounded: Black must pass. White then frees it by moving f3.
    b = Board.from_stacks(surrounded_e3(centre="B", ring=("D", "W", "W", "W", "W", "W"))
                          | {"g3": "W"}, turn=BLACK)
    assert b.legal_plies() == [PASS] and not b.is_over() and b.winner() is None
    b.push(PASS)
    with pytest.raises(IllegalPly, match="may not pass"):
        b.push(PASS)  # White has moves: no pass
    b.push(Ply.parse("f3g3"))
    assert PASS not in b.legal_plies() and "e3f3" not in plies(b) and "e3d3" in plies(b)
    with pytest.raises(IllegalPly, match="may not pass"):
        b.push(PASS)  # Black has a move again and must make it


def test_the_game_ends_when_neither_player_can_move():
    b = Board.from_stacks({"e3": "D", "f3": "B", "a1": "D", "b1": "WW", "k5": "D"})
    # White's b1 (height 2) has no landing; Black's f3 can land on e3: White passes, Black moves.
    assert b.legal_plies() == [PASS] and not b.is_over()
    b.push(PASS)
    assert plies(b) == ["f3e3"]
    b.push(Ply.parse("f3e3"))
    assert b.is_over() and b.legal_plies() == [] and b.score() == (2, 2)
    assert b.winner() == "draw"
    with pytest.raises(IllegalPly, match="over"):
        b.push(Ply.parse("b1d1"))


def test_score_counts_whole_stacks_including_opponent_and_dvonn_pieces():
    b = Board.from_stacks({"e3": "BBDW", "f3": "WB", "a1": "D", "k5": "D", "g3": "W"})
    assert b.score() == (5, 2)


def test_winner_is_the_higher_score():
    b = Board.from_stacks({"e3": "D", "f3": "WWB", "g3": "D"}, turn=WHITE)
    # nobody can move (f3 is height 3; nothing at distance 3)
    assert b.is_over() and b.winner() == BLACK


def test_placing_may_use_any_vacant_space_and_phase_two_starts_with_white():
    b = Board()
    for n, space in enumerate(sorted(SPACES, key=lambda s: (s[1], s[0]), reverse=True)):
        assert b.phase == 1 and b.is_legal(Ply.parse(space))
        b.push(Ply.parse(space))
    assert b.phase == 2 and b.turn == WHITE and b.ply_count == 49


def test_a_set_up_position_with_unlinked_stacks_loses_them_after_the_next_move():
    # g1 and h1 touch no DVONN piece. Black's a2 onto a3 cuts nothing off, but g1/h1 must go.
    b = Board.from_stacks({"a3": "D", "a2": "B", "b3": "W", "g1": "B", "h1": "W"}, turn=BLACK)
    assert b.isolated_by(Ply.parse("a2a3")) == [INDEX["g1"], INDEX["h1"]]
    b.push(Ply.parse("a2a3"))
    assert sorted(names(b.last_removed)) == ["g1", "h1"]
    b.pop()
    assert b.stack(INDEX["g1"]) == ("B",)
