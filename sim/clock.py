"""Clocks for the simulated board: simulated time (tests: no sleeps) or real time (people).

A clock says what time it is (`now()`) and waits for a moment (`wait_until(t, timeout)`); the
board produces its frames on the clock's time line, 1/frame_rate apart.

>>> c = SimClock()
>>> c.wait_until(0.25), c.now()
(True, 0.25)
"""

from __future__ import annotations

import time


class SimClock:
    """Simulated time: waiting jumps straight to the moment, so a game runs as fast as the CPU."""

    real_time = False

    def __init__(self, start: float = 0.0):
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def wait_until(self, t: float, timeout: float | None = None) -> bool:
        """Jump to t (never backwards). Always True: simulated waits never time out."""
        self._now = max(self._now, t)
        return True

    def advance(self, dt: float) -> float:
        self._now += dt
        return self._now


class RealTimeClock:
    """Wall-clock time (monotonic, starting at 0), for a person watching or playing along.

    speed > 1 runs the simulated world faster than real time (e.g. 4.0 for demos).
    """

    real_time = True

    def __init__(self, speed: float = 1.0):
        if speed <= 0:
            raise ValueError(f"speed must be > 0, not {speed!r}")
        self.speed = speed
        self._t0 = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self._t0) * self.speed

    def wait_until(self, t: float, timeout: float | None = None) -> bool:
        """Sleep until simulated time t; False (without sleeping past it) if timeout comes first."""
        delay = (t - self.now()) / self.speed
        if delay <= 0:
            return True
        if timeout is not None and timeout < delay:
            time.sleep(max(timeout, 0.0))
            return False
        time.sleep(delay)
        return True

    def advance(self, dt: float) -> float:
        self.wait_until(self.now() + dt)
        return self.now()
