"""A baseline that aged under a stack on a drifting board, with no reading to follow it
(`Calibration.aged`): the stack's departure is judged against how far it may be off, and the
emptied space's reading becomes its baseline (drift 6 mT a minute, rough 10-bit m0.3 seed 5:
c2's stack cleared, c2 read 6 mT off its stale baseline, as standing, and the game stopped)."""

from firmware_py.board_model import BoardModel
from firmware_py.calibration import Calibration
from firmware_py.faint_stacks import LIFTED_MT, STANDING_MT
from firmware_py.inference import Inference
from firmware_py.reference import Reference
from firmware_py.settle import Snapshot
from firmware_py.spaces import INDEX, N_SPACES

C2, D2 = INDEX["c2"], INDEX["d2"]


def parts():
    cal = Calibration.nominal()
    cal.baseline_known = True
    inference = Inference(BoardModel(cal))
    return cal, inference, Reference(inference.model, {}, inference)


def snap(values, time):
    return Snapshot(tuple(values), (0.8,) * N_SPACES, 20, time, time - 5.0)


def board_with(**stacks):
    out = [()] * N_SPACES
    for name, st in stacks.items():
        out[INDEX[name]] = tuple(st)
    return out


def play_the_minute(ref, cal, unsure_mt_per_s):
    """c2's stack stands a minute while d2's is cleared (no reading follows c2), its sensor
    drifting 6 mT; then c2's stack is cleared too. Returns c2's reading at the end."""
    cpm = cal.codes_per_mt
    before, after = board_with(c2="W", d2="B"), board_with(c2="W")
    values = list(ref.model.absolute(before))
    ref.set(snap(values, 1.0), before)
    ref.drift.unsure[C2] = unsure_mt_per_s * cpm  # on a board seen drifting, not measured
    values = list(ref.model.absolute(after))
    values[C2] += 6.0 * cpm  # the minute's drift, which no step of c2's own shows
    ref.set(snap(values, 61.0), after)
    empty = list(ref.model.absolute(board_with()))
    empty[C2] += 6.0 * cpm
    return empty


def test_a_stack_that_stood_unfollowed_on_a_drifting_sensor_leaves_its_space_read_afresh():
    cal, inference, ref = parts()
    stale = cal.baseline[C2]
    empty = play_the_minute(ref, cal, unsure_mt_per_s=0.1)
    aged = cal.aged[C2]
    assert abs(aged - 6.0 * cal.codes_per_mt) < 1e-6  # a minute at 0.1 mT a second
    # c2, emptied, reads 6 mT off its stale baseline: over `STANDING_MT`, still read as gone
    assert abs(empty[C2] - stale) > STANDING_MT * cal.codes_per_mt
    assert inference.standing[C2] >= aged + LIFTED_MT * cal.codes_per_mt
    ref.set(snap(empty, 70.0), board_with())  # the game says c2 is empty
    assert C2 not in cal.aged
    assert abs(cal.baseline[C2] - empty[C2]) < 1e-6  # read from the empty space


def test_on_a_board_not_seen_drifting_nothing_ages():
    cal, inference, ref = parts()
    play_the_minute(ref, cal, unsure_mt_per_s=0.0)
    assert not cal.aged
    assert inference.standing[C2] == STANDING_MT * cal.codes_per_mt
