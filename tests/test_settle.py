"""Settling: snapshots only after the board has been still, never on transients."""

import random

from firmware_py.settle import Settler, mean_noise, tolerance_for


def feed_frames(settler, values_at, start, count, period=0.01, noise=0.0, seed=1):
    rnd = random.Random(seed)
    out = []
    for i in range(count):
        t = start + i * period
        raw = [v + rnd.gauss(0, noise) for v in values_at(t)]
        snap = settler.feed(t, raw)
        if snap is not None:
            out.append(snap)
    return out


def test_still_board_settles_once_after_settle_time():
    s = Settler(settle_s=0.2, tolerance=5.0, refresh_s=None)
    snaps = feed_frames(s, lambda t: [2000.0] * 49, 0.0, 100, noise=0.7)
    assert len(snaps) == 1
    assert abs(snaps[0].time - 0.2) < 0.011
    assert snaps[0].frames >= 20
    assert abs(snaps[0].values[3] - 2000.0) < 0.5
    assert 0.4 < mean_noise(snaps[0].spread) < 1.0


def test_sliding_stack_never_settles_on_the_way():
    # A stack slid across spaces 0..9, 150 ms on each: shorter than the settle time.
    def values(t):
        v = [2000.0] * 49
        v[min(int(t / 0.15), 9)] += 900.0
        return v

    s = Settler(settle_s=0.2, tolerance=5.0, refresh_s=None)
    snaps = feed_frames(s, values, 0.0, 150)
    assert snaps == []
    assert s.moving
    # ...and it settles once it stays on the last space.
    snaps = feed_frames(s, values, 1.5, 40)
    assert len(snaps) == 1 and snaps[0].values[9] == 2900.0


def test_refresh_reports_a_still_board_again_for_drift():
    s = Settler(settle_s=0.2, tolerance=5.0, refresh_s=0.5)
    snaps = feed_frames(s, lambda t: [2000.0 + t] * 49, 0.0, 200)  # 1 code/s drift
    assert len(snaps) >= 3
    assert snaps[-1].values[0] > snaps[0].values[0] + 0.5
    assert all(sn.stable_since == 0.0 for sn in snaps)


def test_tolerance_stays_above_noise():
    assert tolerance_for(0.7, 5.0) == 5.0
    assert tolerance_for(7.2, 5.0) > 40


def test_settle_time_is_checked():
    import pytest
    with pytest.raises(ValueError, match="settle_s"):
        Settler(settle_s=5.0)


def test_one_sensor_jumping_on_its_own_is_named_noisy_and_can_be_ignored():
    rnd = random.Random(1)
    s = Settler(settle_s=0.2, tolerance=5.0)
    snaps = []
    for i in range(500):  # 5 s at 100 frames/s; sensor 7 jumps by 14 codes RMS
        raw = [2048.0] * 49
        raw[7] += rnd.gauss(0.0, 14.0)
        snaps.append(s.feed(i * 0.01, raw))
        if s.noisy is not None:
            break
    assert s.noisy == 7 and not any(snaps)  # it kept the board from ever settling
    s.ignore[7] = 2048.0
    got = [s.feed(5.0 + i * 0.01, [2048.0] * 7 + [2048.0 + rnd.gauss(0, 14)] + [2048.0] * 41)
           for i in range(30)]
    assert any(got)  # judged without it, the board settles


def test_a_moving_hand_is_not_a_noisy_sensor():
    s = Settler(settle_s=0.2, tolerance=5.0)
    for i in range(600):  # a hand sweeping over several sensors for 6 s
        raw = [2048.0] * 49
        for k in range(3):
            raw[(i // 20 + k) % 49] += 40.0 * ((i + k) % 3)
        s.feed(i * 0.01, raw)
    assert s.noisy is None
