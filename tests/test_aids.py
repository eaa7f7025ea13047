"""The session's collaborators split out of session.py and sim/hand.py (issue 13): the clock,
hint and voice wiring (`aids.Aids`), the scanner link (`link_watch.LinkWatch`), the rebuild
lines, and the hand's timeline and paths."""

import doctest

import numpy as np
import pytest

from firmware_py import aids, hints, link_watch, rebuild
from firmware_py.aids import Aids
from firmware_py.clock import TimeControl
from firmware_py.rules import Board
from firmware_py.state import BoardState


@pytest.mark.parametrize("module", [aids, hints, link_watch, rebuild])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_sim_hand_parts_docstring_examples():
    from dvonn_sim import hand, hand_paths, hand_timeline
    for module in (hand, hand_paths, hand_timeline):
        assert doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0
    assert hand.Segment is hand_timeline.Segment  # still importable from hand


def test_no_clock_without_a_time_control_and_one_per_game_with_it():
    none = Aids(time_control=TimeControl.parse("none"))
    none.new_clock()
    assert none.time_control is None and none.clock_watch is None
    assert none.tick(controller=None, now=5.0) is None  # nothing to run
    assert none.committed(controller=None, ply=None, now=5.0) is None

    timed = Aids(time_control=TimeControl.parse("10m+5s"))
    timed.new_clock()
    first = timed.clock_watch
    timed.new_clock()
    assert first is not None and timed.clock_watch is not first


def test_stored_control_reads_the_tag_and_a_bad_tag_means_no_clock():
    assert str(Aids.stored_control({"TimeControl": "10m+5s"}, 1)) == "10m+5s"
    assert Aids.stored_control({"TimeControl": "none"}, 1) is None
    assert Aids.stored_control({"TimeControl": "ten minutes"}, 1) is None
    assert Aids.stored_control({}, 1) is None


def test_confirm_asks_for_a_hint_only_while_the_board_waits_for_a_move():
    a = Aids()
    idle = BoardState(board=Board(), mode="idle")
    assert a.confirm_asks_hint(idle, link_lost=False)
    assert not a.confirm_asks_hint(idle, link_lost=True)
    assert not a.confirm_asks_hint(BoardState(board=Board(), mode="lifted"), link_lost=False)


def test_an_asked_hint_is_shown_and_said_then_taken_down_when_hints_are_cleared():
    a = Aids()
    state = BoardState(board=Board.from_plies(["e3"]), mode="idle")
    a.update_hint(state)
    assert state.hint is None and state.message == ""  # nobody asked, no computer
    a.hints.request(state.board)
    assert a.hints.wait(5.0)
    a.update_hint(state)
    assert state.board.is_legal(state.hint)
    assert state.message.startswith("hint: ") and str(state.hint) in state.message
    a.hints.clear()
    a.update_hint(state)
    assert state.hint is None


def test_the_hand_timeline_skips_an_action_no_longer_possible_and_logs_it():
    from dvonn_sim.hand_timeline import Action, Segment, Timeline

    class Clock:
        now = 0.0
        changes = 0

        def changed(self):
            self.changes += 1

    board = Clock()
    tl = Timeline(board, (0.0, 0.0, 80.0))
    tl.queue(Action("lift e3", lambda: "e3 is empty", lambda start: [], 0.0))
    tl.queue(Action("wait", lambda: None,
                    lambda start: [Segment(start, start + 2.0, (0.0, 0.0, 80.0), (0.0, 0.0, 80.0),
                                           on_end=lambda: None)], 1.0))
    assert tl.next_change(0.0) < 0.001  # the first action is due now
    tl.advance_to(1.5)
    assert tl.log == [(0.0, "skipped lift e3: e3 is empty"), (1.0, "wait")]
    assert not tl.idle() and tl.next_change(1.5) == 3.0
    tl.advance_to(3.0)
    assert tl.idle() and board.changes == 1
    x, y, h = tl.position(np.array([3.0, 4.0]))
    assert list(h) == [80.0, 80.0]


def test_a_lost_link_is_shown_with_what_a_wrong_firmware_asks_of_the_player():
    from firmware_py.errors import FirmwareMismatch, LinkLost
    from firmware_py.link_watch import LinkWatch
    link = LinkWatch(clock=lambda: 50.0)
    state = BoardState(board=Board(), mode="idle", message="white to play")
    assert link.show(state) is state  # up: the controller's own state
    assert link.lost(LinkLost("unplugged"))
    shown = link.show(state)
    assert (shown.mode, shown.message) == ("link_lost", "scanner link lost: play paused")
    assert state.mode == "idle"  # a copy: the controller's state is untouched
    assert not link.lost(FirmwareMismatch("update the scanner: python -m dvonn_hw.firmware"))
    assert link.show(state).message == ("scanner link lost: play paused; "
                                        "update the scanner: python -m dvonn_hw.firmware")
    assert link.frame(3.0) and link.why == "update the scanner: python -m dvonn_hw.firmware"
    assert link.show(state) is state and link.now() == 3.0
