"""Unit tests of firmware_py.rules: the Board API and every rule point of ../shared/rules/NOTES.md."""

import random

import pytest

from firmware_py.errors import IllegalPly
from firmware_py.rules import BLACK, PASS, WHITE, Board, Ply
from firmware_py.spaces import INDEX, N_SPACES, NEIGHBOURS


def sq(name):
    return INDEX[name]


def random_board(seed, plies=None):
    """A board after random legal plies (to the end when plies is None)."""
    rnd = random.Random(seed)
    board = Board()
    while plies is None or board.ply_count < plies:
        legal = board.legal_plies()
        if not legal:
            break
        board.push(rnd.choice(legal))
    return board


def full_board(seed=0):
    return random_board(seed, N_SPACES)


def test_empty_board():
    b = Board()
    assert b.turn == WHITE and b.phase == 1 and b.ply_count == 0 and b.move_stack == []
    assert b.piece_to_place() == "D"
    assert len(b.legal_plies()) == 49 and all(p.is_placement for p in b.legal_plies())
    assert b.stacks() == [()] * 49 and b.score() == (0, 0)
    assert not b.is_over() and b.winner() is None


def test_placement_order_dvonn_first_then_black_then_white():
    b = Board()
    seen = []
    for name in ["a1", "b1", "c1", "d1", "e1", "f1"]:
        seen.append((b.turn, b.piece_to_place()))
        b.push(Ply.parse(name))
    assert seen == [(WHITE, "D"), (BLACK, "D"), (WHITE, "D"), (BLACK, "B"), (WHITE, "W"),
                    (BLACK, "B")]
    assert b.stack(sq("d1")) == ("B",) and b.owner(sq("d1")) == BLACK
    assert b.stack(sq("e1")) == ("W",) and b.owner(sq("e1")) == WHITE
    assert b.owner(sq("a1")) is None  # a lone DVONN piece belongs to nobody


def test_placing_on_occupied_space_is_illegal_and_changes_nothing():
    b = Board.from_plies(["e3", "f3"])
    key, fen = b.key(), b.fen()
    with pytest.raises(IllegalPly, match="e3"):
        b.push(Ply.parse("e3"))
    with pytest.raises(IllegalPly):
        b.push(PASS)
    with pytest.raises(IllegalPly):
        b.push(Ply.parse("a1b1"))
    assert b.key() == key and b.fen() == fen and b.ply_count == 2


def test_white_places_last_piece_and_moves_at_once():
    b = full_board()
    assert b.phase == 2 and b.turn == WHITE and b.piece_to_place() is None
    counts = {}
    for s in b.stacks():
        counts[s] = counts.get(s, 0) + 1
    assert counts == {("D",): 3, ("W",): 23, ("B",): 23}
    assert all(p.is_move for p in b.legal_plies())
    assert {b.owner(p.src) for p in b.legal_plies()} == {WHITE}


def test_only_edge_pieces_move_at_the_start():
    b = full_board()
    for ply in b.legal_plies():
        assert len(NEIGHBOURS[ply.src]) < 6
        assert ply.dst in NEIGHBOURS[ply.src]  # single pieces move one space


def test_push_pop_restores_everything():
    for seed in range(5):
        b = random_board(seed)
        history = []
        probe = Board()
        for ply in b.move_stack:
            history.append((probe.key(), probe.fen(), probe.turn))
            probe.push(ply)
        while b.move_stack:
            b.pop()
            assert (b.key(), b.fen(), b.turn) == history[b.ply_count]
        assert b.key() == 0
    with pytest.raises(IndexError):
        Board().pop()


def test_key_is_the_same_for_the_same_position_reached_differently():
    a = Board.from_plies(["a1", "b1", "c1", "d1", "e1"])
    b = Board.from_plies(["a1", "b1", "c1", "e1", "d1"])
    assert a.stack(sq("d1")) != b.stack(sq("d1")) and a.key() != b.key()
    c = Board.from_plies(["a1", "b1", "c1", "d1", "e1", "f1", "g1"])
    d = Board.from_plies(["a1", "b1", "c1", "f1", "g1", "d1", "e1"])
    assert c == d and c.key() == d.key()


def test_copy_is_independent():
    b = random_board(3, 60)
    c = b.copy()
    c.push(c.legal_plies()[0])
    assert b.ply_count == 60 and c.ply_count == 61 and b.fen() != c.fen()
    c.pop()
    assert c == b and c.key() == b.key()


def test_mobile_stacks_and_destinations_agree_with_legal_plies():
    b = random_board(7, 60)
    moves = b.legal_plies()
    assert b.mobile_stacks() == sorted({p.src for p in moves})
    for src in b.mobile_stacks():
        assert b.destinations(src) == [p.dst for p in moves if p.src == src]
    assert all(b.is_legal(p) for p in moves)


def test_isolated_by_predicts_removals():
    for seed in range(30):
        rnd = random.Random(seed)
        b = full_board(seed)
        while not b.is_over():
            ply = rnd.choice(b.legal_plies())
            predicted = b.isolated_by(ply)
            b.push(ply)
            assert sorted(b.last_removed) == predicted


def test_game_ends_with_score_and_winner():
    for seed in range(10):
        b = random_board(seed)
        assert b.is_over() and b.legal_plies() == []
        w, s = b.score()
        assert b.winner() == (WHITE if w > s else BLACK if s > w else "draw")
        with pytest.raises(IllegalPly, match="over"):
            b.push(PASS)
