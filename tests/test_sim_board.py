"""SimBoard behind the hardware interfaces, and the virtual hand's actions on the truth."""

import doctest

import numpy as np
import pytest

import dvonn_sim.board
import dvonn_sim.clock
import dvonn_sim.hand
import dvonn_sim.params
import dvonn_sim.physics
import dvonn_sim.sensors
from firmware_py.errors import ProfileError
from firmware_py.interfaces import LedFrame, LedSink, SensorSource
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_sim.board import SimBoard
from dvonn_sim.clock import RealTimeClock
from dvonn_sim.hand import HandError
from dvonn_sim.params import Params

CLEAN = Params.from_noise("clean")


@pytest.mark.parametrize("module", [dvonn_sim.params, dvonn_sim.physics, dvonn_sim.clock, dvonn_sim.sensors, dvonn_sim.board,
                                    dvonn_sim.hand])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_board_is_a_sensor_source_and_led_sink():
    board = SimBoard()
    assert isinstance(board, SensorSource) and isinstance(board, LedSink)
    assert board.adc_max == 4095
    frames = [board.read_frame() for _ in range(5)]
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4]
    assert np.allclose(np.diff([f.time for f in frames]), 0.01)
    assert all(0 <= v <= 4095 for f in frames for v in f.raw)
    led = LedFrame(spaces=((1, 2, 3),) * N_SPACES)
    board.show(led)
    assert board.leds is led and board.led_log[-1] == (frames[-1].time, led)
    board.close()


def test_same_seed_same_frames():
    def frames(seed):
        b = SimBoard(seed=seed)
        b.setup({"e3": "WB"})
        b.hand.lift("e3")
        b.hand.put("a1")
        return [b.read_frame().raw for _ in range(150)]
    assert frames(3) == frames(3) and frames(3) != frames(4)


def test_lift_carry_and_set_down_on_another_stack():
    board = SimBoard(CLEAN, seed=1)
    board.setup({"e3": "W", "g3": "B"})
    e3, f3, g3 = INDEX["e3"], INDEX["f3"], INDEX["g3"]
    base = board.read_frame().raw
    board.hand.lift("e3")
    board.hand.put("g3")
    seen_f3, held, heights = [], [], []
    while not board.hand.idle():
        f = board.read_frame()
        seen_f3.append(f.raw[f3])
        held.append(board.hand.holding)
        if board.hand.where():
            heights.append(board.hand.where()[2])
    assert 5.0 <= min(heights) and 35.0 <= max(heights) <= 65.0  # carried 30-60 mm up
    end = board.run(0.1).raw
    assert board.stack("g3") == ("B", "W") and board.stack("e3") == ()
    assert ("W",) in held and board.hand.holding == () and board.hand.where() is None
    assert base[e3] - end[e3] > 40 * 20  # the white piece left e3
    assert 4 * 20 < end[g3] - base[g3] < 10 * 20  # about +7 mT on a stack of one
    assert max(abs(v - base[f3]) for v in seen_f3) > 3  # the carried piece passed over f3


def test_each_hand_action_changes_the_truth():
    board = SimBoard(CLEAN, seed=2)
    hand = board.hand
    hand.place("c3", "D")
    hand.place("d3", "W")
    hand.place("e3", "B")
    board.run(8)
    assert board.stack("c3") == ("D",) and board.stack("d3") == ("W",)
    assert len(board.reserve["D"]) == 2 and len(board.reserve["W"]) == 22
    hand.remove("e3")
    board.run(4)
    assert board.stack("e3") == () and [p.kind for p in board.removed] == ["B"]
    hand.knock("d3", direction=0.0, distance_mm=12.0)
    board.run(1)
    assert board.stack("d3") == () and len(board.loose) == 1 and not board.is_settled()
    assert board.loose[0].x == pytest.approx(hand.xy(INDEX["d3"])[0] + 12.0)
    hand.restore("d3")
    board.run(2)
    assert board.stack("d3") == ("W",) and board.is_settled()
    hand.lift("c3")
    hand.put("d3")
    board.run(4)
    hand.lift("d3", count=1)  # the top piece only
    hand.put("c3")
    board.run(4)
    assert board.stack("c3") == ("D",) and board.stack("d3") == ("W",)
    hand.wait(0.5)
    assert not hand.idle()
    board.run(1)
    assert hand.idle()


def test_slide_hovers_over_the_spaces_on_the_way():
    board = SimBoard(CLEAN, seed=3)
    board.setup({"c3": "W", "d3": "B", "e3": "B", "f3": "W"})
    d3 = INDEX["d3"]
    base = board.read_frame().raw[d3]
    board.hand.slide("c3", "f3", via=["d3"])
    trace = []
    while not board.hand.idle():
        trace.append(board.read_frame().raw[d3])
    assert board.stack("f3") == ("W", "W") and board.stack("c3") == ()
    # While hovering a few mm above d3, d3 reads almost as if the piece had landed there
    assert max(trace) - base > 3 * 20


def test_impossible_actions_are_refused():
    board = SimBoard(seed=0)
    with pytest.raises(HandError, match="e3 is empty"):
        board.hand.lift("e3")
    with pytest.raises(HandError, match="holds nothing"):
        board.hand.put("e3")
    with pytest.raises(ValueError, match="no space named"):
        board.hand.lift("z9")
    board.setup({"e3": "W"})
    board.hand.lift("e3")
    board.hand.lift("e3")  # queued: turns out impossible when its turn comes
    board.run(2)
    assert "skipped lift e3" in board.hand.log[-1][1]


def test_setup_from_a_rules_board():
    from firmware_py.rules import Board
    rules = Board.from_plies(["e3", "f3", "g3", "a1", "b1"])
    board = SimBoard()
    board.setup(rules)
    assert board.truth() == tuple(rules.stacks())


def test_params_from_toml(tmp_path):
    f = tmp_path / "board.toml"
    f.write_text('noise = "poor"\noffset_spread_mt = 5\n[magnets.D]\nthickness_mm = 4.0\n'
                 '[timing]\nthink = [0.1, 0.2]\n')
    p = Params.from_toml(f)
    assert p.noise_mt == 0.3 and p.offset_spread_mt == 5.0
    assert p.magnets["D"].thickness_mm == 4.0 and p.magnets["W"].thickness_mm == 2.0
    assert p.timing.think == (0.1, 0.2)
    for text, key in (("noise_gain = 1", "noise_gain"), ("adc_bits = 'twelve'", "adc_bits"),
                      ("[magnets.X]\nbr_mt = 1", "magnets.X"), ("noise = 'awful'", "noise"),
                      ("frame_rate = 0", "frame_rate"), ("[magnets.W]\npolarity = 2",
                                                         "magnets.W.polarity")):
        f.write_text(text)
        with pytest.raises(ProfileError) as e:
            Params.from_toml(f)
        assert e.value.key == key


def test_real_time_clock_paces_frames():
    clock = RealTimeClock(speed=200.0)  # 10 ms of board time = 50 us of wall time
    board = SimBoard(clock=clock)
    frames = [board.read_frame() for _ in range(20)]
    assert clock.now() >= frames[-1].time
    assert all(b.time > a.time for a, b in zip(frames, frames[1:]))
    frame = board.read_frame(timeout=0.0)  # never waits: the frame if it is due, else None
    assert frame is None or frame.time <= clock.now()


def test_noise_level_changes_on_the_fly():
    board = SimBoard(Params.preset("ideal", noise="clean"), seed=3)
    quiet = {board.read_frame().raw for _ in range(20)}
    assert len(quiet) == 1
    board.set_noise("bad")
    noisy = {board.read_frame().raw for _ in range(20)}
    assert len(noisy) == 20 and board.sensors.params.noise_mt == 1.0
    board.params = board.params.replace(noise_mt=0.0)
    assert len({board.read_frame().raw for _ in range(20)}) == 1


def test_landing_signal_shrinks_with_the_destination_height():
    """sensing.md: landing on a stack of 1 changes its reading by about 7 mT, on 4 by < 0.5 mT."""
    board = SimBoard(Params.preset("ideal", noise="clean"), seed=4)
    # the pieces come from far away: no cross-talk change from their old spaces
    board.setup({"k5": "W", "b1": "W", "e3": "BWBW", "j5": "W"})
    per_mt = board.sensors.gain * 16.5 / 1000 / 3.3 * 4096
    for src, dst, expected in (("k5", "b1", 6.98), ("j5", "e3", 0.48)):
        d = INDEX[dst]
        before = board.run(0.05).raw[d]
        board.hand.lift(src)
        board.hand.put(dst)
        board.run(3.0)
        after = board.run(0.05).raw[d]
        change = abs(after - before) / per_mt[d]
        assert change == pytest.approx(expected, rel=0.1, abs=0.06)


def test_new_games_find_their_pieces_again():
    from dvonn_sim.players import play
    board = SimBoard(seed=8)
    first = play(board, seed=8)
    assert board.removed  # a finished game leaves pieces in the box
    board.setup([()] * N_SPACES)  # people clear the board, reusing what was removed
    second = play(board, seed=9)
    assert board.truth() == tuple(second.truth.stacks()) and first.truth.is_over()
    board.hand.lift(next(s for s in range(N_SPACES) if board.stacks[s]))
    board.run(0.1)
    board.reset()
    assert board.truth() == ((),) * N_SPACES and not board.removed and board.hand.idle()
    assert {k: len(v) for k, v in board.reserve.items()} == {"W": 23, "B": 23, "D": 3}
