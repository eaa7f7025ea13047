"""`dvonn-board play` as a real process on the real serial link: the simulated scanner
microcontroller on a pseudo-terminal (`dvonn_sim.pty_scanner`), a person's hand on the simulated
board, the plug pulled (SIGKILL) mid-game, the game resumed, then a clean Ctrl-C.

Runs in real time (the scanner follows the wall clock): a dozen seconds."""

import os
import signal
import subprocess
import sys
import time


from firmware_py.calibration import Calibration
from firmware_py.colours import BY_RGB
from firmware_py.interfaces import BLANK
from firmware_py.rules import Board, Ply
from firmware_py.store import Store
from dvonn_sim.board import SimBoard
from dvonn_sim.pty_scanner import PtyScanner

DEADLINE = 60.0  # seconds for anything to happen before the test gives up


def wait_for(condition, what: str, process=None):
    """Poll `condition` until true (a condition, not a fixed sleep); fail after DEADLINE or as
    soon as `process` has died (with what it wrote to stderr)."""
    end = time.monotonic() + DEADLINE
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"play exited ({process.returncode}) before {what}: "
                                 f"{process.stderr.read()}")
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def shown(scanner) -> set[str]:
    with scanner.lock:
        leds = scanner.board.leds
    return {BY_RGB[c].name for c in (leds.spaces if leds else ()) if c in BY_RGB}


def plies(db) -> list[str]:
    if not os.path.exists(db):
        return []
    with Store(db) as store:
        game = store.unfinished()
        return [str(p) for p in store.plies(game.id)] if game else []


def start_play(port, db, tmp_path, *options):
    return subprocess.Popen(
        [sys.executable, "-m", "firmware_py", "play", "--port", port, "--db", str(db),
         "--calibration", str(tmp_path / "calibration.json"), *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=os.getcwd(),
        env={**os.environ, "COLUMNS": "100"})


def place(scanner, board: Board, token: str) -> None:
    ply = Ply.parse(token)
    with scanner.lock:
        scanner.board.hand.place(ply.dst, board.piece_to_place())
    board.push(ply)


def stopped_cleanly(play, err: str, scanner, status: int) -> None:
    """`play`, stopped, exited with `status` and no traceback, and turned the LEDs off."""
    assert play.returncode == status, err
    assert "Traceback" not in err
    wait_for(lambda: not shown(scanner), "the LEDs turned off")


def test_play_over_the_serial_link_survives_a_pulled_plug(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    with PtyScanner(SimBoard(seed=7)) as scanner:
        play = start_play(scanner.port, db, tmp_path)
        try:
            wait_for(lambda: "dvonn_to_place" in shown(scanner), "the empty board read", play)
            board = Board()
            for token in ("e3", "f3", "g3"):
                place(scanner, board, token)
                wait_for(lambda: len(plies(db)) == board.ply_count, f"{token} recorded", play)
        finally:
            play.send_signal(signal.SIGKILL)  # the plug is pulled
            play.wait()
        assert plies(db) == ["e3", "f3", "g3"]
        # No calibration was made: the first empty board's baselines were kept for the resume.
        assert Calibration.load(tmp_path / "calibration.json").baseline_known
        with scanner.lock:  # no power, no light: the old LED frame must not pass for the new one
            scanner.board.show(BLANK)

        play = start_play(scanner.port, db, tmp_path)  # power back: the game resumes
        try:
            wait_for(lambda: "black_to_play" in shown(scanner), "Black's turn shown again", play)
            place(scanner, board, "a1")
            wait_for(lambda: len(plies(db)) == 4, "a1 recorded after the resume", play)
        finally:
            play.send_signal(signal.SIGINT)  # Ctrl-C
            _, err = play.communicate(timeout=DEADLINE)
        stopped_cleanly(play, err, scanner, 130)
    assert plies(db) == ["e3", "f3", "g3", "a1"]


def test_systemctl_stop_turns_the_leds_off_like_ctrl_c(tmp_path):
    """The service is stopped with SIGTERM: LEDs off, port and database closed, exit status 0."""
    db = str(tmp_path / "games.sqlite3")
    with PtyScanner(SimBoard(seed=8)) as scanner:
        play = start_play(scanner.port, db, tmp_path)
        try:
            wait_for(lambda: "dvonn_to_place" in shown(scanner), "the empty board read", play)
        finally:
            play.send_signal(signal.SIGTERM)
            _, err = play.communicate(timeout=DEADLINE)
        stopped_cleanly(play, err, scanner, 0)
