"""The commands that serve the page, as real processes: `dvonn-board play --web` (the real-board
command on the real serial link, the simulated scanner on a pseudo-terminal: a placement made by
a hand on the board reaches a page's WebSocket) and `dvonn-board sim` (the page is the hand).
Real time: a few seconds each."""

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
from dvonn_sim.board import SimBoard
from dvonn_sim.pty_scanner import PtyScanner

from .test_commands_play_pty import DEADLINE, place


def url_printed_by(process) -> str:
    """The page's URL from what the command prints (the rest is read and dropped meanwhile)."""
    found: list[str] = []
    seen = threading.Event()

    def drain():
        for line in process.stdout:
            m = re.search(r"(http://\S+)", line)
            if m and not found:
                found.append(m.group(1))
                seen.set()
    threading.Thread(target=drain, daemon=True).start()
    if not seen.wait(DEADLINE):
        raise AssertionError(f"no URL printed: {process.stderr.read()}")
    return found[0]


def test_sim_serves_the_simulator_page(tmp_path):
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_py", "sim", "--web", "127.0.0.1:0", "--speed", "10",
         "--db", str(tmp_path / "sim.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = url_printed_by(sim)

        async def play() -> dict:
            async with aiohttp.ClientSession() as http:
                page = await http.get(url)
                assert "DVONN board" in await page.text()
                async with http.ws_connect(url.rstrip("/") + "/ws") as ws:
                    hello = json.loads((await ws.receive(timeout=DEADLINE)).data)
                    assert hello["simulator"] is True and hello["can_act"] is True
                    placed = False
                    end = time.monotonic() + DEADLINE
                    while time.monotonic() < end:
                        msg = json.loads((await ws.receive(timeout=DEADLINE)).data)
                        if msg["type"] != "state":
                            continue
                        if msg["game"]["mode"] == "idle" and not placed:
                            await ws.send_json({"type": "place", "space": "d4"})
                            placed = True
                        if msg["game"]["moves"] == ["d4"]:
                            return msg
            raise AssertionError("the placement was not recorded")
        msg = asyncio.run(play())
        assert msg["sim"]["stacks"] == {"d4": "D"}
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(timeout=DEADLINE)
    assert sim.returncode == 0, sim.stderr.read()


def test_sim_says_when_its_port_is_taken(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "firmware_py", "sim", "--web", str(port),
             "--db", str(tmp_path / "sim.sqlite3")],
            capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 1
    assert f"cannot serve the page on 127.0.0.1:{port}" in done.stderr
    assert "--web PORT" in done.stderr


def test_play_serves_the_live_view(tmp_path):
    with PtyScanner(SimBoard(seed=5)) as scanner:
        play = subprocess.Popen(
            [sys.executable, "-m", "firmware_py", "play", "--port", scanner.port,
             "--db", str(tmp_path / "games.sqlite3"), "--calibration", str(tmp_path / "no.json"),
             "--web", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "COLUMNS": "100"})
        try:
            url = url_printed_by(play)  # the live terminal view keeps printing: drained

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
