"""How fast each sensor's offset drifts, learned from the baselines the reference follows, and
what that drift adds to the readings between two references.

A sound board drifts by a few hundredths of a mT a minute, which the inference allows for as
an unknown (`Inference.drift_mt_per_min`). A board built with poorer sensors may drift by
mT a minute: a reference a few seconds old is then off by more than a landing on a tall stack
changes, and every meaning fits badly. So the board learns each sensor's rate from how far its
baseline moved while the game said the space was unchanged (`Reference._follow_drift`, empty
spaces through `Calibration.track_drift`), and carries on with it: readings are compared with
the reference moved on by that rate (`predicted`), and a baseline the game gives no reading to
follow (a space next to a move) moves on by it too (`advance`). What is not followed, or
followed only so well, makes the sensor's reading the less sure, the older the reference
(`unsure`, `Inference.drift_unsure`): a landing only such readings would tell is asked about,
never guessed.

>>> drift = Drift(codes_per_mt=20.0)  # fast: over 1 mT a minute, 1/3 code a second
>>> drift.learn([0.0] * 49, 0.0); drift.learn([10.0, 4.0] + [0.0] * 47, 20.0)
>>> drift.rate[:2], drift.predicted([100.0] * 49, 2.0)[:2]  # one window: not yet followed
([0.5, 0.2], (100.0, 100.0))
>>> drift.learn([20.0, 8.0] + [0.0] * 47, 40.0)
>>> drift.predicted([100.0] * 49, 2.0)[:2]
(101.0, 100.0)
"""

from __future__ import annotations

from .spaces import N_SPACES

FAST_MT_PER_MIN = 1.0
"""Only a sensor drifting faster than this is followed by its rate: a sound board's drift (a
few hundredths of a mT a minute, a rough board's warm-up up to 1 mT a minute at first) is
followed by every reference and allowed for by the inference, and a rate measured that low
may be a model's error at a neighbour's change rather than drift."""
FOLLOW_ERROR = 0.3
"""A followed rate is known to about this fraction of itself: the baselines it is measured from
carry the model's error at neighbours' changes (drift 6 mT a minute, rough 12-bit seed 1:
followed rates 10-30 % off the sensors' own)."""
TOO_FAST_MT_PER_MIN = 5.0
"""A sensor measured drifting faster than this is more than the board can follow: even
followed, its reading is off by `FOLLOW_ERROR` of that, 0.25 mT after a 10 s wait (a question,
a slow move), as much as a piece landing on a tall stack reads. It is named to the player
(`too_fast`, `FaultWatch.drifting`); its readings count the less, the older the reference
(`unsure`), so a landing they alone would tell is asked about."""
RATE_WINDOW_S = 20.0
"""A rate is measured over at least this long: the baselines' own noise (a few hundredths of a
mT) then makes an error of about 0.001 mT a second, under what the inference allows anyway."""


class Drift:
    """rate: codes per second, per sensor, as measured (0 until then); `fast`: those rates of
    sensors drifting faster than `FAST_MT_PER_MIN` (0 for the others), which are followed."""

    def __init__(self, codes_per_mt: float = 1.0):
        self.least = FAST_MT_PER_MIN * codes_per_mt / 60.0  # codes per second
        self.too_fast_rate = TOO_FAST_MT_PER_MIN / FAST_MT_PER_MIN * self.least  # `too_fast`
        self.reset()

    def reset(self) -> None:
        """Nothing known (a new game: the baselines are read again from the empty board)."""
        self.rate = [0.0] * N_SPACES
        self.fast = [0.0] * N_SPACES
        # Per sensor, the rate a baseline no reading follows moves on by (`advance`): `fast`,
        # or on a board seen drifting, a fast rate measured once.
        self.moving = [0.0] * N_SPACES
        # Per sensor, how far its rate may be off what the reference is moved on by (codes per
        # second): the inference's reading of it is that much less sure (`unsure`).
        self.unsure = [0.0] * N_SPACES
        self._measured = [False] * N_SPACES
        self._before = [0.0] * N_SPACES  # the rate of the window before the last
        # Per sensor, (time, baseline) its rate is measured from (None: from the next reading).
        self._anchor: list[tuple[float, float] | None] = [None] * N_SPACES

    def restart(self, baseline, time: float) -> None:
        """The baselines were set anew (not followed): measure the rates from here on."""
        self._anchor = [(time, b) for b in baseline]

    def learn(self, baseline, time: float, disturbed=()) -> None:
        """The baselines as followed at `time`: each sensor's rate is how far its baseline
        moved since its last measure, once that is `RATE_WINDOW_S` ago. A sensor with a
        stack changed within two spaces of it (`disturbed`) measures afresh from here: its
        baseline may have moved by what the model makes of the change (an empty space's
        cross-talk), which is no drift."""
        # Drift seen steady on some sensor: the board drifts, and a fast rate measured once is
        # that drift: a baseline no reading follows moves on by it (`advance`) rather than
        # age (drift 6 mT a minute, default 12-bit m0.3 seed 2: d2, next to a change every
        # 20 s, measured once at 4.4 mT a minute, its baseline under a stack 6 mT off when
        # the stack was lifted, still read as standing). Not followed yet (`predicted`): read
        # so, drift 3 rough 12-bit m0.3 seeds 3, 5 and 6 stalled or recorded a wrong ply.
        drifting = any(self.fast)
        for s in range(N_SPACES):
            anchor = self._anchor[s]
            if anchor is None or s in disturbed or time < anchor[0]:
                self._anchor[s] = (time, baseline[s])
            elif time - anchor[0] >= RATE_WINDOW_S:
                before, self.rate[s] = self.rate[s], (baseline[s] - anchor[1]) / (time - anchor[0])
                self._before[s] = before
                self._anchor[s] = (time, baseline[s])
                # Followed once two windows running measure it fast, the same way: drift is
                # steady, a baseline moved once (an unmodelled neighbour, a warm-up's start) is
                # not (rough 12-bit m0.3 seed 126: followed after one window, two wrong plies).
                steady = before * self.rate[s] > 0 and abs(before) > self.least
                fast = abs(self.rate[s]) > self.least
                self.fast[s] = self.rate[s] if steady and fast else 0.0
                once = drifting and not self._measured[s] and fast
                self.moving[s] = self.rate[s] if once else self.fast[s]
                self._measured[s] = True
        self._unsure()

    def _unsure(self) -> None:
        """How far each sensor's drift may be off what is followed: a fast rate not followed
        (measured once, or two windows apart, or over `TOO_FAST_MT_PER_MIN`), all of it; a
        followed one, by `FOLLOW_ERROR` of itself or as much as its two windows differ, when
        more (drift 6 mT a minute, default 10-bit m0.3 seed 6 and rough 10-bit seed 2: a
        wrong ply each with the sensors over 5 mT a minute followed to 30 %). A sensor not
        measured yet on a board where others drift fast may drift as fast as they do (drift 3
        mT a minute, rough 12-bit m0.3 seed 4: c3, drifting 2.7 mT a minute and not followed,
        read 0.2 mT off after a 5 s wait: e5g5 read as e5c3, a wrong ply). Below `least`, the
        inference's own allowance covers it."""
        prior = max(abs(r) for r in self.fast)  # followed: drift, seen steady
        for s in range(N_SPACES):
            if not prior:
                # No drift seen steady: a fast rate measured once is a rough board's warm-up
                # or a neighbour's error, which the inference allows for (rough 12-bit m0
                # seed 126: two wrong plies when such a sensor counted for less).
                self.unsure[s] = 0.0
            elif not self._measured[s]:
                self.unsure[s] = prior
            elif self.fast[s] and abs(self.rate[s]) <= self.too_fast_rate:
                self.unsure[s] = max(abs(self.rate[s] - self._before[s]),
                                     FOLLOW_ERROR * abs(self.rate[s]))
            else:
                self.unsure[s] = abs(self.rate[s]) if abs(self.rate[s]) > self.least else 0.0

    def advance(self, baseline: list, dt: float, spaces) -> None:
        """Move the baselines of `spaces` on by `moving` over `dt` seconds (no reading of
        theirs tells the game's unchanged stack or empty space apart from a change)."""
        if dt <= 0:
            return
        for s in spaces:
            baseline[s] += self.moving[s] * dt

    def predicted(self, values, age_s: float) -> tuple:
        """`values` (a reference `age_s` seconds old) moved on by every sensor's drift."""
        if age_s <= 0 or not any(self.fast):
            return tuple(values)
        return tuple(v + r * age_s for v, r in zip(values, self.fast))

    def too_fast(self) -> list[int]:
        """The sensors measured drifting faster than `TOO_FAST_MT_PER_MIN`."""
        return [s for s in range(N_SPACES)
                if self._measured[s] and abs(self.rate[s]) > self.too_fast_rate]
