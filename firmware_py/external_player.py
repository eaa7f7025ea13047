"""An outside program as a player (`prog:COMMAND` in `dvonn-board match`), over the CodeCup
DVONN protocol on its stdin and stdout.

The protocol (CodeCup 2011; PrimaDvonna, its winner, speaks it): the program is started once
per game. Its first line in is ``Start`` if it plays White, else White's first ply. After that it
is sent every ply of its opponent, one a line, and answers each with its own, one a line, until
the game ends; then it gets ``Quit``. A ply is written in capitals: a placement is a space
(``E3``), a move two spaces (``E3F4``), a pass ``PASS``. Spaces are named as ours (letter = the
"\\" diagonal a..k, number = the row 1..5; `firmware_py.spaces`), so ``E3`` is our e3.

A program that answers with something that is not a ply, with a ply the rules do not allow,
not at all within `timeout` seconds, or that ends, loses the game: `PlayerForfeit` says why,
and `match.play_game` turns it into the opponent's win.

>>> codecup(Ply.parse("e3f4")), codecup(Ply.parse("e3")), codecup(Ply.parse("pass"))
('E3F4', 'E3', 'PASS')
"""

from __future__ import annotations

import os
import selectors
import shlex
import shutil
import subprocess
import time

from .errors import DvonnError
from .rules import Board, Ply

# Seconds a program may take for one reply before it loses the game. Its own clock (a CodeCup
# program keeps its budget for the whole game itself) is its business; this only catches hangs.
REPLY_TIMEOUT_S = 60.0
QUIT_WAIT_S = 2.0  # how long a program may take to exit after Quit before it is killed
MAX_LINE = 1024


class PlayerForfeit(DvonnError):
    """A player lost the game by what it did, not on the board (a garbled or illegal reply, no
    reply in time, its program ended)."""


def codecup(ply: Ply) -> str:
    """A ply as the CodeCup protocol writes it."""
    return str(ply).upper()


def check_command(command: str) -> list[str]:
    """The program's argument list; ValueError if it is empty or the program cannot be run."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise ValueError(f"player 'prog:{command}': {e}") from None
    if not argv:
        raise ValueError("player 'prog:': give the program to run, e.g. prog:/tmp/prima/player")
    program = argv[0]
    found = shutil.which(program) if os.sep not in program else (
        program if os.access(program, os.X_OK) and os.path.isfile(program) else None)
    if found is None:
        raise ValueError(f"player 'prog:{command}': no program {program!r} that can be run")
    return argv


class ExternalPlayer:
    """`player(board) -> Ply` played by an outside program; `close()` ends it. One player plays
    one game (the program is started on its first turn)."""

    def __init__(self, command: str, seed: int | None = None, *,
                 timeout: float = REPLY_TIMEOUT_S, name: str | None = None):
        self.argv = check_command(command)
        self.timeout = timeout
        self.name = name or f"prog:{command}"
        self.proc: subprocess.Popen | None = None
        self.told = 0          # plies of the game the program knows (its own included)
        self._buffer = b""
        del seed  # the program draws its own moves; a seed is not part of the protocol

    def __repr__(self) -> str:
        return f"<ExternalPlayer {self.name}>"

    def __call__(self, board: Board) -> Ply:
        plies = board.move_stack
        if self.proc is None:
            if len(plies) > 1:
                raise PlayerForfeit(f"{self.name} cannot join a game at ply {len(plies) + 1}: "
                                    "the CodeCup protocol starts from the empty board")
            self._start()
            if not plies:
                self._send("Start")
        for ply in plies[self.told:]:
            self._send(codecup(ply))
        self.told = len(plies)
        text = self._reply()
        try:
            ply = Ply.parse(text)
        except ValueError:
            raise self._forfeit(f"replied {text!r}, which is not a ply") from None
        if not board.is_legal(ply):
            raise self._forfeit(f"replied {text!r}, which the rules do not allow here "
                                f"(ply {board.ply_count + 1})")
        self.told += 1
        return ply

    def close(self) -> None:
        """Tell the program the game is over, and make sure it has ended."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                proc.stdin.write(b"Quit\n")
                proc.stdin.flush()
        except OSError:
            pass
        try:
            proc.wait(QUIT_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass

    # -- the pipe -----------------------------------------------------------------------------
    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as e:
            raise PlayerForfeit(f"{self.name} could not be started: {e.strerror or e}") from None

    def _send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            raise self._forfeit("ended before the game did") from None

    def _reply(self) -> str:
        """The next non-empty line from the program, within the timeout."""
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                line, sep, rest = self._buffer.partition(b"\n")
                if sep:
                    self._buffer = rest
                    if line.strip():
                        return line.decode(errors="replace").strip()
                    continue
                if len(self._buffer) > MAX_LINE:
                    raise self._forfeit(f"replied {self._buffer[:40]!r}..., which is not a ply")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise self._forfeit(f"did not reply within {self.timeout:g} s")
                chunk = os.read(fd, 4096)
                if not chunk:
                    self.proc.wait()
                    raise self._forfeit(f"ended (exit status {self.proc.returncode}) "
                                        "without a reply")
                self._buffer += chunk

    def _forfeit(self, what: str) -> PlayerForfeit:
        return PlayerForfeit(f"{self.name} {what}")
