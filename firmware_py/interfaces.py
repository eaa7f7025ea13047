"""The narrow interfaces between the controller and a board, real (`hw`) or simulated (`sim`).

Data flows one way: a `SensorSource` yields `SensorFrame`s of 49 raw readings; the controller
turns them into game events and sends `LedFrame`s to an `LedSink`; an optional `ButtonSource`
reports presses. The controller never learns what is behind these interfaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from .spaces import N_SPACES

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class SensorFrame:
    """One scan of the board.

    seq: the source's frame counter (wraps at 2**16); a gap means frames were lost.
    time: seconds on the source's clock (monotonic on hardware, simulated in the simulator);
        everything time-based in the controller (settling, timeouts) uses this clock.
    raw: 49 ADC codes in space-index order (see `spaces`), 0..adc_max of the source: whole
        codes, or (the direct scanner) means of N samples in steps of 1/N code, which the
        source then gives as its `reading_step`.
    """

    seq: int
    time: float
    raw: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.raw) != N_SPACES:
            raise ValueError(f"a sensor frame holds {N_SPACES} readings, not {len(self.raw)}")


@dataclass(frozen=True, slots=True)
class LedFrame:
    """What every LED shows: one colour per space (space-index order) plus status LEDs.

    Colours are full-range RGB; brightness caps, gamma and colour order are the sink's business.
    """

    spaces: tuple[RGB, ...] = (OFF,) * N_SPACES
    status: tuple[RGB, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.spaces) != N_SPACES:
            raise ValueError(f"an LED frame holds {N_SPACES} space colours, not {len(self.spaces)}")


BLANK = LedFrame()


@runtime_checkable
class SensorSource(Protocol):
    """Anything that scans the board: the direct SPI scanner, the serial link, the simulator."""

    adc_max: int  # largest raw code: 1023 for a 10-bit ADC, 4095 for 12-bit

    def read_frame(self, timeout: float | None = None) -> SensorFrame | None:
        """The next frame, or None if none came within `timeout` seconds.

        Raises `errors.LinkLost` while the link is down; the source keeps trying to reopen it, so
        the caller simply calls again later.
        """

    def close(self) -> None:
        """Release the hardware (idempotent)."""


@runtime_checkable
class LedSink(Protocol):
    """Anything that lights the board: a WS2812 strip, the scanner over serial, the simulator."""

    def show(self, frame: LedFrame) -> None:
        """Display `frame` until the next call."""

    def close(self) -> None:
        """Turn the LEDs off and release the hardware (idempotent)."""


@runtime_checkable
class ButtonSource(Protocol):
    """Optional push buttons."""

    def events(self) -> list[str]:
        """Presses since the last call, oldest first: one of `BUTTON_EVENTS`."""

    def close(self) -> None:
        """Release the pins (idempotent)."""


BUTTON_EVENTS = ("confirm", "undo", "new_game", "hint", "say")
"""The board's buttons; a profile gives each a BCM pin under [buttons] (all optional). 'hint'
shows the engine's move for the player to move (`hints.py`), as the web page's Hint does; 'say'
has the board say the situation aloud (with `--voice`: `announce.py`)."""
