"""Board to board: two processes on the loopback interface, each with a simulated board and
scripted people reading its LEDs (`dvonn_sim.remote_play`), play whole games while the connection
between them is cut and restored several times, at random moments. Both stores must end with the
same record, equal to the plies really played on each board."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_py.rules import Board

ROOT = Path(__file__).resolve().parent.parent


class CuttingProxy:
    """A TCP relay on 127.0.0.1 to `port`; `cut()` drops every connection through it, the way a
    network does (the next connection goes through again)."""

    def __init__(self, port: int):
        self.target = port
        self.loop = asyncio.new_event_loop()
        self.writers: set = set()
        self.port = None
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(
                asyncio.start_server(self._relay, "127.0.0.1", 0))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait()

    async def _relay(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers |= {writer, up_writer}

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        def close_all():
            for w in list(self.writers):
                w.transport.abort()
            self.writers.clear()
        self.loop.call_soon_threadsafe(close_all)

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def plies_stored(db: Path) -> int:
    """How many plies a side's store holds (read-only: the side is writing it)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0) as con:
            return con.execute("SELECT count(*) FROM plies").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet, or busy for a moment
        return 0


def side(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dvonn_sim.remote_play", *args], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("seed", [1, 5])
def test_whole_games_board_to_board_survive_cut_connections(tmp_path, seed):
    host = side("host", "--colour", "black", "--db", str(tmp_path / "host.sqlite3"),
                "--seed", str(seed), "--timeout", "240")
    proxy = None
    try:
        link = json.loads(host.stdout.readline())["link"]
        port = int(link.split(":")[2].split("/")[0])
        proxy = CuttingProxy(port)
        joiner = side("join", link.replace(f":{port}/", f":{proxy.port}/"),
                      "--db", str(tmp_path / "join.sqlite3"), "--seed", str(seed + 100),
                      "--timeout", "240")
        # Cut after random plies of the placement phase (every game reaches them, however fast
        # the machine), at least 3 plies apart: the link must have come back in between.
        rng, cuts = random.Random(seed), 0
        cut_after = sorted(rng.sample(range(4, 46, 3), 4))
        while joiner.poll() is None and cut_after:
            if plies_stored(tmp_path / "join.sqlite3") >= cut_after[0]:
                proxy.cut()
                cuts += 1
                cut_after.pop(0)
            time.sleep(0.01)
        out, err = joiner.communicate(timeout=300)
        assert joiner.returncode == 0, err
        joined = json.loads(out.splitlines()[-1])
        out, err = host.communicate("", timeout=30)  # closing its stdin ends the host
        hosted = json.loads(out.splitlines()[-1])
    finally:
        for p in (host,):
            if p.poll() is None:
                p.kill()
        if proxy:
            proxy.close()
    assert cuts >= 3 and joined["connections"] >= 3
    assert hosted["truth"] == joined["truth"]               # both boards saw the same game
    assert hosted["record"] == joined["record"] == hosted["truth"]
    assert Board.from_plies(hosted["record"]).is_over()     # a whole game
    assert hosted["colour"] == "white"
    assert joined["colour"] == "black"


def test_a_takeback_board_to_board_needs_both_players(tmp_path):
    """Two boards in one process (threads), a few plies, then the joining board's player
    presses undo: only an offer; the host's player presses undo: both boards take it back."""
    from .test_remote_ending import two_boards, wait

    with two_boards(tmp_path, plies=4) as (game, client, hosting, joining):
        def records():
            return [[str(p) for p in s.session.store.board(s.session.game_id).move_stack]
                    for s in (hosting, joining)]

        played = hosting.players.tokens
        wait(lambda: records() == [played, played], lambda: f"4 plies: {records()} {client.errors}")
        joining.board.press("undo")  # asks; nothing is taken back yet
        wait(lambda: game.view("opponent")["offer"] == {"what": "takeback", "by": "black"},
             "the offer")
        assert records() == [played, played]
        hosting.board.press("undo")  # the host's player accepts
        wait(lambda: records() == [played[:-1], played[:-1]],
             lambda: f"both take it back: {records()} {client.errors}")
