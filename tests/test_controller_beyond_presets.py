"""Boards beyond the simulator's presets (`play_game(board=...)`): sensors that drift fast,
spikes, landings that push the stack below far aside. Whole games, each recorded exactly."""

from dvonn_sim.autoplay import play_game

from firmware_py.drift import RATE_WINDOW_S, Drift
from firmware_py.spaces import N_SPACES


def test_drift_rates_are_learned_over_a_window_and_carry_the_reference_on():
    drift = Drift()
    drift.learn([100.0] * N_SPACES, 0.0)
    drift.learn([101.0] * N_SPACES, RATE_WINDOW_S / 2)  # too soon to measure
    assert drift.rate == [0.0] * N_SPACES
    drift.learn([104.0] + [100.0] * (N_SPACES - 1), RATE_WINDOW_S)
    assert drift.rate[0] == 4.0 / RATE_WINDOW_S and drift.rate[1] == 0.0
    base = [0.0] * N_SPACES
    drift.advance(base, 5.0, [0, 1])
    assert base[0] == 20.0 / RATE_WINDOW_S and base[1] == 0.0
    assert drift.predicted((10.0,) * N_SPACES, 5.0)[:2] == (10.0 + 20.0 / RATE_WINDOW_S, 10.0)


def test_sensors_drifting_3_mt_a_minute_are_followed():
    # Sensors drifting up to 3 mT a minute (sixty times what a sound board shows): a reference
    # a few seconds old was off by more than the inference allowed, every meaning fitted
    # badly, the board asked "did you play j4j3?" while j4's stack was still in the hand,
    # and a confirm took it (j4k4 played): a wrong ply, then a stall (73 plies played, 67
    # recorded). Each sensor's rate is now learned from its baseline and the reference read
    # moved on by it.
    r = play_game(seed=1, preset="rough", adc_bits=12, mistakes=0.3,
                  board={"drift_mt_per_min": 3.0})
    assert r.wrong == 0 and r.match and not r.stalled
