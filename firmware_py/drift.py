"""How fast each sensor's offset drifts, learned from the baselines the reference follows, and
what that drift adds to the readings between two references.

A sound board drifts by a few hundredths of a mT a minute, which the inference allows for as
an unknown (`Inference.drift_mt_per_min`). A board built with poorer sensors may drift by
mT a minute: a reference a few seconds old is then off by more than a landing on a tall stack
changes, and every meaning fits badly. So the board learns each sensor's rate from how far its
baseline moved while the game said the space was unchanged (`Reference._follow_drift`, empty
spaces through `Calibration.track_drift`), and carries on with it: readings are compared with
the reference moved on by that rate (`predicted`), and a baseline the game gives no reading to
follow (a space next to a move) moves on by it too (`advance`).

>>> drift = Drift()
>>> drift.learn([0.0] * 49, 0.0); drift.learn([10.0] + [0.0] * 48, 20.0)
>>> drift.rate[0], drift.predicted([100.0] * 49, 2.0)[0]
(0.5, 101.0)
"""

from __future__ import annotations

from .spaces import N_SPACES

RATE_WINDOW_S = 20.0
"""A rate is measured over at least this long: the baselines' own noise (a few hundredths of a
mT) then makes an error of about 0.001 mT a second, under what the inference allows anyway."""


class Drift:
    """rate: codes per second, per sensor (0 until measured)."""

    def __init__(self):
        self.rate = [0.0] * N_SPACES
        self._anchor: tuple[float, list[float]] | None = None  # (time, baselines) measured from

    def reset(self) -> None:
        """Nothing known (a new game: the baselines are read again from the empty board)."""
        self.rate = [0.0] * N_SPACES
        self._anchor = None

    def restart(self, baseline, time: float) -> None:
        """The baselines were set anew (not followed): measure the rates from here on."""
        self._anchor = (time, list(baseline))

    def learn(self, baseline, time: float) -> None:
        """The baselines as followed at `time`: each sensor's rate is how far its baseline
        moved since the last measure, once that is `RATE_WINDOW_S` ago."""
        if self._anchor is None or time < self._anchor[0]:
            self._anchor = (time, list(baseline))
            return
        then, before = self._anchor
        dt = time - then
        if dt < RATE_WINDOW_S:
            return
        self.rate = [(b - a) / dt for a, b in zip(before, baseline)]
        self._anchor = (time, list(baseline))

    def advance(self, baseline: list, dt: float, spaces) -> None:
        """Move the baselines of `spaces` on by their rate over `dt` seconds (no reading of
        theirs tells the game's unchanged stack or empty space apart from a change)."""
        if dt <= 0:
            return
        for s in spaces:
            baseline[s] += self.rate[s] * dt

    def predicted(self, values, age_s: float) -> tuple:
        """`values` (a reference `age_s` seconds old) moved on by every sensor's drift."""
        if age_s <= 0 or not any(self.rate):
            return tuple(values)
        return tuple(v + r * age_s for v, r in zip(values, self.rate))
