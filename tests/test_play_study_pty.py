"""`dvonn-board play --from FILE --ply N --clock 5m` as a real process on the real serial link
(the simulated scanner on a pseudo-terminal, see test_commands_play_pty.py): the LEDs ask for
the record's stacks, the players build them, play goes on, the clock's times are stored."""

import signal

from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from firmware_py.store import Store
from dvonn_sim.board import SimBoard
from dvonn_sim.pty_scanner import PtyScanner
from tests.test_commands_play_pty import place, shown, wait_for

RECORD = "1. e3 f3 2. g3 a1 3. b1 c1\n"


def lit(scanner, space: str) -> bool:
    with scanner.lock:
        leds = scanner.board.leds
    return leds is not None and leds.spaces[INDEX[space]] != (0, 0, 0)


def test_play_from_a_record_with_a_clock(tmp_path):
    import os
    import subprocess
    import sys
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    db = str(tmp_path / "games.sqlite3")
    with PtyScanner(SimBoard(seed=7)) as scanner:
        play = subprocess.Popen(
            [sys.executable, "-m", "firmware_py", "play", "--port", scanner.port, "--db", db,
             "--calibration", str(tmp_path / "none.json"), "--from", str(record), "--ply", "4",
             "--clock", "5m"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=os.getcwd(),
            env={**os.environ, "COLUMNS": "100"})
        try:
            # Orange where a stack belongs (its red and green survive the LED chain's
            # encoding only roughly: look at the space, not the exact colour).
            wait_for(lambda: lit(scanner, "e3") and lit(scanner, "a1") and not lit(scanner, "b1"),
                     "the stacks to set up lit", play)
            board = Board.from_plies(["e3", "f3", "g3", "a1"])
            with scanner.lock:
                scanner.board.setup(board)  # the players build the position
            wait_for(lambda: "white_to_play" in shown(scanner), "play going on", play)
            place(scanner, board, "b1")

            def stored():
                with Store(db) as store:
                    game = store.unfinished()
                    return store.plies(game.id) if game else []
            wait_for(lambda: len(stored()) == 5, "b1 recorded", play)
        finally:
            play.send_signal(signal.SIGINT)
            play.wait(timeout=30)
    with Store(db) as store:
        game = store.unfinished()
        assert [str(p) for p in store.plies(game.id)] == ["e3", "f3", "g3", "a1", "b1"]
        assert game.tags["TimeControl"] == "5m" and "after ply 4" in game.tags["Setup"]
        times = store.ply_times(game.id)
        assert times[:4] == [None] * 4 and 0 < times[4] < 300  # only b1 was played on the clock
