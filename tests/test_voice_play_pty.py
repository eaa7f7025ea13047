"""`dvonn-board play --voice` as a real process on the real serial link (the simulated scanner
on a pseudo-terminal): each placement is said, written here to WAV files; Ctrl-C writes what
is still queued. Real time: a few seconds."""

import signal

from firmware_py.rules import Board

from dvonn_sim.board import SimBoard
from dvonn_sim.pty_scanner import PtyScanner

from .test_commands_play_pty import DEADLINE, place, plies, shown, start_play, wait_for
from .voice_files import need_espeak, phrases


def test_play_says_each_placement(tmp_path):
    need_espeak()
    db, said = str(tmp_path / "games.sqlite3"), tmp_path / "said"
    with PtyScanner(SimBoard(seed=7)) as scanner:
        play = start_play(scanner.port, db, tmp_path, "--voice", "en", "--voice-dir", str(said))
        try:
            wait_for(lambda: "dvonn_to_place" in shown(scanner), "the empty board read", play)
            board = Board()
            for token in ("e3", "f3"):
                place(scanner, board, token)
                wait_for(lambda: len(plies(db)) == board.ply_count, f"{token} recorded", play)
            wait_for(lambda: len(list(said.glob("*.wav"))) == 2, "both placements said", play)
        finally:
            play.send_signal(signal.SIGINT)  # Ctrl-C
            _, err = play.communicate(timeout=DEADLINE)
        assert play.returncode == 130 and "Traceback" not in err, err
    assert phrases(said) == [("placement", "White places a DVONN piece on e3"),
                             ("placement", "Black places a DVONN piece on f3")]
