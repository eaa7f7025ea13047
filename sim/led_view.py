"""The LEDs as a person reads them: which signal each space shows, blinking included.

The simulated board keeps every LED frame it was sent (``board.led_log``: (time, LedFrame)). A
person does not see frames but signals: "e3 blinks the ask colour". `LedView` turns the frames
of the last moment into that: each space's last lit colour is matched to the nearest signal of
`firmware_py.colours` (LEDs read back through the chain's gamma are a little off), and a
blinking space still counts as showing its signal while it is dark, until it has been dark for
longer than its pattern ever is.

>>> from firmware_py.colours import BY_NAME
>>> from firmware_py.interfaces import LedFrame
>>> from firmware_py.spaces import INDEX
>>> lit = [(0, 0, 0)] * 49
>>> lit[INDEX["e3"]] = BY_NAME["ask"].rgb
>>> view = LedView([(0.0, LedFrame(tuple(lit)))], now=0.5)
>>> view.spaces("ask"), view.shows("remove")
([23], False)

`dvonn_sim.players` looks at the board through it.
"""

from __future__ import annotations

import collections
from typing import Iterable

from firmware_py.colours import PATTERNS, SIGNALS
from firmware_py.spaces import N_SPACES, SPACES

_BY_RGB: dict[tuple, list] = collections.defaultdict(list)
for _s in SIGNALS:
    _BY_RGB[tuple(_s.rgb)].append(_s)


def _longest_dark(pattern: str) -> float:
    """The longest time a space showing `pattern` stays dark."""
    p = PATTERNS[pattern]
    gaps = [b_start - a_end for (_, a_end), (b_start, _) in zip(p.on, p.on[1:])]
    gaps.append(p.period - p.on[-1][1] + p.on[0][0])
    return max(gaps)


_DARK_MAX = {name: _longest_dark(name) for name in PATTERNS}


def _nearest(rgb) -> tuple | None:
    """The signal colour nearest to rgb (LEDs read back through gamma are a little off)."""
    best = min(_BY_RGB, key=lambda c: sum((a - b) ** 2 for a, b in zip(c, rgb)))
    return best if sum((a - b) ** 2 for a, b in zip(best, rgb)) <= 3 * 40 ** 2 else None


class LedView:
    """What a person sees on the LEDs over the last `window` seconds: the signal on each space.

    A blinking space counts as showing its colour though it is dark part of the time (the window
    spans every pattern's period), until it has stayed dark longer than its pattern ever is (then
    the board has moved on). Each signal has its own colour (`firmware_py.colours`); the nearest
    one is taken for colours a little off (LEDs read back through the chain's gamma).
    """

    def __init__(self, log: Iterable, now: float, window: float = 1.3, since: float = -1e9):
        self.now = now
        self.signal: dict[int, str] = {}
        entries = list(log)
        if not entries:
            return
        start = max(now - window, min(since, now))
        # The frame in effect at `start`, then every frame since.
        recent = [e for e in entries if e[0] > start]
        before = [e for e in entries if e[0] <= start]
        frames = ([(start, before[-1][1])] if before else []) + recent
        dark = (0, 0, 0)
        for space in range(N_SPACES):
            states = [(t, f.spaces[space]) for t, f in frames]
            i = len(states) - 1
            while i >= 0 and tuple(states[i][1]) == dark:
                i -= 1
            if i < 0:
                continue
            rgb = tuple(states[i][1])
            signal = _BY_RGB.get(rgb) or _BY_RGB.get(_nearest(rgb))
            if not signal:
                continue
            signal = signal[0]
            if i < len(states) - 1 and now - states[i + 1][0] > _DARK_MAX[signal.pattern] + 0.05:
                continue  # dark for longer than its pattern ever is: no longer shown
            self.signal[space] = signal.name

    def spaces(self, *names: str) -> list[int]:
        return sorted(s for s, n in self.signal.items() if n in names)

    def shows(self, *names: str) -> bool:
        return any(n in names for n in self.signal.values())

    def __repr__(self) -> str:
        by = collections.defaultdict(list)
        for s, n in sorted(self.signal.items()):
            by[n].append(SPACES[s])
        return f"<LedView {dict(by)}>"
