"""Optional push buttons (confirm, undo, new game, hint) on the Pi's GPIO, with gpiozero.

Each button connects its GPIO to ground (pull-up on, the default) or to 3.3 V (``pull_up =
false``). Presses are queued by gpiozero's callback thread and handed out by `events()`:

>>> buttons = GpioButtons.from_profile(load_profile())     # doctest: +SKIP
>>> buttons.events()                                        # doctest: +SKIP
['confirm']
"""

from __future__ import annotations

import threading
from collections import deque

from firmware_py.errors import HardwareUnavailable, NoGpio
from firmware_py.interfaces import BUTTON_EVENTS


class GpioButtons:
    """ButtonSource: `pins` maps an event name (one of `BUTTON_EVENTS`) to a BCM pin."""

    def __init__(self, pins: dict[str, int], pull_up: bool = True, bounce_s: float | None = 0.05,
                 pin_factory=None):
        unknown = set(pins) - set(BUTTON_EVENTS)
        if unknown:
            raise ValueError(f"unknown button {sorted(unknown)[0]!r} (known: {', '.join(BUTTON_EVENTS)})")
        import gpiozero
        from gpiozero.exc import BadPinFactory, GPIOZeroError

        self._lock = threading.Lock()
        self._queue: deque[str] = deque(maxlen=32)  # nobody reading: keep only recent presses
        self._buttons = []
        try:
            for event, pin in pins.items():
                button = gpiozero.Button(pin, pull_up=pull_up, bounce_time=bounce_s or None,
                                         pin_factory=pin_factory)
                button.when_pressed = self._pressed(event)
                self._buttons.append(button)
        except BadPinFactory:  # gpiozero's "Unable to load any default pin factory!"
            self.close()
            raise NoGpio("no GPIO on this machine (not a Raspberry Pi, or no pin library "
                         "installed)") from None
        except GPIOZeroError as exc:
            self.close()
            raise HardwareUnavailable(f"cannot open the buttons: {exc}") from None

    @classmethod
    def from_profile(cls, profile, **kwargs) -> GpioButtons | None:
        """The profile's buttons, or None if it has none."""
        b = profile.buttons
        if b is None or not b.pins:
            return None
        return cls(b.pins, b.pull_up, b.bounce_s, **kwargs)

    def _pressed(self, event: str):
        def handler():
            with self._lock:
                self._queue.append(event)
        return handler

    def events(self) -> list[str]:
        with self._lock:
            out = list(self._queue)
            self._queue.clear()
        return out

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
