"""What the web server shows and acts on: a `GameSource`.

The server only ever calls the methods below, from its own event-loop thread (`act` from a worker
thread so that a slow hand never stalls the page). A source that is fed by another thread (the
session's frame loop) takes care of its own locking.

- `state()`      the controller's `BoardState` (required)
- `leds()`       the `LedFrame` the board shows now, or None
- `sim_view()`   in simulator mode, the simulated table: {'stacks': {space: 'BDW'}, 'hand': ...,
                 'faults': {...}}; None on a real board
- `act(kind, args)` do one validated request (see `protocol.MESSAGES`); returns a short text for
                 the page or None (or a dict: 'message' and more keys for the reply); raises
                 `ActionRefused` with a sentence when it cannot
- `session_view()` optional extras of a running session: {'rebuild': [lines], 'game': id}
- `changes()`    a counter that moves whenever anything shown may have changed, or None when the
                 source cannot tell (the server then compares what it would send)
- `on_change(callback)` optional: call `callback()` (from any thread) after a change, so the page
                 hears of it at once instead of at the next poll

`StateSource` shows a fixed state (the screenshot, a finished game, tests).

>>> from firmware_py.rules import Board
>>> from firmware_py.state import BoardState
>>> src = StateSource(BoardState(board=Board(), mode="idle"))
>>> src.state().mode, src.sim_view()
('idle', None)
"""

from __future__ import annotations

from typing import Any, Callable

from ..i18n import _
from ..interfaces import LedFrame
from ..state import BoardState
from .view import record_text


class ActionRefused(Exception):
    """The board, game or simulated hand cannot do what the page asked; the text says why.

    `extra` goes into the error reply beside the message (e.g. {'done': 12}).
    """

    def __init__(self, message: str, extra: dict | None = None):
        super().__init__(message)
        self.extra = extra or {}


class GameSource:
    """The defaults: a read-only real board with no LEDs known."""

    simulator = False

    def state(self) -> BoardState:  # pragma: no cover - abstract
        raise NotImplementedError

    def leds(self) -> LedFrame | None:
        return None

    def record_text(self) -> str:
        """The game so far, as downloaded from the page (`records` format)."""
        return record_text(self.state())

    def sim_view(self) -> dict | None:
        return None

    def act(self, kind: str, args: dict[str, Any]) -> str | None:
        if kind == "takeback":
            raise ActionRefused(_("this board cannot take back a ply from the page"))
        if kind == "new_game":
            raise ActionRefused(_("this board cannot start a new game from the page"))
        raise ActionRefused(f"this board cannot {kind} from the page")

    def session_view(self) -> dict | None:
        return None

    def changes(self) -> int | None:
        return None

    def on_change(self, callback: Callable[[], None]) -> None:
        pass


class StateSource(GameSource):
    """A state that changes only when the caller says so (`update`)."""

    def __init__(self, state: BoardState, leds: LedFrame | None = None):
        self._state = state
        self._leds = leds
        self._changes = 0
        self._callbacks: list[Callable[[], None]] = []

    def state(self) -> BoardState:
        return self._state

    def leds(self) -> LedFrame | None:
        return self._leds

    def changes(self) -> int:
        return self._changes

    def on_change(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def update(self, state: BoardState | None = None, leds: LedFrame | None = None) -> None:
        """Show a new state and/or LED frame (or the same state, changed in place)."""
        if state is not None:
            self._state = state
        if leds is not None:
            self._leds = leds
        self._changes += 1
        for callback in self._callbacks:
            callback()
