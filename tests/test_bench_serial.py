"""`dvonn-board bench serial`'s game: the real `dvonn-board play` as a process, on the
simulated scanner's pseudo-terminal, against a rough board (every imperfection at its worst),
a few plies in real time; the plies stored in SQLite must be exactly the ones played, and
Ctrl-C must stop `play` cleanly. About 20 seconds."""

from firmware_py.tools.bench_serial import line, summarise
from dvonn_sim.params import Params, adc_board
from dvonn_sim.pty_scanner import served_params
from dvonn_sim.serial_game import play_serial_game


def test_the_pty_serves_autoplays_board_read_as_whole_codes():
    for preset, bits in (("rough", 12), ("default", 10)):
        autoplay = Params.preset(preset, noise="default", **adc_board(bits))
        assert served_params(preset, "default", bits) == autoplay.replace(scanner="serial")


def test_play_over_the_serial_link_stores_exactly_what_was_played_on_a_rough_board():
    game = play_serial_game(3, preset="rough", script=["e3", "f3", "g3", "a1", "k3", "c1"],
                            max_plies=6, stall_s=30)
    assert game.truth == ["e3", "f3", "g3", "a1", "k3", "c1"]
    assert game.record == game.truth and game.match and game.wrong == 0
    assert game.stalled_at is None
    assert game.exit_code == 130 and not game.traceback  # Ctrl-C: a clean stop, no traceback
    assert game.exit_s is not None  # (within 10 s; how fast: `bench serial` prints it)
    text = line(game.as_dict())
    assert "6/6 plies stored, exact, 0 wrong" in text and "exit 130" in text
    assert summarise([game.as_dict()])["exact"] == 1
