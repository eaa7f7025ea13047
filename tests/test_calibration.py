"""Calibration: empty-board baselines, learning from placements, the saved file."""

import json

import pytest

from firmware_py.board_model import BoardModel
from firmware_py.calibration import NEAR, Calibration, load_or_nominal
from firmware_py.errors import ProfileError
from firmware_py.spaces import INDEX


def test_nominal_is_mid_scale_with_datasheet_gain():
    cal = Calibration.nominal(adc_max=4095)
    assert cal.baseline == [2048.0] * 49
    assert abs(cal.codes_per_mt - 16.5 * 4096 / 3300) < 1e-9
    assert not cal.baseline_known


def test_placement_teaches_response_and_crosstalk():
    cal = Calibration.nominal()
    before = [2000.0] * 49
    after = list(before)
    e3, d3 = INDEX["e3"], INDEX["d3"]
    after[e3] += -900.0    # a black piece: south up reads negative
    after[d3] += 6.5       # its cross-talk on a neighbour, opposite sign
    cal.learn_placement(e3, "B", before, after)
    assert cal.response[e3] == -900.0 and cal.kind[e3] == "B"
    assert cal.crosstalk[(d3, e3)] == -6.5  # per unit polarity
    assert cal.unit(e3) == 900.0
    assert d3 in NEAR[e3] and e3 not in NEAR[e3]
    model = BoardModel(cal)
    # the model now predicts that neighbour's reading from the learned number
    assert abs(model.crosstalk(d3, e3) * -1.0 - 6.5) < 1e-9


def test_a_placement_disturbed_nearby_teaches_no_crosstalk():
    # j3 moved by 8 mT while h1 was placed (the next piece coming, a knocked stack): no
    # cross-talk is that large, and learning it would wreck j3's drift tracking later.
    cal = Calibration.nominal()
    before = [2000.0] * 49
    after = list(before)
    h1, j3, g1 = INDEX["h1"], INDEX["j3"], INDEX["g1"]
    after[h1] += 900.0
    after[g1] -= 6.5
    after[j3] += 8 * cal.codes_per_mt
    cal.learn_placement(h1, "W", before, after)
    assert cal.response[h1] == 900.0  # its own reading is still learned
    assert (j3, h1) not in cal.crosstalk and (g1, h1) not in cal.crosstalk


def test_dvonn_factor_is_learned_once_both_kinds_are_placed():
    cal = Calibration.nominal()
    for i, (kind, r) in enumerate([("D", 1300.0)] + [("W", 1000.0), ("B", -1000.0)] * 3):
        cal.response[i], cal.kind[i] = r, kind
    assert abs(cal.dvonn_factor() - 1.3) < 1e-9


def test_save_and_load_round_trip(tmp_path):
    cal = Calibration.nominal()
    cal.set_empty([2000.0 + i for i in range(49)], [0.7] * 49)
    cal.learn_placement(INDEX["e3"], "W", [2000.0] * 49, [2000.0] * 23 + [2915.0] + [2000.0] * 25)
    path = tmp_path / "cal" / "board.json"
    cal.save(path)
    back = Calibration.load(path)
    assert back.baseline == cal.baseline
    assert back.response[INDEX["e3"]] == 915.0 and back.kind[INDEX["e3"]] == "W"
    assert back.crosstalk == cal.crosstalk
    assert back.baseline_known
    assert load_or_nominal(path).baseline == cal.baseline
    assert load_or_nominal(tmp_path / "none.json").baseline == [2048.0] * 49


def test_bad_file_names_the_key(tmp_path):
    cal = Calibration.nominal()
    data = cal.to_json()
    data["baseline"][7] = "x"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match=r"baseline\[7\]"):
        Calibration.load(path)
    data = cal.to_json()
    data["crosstalk"] = {"e3": {"z9": 1.0}}
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="crosstalk.e3.z9"):
        Calibration.load(path)
    path.write_text("{not json")
    with pytest.raises(ProfileError, match="not JSON"):
        Calibration.load(path)


def test_drift_tracking_follows_an_empty_sensor():
    cal = Calibration.nominal()
    cal.set_empty([2000.0] * 49, [0.7] * 49)
    for _ in range(30):
        cal.track_drift(5, 2004.0)
    assert abs(cal.baseline[5] - 2004.0) < 0.1
    for _ in range(30):  # 17 mT away is not drift: not followed
        cal.track_drift(5, 2004.0 - 17 * cal.codes_per_mt)
    assert abs(cal.baseline[5] - 2004.0) < 0.1
