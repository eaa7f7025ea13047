"""`dvonn-board sim --autoplay` and `dvonn-board bench inference` from the command line."""

import json
from pathlib import Path

from firmware_py.cli import main


def test_sim_autoplay_json_plays_a_script(tmp_path, capsys):
    record = tmp_path / "opening.txt"
    record.write_text("e3 f3 g3 a1 b1 c1\n")
    assert main(["sim", "--autoplay", "--games", "2", "--seed", "4", "--script", str(record),
                 "--json", "--mistakes", "0.2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    game = json.loads(lines[0])
    for key in ("seed", "plies", "truth", "record", "match", "auto", "asked", "wrong",
                "resyncs", "frame_us_mean", "frame_us_p99", "amended", "commit_delay_ms_p95"):
        assert key in game
    assert game["seed"] == 4 and json.loads(lines[1])["seed"] == 5
    assert game["truth"] == ["e3", "f3", "g3", "a1", "b1", "c1"]
    assert game["match"] and game["wrong"] == 0


def test_sim_autoplay_rejects_bad_options(capsys):
    assert main(["sim", "--autoplay", "--mistakes", "2"]) == 2
    assert main(["sim", "--autoplay", "--noise", "loud"]) == 2
    assert "--noise 'loud'" in capsys.readouterr().err
    assert main(["sim", "--autoplay", "--ai", "black", "--game", "60"]) == 2
    assert "--game does not apply to --autoplay" in capsys.readouterr().err


def test_sim_autoplay_names_a_bad_script(tmp_path, capsys):
    record = tmp_path / "bad.txt"
    record.write_text("e3 zz9\n")
    assert main(["sim", "--autoplay", "--script", str(record)]) == 1
    assert "bad.txt" in capsys.readouterr().err


def test_bench_inference_json(capsys):
    assert main(["bench", "inference", "--games", "1", "--levels", "clean", "--presets",
                 "default", "--adc", "12", "10", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(f["preset"], f["adc_bits"]) for f in rows] == [("default", 12), ("default", 10)]
    for figures in rows:
        assert figures["noise"] == "clean" and figures["wrong"] == 0
        assert 0.9 <= figures["auto_share"] <= 1.0 and figures["frame_us_mean"] > 0
        # how long after the board settled the plies were recorded (simulated time)
        assert 0 <= figures["after_settle_ms_median"] <= figures["after_settle_ms_p95"]
        assert figures["stalled"] == 0


def test_sim_autoplay_in_words_sums_up_every_game_and_says_what_the_counts_mean(tmp_path,
                                                                               capsys):
    import doctest

    from firmware_py.commands import sim
    assert doctest.testmod(sim).failed == 0
    record = tmp_path / "opening.txt"
    record.write_text("e3 f3 g3 a1\n")
    assert main(["sim", "--autoplay", "--games", "2", "--script", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1 seed 1: 4 plies") and out[1].startswith("game 2 seed 2")
    assert out[2] == "all 2 games: 2 of 2 recorded exactly"
    assert out[3].startswith("  8 plies: auto ") and "wrong 0" in out[3]
    meanings = " ".join(out[4:])
    assert "auto: plies recorded from the sensors alone" in meanings
    assert "resyncs: times the board found the pieces not matching the game" in meanings


def test_sim_autoplay_players_ask_for_hints_and_the_board_s_answer_is_checked(capsys):
    """--hints on: the scripted players sometimes ask; each hint is seen on the LEDs in the
    suggestion pattern (placements, and moves from the position after ply 52 of a record) and
    nothing is recorded meanwhile. --hints off: each request is refused."""
    assert main(["sim", "--autoplay", "--seed", "2", "--plies", "16", "--hints", "on",
                 "--json"]) == 0
    placing = json.loads(capsys.readouterr().out)
    assert placing["match"] and placing["hints"]["asked"] >= 2
    assert placing["hints"]["shown"] == placing["hints"]["asked"]
    assert placing["hints"]["failures"] == []
    record = str(Path(__file__).parent.parent / "examples" / "club-night.txt")
    assert main(["sim", "--autoplay", "--seed", "2", "--from", record,
                 "--ply", "52", "--plies", "68", "--hints", "on"]) == 0
    out = capsys.readouterr().out
    assert "recorded exactly" in out and "HINT FAILURES" not in out
    asked = int(out.split(", hints asked ")[1].split(",")[0])
    assert asked >= 1 and f"hints asked {asked}, shown {asked};" in out
    assert main(["sim", "--autoplay", "--seed", "2", "--plies", "16", "--hints", "off",
                 "--json"]) == 0
    refused = json.loads(capsys.readouterr().out)["hints"]
    assert refused["asked"] == refused["refused"] == placing["hints"]["asked"]
    assert refused["shown"] == 0 and refused["failures"] == []
    assert main(["sim", "--autoplay", "--seed", "2", "--plies", "4", "--json"]) == 0
    assert "hints" not in json.loads(capsys.readouterr().out)  # not asked: the same JSON


def test_sim_autoplay_plays_a_board_beyond_the_presets(tmp_path, capsys):
    """--set changes the simulated board's numbers: the game is played on that board."""
    from dvonn_sim import autoplay
    boards = []
    real = autoplay.SimBoard
    autoplay.SimBoard = lambda params, seed: boards.append(params) or real(params, seed)
    try:
        assert main(["sim", "--autoplay", "--plies", "3", "--json", "--preset", "rough",
                     "--set", "sensor_gap_mm=6", "--set", "magnets.D.br_mt=1200"]) == 0
    finally:
        autoplay.SimBoard = real
    (params,) = boards
    assert params.sensor_gap_mm == 6.0 and params.magnets["D"].br_mt == 1200.0
    assert params.magnets["W"].br_mt == 1450.0 and params.placement_mm == 2.5  # the rest: rough
    assert json.loads(capsys.readouterr().out)["match"]


def test_sim_autoplay_names_a_bad_board_key_and_value(capsys):
    assert main(["sim", "--autoplay", "--set", "sensor_gap=7"]) == 2
    err = capsys.readouterr().err
    assert "sensor_gap: unknown key" in err and "sensor_gap_mm" in err
    assert main(["sim", "--autoplay", "--set", "offset_spread_mt=-2"]) == 2
    assert "offset_spread_mt: must be >= 0" in capsys.readouterr().err
    assert main(["sim", "--autoplay", "--set", "gap"]) == 2
    assert "gap: not KEY=VALUE" in capsys.readouterr().err


def test_bench_inference_beyond_plays_each_board_no_preset_covers(capsys, monkeypatch):
    """--beyond: one row per board of BEYOND on each preset and ADC, its changes on top of
    --set; each such board is a valid simulator profile."""
    from dvonn_sim.params import BEYOND, Params, settings
    from firmware_py.tools import bench_inference
    played = []

    def measure(level, games, seed, mistakes, preset, adc_bits, board):
        played.append((preset, adc_bits, level, board))
        return {"preset": preset, "adc_bits": adc_bits, "noise": level, "wrong": 0}

    monkeypatch.setattr(bench_inference, "measure", measure)
    assert main(["bench", "inference", "--beyond", "--presets", "rough", "--adc", "10",
                 "--set", "noise_mt=0.2", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["beyond"] for r in rows] == list(BEYOND)
    assert {(p, a, lv) for p, a, lv, _ in played} == {("rough", 10, "default")}
    gap7 = played[list(BEYOND).index("gap 7 mm")][3]
    assert gap7 == {"noise_mt": 0.2, "sensor_gap_mm": 7}
    for lines in BEYOND.values():
        Params.preset("rough").changed(settings(lines))  # raises ProfileError if not valid
