"""The simulated Hall sensors and ADC: spreads, drift, noise, saturation, and every fault."""

import numpy as np
import pytest

from firmware_py.spaces import INDEX, N_SPACES
from dvonn_sim.board import SimBoard
from dvonn_sim.params import NOISE_LEVELS, Params
from dvonn_sim.sensors import SensorArray

CODES_PER_MT = 16.5 / 1000 / 3.3 * 4096  # about 20.5


def ideal(**changes):
    return Params.preset("ideal", noise="clean", **changes)


def read(sensors, field_mt, t=0.0, n=1):
    f = np.broadcast_to(np.asarray(field_mt, dtype=float), (n, N_SPACES))
    return sensors.read(f, np.full(n, t))


def test_ideal_sensor_transfer():
    s = SensorArray(ideal())
    codes = read(s, np.linspace(-40, 40, N_SPACES))[0]
    assert codes[N_SPACES // 2] == 2048
    assert np.allclose(codes, 2048 + np.linspace(-40, 40, N_SPACES) * CODES_PER_MT, atol=0.6)


def test_saturation_at_the_sensor_range():
    s = SensorArray(ideal())
    codes = read(s, np.array([200.0, -200.0, 85.0, 90.0] + [0.0] * 45))[0]
    assert codes[0] == codes[2] == codes[3] == round(2048 + 85 * CODES_PER_MT)
    assert codes[1] == round(2048 - 85 * CODES_PER_MT)


def test_offsets_and_gains_spread_within_the_reference_ranges():
    s = SensorArray(Params.from_noise("clean"), seed=4)
    assert np.all(np.abs(s.offset_mt) <= 3.0) and np.ptp(s.offset_mt) > 3.0
    assert np.all(np.abs(s.gain - 1) <= 0.08) and np.ptp(s.gain) > 0.08
    zero = read(s, 0.0)[0]
    assert np.ptp(zero) > 3.0 * CODES_PER_MT  # baselines differ: calibration is needed


def test_drift_is_slow():
    s = SensorArray(ideal(drift_mt_per_min=0.05), seed=5)
    a, b = read(s, 0.0, t=0.0)[0], read(s, 0.0, t=600.0)[0]
    change_mt = (b - a) / CODES_PER_MT
    assert np.all(np.abs(change_mt) <= 0.5 + 0.1)  # 0.05 mT/min for 10 min
    assert np.max(np.abs(change_mt)) > 0.2


@pytest.mark.parametrize("level", NOISE_LEVELS)
def test_noise_after_oversampling(level):
    s = SensorArray(Params.preset("ideal", noise=level), seed=6)
    codes = read(s, 10.0, n=400).astype(float)
    sd_mt = codes.std(axis=0).mean() / CODES_PER_MT
    expected = NOISE_LEVELS[level] / np.sqrt(8)
    if level == "clean":
        assert sd_mt == 0
    else:
        assert sd_mt == pytest.approx(expected, rel=0.35, abs=0.02)


def test_dead_sensor_reads_zero():
    s = SensorArray(ideal())
    s.fail(7, "dead")
    assert np.all(read(s, 20.0, n=3)[:, 7] == 0)
    s.repair(7)
    assert read(s, 0.0)[0, 7] == 2048


def test_stuck_sensor_keeps_its_last_reading():
    s = SensorArray(ideal())
    before = read(s, 30.0)[0, 9]
    s.fail(9, "stuck")
    after = read(s, -30.0, n=5)[:, 9]
    assert np.all(after == before) and before > 2600
    s.fail(9, "stuck", 1234)
    assert read(s, 0.0)[0, 9] == 1234


def test_noisy_sensor_is_noisier_than_the_others():
    s = SensorArray(Params.from_noise("default"), seed=2)
    s.fail(11, "noisy", 3.0)
    codes = read(s, 0.0, n=300).astype(float)
    sd = codes.std(axis=0)
    assert sd[11] > 5 * np.median(sd)


def test_swapped_channels():
    s = SensorArray(ideal())
    field = np.zeros(N_SPACES)
    field[3] = 40.0
    s.swap(3, 20)
    codes = read(s, field)[0]
    assert codes[20] > 2700 and codes[3] == 2048


def test_faults_on_the_board_follow_the_pieces():
    board = SimBoard(ideal(), seed=1)
    e3, f3 = INDEX["e3"], INDEX["f3"]
    board.setup({"e3": "W"})
    assert board.read_frame().raw[e3] > 2900
    board.swap_channels("e3", "f3")
    raw = board.read_frame().raw
    assert raw[f3] > 2900 and raw[e3] < 2100
    board.repair()
    board.fail("e3", "dead")
    assert board.read_frame().raw[e3] == 0
    with pytest.raises(ValueError, match="unknown fault"):
        board.fail("e3", "melted")
