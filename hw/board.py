"""Opening a real board from its profile: which scanner, which LED driver, which buttons.

>>> board = open_board("default", port="/dev/ttyACM0")     # doctest: +SKIP
>>> sensors, leds, buttons = board                          # doctest: +SKIP
>>> board.close()                                           # doctest: +SKIP

=================  ===================  ====================================================
profile            sensors              LEDs
=================  ===================  ====================================================
scanner "serial"   SerialScanner        driver "serial": the same SerialScanner object
scanner "direct"   DirectScanner        driver "ws281x": Ws281xStrip; "pio" (Pi 5):
                                        PioStrip; "serial": a SerialScanner used only
                                        for LED frames; "none"
=================  ===================  ====================================================

Buttons come from the profile's ``[buttons]`` table on the Pi's GPIO; where there is no GPIO
(a laptop with the scanner on USB) the board simply has none, and ``board.warnings`` says why.
"""

from __future__ import annotations

from pathlib import Path
from dataclasses import dataclass

from firmware_py.errors import HardwareUnavailable, NoGpio, ProfileError
from firmware_py.interfaces import ButtonSource, LedSink, SensorSource

from .profile import Profile, load_profile


@dataclass(frozen=True)
class Board:
    """What `open_board` returns; unpacks as ``sensors, leds, buttons``."""

    sensors: SensorSource
    leds: LedSink
    buttons: ButtonSource | None
    profile: Profile | None = None
    warnings: tuple[str, ...] = ()
    gpio: bool = True  # False: the buttons found no GPIO on this machine at all

    def __iter__(self):  # unpack as three, like the controller wants
        return iter((self.sensors, self.leds, self.buttons))

    def close(self) -> None:
        """Close everything (LEDs first, so they go dark), each once."""
        seen = set()
        for part in (self.leds, self.buttons, self.sensors):
            if part is not None and id(part) not in seen:
                seen.add(id(part))
                part.close()


def open_board(profile: Profile | str | Path | None = None, port: str | None = None, *,
               pin_factory=None) -> Board:
    """Open the hardware a profile describes (a Profile, a file, a packaged profile's name, or
    None for the default). `port` overrides the profile's serial port.

    Raises ProfileError for a profile that cannot be used, HardwareUnavailable when this
    machine lacks what the profile needs. A serial scanner that is not plugged in yet is not
    an error: its read_frame raises LinkLost until it appears.
    """
    if not isinstance(profile, Profile):
        profile = load_profile(profile)
    from . import leds as leds_mod

    warnings: list[str] = []
    opened: list = []
    try:
        if profile.scanner.kind == "serial":
            from .serial_link import SerialScanner
            sensors = SerialScanner.from_profile(profile, port=port)
        else:
            if port is not None and profile.leds.driver != "serial":
                raise ProfileError("scanner.kind", f"a port ({port}) was given, but this profile's "
                                   "scanner is 'direct' (the Pi reads the ADC on SPI)")
            from .direct_scanner import DirectScanner
            sensors = DirectScanner.from_profile(profile, pin_factory=pin_factory)
        opened.append(sensors)

        driver = profile.leds.driver
        if driver == "serial":
            if profile.scanner.kind == "serial":
                leds = sensors
            else:
                from .serial_link import SerialScanner
                leds = SerialScanner.from_profile(profile, port=port)
                opened.append(leds)
        elif driver == "ws281x":
            leds = leds_mod.Ws281xStrip.from_profile(profile)
            opened.append(leds)
        elif driver == "pio":
            leds = leds_mod.PioStrip.from_profile(profile)
            opened.append(leds)
        else:
            leds = leds_mod.NoLeds()

        buttons, gpio = None, True
        if profile.buttons is not None and profile.buttons.pins:
            from .buttons import GpioButtons
            try:
                buttons = GpioButtons.from_profile(profile, pin_factory=pin_factory)
            except HardwareUnavailable as exc:
                warnings.append(f"buttons disabled: {exc}")
                gpio = not isinstance(exc, NoGpio)
    except BaseException:
        for part in reversed(opened):
            part.close()
        raise
    return Board(sensors, leds, buttons, profile, tuple(warnings), gpio)


def link_stats(source) -> dict | None:
    """The link counters of a serial scanner as a dict (frames, bad_crc, gaps, garbage_bytes,
    link_losses, reconnects, the scanner's HELLO...), or None for a source without a link."""
    stats = getattr(source, "stats", None)
    return stats.as_dict() if hasattr(stats, "as_dict") else None
