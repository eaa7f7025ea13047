"""LED output: turning an `LedFrame` into the bytes of a WS2812 chain, and driving the chain
from the Pi: with rpi_ws281x (Pi 1-4), or through the Pi 5 kernel's ws2812-pio device.

`ChainEncoder` does what every LED sink needs (the profile's index map, status LEDs, brightness
cap, gamma, colour order) and produces the chain's bytes; the serial scanner sends those bytes
as they are, `Ws281xStrip` hands them to rpi_ws281x, `PioStrip` writes them to /dev/leds0.
The profile's ``[leds] driver`` chooses: "serial", "ws281x", "pio" or "none".

>>> from dvonn_hw.profile import load_profile
>>> from firmware_py.interfaces import LedFrame
>>> from firmware_py.spaces import N_SPACES
>>> enc = ChainEncoder.from_profile(load_profile())
>>> chain = enc.encode(LedFrame(spaces=((255, 0, 0),) + ((0, 0, 0),) * (N_SPACES - 1)))
>>> list(chain[:3])          # a1 is LED 0; GRB order; red at the 40 % cap after gamma 2.2
[0, 102, 0]

rpi_ws281x facts this module works around: it only runs on a Pi 1-4 (begin() raises "Hardware
revision is not supported" elsewhere, including the Pi 5), PWM/PCM modes need root, and a
PixelStrip whose begin() failed must never be touched again: setPixelColor on it segfaults at
once, and its cleanup at exit segfaults the interpreter. So the model is checked *before* a
PixelStrip is made, and a strip whose begin() failed is defused (its cleanup unregistered) and
dropped.
"""

from __future__ import annotations

import atexit
import importlib
from pathlib import Path

from firmware_py.errors import HardwareUnavailable
from firmware_py.interfaces import BLANK, LedFrame

# rpi_ws281x's strip type for "send the three bytes of the 24-bit value high byte first".
WS2811_STRIP_RGB = 0x00100800
MODEL_FILE = Path("/proc/device-tree/model")


class ChainEncoder:
    """Maps an LedFrame onto a chain of `count` LEDs and encodes it as wire bytes.

    `led_map[i]` is the chain index of space i, `status[k]` that of status LED k; colours go
    through a lookup table that applies gamma and the brightness cap, then the colour order.
    Status colours beyond the profile's status LEDs are ignored; missing ones are off.
    """

    def __init__(self, count: int, led_map: tuple[int, ...], status: tuple[int, ...] = (),
                 order: str = "GRB", brightness: float = 0.4, gamma: float = 2.2):
        self.count = count
        self.led_map = tuple(led_map)
        self.status = tuple(status)
        self.order = order
        self.brightness = brightness
        self.gamma = gamma
        self.lut = bytes(round(255 * brightness * (v / 255) ** gamma) for v in range(256))
        if sorted(order) != ["B", "G", "R"]:
            raise ValueError(f"colour order {order!r} is not a permutation of RGB")
        # wire byte p of an LED carries component _pick[p] of its (r, g, b) colour
        self._pick = tuple("RGB".index(c) for c in order)

    @classmethod
    def from_profile(cls, profile) -> ChainEncoder:
        leds = profile.leds
        return cls(leds.count, profile.led_map, leds.status, leds.order, leds.brightness, leds.gamma)

    def encode(self, frame: LedFrame) -> bytearray:
        """The chain's bytes: 3 per LED, in chain order and in the strip's colour order."""
        out = bytearray(3 * self.count)
        lut, pick = self.lut, self._pick
        targets = list(zip(self.led_map, frame.spaces))
        targets += list(zip(self.status, frame.status))
        for led, rgb in targets:
            base = 3 * led
            out[base] = lut[rgb[pick[0]]]
            out[base + 1] = lut[rgb[pick[1]]]
            out[base + 2] = lut[rgb[pick[2]]]
        return out

    def decode(self, chain: bytes) -> LedFrame:
        """The LedFrame that `encode` turned into `chain`, as near as gamma allows.

        For the simulator and diagnostics, which see only the chain's bytes on the wire.
        """
        inverse = [0] * 256
        for v in range(255, -1, -1):  # smallest input giving each output
            inverse[self.lut[v]] = v
        for out in range(1, 256):  # outputs the table never produces: nearest lower one
            if inverse[out] == 0 and out not in self.lut:
                inverse[out] = inverse[out - 1]
        pick = self._pick

        def colour(led: int) -> tuple[int, int, int]:
            rgb = [0, 0, 0]
            for p in range(3):
                rgb[pick[p]] = inverse[chain[3 * led + p]]
            return tuple(rgb)

        status_n = min(len(self.status), len(chain) // 3)
        return LedFrame(spaces=tuple(colour(led) for led in self.led_map),
                        status=tuple(colour(led) for led in self.status[:status_n]))


def pi_model(model_file: Path = MODEL_FILE) -> str:
    """The board's model string ('Raspberry Pi 4 Model B Rev 1.4'), or '' when not a Pi."""
    try:
        return model_file.read_bytes().rstrip(b"\x00\n").decode("ascii", "replace")
    except OSError:
        return ""


def check_ws281x_model(model: str) -> None:
    """Raise HardwareUnavailable where rpi_ws281x cannot work, before touching the library."""
    hint = ("; drive the LEDs from the scanner microcontroller instead "
            "(profile: [leds] driver = \"serial\", see hw/README.md)")
    if not model.startswith("Raspberry Pi") and "Compute Module" not in model:
        raise HardwareUnavailable(f"rpi_ws281x needs a Raspberry Pi, this is {model or 'not a Pi'}{hint}")
    if "Pi 5" in model or "Compute Module 5" in model or "Pi 500" in model:
        raise HardwareUnavailable(f"rpi_ws281x does not support the {model}{hint}")


class Ws281xStrip:
    """An LedSink driving a WS2812 chain from the Pi's GPIO with rpi_ws281x.

    >>> strip = Ws281xStrip.from_profile(load_profile("direct"))  # doctest: +SKIP
    >>> strip.show(frame)                                          # doctest: +SKIP
    """

    def __init__(self, encoder: ChainEncoder, gpio: int = 18, freq_hz: int = 800_000,
                 dma: int = 10, invert: bool = False, channel: int = 0, model: str | None = None):
        check_ws281x_model(pi_model() if model is None else model)
        try:
            ws281x = importlib.import_module("rpi_ws281x")
        except ImportError:
            raise HardwareUnavailable(
                "rpi_ws281x is not installed (pip installs it on a Pi 1-4 only); "
                "or use [leds] driver = \"serial\"") from None
        self.encoder = encoder
        strip_type = getattr(getattr(ws281x, "ws", None), "WS2811_STRIP_RGB", WS2811_STRIP_RGB)
        # brightness 255 and no library gamma: ChainEncoder already applied both.
        strip = ws281x.PixelStrip(encoder.count, gpio, freq_hz, dma, invert, 255, channel,
                                  strip_type=strip_type)
        try:
            strip.begin()
        except Exception as exc:
            _defuse(strip)
            needs_root = "mmap" in str(exc) or "ermission" in str(exc) or "/dev/mem" in str(exc)
            raise HardwareUnavailable(
                f"rpi_ws281x could not start the LED strip on GPIO {gpio}: {exc}"
                + ("; PWM/PCM need root (or use GPIO 10, the SPI mode)" if needs_root else "")
            ) from None
        self._strip = strip
        self._shown: list[int | None] = [None] * encoder.count

    @classmethod
    def from_profile(cls, profile, model: str | None = None) -> Ws281xStrip:
        leds = profile.leds
        return cls(ChainEncoder.from_profile(profile), leds.gpio, leds.freq_hz, leds.dma,
                   leds.invert, leds.channel, model=model)

    def show(self, frame: LedFrame) -> None:
        if self._strip is None:
            return
        chain = self.encoder.encode(frame)
        for led in range(self.encoder.count):
            value = (chain[3 * led] << 16) | (chain[3 * led + 1] << 8) | chain[3 * led + 2]
            if value != self._shown[led]:  # the SWIG call per pixel is the slow part
                self._strip.setPixelColor(led, value)
                self._shown[led] = value
        self._strip.show()

    def close(self) -> None:
        if self._strip is None:
            return
        try:
            self.show(BLANK)
        finally:
            # The library's own atexit hook finishes the started strip; nothing more to do.
            self._strip = None


def _defuse(strip) -> None:
    """Make a PixelStrip whose begin() failed harmless: no cleanup at exit or on collection."""
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)
    if hasattr(strip, "_leds"):
        strip._leds = None  # its _cleanup/__del__ then skip the C calls that crash
    _DEFUSED.append(strip)  # and keep it alive: __del__ of some versions calls into C anyway


_DEFUSED: list = []


class PioStrip:
    """An LedSink for the Raspberry Pi 5: the kernel's ws2812-pio driver (RP1's PIO).

    ``dtoverlay=ws2812-pio,gpio=18,num_leds=50`` in /boot/firmware/config.txt makes the
    character device /dev/leds0. A write of 4 bytes per LED (R, G, B, W; W is unused on an RGB
    strip) sets the whole chain; a single-byte write sets the driver's brightness, and 0 means
    "pass-through": no brightness or gamma of its own, since `ChainEncoder` applied both. So the
    profile's ``order`` is "RGB" here: the driver sends the strip's GRB itself.

    >>> strip = PioStrip.from_profile(load_profile("direct-pi5"))   # doctest: +SKIP
    >>> strip.show(frame)                                            # doctest: +SKIP
    """

    PASS_THROUGH = b"\x00"

    def __init__(self, encoder: ChainEncoder, device: str = "/dev/leds0", gpio: int = 18):
        import os

        self.encoder = encoder
        self.device = device
        try:
            self._fd = os.open(device, os.O_WRONLY)
        except FileNotFoundError:
            raise HardwareUnavailable(
                f"no {device}: the Pi 5's ws2812-pio overlay is not loaded. Add "
                f"`dtoverlay=ws2812-pio,gpio={gpio},num_leds={encoder.count}` to "
                "/boot/firmware/config.txt and reboot (`sudo dvonn-board setup-pi --profile "
                "direct-pi5` does it); on a Pi 1-4 use [leds] driver = \"ws281x\"") from None
        except PermissionError:
            raise HardwareUnavailable(
                f"no permission to write {device}: it is root's until the udev rule "
                "KERNEL==\"leds[0-9]*\", GROUP=\"gpio\", MODE=\"0660\" is installed "
                "(`sudo dvonn-board setup-pi` writes it) and this user is in the gpio group") from None
        except OSError as exc:
            raise HardwareUnavailable(f"cannot open {device}: {exc.strerror or exc}") from None
        self._write(self.PASS_THROUGH)
        self._last: bytes | None = None

    @classmethod
    def from_profile(cls, profile) -> PioStrip:
        return cls(ChainEncoder.from_profile(profile), profile.leds.device, profile.leds.gpio)

    @staticmethod
    def rgbw(chain: bytes) -> bytes:
        """3 bytes per LED -> the device's 4 (a zero white byte after each LED)."""
        out = bytearray(len(chain) // 3 * 4)
        out[0::4], out[1::4], out[2::4] = chain[0::3], chain[1::3], chain[2::3]
        return bytes(out)

    def _write(self, data: bytes) -> None:
        import os

        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]

    def show(self, frame: LedFrame) -> None:
        if self._fd is None:
            return
        data = self.rgbw(self.encoder.encode(frame))
        if data != self._last:  # the driver keeps showing the last chain it was given
            self._write(data)
            self._last = data

    def close(self) -> None:
        import os

        if self._fd is None:
            return
        try:
            self._last = None
            self.show(BLANK)
        finally:
            os.close(self._fd)
            self._fd = None


class NoLeds:
    """An LedSink for a board without LEDs (profile: driver = "none")."""

    def show(self, frame: LedFrame) -> None:
        pass

    def close(self) -> None:
        pass
