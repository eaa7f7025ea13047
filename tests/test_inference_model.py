"""The forward model: physics shape from the magnet geometry, strength from calibration."""

from firmware_py.board_model import BoardModel
from firmware_py.calibration import NEAR, Calibration
from firmware_py.spaces import INDEX


def calibrated() -> Calibration:
    cal = Calibration.nominal()
    cal.set_empty([2000.0] * 49, [0.7] * 49)
    for s in range(49):  # every sensor saw one White piece of 900 codes
        cal.response[s], cal.kind[s] = 900.0, "W"
    cal.changed()
    return cal


def test_fall_off_with_height_matches_the_magnet_table():
    m = BoardModel(calibrated())
    # sensing.md: the n-th piece adds 44.7 / 6.98 / 2.16 / 0.93 / 0.48 mT
    expected = [1.0, 6.98 / 44.7, 2.16 / 44.7, 0.93 / 44.7, 0.48 / 44.7]
    for level, want in enumerate(expected):
        assert abs(m.axial("W", level) - want) < 0.01 * want + 1e-4
    assert m.axial("B", 1) == m.axial("W", 1)  # same magnet, other way up


def test_crosstalk_prior_is_small_and_opposite():
    m = BoardModel(calibrated())
    e3, f3 = INDEX["e3"], INDEX["f3"]
    x = m.crosstalk(f3, e3) / 900.0 * 44.7  # in mT per White piece
    assert -0.5 < x < -0.2  # sensing.md: 0.2-0.5 mT of opposite sign at 25 mm
    assert f3 in NEAR[e3]


def test_landing_and_emptying_deltas():
    cal = calibrated()
    m = BoardModel(cal)
    stacks = [("W",)] * 49
    ref = [2000.0 + 900.0] * 49
    e3, f3 = INDEX["a1"], INDEX["f3"]  # far apart: no cross-talk between them
    d, var = m.delta({e3: (), f3: ("W", "B")}, ref, stacks)
    assert d[f3] < 0 and abs(d[f3] + 900.0 * 6.98 / 44.7) < 0.5  # a black piece on top
    assert d[e3] < -880  # the emptied sensor returns to its baseline
    assert all(v >= 0 for v in var.values())
    # a hover 1-4 mm above f3 reads weaker than the landing, the more so the higher
    levels = [m.floating(f3, 1, ("B",), lift)[0][f3] for lift in (1.0, 2.0, 4.0)]
    assert abs(d[f3]) > abs(levels[0]) > abs(levels[1]) > abs(levels[2])
    # memoised and plain deltas agree
    memo: dict = {}
    d2, _ = m.delta({e3: (), f3: ("W", "B")}, ref, stacks, memo)
    assert all(abs(d2[k] - d[k]) < 1e-9 for k in d)


def test_takeback_deltas_remove_pieces_from_the_top():
    m = BoardModel(calibrated())
    f3 = INDEX["f3"]
    stacks = [("W",)] * 49
    stacks[f3] = ("W", "B")
    ref = [2900.0] * 49
    d, _ = m.delta({f3: ("W",)}, ref, stacks)
    assert d[f3] > 0 and abs(d[f3] - 900.0 * 6.98 / 44.7) < 0.5


def test_a_stack_taller_than_the_model_reads_is_modelled():
    # A legal stack can grow past the 16 levels the fall-off table holds (rough 10-bit clean
    # seed 288: a 5-stack tried as landed on one of 12): its upper pieces add nothing.
    m = BoardModel(calibrated())
    f3 = INDEX["f3"]
    stacks = [("W",)] * 49
    stacks[f3] = ("W",) * 12
    tall = ("W",) * 12 + ("B",) * 5
    d, _ = m.delta({f3: tall}, [2900.0] * 49, stacks)
    assert m.axial("W", 16) == 0.0
    assert abs(d[f3]) < abs(m.piece_own(f3, "B", 1))
