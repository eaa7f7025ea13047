"""`dvonn-board bench serial`'s game: the real `dvonn-board play` as a process, on the
simulated scanner's pseudo-terminal, against a rough board (every imperfection at its worst),
a few plies in real time; the plies stored in SQLite must be exactly the ones played, and
Ctrl-C must stop `play` cleanly. About 20 seconds."""

import json

from firmware_py.cli import main
from firmware_py.tools.bench_serial import line
from dvonn_sim.params import Params, adc_board
from dvonn_sim.pty_scanner import served_params


def test_the_pty_serves_autoplays_board_read_as_whole_codes():
    for preset, bits in (("rough", 12), ("default", 10)):
        autoplay = Params.preset(preset, noise="default", **adc_board(bits))
        assert served_params(preset, "default", bits) == autoplay.replace(scanner="serial")


def test_play_over_the_serial_link_stores_exactly_what_was_played_on_a_rough_board(capsys):
    assert main(["bench", "serial", "--preset", "rough", "--seed", "3", "--plies", "6",
                 "--stall", "30", "--compare", "--json"]) == 0
    game, summary = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(game["truth"]) == 6
    assert game["record"] == game["truth"] and game["match"] and game["wrong"] == 0
    assert game["stalled_at"] is None
    assert game["exit_code"] == 130 and not game["traceback"]  # Ctrl-C: a clean stop
    assert game["exit_s"] is not None  # (within 10 s; how fast: the bench prints it)
    assert game["autoplay"]["match"] and game["autoplay"]["plies"] == 6
    assert (summary["games"], summary["exact"], summary["wrong"]) == (1, 1, 0)
    assert "6/6 plies stored, exact, 0 wrong" in line(game)


def test_a_record_that_cannot_be_read_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("e3 e3\n")
    assert main(["bench", "serial", "--record", str(bad)]) == 2
    out = capsys.readouterr().out
    assert out.startswith(f"dvonn-board bench serial: --record {bad}:") and "Traceback" not in out
