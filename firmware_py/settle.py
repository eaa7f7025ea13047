"""Settling: turn a stream of raw frames into settled snapshots, never decide on transients.

A snapshot is settled once every sensor has stayed within a tolerance of where it was at the
start of a window for `settle_s` seconds (150-300 ms, as real boards do). A hand sliding or
carrying a stack across the board keeps changing the readings, so nothing it passes over is
ever reported. The snapshot is the mean of the window's frames (noise shrinks by sqrt(n)).

One sensor that alone keeps the board from settling (it jumps by more than the tolerance on its
own, for seconds) is reported as `noisy`; the caller can have it `ignore`d.

Per frame the work is one pass over 49 numbers (cheap enough for 100 frames/s on a Pi); the
controller does its heavy comparisons only when a snapshot is reported. While the board stays
still, a refreshed snapshot is reported every `refresh_s` so slow drift is tracked.

>>> s = Settler(settle_s=0.2, tolerance=5.0)
>>> [s.feed(i * 0.01, [2048.0] * 49) is not None for i in range(25)].count(True)
1
>>> round(s.snapshot.values[0]), s.snapshot.stable_since
(2048, 0.0)
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from operator import add, mul, sub

SPIKE_GAP_S = 1.0
"""A sensor off alone for one frame is a spike only if it has not spiked for this long (real
spikes are rare on any one sensor; a noisy sensor jumps many times a second)."""
SPIKY_S = 5.0
SPIKY_PER_S = 10.0
"""A board whose sensors spike this often (spikes read a second, over `SPIKY_S`) spikes on
several sensors at once or on one again soon, too: a frame off alone is then dropped rather
than taken for a hand (`Settler.spiky`)."""
NOISY_S = 3.0
RESTLESS_S = 1.0
"""Moving this long without settling, with every sensor noisier than the tolerance allows,
means the noise rose (a failing supply, a motor nearby): the tolerance follows it."""
NOISY_RESETS = 30
"""A sensor that alone resets the stillness window at least this often over this long is noisy."""


@dataclass(frozen=True)
class Snapshot:
    """A settled board: the mean reading of each sensor over a still window.

    values: 49 mean readings (ADC codes); spread: 49 standard deviations of single readings in
    the window (an estimate of each sensor's noise); frames: how many frames were averaged;
    time: the frame clock when it was taken; stable_since: when the board became still.
    """

    values: tuple[float, ...]
    spread: tuple[float, ...]
    frames: int
    time: float
    stable_since: float


class Settler:
    """Reports a `Snapshot` from `feed()` when the board has been still for `settle_s` seconds.

    tolerance: largest change (ADC codes) of any sensor that still counts as still; set it well
    above the reading noise (see `tolerance_for`). refresh_s: how often a still board is
    reported again (drift tracking); None never. `noise` (RMS codes of one reading, default
    tolerance / 6) sets the trend test: a window whose two halves differ by more than noise
    is still creeping, and only its second half is kept.
    """

    def __init__(self, settle_s: float = 0.2, tolerance: float = 8.0,
                 refresh_s: float | None = 1.0):
        if not 0.05 <= settle_s <= 2.0:
            raise ValueError(f"settle_s: {settle_s} is outside 0.05..2.0 seconds")
        self.settle_s = settle_s
        self.tolerance = float(tolerance)
        self.refresh_s = refresh_s
        self.noise = tolerance / 6.0  # RMS noise of one reading (codes), for the trend test
        self.snapshot: Snapshot | None = None  # the last one reported
        self.moving = False  # True while the readings are changing (a hand on the board)
        # A sensor that alone kept the board from settling for `NOISY_S` (it jumps by more
        # than the tolerance on its own, the others are still): the caller decides (`ignore`).
        self.noisy: int | None = None
        self.ignore: dict[int, float] = {}  # sensor -> the reading used instead of its own
        self._lone: tuple = (None, 0.0, 0)  # (sensor, since, resets) moving alone
        self._moving_since: float | None = None
        self._seen_noise = 0.0  # RMS of one reading, from frame-to-frame steps while moving
        self._spike: int | None = None  # the sensor read as a spike on the last frame
        self._spiked: dict[int, float] = {}  # sensor -> when it last spiked
        self._held: tuple | None = None  # (time, readings, sensors off) of a frame off alone
        self._spikes: collections.deque = collections.deque()  # when spikes were read
        self._reset(None, None)

    def _reset(self, time, raw) -> None:
        self._anchor = raw
        self._start = time
        self._frames = [raw] if raw is not None else []
        self._times = [time] if raw is not None else []
        self._sum = list(raw) if raw is not None else None
        self._sq = list(map(mul, raw, raw)) if raw is not None else None
        self._reported = None  # time of the last report in this still period

    def _keep_from(self, i: int) -> None:
        """Drop the window's first i frames (a trend in them, or an old part of a long still)."""
        frames = self._frames = self._frames[i:]
        self._times = self._times[i:]
        self._anchor = frames[0]
        total = list(frames[0])
        sq = list(map(mul, frames[0], frames[0]))
        for raw in frames[1:]:
            total = list(map(add, total, raw))
            sq = list(map(add, sq, map(mul, raw, raw)))
        self._sum, self._sq = total, sq

    @property
    def still_for(self) -> float:
        """Seconds the board has been still (0 while moving); uses the last frame's time."""
        return 0.0 if self._start is None else self._last - self._start

    def feed(self, time: float, raw) -> Snapshot | None:
        """Take one frame's readings; return a snapshot when the board has just settled (or a
        refresh is due), else None."""
        self._last = time
        if self.ignore:
            raw = list(raw)
            for s, v in self.ignore.items():
                raw[s] = v
        anchor = self._anchor
        if anchor is None:
            self._reset(time, raw)
            return None
        return self._step(time, raw)

    def _step(self, time: float, raw) -> Snapshot | None:
        # Compare with the window's running mean (one noisy anchor frame would make a still
        # board look moving now and then).
        n = len(self._frames)
        scale = 1.0 / n
        if self._held is not None:
            held_time, held_raw, off = self._held
            self._held = None
            if any(abs(raw[i] - self._sum[i] * scale) > 0.5 * self.tolerance for i in off):
                # Still off on the next frame: moving since the held one.
                self._moved(held_time, held_raw, scale)
                return self._step(time, raw)
            self._spikes.append(held_time)  # back on the next frame: spikes, dropped
        if max(abs(r - t * scale) for r, t in zip(raw, self._sum)) > self.tolerance:
            over = [i for i, (r, t) in enumerate(zip(raw, self._sum))
                    if abs(r - t * scale) > self.tolerance]
            if (len(over) == 1 and self._spike != over[0]
                    and time - self._spiked.get(over[0], -SPIKE_GAP_S) >= SPIKE_GAP_S):
                # One sensor alone, for one frame: a spike (a sample hit by interference),
                # not a hand (which moves a sensor for many frames). Read it as the window's
                # mean; the same sensor off again next frame is moving, and one that jumps
                # again and again is noisy (`noisy`), not spiking.
                self._spike = over[0]
                self._spiked[over[0]] = time
                self._spikes.append(time)
                raw = list(raw)
                raw[over[0]] = self._sum[over[0]] * scale
                return self._still(time, raw)
            if self._spike not in over and self.spiky(time):
                # Off on this frame only so far, on a board whose sensors spike often: a hand,
                # or spikes on several sensors at once or on one again soon. A hand moves
                # sensors for many frames: the next frame says, and a frame whose sensors are
                # back on it (within half the tolerance: not a reading creeping past it) is
                # dropped. (spike_rate 0.001 a sample: some sensor spikes on four frames in
                # ten, two at once or one again within a second; taken for a hand, the board
                # was never still for long, and a landing never told from a hover.)
                self._held = (time, raw, over)
                return None
            self._moved(time, raw, scale)
            return None
        self._spike = None
        return self._still(time, raw)

    def spiky(self, time: float) -> bool:
        """Whether this board's sensors spike often: at least `SPIKY_PER_S` spikes a second
        read over the last `SPIKY_S` (then a frame off alone is dropped, not taken for a
        hand). A sound board's rare spikes leave the stillness test as it is."""
        spikes = self._spikes
        while spikes and spikes[0] < time - SPIKY_S:
            spikes.popleft()
        return len(spikes) >= SPIKY_PER_S * SPIKY_S

    def _moved(self, time: float, raw, scale: float) -> None:
        """The board moves from this frame on: a new window begins with it."""
        self._spike = None
        self._note_movers(time, raw, scale)
        self._follow_noise(time, raw)
        self.moving = True
        self._reset(time, raw)

    def _still(self, time: float, raw) -> Snapshot | None:
        """One more still frame in the window; the snapshot when one is due."""
        self._frames.append(raw)
        self._times.append(time)
        self._sum = list(map(add, self._sum, raw))
        self._sq = list(map(add, self._sq, map(mul, raw, raw)))
        if time - self._times[0] < self.settle_s:
            return None
        if self._reported is not None and (self.refresh_s is None
                                           or time - self._reported < self.refresh_s):
            return None
        n = len(self._frames)
        half = n // 2
        if self._trend(half):
            # Still within the tolerance but still creeping (a stack being set down slowly,
            # a wide tolerance on a noisy board): wait for the second half to stand alone.
            self._keep_from(half)
            self._start = self._times[0]  # still only since then
            return None
        self._reported = time
        self.moving = False
        self._moving_since = None
        self._lone = (None, time, 0)
        mean = tuple(s / n for s in self._sum)
        spread = tuple(max(q / n - m * m, 0.0) ** 0.5 for q, m in zip(self._sq, mean))
        self.snapshot = Snapshot(mean, spread, n, time, self._start)
        if n > 120:  # a long still period: average only the recent part, so drift shows
            self._keep_from(n - 60)
        return self.snapshot

    def _note_movers(self, time: float, raw, scale: float) -> None:
        """On a reset: which sensors moved. One sensor alone, reset after reset for `NOISY_S`
        without the board settling once, is `noisy` (a hand moves several at once, and soon
        lets the board settle)."""
        tol = self.tolerance
        over = [i for i, (r, t) in enumerate(zip(raw, self._sum)) if abs(r - t * scale) > tol]
        sensor, since, resets = self._lone
        if len(over) != 1:
            self._lone = (None, time, 0)
        elif over[0] != sensor:
            self._lone = (over[0], time, 1)
        else:
            self._lone = (sensor, since, resets + 1)
            if time - since >= NOISY_S and resets >= NOISY_RESETS:
                self.noisy = sensor

    def _follow_noise(self, time: float, raw) -> None:
        """While moving: estimate the noise from the median step between frames (a hand moves
        a few sensors, noise moves them all: the median sees only noise). Moving for
        `RESTLESS_S` with the noise far above what the tolerance allows: raise it."""
        if self._moving_since is None:
            self._moving_since = time
            self._seen_noise = 0.0
        if time - self._moving_since < RESTLESS_S / 2:
            return  # a hand's move is usually over by then: no cost on the common path
        steps = sorted(abs(r - p) for r, p in zip(raw, self._frames[-1]))
        # median |a - b| of two readings with RMS noise n is 0.954 n
        self._seen_noise = 0.8 * self._seen_noise + 0.2 * steps[len(steps) // 2] / 0.954
        if (time - self._moving_since >= RESTLESS_S
                and 6.0 * self._seen_noise > 1.5 * self.tolerance):
            self.tolerance = tolerance_for(self._seen_noise, self.tolerance)
            self.noise = self._seen_noise

    def _trend(self, half: int) -> bool:
        """Whether the first and second halves of the window differ by more than noise."""
        frames = self._frames
        n = len(frames)
        if half < 3:
            return False
        first = list(frames[0])
        for raw in frames[1:half]:
            first = list(map(add, first, raw))
        second = map(sub, self._sum, first)
        limit = 4.5 * self.noise * (1.0 / half + 1.0 / (n - half)) ** 0.5 + 0.6
        return max(abs(a / half - b / (n - half)) for a, b in zip(first, second)) > limit


def tolerance_for(noise_codes: float, floor_codes: float) -> float:
    """A stillness tolerance for readings with RMS noise `noise_codes`: far above the noise (a
    still board must never look moving) and at least `floor_codes`."""
    return max(6.0 * noise_codes, floor_codes)


def mean_noise(spread) -> float:
    """A robust board-wide noise estimate (RMS codes of one reading) from a snapshot's spreads."""
    ordered = sorted(spread)
    return ordered[len(ordered) // 2] if ordered else 0.0

