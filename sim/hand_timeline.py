"""How the virtual hand's actions play out in time: a queue of actions, each planned into
segments of motion when its turn comes, and applied as the board's clock reaches them.

`hand.Hand` decides *what* a person does (lift e3, carry it to f3, set it down) and plans it as
`Segment`s: straight moves of the held stack's bottom magnet, with a pick-up or a set-down at
their start or end. The `Timeline` decides *when*: an action starts once the one before it has
ended (and not before it was queued); its `check` is asked again then, and if the board no longer
allows it, it is skipped and the skip noted in `log`. Nothing happens between frames: the board
calls `advance_to(t)` for each batch of frames, which applies every pick-up and set-down due by
then, and asks `position(times)` where the held stack is, for the sensors under its path.

>>> class Board:                      # the board's side: its clock and its change counter
...     now = 0.0
...     def changed(self): pass
>>> tl = Timeline(Board(), (0.0, 0.0, 80.0))
>>> moved = []
>>> tl.queue(Action("carry", lambda: None,
...                 lambda start: [Segment(start, start + 1.0, (0.0, 0.0, 80.0), (10.0, 0.0, 80.0),
...                                        on_end=lambda: moved.append("set down"))], 0.0))
>>> tl.advance_to(0.5); tl.position([0.5])[0], moved
(array([5.]), [])
>>> tl.advance_to(1.0); tl.pos, moved, tl.log, tl.idle()
((10.0, 0.0, 80.0), ['set down'], [(0.0, 'carry')], True)
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from firmware_py.i18n import _


@dataclass
class Segment:
    """The held stack's bottom magnet moves from p0 to p1 (x, y, h in mm) between t0 and t1."""

    t0: float
    t1: float
    p0: tuple[float, float, float]
    p1: tuple[float, float, float]
    ease: bool = False  # slow at both ends (lifting off, setting down)
    on_start: Callable[[], None] | None = None
    on_end: Callable[[], None] | None = None
    started: bool = False


@dataclass
class Action:
    """One queued hand action: `check()` says why it cannot be done now (None: it can);
    `plan(start)` turns it into segments from `start`; it starts no earlier than `not_before`."""

    label: str
    check: Callable[[], str | None]
    plan: Callable[[float], list[Segment]]
    not_before: float


class Timeline:
    """The hand's queued actions and the segments under way, on the board's clock.

    board: has `now` (when an action is queued) and `changed()` (called after each pick-up or
    set-down, so the board recomputes its fields). pos: where the hand starts.
    """

    def __init__(self, board, pos: tuple[float, float, float]):
        self._board = board
        self.pos = pos  # where the hand is once the segment under way ends
        self.log: list[tuple[float, str]] = []  # (time, what happened), for tests and people
        self._queue: collections.deque[Action] = collections.deque()
        self._segments: collections.deque[Segment] = collections.deque()
        self._free = 0.0  # when the hand is free for the next action

    def idle(self) -> bool:
        """Nothing queued and nothing under way."""
        return not self._queue and not self._segments

    def queue(self, action: Action) -> None:
        """Do `action` after everything queued before it."""
        self._queue.append(action)

    def cancel(self) -> None:
        """Forget queued actions that have not started (what is under way finishes)."""
        self._queue.clear()

    def drop(self, pos: tuple[float, float, float]) -> None:
        """Forget everything, including the action under way; the hand is back at `pos`."""
        self._queue.clear()
        self._segments.clear()
        self.pos = pos

    def advance_to(self, t: float) -> None:
        """Apply every pick-up and set-down due by time t (called by the board per frame batch)."""
        while True:
            if not self._segments:
                if not self._queue:
                    return
                action = self._queue[0]
                start = max(self._free, action.not_before)
                if start > t:
                    return
                self._queue.popleft()
                why = action.check()
                if why is not None:
                    self.log.append((start, _("skipped {action}: {why}").format(
                        action=action.label, why=why)))
                    continue
                self.log.append((start, action.label))
                self._segments.extend(action.plan(start))
                self._free = start
                continue
            seg = self._segments[0]
            if seg.t0 > t:
                return
            if not seg.started:
                seg.started = True
                if seg.on_start:
                    seg.on_start()
                    self._board.changed()
            if seg.t1 > t:
                return
            self._segments.popleft()
            self.pos = seg.p1
            self._free = seg.t1
            if seg.on_end:
                seg.on_end()
                self._board.changed()

    def next_change(self, t: float) -> float:
        """The next moment after t at which something is picked up, set down or starts."""
        if self._segments:
            seg = self._segments[0]
            return seg.t1 if seg.started else seg.t0
        if self._queue:
            return max(self._free, self._queue[0].not_before, t + 1e-6)
        return math.inf

    def position(self, times: np.ndarray):
        """x, y, h (arrays like times) of the held stack's bottom magnet."""
        times = np.asarray(times, dtype=float)
        if self._segments and self._segments[0].started:
            seg = self._segments[0]
            span = seg.t1 - seg.t0
            u = np.clip((times - seg.t0) / span, 0.0, 1.0) if span > 0 else np.ones_like(times)
            if seg.ease:
                u = u * u * (3 - 2 * u)
            return tuple(a + (b - a) * u for a, b in zip(seg.p0, seg.p1))
        return tuple(np.full(times.shape, c) for c in self.pos)
