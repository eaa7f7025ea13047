"""One game over the real serial path, in real time: the simulated board served on a pty
(`pty_scanner`, the scanner firmware's own logic) with scripted players following its LEDs, and
the REAL `dvonn-board play` as a subprocess on that port with a temporary database. Afterwards
the game stored in SQLite is compared with what the players played. `autoplay` runs the same
controller in-process in simulated time; this checks that the product's path (the serial link,
the session's loop, the wall clock, the LED frames crossing the pty) plays as well.

The players' button presses (a "confirm" answering a question) reach `play` through its web
view (`play --web`, the page's own channel), as a person's presses on the page would: the
machine running this has no GPIO buttons. The same channel tells what the board was doing:
how many questions it asked, and what it showed when a game stalled.

`dvonn-board bench serial` prints these games (firmware_py/tools/bench_serial.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from firmware_py.rules import Board, Ply
from firmware_py.store import Store

from .autoplay import count_wrong
from .board import SimBoard
from .players import Mistakes, Players
from .pty_scanner import PtyScanner, served_params

PRESS_TYPES = {"confirm": "confirm", "undo": "takeback", "new_game": "new_game", "hint": "hint"}
"""The simulated board's buttons as the web view's requests."""


@dataclass
class SerialGame:
    """One game over the serial path. `stalled_at`: the plies stored when nothing more was
    stored for `stall_s` while the players had more to play (None: not stalled), with the mode
    and message the board showed then; `asked`: questions the board asked (entries into the
    "asking" mode); `exit_s`: seconds from SIGINT to `play` exiting (None: not within 10 s)."""

    seed: int
    preset: str
    adc_bits: int
    mistakes: float
    plies: int
    stored: int
    match: bool
    wrong: int
    first_wrong: int | None
    stalled_at: int | None
    asked: int
    unexplained: int
    errors: int
    exit_s: float | None
    exit_code: int | None
    wall_s: float
    board_s: float
    truth: list = field(default_factory=list)
    record: list = field(default_factory=list)
    stall_mode: str | None = None
    stall_message: str | None = None
    complaints: list = field(default_factory=list)
    traceback: bool = False
    play_stderr: str = ""  # its end, when it wrote a traceback or did not stop
    made: dict = field(default_factory=dict)  # the players' mistakes, by kind
    questions: list = field(default_factory=list)  # "ply N: ask [spaces]" per question
    link: dict = field(default_factory=dict)  # the scanner's side: frames sent per board
    #   second, LED frames shown, packets it could not send, damaged packets from the host

    def as_dict(self) -> dict:
        return asdict(self)


class _WebChannel:
    """`play --web`'s live channel, from a thread: the modes the board goes through, and the
    players' presses sent as the page's requests."""

    def __init__(self, port: int):
        self.url = f"http://127.0.0.1:{port}/ws"
        self.presses: queue.Queue[str] = queue.Queue()
        self.modes: list[str] = []
        self.questions: list[str] = []
        self.state: dict = {}
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()),
                                        name="web-channel", daemon=True)

    def start(self) -> "_WebChannel":
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    async def _run(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as http:
            while not self._stop.is_set():
                try:
                    async with http.ws_connect(self.url, heartbeat=5) as ws:
                        self.connected.set()
                        await self._talk(ws)
                except (aiohttp.ClientError, OSError):
                    await asyncio.sleep(0.2)  # `play` is still starting (or has stopped)

    async def _talk(self, ws) -> None:
        import aiohttp

        while not self._stop.is_set() and not ws.closed:
            while not self.presses.empty():
                await ws.send_json({"type": PRESS_TYPES[self.presses.get()]})
            try:
                msg = await ws.receive(timeout=0.05)
            except asyncio.TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                return
            data = json.loads(msg.data)
            if data.get("type") == "state":
                game = data["game"]
                if not self.modes or self.modes[-1] != game["mode"]:
                    self.modes.append(game["mode"])
                    if game["mode"] == "asking":
                        self.questions.append(f"ply {game['ply'] + 1}: {game['ask']}")
                self.state = game


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _profile_for(adc_bits: int, folder: Path) -> str | None:
    """The host's profile: the packaged default for 12 bits; for 10, the default with an
    MCP3008 as its ADC (what the pty then serves: whole 10-bit codes over serial)."""
    if adc_bits == 12:
        return None
    from importlib import resources
    text = (resources.files("dvonn_hw") / "profiles" / "default.toml").read_text(encoding="utf-8")
    path = folder / "mcp3008-serial.toml"
    path.write_text(text.replace('type = "RP2040"', 'type = "MCP3008"', 1)
                    .replace('name = "default"', 'name = "mcp3008-serial"', 1))
    return str(path)


def stored_plies(db: str) -> list[str]:
    """The plies of the last game in the database (as `play` stored them)."""
    if not os.path.exists(db):
        return []
    with Store(db, create=False) as store:
        games = store.games()
        return [str(p) for p in store.plies(games[-1].id)] if games else []


def play_serial_game(seed: int = 1, *, preset: str = "default", adc_bits: int = 12,
                     mistakes: float = 0.0, script: list[str] | None = None,
                     noise: str | float = "default", max_plies: int | None = None,
                     stall_s: float = 60.0, max_wall_s: float = 3600.0,
                     start: list[str] | None = None, log: str | None = None) -> SerialGame:
    """Play one game over the serial path (see the module docstring) and return how it went.

    script: record tokens for the players (None: random plies from `seed`); max_plies: stop the
    players after that many; stall_s: wall seconds without a stored ply, while the players have
    more to play, that make the game stalled; start: plies already played, set up on the board
    and given to `play --from` (the players play on from there: their plies are the game's);
    log: a file for `play`'s stderr (default: kept only for the result's `traceback` flag).
    """
    began = time.monotonic()
    if (signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            and threading.current_thread() is threading.main_thread()):
        # Started in the background by a shell (`cmd &`): SIGINT ignored, and `play` would
        # inherit that and never see the Ctrl-C this sends it.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    board = SimBoard(served_params(preset, noise, adc_bits), seed=seed)
    position = Board.from_plies([Ply.parse(p) for p in start]) if start else None
    if position is not None:
        board.setup(position)
    players = Players(board, script, mistakes=Mistakes(rate=mistakes), seed=seed,
                      max_plies=max_plies, start=position)
    with tempfile.TemporaryDirectory(prefix="dvonn-serial-") as tmp:
        folder = Path(tmp)
        web_port = _free_port()
        channel = _WebChannel(web_port)

        def on_frame(frame) -> None:  # under the scanner's lock, after each board frame
            players.step()
            for name in board.events():
                channel.presses.put(name)

        from dvonn_hw.profile import load_profile
        profile_path = _profile_for(adc_bits, folder)
        scanner = PtyScanner(board, profile=load_profile(profile_path), on_frame=on_frame)
        db = str(folder / "games.sqlite3")
        err_path = log or str(folder / "play.err")
        command = [sys.executable, "-m", "firmware_py", "play", "--port", scanner.port,
                   "--db", db, "--calibration", str(folder / "none.json"),
                   "--web", f"127.0.0.1:{web_port}"]
        if profile_path:
            command += ["--profile", profile_path]
        if start:
            (folder / "start.txt").write_text(" ".join(start) + "\n")
            command += ["--from", str(folder / "start.txt")]
        with scanner, open(err_path, "w") as err:
            play = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err,
                                    env={**os.environ, "COLUMNS": "100",
                                         "PYTHONFAULTHANDLER": "1"})
            channel.start()
            try:
                stalled = _watch(play, players, channel, stall_s, began + max_wall_s)
            finally:
                exit_s, code = _interrupt(play)
                channel.close()
            fw, decoder = scanner.firmware, scanner.firmware.decoder
            link = {"frames_per_s": round(fw.frames / max(board.now, 1e-9), 1),
                    "led_frames": scanner.led_frames, "send_errors": len(scanner.errors),
                    "damaged_from_host": decoder.bad_crc + decoder.truncated
                    + decoder.garbage_bytes + decoder.too_long}
        with open(err_path) as f:
            written = f.read()
        traceback = "Traceback" in written or "Fatal Python error" in written
        record = stored_plies(db)
    truth = [str(p) for p in players.truth.move_stack]
    diffs = [i for i, (r, t) in enumerate(zip(record, truth)) if r != t]
    if len(record) > len(truth):
        diffs.append(len(truth))
    modes = channel.modes
    return SerialGame(
        seed=seed, preset=preset, adc_bits=adc_bits, mistakes=mistakes, plies=len(truth),
        stored=len(record), match=record == truth, wrong=count_wrong(record, truth),
        first_wrong=diffs[0] if diffs else None,
        stalled_at=len(record) if stalled else None,
        asked=modes.count("asking"), unexplained=modes.count("unexplained"),
        errors=modes.count("error"), exit_s=exit_s, exit_code=code,
        wall_s=round(time.monotonic() - began, 1), board_s=round(board.now, 1),
        truth=truth, record=record,
        stall_mode=channel.state.get("mode") if stalled else None,
        stall_message=channel.state.get("message") if stalled else None,
        complaints=[f"{t:.1f}s {text}" for t, text in players.complaints],
        traceback=traceback, made=dict(players.made), questions=channel.questions,
        link=link,
        play_stderr=written[-3000:] if traceback or exit_s is None else "")


def _watch(play, players, channel, stall_s: float, deadline: float) -> bool:
    """Wait for the game to end (True: it stalled instead). Ends when the players are done and
    the board shows every ply they played, idle or over; stalls when no ply is stored for
    `stall_s` while they wait; also stops if `play` dies or the deadline passes."""
    seen, since = -1, time.monotonic()
    while play.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
        state = channel.state
        count = state.get("ply", -1)
        if count != seen:
            seen, since = count, time.monotonic()
        if (players.done and count >= players.truth.ply_count
                and state.get("mode") in ("idle", "over")):
            return False
        if time.monotonic() - since > stall_s:
            return True
    return play.poll() is not None or time.monotonic() >= deadline


def _interrupt(play) -> tuple[float | None, int | None]:
    """Ctrl-C (SIGINT) to `play`: (seconds until it exited, its exit code); (None, None) when it
    did not exit within 10 s: then SIGABRT, so that its stderr shows where each thread was
    (PYTHONFAULTHANDLER), and SIGKILL."""
    if play.poll() is not None:
        return 0.0, play.returncode
    t0 = time.monotonic()
    play.send_signal(signal.SIGINT)
    try:
        code = play.wait(timeout=10)
    except subprocess.TimeoutExpired:
        play.send_signal(signal.SIGABRT)
        try:
            play.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        play.kill()
        play.wait()
        return None, None
    return round(time.monotonic() - t0, 3), code
