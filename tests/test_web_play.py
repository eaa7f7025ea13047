"""`dvonn-board play --web`: the real-board command serving the live view, as a real process on
the real serial link (the simulated scanner on a pseudo-terminal); a placement made by a hand on
the board reaches a page's WebSocket. Real time: a few seconds."""

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import aiohttp

from firmware_py.rules import Board
from sim.board import SimBoard
from sim.pty_scanner import PtyScanner

from .test_commands_play_pty import DEADLINE, place


def test_play_serves_the_live_view(tmp_path):
    with PtyScanner(SimBoard(seed=5)) as scanner:
        play = subprocess.Popen(
            [sys.executable, "-m", "firmware_py", "play", "--port", scanner.port,
             "--db", str(tmp_path / "games.sqlite3"), "--calibration", str(tmp_path / "no.json"),
             "--web", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "COLUMNS": "100"})
        found: list[str] = []
        seen = threading.Event()

        def drain():  # read everything play prints (the live terminal view keeps printing)
            for line in play.stdout:
                m = re.search(r"web view: (http://\S+)", line)
                if m and not found:
                    found.append(m.group(1))
                    seen.set()
        threading.Thread(target=drain, daemon=True).start()
        try:
            assert seen.wait(DEADLINE), play.stderr.read() if play.poll() is not None else ""
            url = found[0]

            async def watch() -> dict:
                async with aiohttp.ClientSession() as http:
                    async with http.ws_connect(url.rstrip("/") + "/ws") as ws:
                        board = Board()
                        placed = False
                        end = time.monotonic() + DEADLINE
                        while time.monotonic() < end:
                            msg = json.loads((await ws.receive(timeout=DEADLINE)).data)
                            if msg["type"] != "state":
                                continue
                            game = msg["game"]
                            if game["mode"] == "idle" and not placed:
                                place(scanner, board, "e3")  # a hand on the board
                                placed = True
                            if game["moves"] == ["e3"]:
                                return game
                raise AssertionError("the placement never reached the page")
            game = asyncio.run(watch())
            assert game["stacks"] == {"e3": "D"} and game["turn"] == "black"
        finally:
            play.send_signal(signal.SIGINT)
            play.wait(timeout=DEADLINE)
        assert play.returncode == 130
