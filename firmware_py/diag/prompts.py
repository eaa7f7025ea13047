"""The steps of an interactive diagnostic: read the empty board, ask for a piece on one space
with the LEDs and wait until it is there, ask for it to be taken off and wait until it is gone.

The prompts are colours of the board's LED language (`firmware_py.colours`), shown steady:
``computer_to`` ("put it here") for the space to place on, ``remove`` ("take this off") and
``calibrating`` (keep the board empty and still) on the six corners while a baseline is read.
Decisions use the frames' own clock, so the same code runs at the simulator's speed in tests.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..colours import BY_NAME
from ..interfaces import OFF, LedFrame
from ..spaces import INDEX, N_SPACES, SPACES
from .analysis import SensorStats, sensor_stats

PLACE = BY_NAME["computer_to"].rgb
TAKE = BY_NAME["remove"].rgb
WAIT = BY_NAME["calibrating"].rgb
CORNERS = tuple(INDEX[n] for n in ("a1", "i1", "a3", "k3", "c5", "k5"))

PIECE_MT = 10.0  # a sensor this far from its baseline has a piece on it (one gives ~45 mT)
CLEAR_MT = 3.0  # every sensor within this of its baseline: the board is empty again
STILL_MT = 0.5  # the answering sensor's mean moves less than this: the piece has settled


def prompt_frame(place=(), take=(), wait=()) -> LedFrame:
    """An LED frame lighting the given spaces with the prompt colours."""
    colours = [OFF] * N_SPACES
    for spaces, rgb in ((wait, WAIT), (place, PLACE), (take, TAKE)):
        for s in spaces:
            colours[s] = rgb
    return LedFrame(tuple(colours))


@dataclass
class Answer:
    """What the board read while a piece stood on the prompted space."""

    space: int  # the space that was lit
    reading: np.ndarray | None  # settled mean reading of every sensor, None: nobody answered
    delta: np.ndarray | None  # reading - baseline
    sensor: int | None  # the position in the frame that answered most strongly

    @property
    def silent(self) -> bool:
        return self.sensor is None


class Interaction:
    """Runs prompts on a `DiagBoard`, telling the person what to do through `say`."""

    def __init__(self, board, say: Callable[[str], None] = lambda text: None,
                 settle_s: float = 0.3, timeout_s: float = 20.0, ignore=()):
        self.board = board
        self.say = say
        self.settle_s = settle_s
        self.timeout_s = timeout_s
        self.ignore = set(ignore)  # sensors not to trust (dead, stuck, noisy...)
        self.baseline: np.ndarray | None = None
        self.noise: np.ndarray | None = None
        cpm = board.units.codes_per_mt
        self.piece_codes = PIECE_MT * cpm
        self.clear_codes = CLEAR_MT * cpm
        self.still_codes = STILL_MT * cpm
        self.interrupted = False

    def _frames(self, seconds: float):
        """Frames for `seconds` of the source's clock (stops early on timeouts)."""
        start = None
        misses = 0
        while True:
            frame = self.board.read(timeout=1.0)
            if frame is None:
                misses += 1
                if misses >= 5:
                    raise TimeoutError("no frames from the board for 5 s")
                continue
            if start is None:
                start = frame.time
            yield frame
            if frame.time - start >= seconds:
                return

    def read_baseline(self, frames: int = 100) -> SensorStats:
        """Light the corners 'keep still', read `frames` frames of the empty board."""
        self.board.show(prompt_frame(wait=CORNERS))
        self.say("keep the board empty and still...")
        got = []
        for frame in self._frames(float("inf")):
            got.append(frame.raw)
            if len(got) >= frames:
                break
        stats = sensor_stats(np.array(got))
        self.baseline = stats.mean
        self.noise = stats.std
        self.board.show(prompt_frame())
        return stats

    def _trusted(self) -> np.ndarray:
        mask = np.ones(N_SPACES, dtype=bool)
        mask[list(self.ignore)] = False
        return mask

    def ask_piece(self, space: int, label: str = "a piece", prefix: str = "") -> Answer:
        """Light `space` 'put it here'; wait until some sensor reads a settled piece (or the
        timeout, on the frames' clock): the answer names the strongest sensor."""
        assert self.baseline is not None, "read_baseline first"
        self.board.show(prompt_frame(place=[space]))
        self.say(f"{prefix}put {label} on {SPACES[space]} (lit)")
        window: deque = deque()
        trusted = self._trusted()
        for frame in self._frames(self.timeout_s):
            delta = np.asarray(frame.raw, dtype=float) - self.baseline
            window.append((frame.time, delta))
            while window and frame.time - window[0][0] > self.settle_s:
                window.popleft()
            if window[-1][0] - window[0][0] < self.settle_s * 0.9:
                continue
            d = np.array([w[1] for w in window])
            strength = np.abs(d).min(axis=0) * trusted  # steadily far from baseline
            best = int(np.argmax(strength))
            if strength[best] < self.piece_codes:
                continue
            half = len(d) // 2
            if abs(d[:half, best].mean() - d[half:, best].mean()) > self.still_codes:
                continue
            mean = d.mean(axis=0)
            return Answer(space, mean + self.baseline, mean, best)
        return Answer(space, None, None, None)

    def ask_clear(self, space: int, answered: bool = True) -> bool:
        """Light `space` 'take this off'; wait until every trusted sensor is back near its
        baseline for the settling time (True), or the timeout (False). When nothing answered
        the piece, nothing can see it go: give the person a few seconds."""
        self.board.show(prompt_frame(take=[space]))
        self.say(f"{' ' * 4}take it off {SPACES[space]}" if answered else
                 f"{' ' * 4}nothing answered on {SPACES[space]}: take the piece off")
        trusted = self._trusted()
        calm_since = None
        limit = self.timeout_s if answered else min(self.timeout_s, 4.0)
        for frame in self._frames(limit):
            if not answered:
                continue
            delta = np.abs(np.asarray(frame.raw, dtype=float) - self.baseline) * trusted
            if delta.max() < self.clear_codes:
                if calm_since is None:
                    calm_since = frame.time
                if frame.time - calm_since >= self.settle_s:
                    self.board.show(prompt_frame())
                    return True
            else:
                calm_since = None
        self.board.show(prompt_frame())
        return not answered
