"""Sensors drifting faster than the board follows: their readings count for less as the
reference ages (`Drift.unsure`, `Inference.drift_unsure`), so a landing they cannot tell is
asked about, never guessed."""

from dvonn_sim.autoplay import play_game

from firmware_py.drift import RATE_WINDOW_S, Drift
from firmware_py.spaces import N_SPACES


def _rest(*first):
    return list(first) + [100.0] * (N_SPACES - len(first))


def test_a_fast_rate_not_followed_is_unsure_by_all_of_it():
    drift = Drift(codes_per_mt=20.0)  # 1 mT a minute: a third of a code a second
    w = RATE_WINDOW_S
    drift.learn(_rest(), 0.0)
    assert drift.unsure == [0.0] * N_SPACES  # nothing measured: the inference's own allowance
    drift.learn(_rest(120.0, 104.0), w)  # one window: 1.0 fast, not followed; 0.2 slow
    assert drift.fast[0] == 0.0 and drift.unsure[:3] == [1.0, 0.0, 0.0]
    drift.learn(_rest(142.0, 108.0), 2 * w)  # two windows: followed, off by what they differ
    assert drift.fast[0] == 1.1 and abs(drift.unsure[0] - 0.1) < 1e-9
    assert drift.unsure[1] == 0.0


def test_a_sensor_not_measured_may_drift_as_fast_as_those_followed():
    drift = Drift(codes_per_mt=20.0)
    w = RATE_WINDOW_S
    drift.learn(_rest(), 0.0)
    drift.learn(_rest(120.0), w, disturbed={2})  # 2: a neighbour changed each time
    drift.learn(_rest(140.0), 2 * w, disturbed={2})
    drift.learn(_rest(160.0), 3 * w, disturbed={2})
    assert drift.fast[0] == 1.0
    assert drift.unsure[1] == 0.0  # measured: steady
    assert drift.unsure[2] == 1.0  # never measured: as fast as the fastest followed
    drift.reset()
    assert drift.unsure == [0.0] * N_SPACES


def test_a_landing_next_to_a_sensor_drifting_unfollowed_is_asked_not_guessed():
    # Drift 3 mT a minute, rough 12-bit m0.3 seed 4: c3, drifting 2.7 mT a minute, measured
    # once and not followed, read 0.2 mT off after a 5 s wait; e5g5 was read as nothing
    # landed, then the player's lift of g5 (to show where it went) as e5c3: a wrong ply.
    r = play_game(seed=4, preset="rough", adc_bits=12, mistakes=0.3,
                  board={"drift_mt_per_min": 3.0})
    assert r.wrong == 0 and r.match and not r.stalled
