"""Inference on a rough board (issue 19): spikes do not keep the board from being still, a
landing's own reading is weighed by how well this board's landings have fitted, a stack set
back or knocked aside is not read as a move, and a question is never left to readings that
merely firm up (nor asked again about a landing that has stood still). Simulated time only."""

import random

import pytest

from dvonn_sim.autoplay import play_game
from firmware_py.board_model import BoardModel, LandingFit
from firmware_py.calibration import Calibration
from firmware_py.controller import Controller
from firmware_py.inference import Candidate, Decision
from firmware_py.rules import Board, Ply
from firmware_py.settle import Settler, Snapshot
from firmware_py.spaces import INDEX, N_SPACES


# -- settling ----------------------------------------------------------------------------------
def frames(settler, count, spikes=(), start=0.0, seed=1):
    """Feed a still board (0.3 codes of noise); `spikes`: (frame, sensor, codes) added."""
    rnd = random.Random(seed)
    extra = {(i, s): v for i, s, v in spikes}
    snaps = []
    for i in range(count):
        raw = [2000.0 + rnd.gauss(0, 0.3) + extra.get((i, s), 0.0) for s in range(N_SPACES)]
        snap = settler.feed(start + 0.01 * i, raw)
        if snap is not None:
            snaps.append(snap)
    return snaps


def test_a_one_frame_spike_on_one_sensor_leaves_the_board_still():
    s = Settler(settle_s=0.2, tolerance=5.0, refresh_s=0.5)
    snaps = frames(s, 300, spikes=[(i, (7 * i) % N_SPACES, 100.0) for i in range(30, 300, 40)])
    # still since the first frame all along, and the spikes are not in the averages
    assert snaps and snaps[-1].stable_since == 0.0 and snaps[-1].time > 2.5
    assert all(abs(v - 2000.0) < 0.5 for v in snaps[-1].values)


def test_one_sensor_off_two_frames_running_is_moving():
    s = Settler(settle_s=0.2, tolerance=5.0, refresh_s=0.5)
    frames(s, 50)
    frames(s, 50, spikes=[(0, 5, 100.0), (1, 5, 100.0)], start=0.5)
    assert s.snapshot.stable_since > 0.5  # stillness began again after the change


# -- landings ----------------------------------------------------------------------------------
def test_only_a_landing_misfit_beyond_a_careful_boards_widens_the_model():
    fit = LandingFit()
    assert fit.rel() == 0.0
    for _ in range(20):
        fit.learn(0.012)  # a careful board: within what the model already expects
    assert fit.rel() < 0.01
    model = BoardModel(Calibration.nominal())
    e3 = INDEX["e3"]
    stacks = [()] * N_SPACES
    stacks[e3] = ("W",)
    ref = model.absolute(stacks)
    _, tight = model.delta({e3: ("W", "B")}, ref, stacks)
    for _ in range(20):
        model.landings.learn(0.1)  # a rough board: nudges move the stack below by 4 mT
    _, wide = model.delta({e3: ("W", "B")}, ref, stacks)
    unit = model.cal.unit(e3)
    assert wide[e3] - tight[e3] == pytest.approx((model.landings.rel() * unit) ** 2, rel=1e-6)
    assert model.landings.rel() * unit > 3.0 * model.cal.codes_per_mt


def test_a_dvonn_piece_whose_magnet_sits_off_centre_in_it_is_not_refused():
    # Rough seed 8: the second DVONN piece, 2.5 mm off its intersection with its magnet 1 mm
    # off the centre of the piece, on a sensor 14 % low, read 26.3 mT and was refused.
    from firmware_py.inference import Inference
    model = BoardModel(Calibration.nominal())
    cal = model.cal
    f3 = INDEX["f3"]
    values = list(cal.baseline)
    values[f3] += cal.polarity["D"] * 26.3 * cal.codes_per_mt
    assert Inference(model).polarity_ok(f3, "D", values, [()] * N_SPACES)
    values[f3] = cal.baseline[f3] - cal.polarity["D"] * 26.3 * cal.codes_per_mt
    assert not Inference(model).polarity_ok(f3, "D", values, [()] * N_SPACES)  # upside down


# -- questions ---------------------------------------------------------------------------------
def still(time: float, since: float) -> Snapshot:
    return Snapshot(tuple([2048.0] * N_SPACES), tuple([1.0] * N_SPACES), 20, time, since)


def test_a_recorded_landing_that_stands_still_is_not_asked_about():
    c = Controller()
    board = Board()
    stacks = board.stacks()
    match = Candidate("match", (), board, stacks, frozenset())
    held = Candidate("lifted", (), board, stacks, frozenset(), src=0, amends=True)
    d = Decision("ambiguous", match, [match, held])
    hold = c.inference.hold_s
    assert c.questions.stands(d, still(10.0, 10.0 - hold / 2)) is None  # a hand may hold it
    assert c.questions.stands(d, still(10.0, 10.0 - hold)) is match      # no hand holds that long
    landing = Candidate("commit", (), board, stacks, frozenset(), amends=True)
    other = Decision("ambiguous", match, [match, landing])
    assert c.questions.stands(other, still(10.0, 0.0)) is None  # another landing: asked


def test_an_open_question_whether_it_landed_is_not_answered_by_readings_alone():
    c = Controller()
    c.state.mode = "idle"
    board = Board()
    stacks = board.stacks()
    ply = Ply.parse("e3")
    after = board.copy()
    after.push(ply)
    landing = Candidate("commit", (ply,), after, after.stacks(), frozenset())
    c.questions.ask(c.state, [landing], single=True)
    c.questions.whether = True
    assert c.state.mode == "asking"
    c._act(Decision("commit", landing, [landing]), still(5.0, 1.0))
    assert c.state.board.ply_count == 0 and c.state.mode == "asking"  # still the question
    c.button("confirm")  # the player's answer records it
    assert [str(p) for p in c.state.board.move_stack] == ["e3"]


# -- whole games on the rough board ------------------------------------------------------------
@pytest.mark.parametrize("seed,mistakes,plies", [
    (5, 0.0, None),  # a landing whose nudge hid it was read as a move onto another stack
    (2, 0.3, 12),    # a knocked DVONN piece set back centred: stuck at ply 1, "take off g1"
    (5, 0.3, None),  # a stack knocked beside a neighbour read as a move onto it (once
                     # landings were weighed by how this board's landings fit)
])
def test_rough_games_that_went_wrong_are_recorded_exactly(seed, mistakes, plies):
    r = play_game(seed=seed, preset="rough", mistakes=mistakes, max_plies=plies)
    assert r.wrong == 0 and r.match and not r.stalled
    assert r.auto >= 0.9 * (r.auto + r.asked)


@pytest.mark.parametrize("plies", [60, 77])
def test_a_rough_10_bit_game_with_mistakes_records_no_ply_that_was_not_made(plies):
    # Seed 2: at ply 58 a stack slid over e5 on its way to e4, and the next stack was lifted
    # before the board was still; the question then asked took f5e5 as given (its landing was
    # scored strictly while a stack was in the hand). At ply 76 a stack carried onto e1 dipped
    # e1's reading like a lift and was taken as the answer "e1" to an open question.
    r = play_game(seed=2, preset="rough", adc_bits=10, mistakes=0.3, max_plies=plies)
    assert r.wrong == 0 and r.match and not r.stalled


def test_fractional_10_bit_readings_allow_for_the_adcs_own_error():
    # Seed 1: with the direct scanner's quarter codes taken at their noise alone, a stack slid
    # low over f4 on its way to h2 and paused there was recorded as f2f4 at ply 73 (2 wrong
    # plies); with the ADC's own error allowed for (a fifth of a code, 0.04 mT) it is not.
    r = play_game(seed=1, preset="rough", adc_bits=10, mistakes=0.3, max_plies=76)
    assert r.wrong == 0 and r.match and not r.stalled
    assert r.auto >= 0.9 * (r.auto + r.asked)
