"""The scanner link as a session sees it: up, lost (and why), back; and the clock the LEDs blink
by while no frames come.

A serial scanner can be unplugged, reset or flashed with another firmware version; its source
then raises `errors.LinkLost` on each read until frames come back. The session pauses play
meanwhile (`link_lost` on the LEDs and the page) and carries on, nothing recorded lost, once
frames return. `LinkWatch` keeps that account:

- `lost(error)` on each failed read: True the first time (the controller is told to decide
  nothing); `why` holds what the player must do when the scanner's firmware is the wrong one;
- `frame(time)` on each frame: True when it ends a lost link;
- `now()`: the frame clock, running on by the session's own clock while no frames come (the
  LEDs still blink); `show(state)`: the state to show, saying the link is lost while it is.

>>> link = LinkWatch(clock=iter([100.0, 102.5]).__next__)
>>> link.frame(7.0), link.lost(LinkLost("unplugged")), link.lost(LinkLost("unplugged"))
(False, True, False)
>>> link.now()                    # 2.5 s after it was lost, by the session's clock
9.5
>>> link.frame(9.6), link.is_lost
(True, False)
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Callable

from .errors import FirmwareMismatch, LinkLost
from .i18n import _
from .state import BoardState

log = logging.getLogger(__name__)


class LinkWatch:
    """The link of one session's board (see the module docstring); clock: the session's
    seconds, read when the link is lost and while it stays lost."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.is_lost = False
        self.why = ""           # what the player must do about a lost link, if anything
        self._last_time = 0.0   # frame clock of the last frame
        self._lost_at = 0.0     # our clock when the link was lost

    def lost(self, error: LinkLost) -> bool:
        """A read failed with `error`; True when the link was up until now."""
        # the scanner's own fault (another firmware version) is shown: the player must act
        self.why = str(error) if isinstance(error, FirmwareMismatch) else ""
        if self.is_lost:
            return False
        log.warning("scanner link lost: %s", error)
        self.is_lost = True
        self._lost_at = self.clock()
        return True

    def frame(self, time: float) -> bool:
        """A frame came, at `time` on the frame clock; True when it ends a lost link."""
        back = self.is_lost
        if back:
            log.info("scanner link back")
            self.is_lost = False
        self._last_time = time
        return back

    def now(self) -> float:
        """The clock the LEDs blink by: the frame clock, running on by ours while no frames come."""
        if self.is_lost:
            return self._last_time + (self.clock() - self._lost_at)
        return self._last_time

    def show(self, state: BoardState) -> BoardState:
        """`state`, or while the link is down a copy saying so."""
        if not self.is_lost:
            return state
        message = _("scanner link lost: play paused")
        if self.why:  # the firmware's own words (for whoever updates it)
            message += f"; {self.why}"
        return dataclasses.replace(state, mode="link_lost", message=message)
