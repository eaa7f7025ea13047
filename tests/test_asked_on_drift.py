"""A ply asked about and not answered is not decided later by readings of sensors drifting
faster than the board follows (`asked_on_drift`): the question comes back with each asked
landing."""

from firmware_py.asked_on_drift import asked_on_drift
from firmware_py.inference import Decision
from firmware_py.spaces import N_SPACES
from firmware_py.questions import Questions
from firmware_py.state import BoardState
from tests.test_controller_parts import parts
from tests.test_inference_held_out import cand, two_plies_from_one_position


def _read_on_top(unsure_at=None):
    """A move asked about ("a or b?"), not answered, then a still board read as `a` and the
    next ply on top: (the decision after `asked_on_drift`, the two readings)."""
    board, a, b, n1, _ = two_plies_from_one_position()
    cal, inference, watch = parts()
    q = Questions(inference, cal, watch, ask_after_s=1.0)
    st = BoardState(board=board)
    q.ask(st, [cand(board, [a]), cand(board, [b])])
    assert st.ask == [a.dst, b.dst]
    first, other = cand(board, [a, n1]), cand(board, [b, n1])
    first.chi2, other.chi2 = 230.0, 290.0  # readings 30 s old: a fits "best" by far
    d = Decision("commit", first, [first], [first, other])
    drifting = set() if unsure_at is None else {unsure_at(a, b)}  # named: drifting too fast
    return asked_on_drift(d, q.asked_first, board.ply_count, drifting), first, other


def test_a_ply_asked_about_is_not_taken_on_readings_of_a_sensor_drifting_too_fast():
    # Drift 6 mT a minute, default 10-bit m0.3 seed 1: "f4, h4, h2?" about f2's move dropped
    # unanswered, then f2f4 j3i2 taken on readings 30 s old (h2 the truth, named too fast).
    d, first, other = _read_on_top(unsure_at=lambda a, b: b.dst)
    assert d.kind == "ambiguous" and d.rivals == [first, other]  # asked again


def test_a_ply_asked_about_is_taken_when_no_sensor_of_its_landings_drifts_too_fast():
    d, first, _ = _read_on_top()
    assert d.kind == "commit" and d.best is first  # as before: the readings decide
    d, first, _ = _read_on_top(unsure_at=lambda a, b: next(
        s for s in range(N_SPACES) if s not in (a.dst, b.dst)))
    assert d.kind == "commit"


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
    unsure[b.dst] = 0.3
    inference.drift_unsure = unsure
    q.ask(st, changed, candidates=changed + [kept])
    assert kept in q.rivals  # an answer of n1's landing now names two: asked again about a/b
    inference.drift_unsure = None
    q.clear()
    st.mode = "idle"
    q.ask(st, changed, candidates=changed + [kept])
    assert kept not in q.rivals  # no drift unsure: as before
