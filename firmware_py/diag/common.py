"""Small pieces shared by the diag commands: opening the board for a command, stop conditions
(`--frames`, `--seconds`), pacing on the frames' clock, and error messages."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from rich.console import Console

from ..errors import LinkLost
from .backend import OPEN_ERRORS, add_arguments, board_from_args


def add_stop_arguments(parser) -> None:
    parser.add_argument("--frames", type=int, default=None, metavar="N",
                        help="stop after N frames (default: run until Ctrl-C)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="stop after S seconds of the board's clock")


class Stop:
    """Whether a long-running view should stop: after `frames` frames or `seconds` of the
    frames' clock (None: never)."""

    def __init__(self, frames: int | None = None, seconds: float | None = None):
        self.frames, self.seconds = frames, seconds
        self.count = 0
        self.start: float | None = None

    def __call__(self, frame) -> bool:
        if frame is not None:
            self.count += 1
            if self.start is None:
                self.start = frame.time
        if self.frames is not None and self.count >= self.frames:
            return True
        return (self.seconds is not None and frame is not None
                and frame.time - self.start >= self.seconds)


def fail(name: str, message: str) -> int:
    print(f"dvonn-board diag {name}: {message}", file=sys.stderr)
    return 2


def with_board(name: str, args, body: Callable, board=None, person: bool = True) -> int:
    """Open the board the command line names (unless given), run `body(board)`, close it
    whatever happens: LEDs off and port closed also on Ctrl-C."""
    if board is None:
        try:
            board = board_from_args(args, person=person)
        except OPEN_ERRORS as e:
            return fail(name, str(e))
    try:
        return body(board)
    except KeyboardInterrupt:
        print(f"dvonn-board diag {name}: stopped (LEDs off, port closed)", file=sys.stderr)
        return 130
    except LinkLost as e:
        return fail(name, f"scanner link lost: {e}")
    except TimeoutError as e:
        return fail(name, str(e))
    finally:
        board.close()


def pace(board, seconds: float) -> None:
    """Let `seconds` pass on the frames' clock, reading (and dropping) frames; a missing frame
    counts as its timeout."""
    start = None
    waited = 0.0
    while True:
        frame = board.read(timeout=0.1)
        if frame is None:
            waited += 0.1
            if waited >= seconds:
                return
            continue
        if start is None:
            start = frame.time
        if frame.time - start + waited >= seconds:
            return


def console_for(args) -> Console:
    return getattr(args, "console", None) or Console()


class Throttle:
    """True at most every `interval` seconds of wall time (redrawing a live view)."""

    def __init__(self, interval: float = 0.25):
        self.interval = interval
        self.last = float("-inf")

    def __call__(self) -> bool:
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            return True
        return False


__all__ = ["add_arguments", "add_stop_arguments", "Stop", "fail", "with_board", "pace",
           "console_for", "Throttle"]
