"""A profile's wiring: which sensor (multiplexer and input) and which LED each space has, and
which of the Pi's GPIOs each part uses; every clash is a `ProfileError` naming the key.

>>> w = SpaceWiring(13, "e2", 0, 13, 14)
>>> w.channel
13
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.errors import ProfileError
from firmware_py.spaces import INDEX, N_SPACES, SPACES

from .profile_reading import Table

MUX_INPUTS = 16  # 74HC4067
BCM_PINS = range(2, 28)


@dataclass(frozen=True)
class SpaceWiring:
    index: int
    name: str
    mux: int
    input: int
    led: int

    @property
    def channel(self) -> int:
        """The scanner channel: position of this space's reading in a serial SENSOR_FRAME."""
        return self.mux * MUX_INPUTS + self.input


def read_spaces(t: Table, mux_count: int, leds) -> tuple[SpaceWiring, ...]:
    """The [spaces] table: each space's sensor [mux, input] and LED index, every one used once
    (`leds`: the [leds] table read, for its count and status LEDs)."""
    wiring: dict[int, SpaceWiring] = {}
    sensor_owner: dict[tuple[int, int], str] = {}
    led_owner: dict[int, str] = {f: f"leds.status[{i}]" for i, f in enumerate(leds.status)}
    for name in sorted(t.data, key=lambda n: INDEX.get(n.lower(), 99)):
        key = t.path(name)
        if name.lower() not in INDEX or name != name.lower():
            raise ProfileError(key, "no such space (spaces are a1..k5, lower case)")
        s = t.table(name)
        sensor = s.get("sensor", list, what="[mux, input]")
        if (len(sensor) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in sensor)):
            raise ProfileError(s.path("sensor"), f"expected [mux, input], got {sensor!r}")
        m, i = sensor
        if not 0 <= m < mux_count:
            raise ProfileError(s.path("sensor"), f"mux {m} out of range 0..{mux_count - 1}")
        if not 0 <= i < MUX_INPUTS:
            raise ProfileError(s.path("sensor"), f"input {i} out of range 0..{MUX_INPUTS - 1}")
        if (m, i) in sensor_owner:
            raise ProfileError(s.path("sensor"), f"mux {m} input {i} is already used by {sensor_owner[m, i]}")
        sensor_owner[m, i] = name
        led = s.get("led", int, what="an LED index")
        if not 0 <= led < leds.count:
            raise ProfileError(s.path("led"), f"index {led} out of range 0..{leds.count - 1}")
        if led in led_owner:
            raise ProfileError(s.path("led"), f"index {led} is already used by {led_owner[led]}")
        led_owner[led] = name
        s.done()
        index = INDEX[name]
        wiring[index] = SpaceWiring(index, name, m, i, led)
    missing = [SPACES[i] for i in range(N_SPACES) if i not in wiring]
    if missing:
        raise ProfileError(t.key, f"missing {', '.join(missing)} (every space needs a sensor and an LED)")
    if len(set(leds.status)) != len(leds.status):
        raise ProfileError("leds.status", "an LED is listed twice")
    return tuple(wiring[i] for i in range(N_SPACES))


def check_pins(p) -> None:
    """The Pi's GPIOs used twice (only those the Pi itself drives)."""
    if p.scanner.kind != "direct" and p.buttons is None and p.leds.driver not in ("ws281x", "pio"):
        return
    owner: dict[int, str] = {}
    uses: list[tuple[str, int]] = []
    if p.scanner.kind == "direct":
        uses += [(f"mux.select[{i}]", pin) for i, pin in enumerate(p.mux.select)]
        spi = {0: (8, 9, 10, 11), 1: (16, 19, 20, 21)}[p.adc.spi_port]
        uses += [(f"adc.spi_port ({p.adc.type} on SPI{p.adc.spi_port})", pin) for pin in spi]
    if p.leds.driver in ("ws281x", "pio"):
        uses.append(("leds.gpio", p.leds.gpio))
    if p.buttons is not None:
        uses += [(f"buttons.{event}", pin) for event, pin in p.buttons.pins.items()]
    for key, pin in uses:
        if pin in owner and not (key.startswith("adc.") and owner[pin].startswith("adc.")):
            raise ProfileError(key, f"GPIO {pin} is already used by {owner[pin]}")
        owner.setdefault(pin, key)
