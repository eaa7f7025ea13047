"""A change of the recorded move read where a sensor drifts unsure is asked with the move as
recorded under the same later plies (`Questions._kept_on_drift`)."""

from firmware_py.questions import Questions
from firmware_py.spaces import N_SPACES
from firmware_py.state import BoardState
from tests.test_controller_parts import parts
from tests.test_inference_held_out import cand, two_plies_from_one_position


def test_a_change_of_the_recorded_move_read_on_drifting_sensors_is_asked_with_it_kept():
    # Drift 6 mT a minute, rough 12-bit m0.3 seed 2: "i3, j2, i2 or b4?" about j3's landing
    # left out b3b4 (as recorded) with j3i3; i3 shown changed b3b4 to b3a2 unasked.
    board, a, b, n1, n2 = two_plies_from_one_position()
    before = board.copy()
    board.push(a)  # the recorded last move
    cal, inference, watch = parts()
    q = Questions(inference, cal, watch, ask_after_s=1.0)
    st = BoardState(board=board)
    changed = [cand(before, [b, n1], amends=True), cand(before, [b, n2], amends=True)]
    kept = cand(board, [n1])  # the recorded move kept, with the same later ply
    unsure = [0.0] * N_SPACES
    unsure[b.dst] = 0.3  # codes a second: the changed landing's sensor drifts unsure
    inference.drift_unsure = unsure
    q.ask(st, changed, candidates=changed + [kept])
    assert kept in q.rivals  # an answer of n1's landing now names two: asked again about a/b
    inference.drift_unsure = None
    q.clear()
    st.mode = "idle"
    q.ask(st, changed, candidates=changed + [kept])
    assert kept not in q.rivals  # no drift unsure: as before
