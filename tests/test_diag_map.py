"""`diag map` end to end on the simulator: the simulated person puts a piece where the LEDs
ask; swapped channels and a dead space are found and a corrected profile is written."""

import json

import pytest

from firmware_py.cli import main
from firmware_py.diag.map import MapResult, corrected_wiring, rewrite_sensors
from firmware_py.errors import ProfileError
from firmware_py.spaces import INDEX
from dvonn_hw.profile import load_profile, parse_profile


def test_finds_swapped_channels_and_a_dead_space_and_writes_a_valid_profile(capsys, tmp_path):
    out = tmp_path / "fixed.toml"
    status = main(["diag", "map", "--backend", "sim", "--seed", "5", "--fault", "swap:a1,c1",
                   "--fault", "dead:e3", "--write", str(out), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1 and not report["ok"]
    assert report["moved"] == {"a1": "c1", "c1": "a1"}
    assert report["swapped"] == [["a1", "c1"]]
    assert report["dead"] == ["e3"]
    assert len(report["checked"]) == 49
    assert report["written"] == str(out) and report["error"] is None
    fixed = load_profile(out)  # validates
    default = load_profile()
    assert fixed.spaces[INDEX["a1"]].channel == default.spaces[INDEX["c1"]].channel
    assert fixed.spaces[INDEX["c1"]].channel == default.spaces[INDEX["a1"]].channel
    others = [s for s in range(49) if s not in (INDEX["a1"], INDEX["c1"])]
    assert [fixed.spaces[s] for s in others] == [default.spaces[s] for s in others]
    assert fixed.led_map == default.led_map
    assert out.read_text().startswith("# Wiring corrected by `dvonn-board diag map`")


def test_correct_wiring_passes(capsys):
    status = main(["diag", "map", "--backend", "sim", "--spaces", "a1,e3,k5,j2"])
    out = capsys.readouterr().out
    assert status == 0 and "wiring map correct for all 4 spaces checked" in out


def test_human_report_names_the_wires(capsys):
    status = main(["diag", "map", "--backend", "sim", "--spaces", "d4,e4,f4", "--fault",
                   "swap:d4,f4"])
    out = capsys.readouterr().out
    assert status == 1 and "sensors swapped" in out and "mux 2 input 0" in out
    assert "d4 = mux 2 input 2" in out and "--write FILE" in out


def test_a_multiplexer_in_the_wrong_order_is_named():
    prof = load_profile()
    # every space on mux 3 (only k5) and mux 2 answers on the other mux's same input
    m2 = [w.index for w in prof.spaces if w.mux == 2]
    fake = {s: s for s in range(49)}
    by_channel = {(w.mux, w.input): w.index for w in prof.spaces}
    answers = dict(fake)
    for s in m2:
        other = by_channel.get((1, prof.spaces[s].input))
        answers[s] = other
        answers[other] = s
    result = MapResult(list(range(49)), answers, {})
    assert (2, 1) in result.mux_swaps(prof.spaces) and (1, 2) in result.mux_swaps(prof.spaces)
    changes = corrected_wiring(result, prof.spaces)
    assert all(changes[s][0] == 1 for s in m2)


def test_a_silent_space_whose_channel_is_claimed_gets_the_free_one():
    prof = load_profile()
    a1, b1 = INDEX["a1"], INDEX["b1"]
    answers = {s: s for s in range(49)}
    answers[b1] = a1   # b1's sensor comes in on a1's channel
    answers[a1] = None  # a1 silent: its sensor (on b1's channel) is dead
    changes = corrected_wiring(MapResult(list(range(49)), answers, {}), prof.spaces)
    assert changes == {b1: (0, 0), a1: (0, 1)}


def test_contradicting_answers_are_refused():
    prof = load_profile()
    answers = {s: s for s in range(49)}
    answers[INDEX["a1"]] = INDEX["c1"]
    answers[INDEX["b1"]] = INDEX["c1"]
    with pytest.raises(ValueError, match="same channel"):
        corrected_wiring(MapResult(list(range(49)), answers, {}), prof.spaces)


def test_rewrite_understands_table_style_profiles():
    from importlib import resources
    text = (resources.files("dvonn_hw") / "profiles" / "default.toml").read_text()
    lines = text.replace('a1 = { sensor = [0,  0], led =  0 }\n', '')
    lines += '\n[spaces.a1]\nled = 0\nsensor = [0, 0]   # the first one\n'
    new = rewrite_sensors(lines, {INDEX["a1"]: (3, 5)})
    prof = parse_profile(new)
    assert (prof.spaces[0].mux, prof.spaces[0].input) == (3, 5) and "# the first one" in new


def test_two_multiplexers_in_the_wrong_order_on_the_simulator():
    from dvonn_sim.compose import diag_board
    from firmware_py.diag.map import check_map
    prof = load_profile()
    mux0 = {w.input: w.index for w in prof.spaces if w.mux == 0}
    mux1 = {w.input: w.index for w in prof.spaces if w.mux == 1}
    swaps = [f"swap:{prof.spaces[mux0[i]].name},{prof.spaces[mux1[i]].name}" for i in range(16)]
    with diag_board(faults=swaps, seed=6) as board:
        result = check_map(board, sorted(mux0.values()) + sorted(mux1.values()))
    assert result.mux_swaps(prof.spaces) == [(0, 1), (1, 0)]
    changes = corrected_wiring(result, prof.spaces)
    assert {changes[mux0[i]] for i in range(16)} == {(1, i) for i in range(16)}


def test_a_noisy_sensor_still_answers_and_is_reported_as_flagged(capsys):
    status = main(["diag", "map", "--backend", "sim", "--spaces", "d4,e4", "--fault",
                   "noisy:d4", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and report["dead"] == [] and report["flagged"] == {"d4": "noisy"}


def test_a_space_missing_from_the_profile_is_named():
    with pytest.raises(ProfileError, match="spaces.a1.sensor"):
        rewrite_sensors("[spaces]\nb1 = { sensor = [0, 1], led = 1 }\n", {INDEX["a1"]: (3, 5)})
