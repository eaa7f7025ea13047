"""Diagnostics: the pure analysis of frames, the board drawing, fault specs, and the modules'
docstring examples."""

import doctest

import numpy as np
import pytest

from firmware_py.diag import analysis, backend, boardview, person, ports, selftest
from firmware_py.diag.analysis import Units, classify, find_faults, link_summary, sensor_stats
from firmware_py.diag.backend import Fault
from firmware_py.interfaces import SensorFrame
from firmware_py.spaces import INDEX


@pytest.mark.parametrize("module", [analysis, backend, boardview, person, ports, selftest])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def quiet_board(frames=100, seed=1):
    rng = np.random.default_rng(seed)
    return 2048 + rng.normal(0, 0.8, (frames, 49)).round()


def test_each_fault_kind_is_classified():
    raw = quiet_board()
    rng = np.random.default_rng(2)
    raw[:, INDEX["e3"]] = 0                                    # no output
    raw[:, INDEX["c2"]] = 2100                                 # frozen, mid-range
    raw[:, INDEX["d4"]] += rng.normal(0, 15, len(raw)).round()  # 0.7 mT RMS
    raw[:, INDEX["a1"]] = 4095                                 # pinned at the top
    raw[:, INDEX["k5"]] = 2048 + 80 * 20.48                    # 80 mT on an empty board
    kinds = {f.name: f.kind for f in find_faults(raw, Units())}
    assert kinds == {"e3": "dead", "c2": "stuck", "d4": "noisy", "a1": "saturated",
                     "k5": "saturated"}


def test_healthy_board_has_no_faults_and_pieces_are_not_saturation():
    raw = quiet_board()
    assert find_faults(raw, Units()) == []
    raw[:, INDEX["e3"]] += 45 * 20.48  # a piece on e3: fine while the board has pieces
    assert classify(sensor_stats(raw), Units(), empty_board=False) == {}


def test_stuck_needs_enough_frames_and_a_noisy_enough_board():
    raw = quiet_board(frames=10)
    raw[:, 5] = 2100
    assert find_faults(raw, Units()) == []  # 10 frames cannot tell stuck from quiet
    clean = np.full((100, 49), 2048.0)
    assert find_faults(clean, Units()) == []  # a noise-free board: nothing can be called stuck


def test_advice_names_the_multiplexer_input():
    from dvonn_hw.profile import load_profile
    raw = quiet_board()
    raw[:, INDEX["e3"]] = 0
    (f,) = find_faults(raw, Units(), wiring=load_profile().spaces)
    assert "mux 1 input 7" in f.check and f.as_dict()["space"] == "e3"


def test_link_summary_counts_gaps_across_the_wrap():
    seqs = [65533, 65534, 65535, 0, 3, 4]
    frames = [SensorFrame(s, i * 0.01, (0,) * 49) for i, s in enumerate(seqs)]
    s = link_summary(frames)
    assert (s.frames, s.gaps, s.lost) == (6, 1, 2)
    assert s.rate_hz == pytest.approx(100.0)


def test_units_follow_the_profile():
    from dvonn_hw.profile import load_profile
    u = Units.from_profile(load_profile("direct"))
    assert u.adc_max == 4095 and u.codes_per_mt == pytest.approx(20.48)
    assert u.mt(20.48) == pytest.approx(1.0)


@pytest.mark.parametrize("spec, message", [
    ("dead", "KIND:SPACE"), ("melted:e3", "KIND:SPACE"), ("dead:z9", "no space"),
    ("swap:a1", "2 different"), ("swap:a1,a1", "2 different"), ("dead:e3=4", "no value"),
    ("stuck:c2=x", "not a number")])
def test_bad_fault_specs_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError, match=message):
        Fault.parse(spec)


def test_fault_specs_round_trip():
    for spec in ("dead:e3", "stuck:c2=100", "noisy:d4=1.5", "saturated:c2", "swap:a1,b1"):
        assert str(Fault.parse(spec)) == spec


def test_board_view_places_every_value_and_flag():
    values = [float(i) for i in range(49)]
    text = boardview.board_values(values, "{:.0f}", styles={INDEX["e3"]: "dead"})
    lines = text.plain.splitlines()
    assert len(lines) == 10 and lines[0].startswith("5") and lines[-2].startswith("1")
    assert lines[-1].split() == [str(i) for i in range(9)]  # row 1 = a1..i1 = 0..8
    assert lines[1].split() == [str(i) for i in range(40, 49)]  # row 5 on top
    e3 = [s for s in text.spans if s.style == boardview.FLAG_STYLES["dead"]]
    assert len(e3) == 1 and text.plain[e3[0].start:e3[0].end].strip() == "23"
    with pytest.raises(ValueError):
        boardview.board_values([0.0] * 48)


def test_coarse_readings_do_not_make_many_sensors_stuck():
    raw = quiet_board()
    raw[:, :20] = 2048  # 20 sensors constant: the ADC's steps, not 20 faults
    assert analysis.stuck_decidable(sensor_stats(raw)) is False
    assert find_faults(raw, Units()) == []
