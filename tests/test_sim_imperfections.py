"""The simulated board's imperfections (issue 19), each checked against its physics: off-centre
pieces and magnets, misaligned stacks, nudges, magnet spread, warm-up, mains pickup, LED fields,
spikes, ADC non-linearity, a hand hovering before contact, and the presets that set them."""

import math

import numpy as np
import pytest

from firmware_py.errors import ProfileError
from firmware_py.interfaces import LedFrame
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_sim.board import SimBoard
from dvonn_sim.params import IMPERFECTIONS, PRESETS, Params
from dvonn_sim.physics import bz_exact
from dvonn_sim.sensors import SensorArray

IDEAL = Params.preset("ideal", noise="clean")


def ideal(**changes) -> Params:
    return Params.preset("ideal", noise="clean", **changes)


def read(sensors, field_mt, times):
    times = np.asarray(times, dtype=float)
    f = np.broadcast_to(np.asarray(field_mt, dtype=float), (len(times), N_SPACES))
    return sensors.read(f, times)


# -- presets -----------------------------------------------------------------------------------
def test_presets_order_the_imperfections():
    default, rough, none = (Params.preset(n) for n in ("default", "rough", "ideal"))
    assert default == Params()
    for key in IMPERFECTIONS:
        assert getattr(none, key) == 0
        assert getattr(rough, key) >= getattr(default, key) >= 0, key
    assert rough.placement_mm == 2.5 and rough.gain_spread == 0.15
    assert Params.from_dict({"preset": "rough", "noise": "poor"}).misalign_mm == 2.0
    with pytest.raises(ProfileError, match="preset"):
        Params.preset("wooden")
    with pytest.raises(ProfileError, match="hover_chance"):
        Params(hover_chance=1.5).check()
    assert set(PRESETS) == {"default", "rough", "ideal"}


# -- geometry ----------------------------------------------------------------------------------
def test_an_off_centre_piece_changes_its_own_and_its_neighbours_readings_by_the_field_formula():
    board = SimBoard(IDEAL, seed=1)
    board.setup({"e3": "W"})
    e3, f3, d3 = INDEX["e3"], INDEX["f3"], INDEX["d3"]
    centred = board.field()
    piece = board.stacks[e3][0]
    board.offset[piece] = (2.0, 0.0)  # 2 mm towards f3
    board.changed()
    moved = board.field()
    w = IDEAL.magnets["W"]
    for sensor, centre_rho, off_rho in ((e3, 0.0, 2.0), (f3, 25.0, 23.0), (d3, 25.0, 27.0)):
        expected = float(bz_exact(w, off_rho, 5.0) - bz_exact(w, centre_rho, 5.0))
        assert moved[sensor] - centred[sensor] == pytest.approx(expected, rel=0.02, abs=2e-3)
    # the size the issue names: as much as a landing on a tall stack changes a reading
    assert abs(moved[e3] - centred[e3]) > 0.4 and abs(moved[f3] - centred[f3]) > 0.02


def test_a_magnet_off_its_pieces_axis_reads_like_the_piece_moved_by_as_much():
    board = SimBoard(ideal(magnet_offset_mm=1.0), seed=2)
    offs = [math.hypot(p.magnet_dx, p.magnet_dy) for r in board.reserve.values() for p in r]
    assert max(offs) <= 1.0 and max(offs) > 0.5
    board.setup({"e3": "B"})
    piece = board.stacks[INDEX["e3"]][0]
    expected = piece.strength * -float(bz_exact(IDEAL.magnets["B"],
                                               math.hypot(piece.magnet_dx, piece.magnet_dy), 5.0))
    assert board.field()[INDEX["e3"]] == pytest.approx(expected, rel=0.01)


def test_placements_land_off_centre_and_stacks_misaligned_within_their_ranges():
    p = ideal(placement_mm=2.5, misalign_mm=2.0, nudge_mm=0.0)
    board = SimBoard(p, seed=3)
    board.setup({s: "WB" for s in ("a1", "c1", "e1", "g1", "e3", "c3", "g3", "e5")})
    firsts, steps = [], []
    for s in range(N_SPACES):
        st = board.stacks[s]
        if st:
            (x0, y0), (x1, y1) = board.offset[st[0]], board.offset[st[1]]
            firsts.append(math.hypot(x0, y0))
            steps.append(math.hypot(x1 - x0, y1 - y0))
    assert max(firsts) <= 2.5 and max(firsts) > 1.0
    assert max(steps) <= 2.0 and max(steps) > 0.8


def test_a_carried_stack_keeps_its_shape_and_nudges_the_stack_it_lands_on():
    board = SimBoard(ideal(placement_mm=2.0, misalign_mm=1.5, nudge_mm=1.0), seed=4)
    board.setup({"e3": "WB", "f3": "W"})
    e3, f3 = INDEX["e3"], INDEX["f3"]
    a, b = board.stacks[e3]
    shape = np.subtract(board.offset[b], board.offset[a])
    below = board.offset[board.stacks[f3][0]]
    board.hand.lift("e3")
    board.hand.put("f3")
    board.run(4.0)
    assert board.stack("f3") == ("W", "W", "B")
    assert np.allclose(np.subtract(board.offset[b], board.offset[a]), shape)
    nudge = math.dist(board.offset[board.stacks[f3][0]], below)
    assert 0 < nudge <= 1.0
    # and the field is where the pieces are: each piece's own offset shows in the reading
    h = [5.0 + 6.0 * k for k in range(3)]
    expected = 0.0
    for level, piece in enumerate(board.stacks[f3]):
        dx, dy = board.offset[piece]
        expected += (piece.strength * IDEAL.magnets[piece.kind].polarity
                     * float(bz_exact(IDEAL.magnets[piece.kind], math.hypot(dx, dy), h[level])))
    assert board.field()[f3] == pytest.approx(expected, rel=0.01)


def test_magnet_strengths_spread_ten_percent():
    board = SimBoard(Params(), seed=5)
    s = [p.strength for r in board.reserve.values() for p in r]
    assert min(s) >= 0.9 and max(s) <= 1.1 and max(s) - min(s) > 0.12


# -- sensors and ADC ---------------------------------------------------------------------------
def test_warm_up_moves_offsets_and_gains_towards_their_warm_values():
    p = ideal(warmup_offset_mt=2.0, warmup_gain=0.03, warmup_tau_s=120.0)
    s = SensorArray(p, seed=6)
    cpm = 16.5 / 1000 / 3.3 * 4096
    field = np.full(N_SPACES, 20.0)
    cold, minute, warm = (read(s, field, [t])[0].astype(float) for t in (0.0, 60.0, 3600.0))
    expected = (s.warm_offset_mt + 20.0 * s.warm_gain) * cpm
    assert np.allclose(warm - cold, expected, atol=1.0)
    assert np.allclose(minute - cold, expected * (1 - math.exp(-0.5)), atol=1.0)
    assert np.max(np.abs(warm - cold)) > 30  # tens of codes


def test_mains_pickup_is_sampled_at_each_raw_samples_moment_and_survives_averaging():
    p = ideal(mains_mt=0.2, mains_hz=50.0)
    s = SensorArray(p, seed=7)
    cpm = 16.5 / 1000 / 3.3 * 4096
    times = np.arange(20) * 0.01
    codes = read(s, 0.0, times).astype(float)
    # each reading: the mean of 8 raw samples, each taken at its own moment of the scan
    at = times[:, None, None] + s._sample_offsets(8)[None]
    raw = np.floor(2048 + s.mains_amp_mt * np.sin(2 * np.pi * 50 * at + s.mains_phase) * cpm
                   + 0.5)
    assert np.array_equal(codes, np.floor(raw.mean(axis=1) + 0.5))
    # 50 Hz at 100 frames a second: the sign flips frame to frame, the frame mean keeps it
    assert np.max(np.ptp(codes, axis=0)) >= 3


def test_the_leds_current_moves_the_readings_of_their_own_spaces():
    board = SimBoard(ideal(led_mt=0.5), seed=8)
    before = board.run(0.05).raw
    lit = [(0, 0, 0)] * N_SPACES
    lit[INDEX["e3"]] = (255, 255, 255)
    board.show(LedFrame(spaces=tuple(lit)))
    after = board.run(0.05).raw
    cpm = 16.5 / 1000 / 3.3 * 4096
    assert after[INDEX["e3"]] - before[INDEX["e3"]] == pytest.approx(0.5 * cpm, abs=1)
    assert after[INDEX["a1"]] == before[INDEX["a1"]]


def test_spikes_are_rare_single_samples():
    s = SensorArray(ideal(spike_rate=0.01, spike_mt=40.0), seed=9)
    codes = read(s, 0.0, np.zeros(400)).astype(float)
    hit = np.abs(codes - 2048) > 0.3 * 40 / 8 * 20.48 - 1
    share = hit.mean()
    assert 0.04 < share < 0.11  # 1 - 0.99 ** 8 = 7.7 % of readings hold one
    assert np.max(np.abs(codes - 2048)) <= 40 / 8 * 20.48 * 2 + 1  # at most two in a reading


def test_the_adcs_non_linearity_bows_the_transfer_curve():
    s = SensorArray(ideal(adc_inl_lsb=2.0), seed=10)
    fields = np.linspace(-80, 80, N_SPACES)
    codes = read(s, fields, [0.0])[0]
    linear = 2048 + fields * 16.5 / 1000 / 3.3 * 4096
    assert np.allclose(codes, np.floor(linear + 2 * np.sin(np.pi * linear / 4096) + 0.5))
    assert codes[N_SPACES // 2] == 2050
    s = SensorArray(ideal(adc_dnl_lsb=0.5), seed=10)
    steps = read(s, np.linspace(0, 1, N_SPACES), [0.0])[0]
    assert np.all(np.diff(steps) >= 0)  # still monotonic


def test_a_ten_bit_adc():
    p = ideal(adc_bits=10)
    s = SensorArray(p, seed=11)
    codes = read(s, np.array([0.0, 10.0] + [0.0] * 47), [0.0])[0]
    assert codes[0] == 512 and codes[1] == round(512 + 10 * 16.5 / 3300 * 1024)


# -- the hand ----------------------------------------------------------------------------------
def test_a_hand_hovers_just_above_the_landing_before_contact():
    board = SimBoard(ideal(hover_chance=1.0), seed=12)
    board.setup({"e3": "W", "f3": "B"})
    board.hand.lift("e3")
    board.hand.put("f3")
    heights = []
    while board.hand.held or not heights:
        board.read_frame()
        w = board.hand.where()
        if w is not None:
            heights.append((board.now, w[2]))
    rest = 5.0 + 6.0
    # the longest time the held stack stayed at one height: just above f3, before contact
    runs, start = [], 0
    for i in range(1, len(heights) + 1):
        if i == len(heights) or abs(heights[i][1] - heights[start][1]) > 1e-9:
            runs.append((heights[i - 1][0] - heights[start][0], heights[start][1]))
            start = i
    span, h = max(runs)
    assert 0.1 - 0.02 <= span <= 0.8 and 0.5 <= h - rest <= 3.0
    assert board.stack("f3") == ("B", "W")


def test_the_direct_scanner_keeps_the_fraction_that_noise_dithers():
    # A field 0.3 code above mid-scale on a 10-bit ADC with sensing.md's 0.1 mT (half a code)
    # of noise per raw sample: the serial scanner sends whole codes; the direct scanner's
    # readings are means of 4 samples in quarter codes, and they average to the true reading.
    times = np.arange(400) * 0.01
    field = np.full(N_SPACES, 0.3 / (16.5 / 3300 * 1024))
    serial = read(SensorArray(ideal(adc_bits=10, noise_mt=0.1), seed=21), field, times)
    assert np.all(serial == np.round(serial))
    s = SensorArray(ideal(adc_bits=10, noise_mt=0.1, scanner="direct", oversample=4), seed=21)
    direct = read(s, field, times)
    assert np.any(direct != np.round(direct)) and np.all(direct * 4 == np.round(direct * 4))
    assert abs(direct.mean() - s.code_of(field[0])) < 0.03
    assert 0.2 < direct.std() < 0.35  # half a code per sample (and its rounding) / sqrt(4)


def test_the_ten_bit_board_is_the_direct_mcp3008_and_the_pty_scanner_is_serial(tmp_path, capsys):
    from dvonn_sim.params import adc_board
    from dvonn_sim.pty_scanner import main
    p = Params.preset("default", **adc_board(10))
    assert (p.adc_bits, p.scanner, p.oversample, p.reading_step) == (10, "direct", 4, 0.25)
    assert Params.preset("default", **adc_board(12)).reading_step == 1.0
    with pytest.raises(ProfileError, match="adc_bits: expected one of 12, 10"):
        adc_board(8)
    with pytest.raises(ProfileError, match="scanner: expected one of serial, direct"):
        Params.from_dict({"scanner": "spi"})
    direct = tmp_path / "direct.toml"
    direct.write_text('scanner = "direct"\n')
    assert main(["--params", str(direct)]) == 2  # a serial port carries whole codes
    assert "scanner: a scanner on a serial port is" in capsys.readouterr().err
