"""Board profiles: a TOML file that says how one physical board is built and wired.

A profile names, for each of the 49 spaces, the sensor channel (multiplexer + input) and the LED
index, and describes the scanner (serial microcontroller or the Pi's own SPI ADC), the ADC, the
multiplexer select pins, the sensors, the LED strip, the buttons, the piece magnets and the
board's mechanical geometry (``[geometry]``: `dvonn_hw.geometry`). Three profiles ship with the
package: ``default`` (an RP2040 scanner on USB serial, which also drives the LEDs: the
reference wiring in ``hw/README.md``), ``direct`` (the Pi reads an MCP3208 and drives the strip
itself with rpi_ws281x) and ``direct-pi5`` (the same on a Pi 5, LEDs through ws2812-pio).

>>> profile = load_profile()                 # the packaged default
>>> profile.adc.max, profile.scanner.kind
(4095, 'serial')
>>> e2 = profile.spaces[13]              # the strip runs serpentine: row 2 right to left
>>> e2.name, e2.channel, e2.led
('e2', 13, 14)

Every problem is a `firmware_py.errors.ProfileError` naming the key, e.g.
``spaces.e3.led: index 60 out of range 0..49``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from firmware_py.errors import ProfileError
from firmware_py.interfaces import BUTTON_EVENTS
from firmware_py.spaces import N_SPACES

from .geometry import Geometry
from .profile_reading import Table, int_list
from .profile_wiring import BCM_PINS, MUX_INPUTS, SpaceWiring, check_pins, read_spaces

ADC_BITS = {"MCP3008": 10, "MCP3208": 12, "RP2040": 12}
SCANNER_KINDS = ("serial", "direct")
LED_DRIVERS = ("serial", "ws281x", "pio", "none")
LED_TYPES = ("WS2812", "WS2812B", "WS2811", "SK6812", "SK6812MINI")  # 3 bytes per LED
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
PIECE_KINDS = ("white", "black", "dvonn")
WS281X_PINS = (10, 12, 13, 18, 19, 21)


@dataclass(frozen=True)
class ScannerConfig:
    kind: str = "serial"  # 'serial': a microcontroller on USB; 'direct': the Pi's SPI ADC
    port: str = "/dev/dvonn-scanner"
    baud: int = 921600
    rate_hz: int = 100
    hello_timeout: float = 2.0
    reopen_max_s: float = 5.0  # longest wait between attempts to reopen a vanished port
    silent_s: float = 2.0  # an open link with no packet for this long counts as lost


@dataclass(frozen=True)
class AdcConfig:
    type: str = "RP2040"
    spi_port: int = 0
    spi_device: int = 0
    vref: float = 3.3
    mux_channels: tuple[int, ...] = (0, 1, 2, 3)  # ADC channel that mux k's output feeds

    @property
    def bits(self) -> int:
        return ADC_BITS[self.type]

    @property
    def max(self) -> int:
        return (1 << self.bits) - 1


@dataclass(frozen=True)
class MuxConfig:
    count: int = 4
    select: tuple[int, ...] = (5, 6, 13, 19)  # S0..S3, shared by every mux (BCM or RP2040 GP)
    settle_us: int = 20


@dataclass(frozen=True)
class SensorConfig:
    type: str = "DRV5055A3"
    mv_per_mt: float = 16.5
    supply_v: float = 3.3
    oversample: int = 8


@dataclass(frozen=True)
class LedConfig:
    driver: str = "serial"
    type: str = "WS2812B"
    count: int = 50
    gpio: int = 18
    order: str = "GRB"
    brightness: float = 0.4  # cap, 0..1, applied on top of the frame's colours
    gamma: float = 2.2
    freq_hz: int = 800_000
    dma: int = 10
    channel: int = 0
    invert: bool = False
    status: tuple[int, ...] = ()  # LED index of each status LED, in LedFrame.status order
    device: str = "/dev/leds0"  # driver "pio": the Pi 5 kernel's ws2812-pio device


@dataclass(frozen=True)
class ButtonConfig:
    pins: dict[str, int] = field(default_factory=dict)  # event name -> BCM pin
    pull_up: bool = True
    bounce_s: float = 0.05


@dataclass(frozen=True)
class Magnet:
    polarity: str  # the pole facing UP, away from the sensor: 'north' or 'south'
    diameter_mm: float
    height_mm: float
    grade: str = "N52"
    strength_spread: float = 0.05


@dataclass(frozen=True)
class VoiceConfig:
    volume: float = 0.5  # 0..1; 0.5 is the speech engine's normal loudness


@dataclass(frozen=True)
class Profile:
    name: str
    scanner: ScannerConfig
    adc: AdcConfig
    mux: MuxConfig
    sensor: SensorConfig
    leds: LedConfig
    buttons: ButtonConfig | None
    magnets: dict[str, Magnet]
    spaces: tuple[SpaceWiring, ...]
    source: str = "<string>"
    geometry: Geometry = field(default_factory=Geometry)
    voice: VoiceConfig = field(default_factory=VoiceConfig)

    @property
    def channels(self) -> tuple[int, ...]:
        """Scanner channel of each space, in space-index order."""
        return tuple(s.channel for s in self.spaces)

    @property
    def led_map(self) -> tuple[int, ...]:
        """LED index of each space, in space-index order."""
        return tuple(s.led for s in self.spaces)


# ----------------------------------------------------------------------------- reading (with profile_reading.Table)


def _pin(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in BCM_PINS


def parse_profile(text: str, source: str = "<string>") -> Profile:
    """Read and validate a profile from TOML text; `source` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(source, f"not valid TOML: {exc}") from None
    except RecursionError:  # '[[[[...' hundreds deep: no profile is nested like that
        raise ProfileError(source, "not a profile: nested too deeply") from None
    top = Table(data, "")
    name = top.get("name", str, Path(source).stem)
    top.get("description", str, "")

    t = top.table("scanner") or Table({}, "scanner")
    scanner = ScannerConfig(
        kind=t.get("kind", str, "serial", lambda v: v in SCANNER_KINDS, "one of " + ", ".join(SCANNER_KINDS)),
        port=t.get("port", str, ScannerConfig.port),
        baud=t.get("baud", int, ScannerConfig.baud, lambda v: 300 <= v <= 4_000_000,
                   "a baud rate 300..4000000"),
        rate_hz=t.get("rate_hz", int, 100, lambda v: 1 <= v <= 2000, "frames per second 1..2000"),
        hello_timeout=t.get("hello_timeout", float, 2.0, lambda v: 0 <= v <= 60,
                            "seconds 0..60"),
        reopen_max_s=t.get("reopen_max_s", float, 5.0, lambda v: 0.1 <= v <= 60,
                           "seconds 0.1..60"),
        # Much longer than a frame (and than a busy Pi's pause): else no ply is ever seen.
        silent_s=t.get("silent_s", float, 2.0, lambda v: v == 0 or 0.5 <= v <= 60,
                       "seconds 0.5..60, or 0 for never"),
    )
    t.done()

    t = top.table("adc") or Table({}, "adc")
    adc_type = t.get("type", str, "RP2040")
    if adc_type.upper() not in ADC_BITS:
        raise ProfileError("adc.type", f"unknown ADC {adc_type!r} (known: {', '.join(ADC_BITS)})")
    adc_type = adc_type.upper()
    if scanner.kind == "direct" and adc_type == "RP2040":
        raise ProfileError("adc.type", "a direct scanner needs an SPI ADC: MCP3008 or MCP3208")
    adc_inputs = 8
    adc = AdcConfig(
        type=adc_type,
        spi_port=t.get("spi_port", int, 0, lambda v: v in (0, 1), "SPI port 0 or 1"),
        spi_device=t.get("spi_device", int, 0, lambda v: v in (0, 1, 2), "chip select 0..2"),
        vref=t.get("vref", float, 3.3, lambda v: 1.0 <= v <= 5.5, "volts 1..5.5"),
        mux_channels=int_list(t, "mux_channels", [0, 1, 2, 3], None,
                               lambda v: 0 <= v < adc_inputs, f"an ADC channel 0..{adc_inputs - 1}"),
    )
    t.done()

    t = top.table("mux") or Table({}, "mux")
    mux = MuxConfig(
        count=t.get("count", int, 4, lambda v: 1 <= v <= 8, "1..8 multiplexers"),
        select=int_list(t, "select", [5, 6, 13, 19], 4, lambda v: 0 <= v <= 29, "a GPIO number"),
        settle_us=t.get("settle_us", int, 20, lambda v: 0 <= v <= 10_000, "microseconds 0..10000"),
    )
    t.done()
    if len(adc.mux_channels) != mux.count:
        raise ProfileError("adc.mux_channels",
                           f"{len(adc.mux_channels)} entries for {mux.count} multiplexers")
    if len(set(adc.mux_channels)) != len(adc.mux_channels):
        raise ProfileError("adc.mux_channels", "an ADC channel is listed twice")
    if mux.count * MUX_INPUTS < N_SPACES:
        raise ProfileError("mux.count", f"{mux.count} x {MUX_INPUTS} inputs cannot hold 49 sensors")

    t = top.table("sensor") or Table({}, "sensor")
    sensor = SensorConfig(
        type=t.get("type", str, "DRV5055A3"),
        mv_per_mt=t.get("mv_per_mt", float, 16.5, lambda v: 1 <= v <= 200, "mV per mT 1..200"),
        supply_v=t.get("supply_v", float, 3.3, lambda v: 1.6 <= v <= 5.5, "volts 1.6..5.5"),
        oversample=t.get("oversample", int, 8, lambda v: 1 <= v <= 64, "samples 1..64"),
    )
    t.done()

    t = top.table("leds") or Table({}, "leds")
    driver = t.get("driver", str, "serial", lambda v: v in LED_DRIVERS, "one of " + ", ".join(LED_DRIVERS))
    count = t.get("count", int, 50, lambda v: N_SPACES <= v <= 340, "49..340 LEDs")
    order = t.get("order", str, "GRB").upper()
    if order not in COLOUR_ORDERS:
        raise ProfileError("leds.order", f"unknown colour order {order!r} (known: {', '.join(COLOUR_ORDERS)})")
    led_type = t.get("type", str, "WS2812B").upper().replace("-", "")
    if led_type not in LED_TYPES:
        raise ProfileError("leds.type", f"unknown LED type {led_type!r} (known, all RGB with 3 bytes "
                           f"per LED: {', '.join(LED_TYPES)})")
    leds = LedConfig(
        driver=driver, type=led_type, count=count, order=order,
        gpio=t.get("gpio", int, 18, lambda v: driver != "ws281x" or v in WS281X_PINS,
                   "a PWM/PCM/SPI GPIO for rpi_ws281x: 10, 12, 13, 18, 19 or 21"),
        brightness=t.get("brightness", float, 0.4, lambda v: 0 <= v <= 1, "a number 0..1"),
        gamma=t.get("gamma", float, 2.2, lambda v: 0.5 <= v <= 4, "a gamma 0.5..4"),
        freq_hz=t.get("freq_hz", int, 800_000, lambda v: v in (400_000, 800_000), "400000 or 800000"),
        dma=t.get("dma", int, 10, lambda v: v in (5, 8, 9, 10, 11, 12, 13, 14), "a free DMA channel such as 10"),
        channel=t.get("channel", int, 0, lambda v: v in (0, 1), "PWM channel 0 or 1"),
        invert=t.get("invert", bool, False),
        status=int_list(t, "status", [], None, lambda v: 0 <= v < count, f"an LED index 0..{count - 1}"),
        device=t.get("device", str, LedConfig.device),
    )
    t.done()

    buttons = None
    t = top.table("buttons")
    if t is not None:
        pins = {}
        for event in BUTTON_EVENTS:
            pin = t.get(event, int, None, _pin, "a BCM GPIO number 2..27")
            if pin is not None:
                pins[event] = pin
        buttons = ButtonConfig(pins=pins, pull_up=t.get("pull_up", bool, True),
                               bounce_s=t.get("bounce_s", float, 0.05, lambda v: 0 <= v <= 1, "seconds 0..1"))
        t.done()

    magnets = {}
    t = top.table("magnets")
    if t is not None:
        for kind in PIECE_KINDS:
            m = t.table(kind)
            if m is None:
                raise ProfileError(t.path(kind), "missing table (every piece kind needs its magnet)")
            magnets[kind] = Magnet(
                polarity=m.get("polarity", str, check=lambda v: v in ("north", "south"), what="'north' or 'south'"),
                diameter_mm=m.get("diameter_mm", float, check=lambda v: 0.5 <= v <= 50,
                                  what="mm 0.5..50"),
                height_mm=m.get("height_mm", float, check=lambda v: 0.2 <= v <= 50,
                                what="mm 0.2..50"),
                grade=m.get("grade", str, "N52"),
                strength_spread=m.get("strength_spread", float, 0.05, lambda v: 0 <= v < 1, "a fraction 0..1"),
            )
            m.done()
        t.done()

    voice = VoiceConfig()
    t = top.table("voice")
    if t is not None:
        voice = VoiceConfig(volume=t.get("volume", float, 0.5, lambda v: 0 <= v <= 1, "a loudness 0..1"))
        t.done()

    geometry = _geometry(top.table("geometry") or Table({}, "geometry"))
    spaces = read_spaces(top.table("spaces", required=True), mux.count, leds)
    top.done()
    profile = Profile(name=name, scanner=scanner, adc=adc, mux=mux, sensor=sensor, leds=leds,
                      buttons=buttons, magnets=magnets, spaces=spaces, source=source,
                      geometry=geometry, voice=voice)
    check_pins(profile)
    return profile


def _geometry(t: Table) -> Geometry:
    """The [geometry] table: every key a length in mm > 0, defaulting to the reference board."""
    defaults = Geometry()
    values = {name: t.get(name, float, getattr(defaults, name), lambda v: 0 < v <= 1000,
                          "a length in mm, 0..1000")
              for name in defaults.__dataclass_fields__}
    t.done()
    geometry = Geometry(**values)
    for key, problem in geometry.problems():
        raise ProfileError(t.path(key), problem)
    return geometry


def packaged_profiles() -> list[str]:
    """Names of the profiles shipped in ``hw/profiles``."""
    folder = resources.files("dvonn_hw") / "profiles"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_profile(path: str | Path | None = None) -> Profile:
    """Load a profile: a file path, the name of a packaged profile ('default', 'direct'), or
    None for the packaged default."""
    if path is None:
        path = "default"
    p = Path(path)
    if not p.exists() and str(path) in packaged_profiles():
        resource = resources.files("dvonn_hw") / "profiles" / f"{path}.toml"
        return parse_profile(resource.read_text(encoding="utf-8"), f"{path}.toml")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ProfileError(str(path), f"cannot read the profile: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ProfileError(str(path), f"line {line}: not UTF-8 text (byte {exc.start}: "
                                      f"0x{data[exc.start]:02x}); a profile is UTF-8 TOML") from None
    return parse_profile(text, str(path))
