"""The first settled board (`startup.start`) with the real model, inference, fault watch and
reference, on made-up snapshots: a new game's board must be empty, a resumed game's pieces must
stand as recorded (the right way up) before play goes on."""

from __future__ import annotations

import dataclasses

from firmware_py import reference
from firmware_py.rules import Board, Ply
from firmware_py.startup import confirm_as_recorded, confirm_empty, start
from firmware_py.state import BoardState
from tests.test_controller_parts import E3, F3, parts, snap


def started(board, values):
    """(what `start` returned, the state, the reference, the fault watch) for a first snapshot
    `values`."""
    cal, inference, watch = parts()
    ref = reference.Reference(inference.model, watch.faulty, inference)
    st = BoardState(board=board, mode="calibrating")
    return start(st, snap(values), watch, inference, ref), st, ref, watch


def with_piece_on(cal, space, mt=40):
    values = list(cal.baseline)
    values[space] += mt * cal.codes_per_mt
    return values


def test_an_empty_board_starts_a_new_game_and_is_the_first_reference():
    cal = parts()[0]
    ok, st, ref, watch = started(Board(), cal.baseline)
    assert ok and ref.values == tuple(cal.baseline) and ref.stacks == [()] * len(cal.baseline)
    assert st.mode == "calibrating" and watch.suspects == []  # the controller shows the turn


def test_pieces_on_a_new_game_s_board_are_to_be_cleared_first():
    cal = parts()[0]
    ok, st, ref, watch = started(Board(), with_piece_on(cal, F3))
    assert not ok and ref.values is None
    assert st.extra == [F3] and st.mode == "calibrating"


def test_spaces_confirmed_empty_take_their_readings_as_baselines_and_none_is_faulty():
    # Issue 19: cheap Hall sensors sit up to +-20 mT off mid-scale; on the first start they
    # read like pieces. Confirm says "these spaces are empty": an offset, not a fault.
    cal = parts()[0]
    values = with_piece_on(cal, F3, mt=-19)
    values[E3] += 17 * cal.codes_per_mt
    ok, st, ref, watch = started(Board(), values)
    assert not ok and st.extra == sorted([E3, F3]) and st.mode == "calibrating"
    assert "press confirm" in st.message and "taken as empty" in st.message
    inference = ref.inference
    assert confirm_empty(st, snap(values), watch, inference, ref)
    assert not watch.faulty and not st.extra
    assert ref.values == tuple(values) and inference.model.cal.baseline == values
    assert not inference.occupancy(values)


def test_a_space_confirmed_empty_whose_sensor_is_stuck_is_marked_faulty():
    cal = parts()[0]
    values = with_piece_on(cal, F3)  # reads like a piece, and never moves by one code
    ok, st, ref, watch = started(Board(), values)
    assert not ok and st.extra == [F3] and not watch.faulty  # a piece? the player's call
    still = dataclasses.replace(snap(values, spread=1.0),
                                spread=tuple(0.0 if s == F3 else 1.0 for s in range(49)))
    assert confirm_empty(st, still, watch, ref.inference, ref)
    assert list(watch.faulty) == [F3] and "stuck" in watch.faulty[F3]


def test_a_piece_set_down_after_the_spaces_were_named_is_named_in_turn():
    cal = parts()[0]
    ok, st, ref, watch = started(Board(), with_piece_on(cal, F3))
    values = with_piece_on(cal, F3)
    values[E3] += 40 * cal.codes_per_mt
    assert not confirm_empty(st, snap(values), watch, ref.inference, ref)
    assert st.extra == [E3] and ref.values is None and not watch.faulty


def test_a_resumed_game_whose_pieces_differ_is_unexplained_until_set_up():
    cal = parts()[0]
    board = Board()
    board.push(Ply(-1, E3))
    ok, st, ref, _ = started(board, with_piece_on(cal, F3))  # on f3 instead of e3
    assert not ok and ref.values is None
    assert (st.mode, st.missing, st.extra) == ("unexplained", [E3], [F3])
    assert st.message.startswith("set up the game as recorded: put back e3; take off f3. ")
    assert "press confirm" in st.message  # no baselines known: confirm takes it as recorded


def test_a_resumed_game_s_piece_the_wrong_way_up_is_to_be_set_up_again():
    cal = parts()[0]
    board = Board()
    board.push(Ply(-1, E3))  # a DVONN piece
    upside_down = -40 * cal.polarity[board.stacks()[E3][0]]
    ok, st, _, _ = started(board, with_piece_on(cal, E3, mt=upside_down))
    assert not ok and st.mode == "unexplained" and st.extra == [E3] and not st.missing


def test_a_resumed_game_as_recorded_is_the_reference():
    cal = parts()[0]
    board = Board()
    board.push(Ply(-1, E3))
    mt = 40 * cal.polarity[board.stacks()[E3][0]]
    ok, st, ref, _ = started(board, with_piece_on(cal, E3, mt=mt))
    assert ok and ref.stacks == board.stacks() and st.mode == "calibrating"


def test_a_resumed_game_confirmed_as_recorded_reads_its_empty_spaces_and_not_its_stacks():
    """No baselines (no calibration file): f3, empty in the record, reads 30 mT off (a cheap
    sensor's offset) and is named; the player confirms the board stands as recorded. f3's
    reading becomes its baseline; e3's stays unread until its stack leaves."""
    cal = parts()[0]
    board = Board()
    board.push(Ply(-1, E3))
    values = with_piece_on(cal, E3)
    values[F3] += 30 * cal.codes_per_mt
    ok, st, ref, watch = started(board, values)
    assert not ok and st.extra == [F3]
    assert confirm_as_recorded(st, snap(values), watch, ref)
    assert ref.values is not None and not st.extra and not st.missing
    cal = ref.cal
    assert abs(cal.baseline[F3] - values[F3]) < 2 * cal.codes_per_mt  # (less cross-talk)
    assert cal.unread == {E3}
