"""The Pi 5 LED path: PioStrip writing to a fake /dev/leds0 (a named pipe read by a thread, so
every write reaches a reader as it would the kernel driver), chosen by the direct-pi5 profile."""

import os
import threading
from dataclasses import replace

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware_py.errors import HardwareUnavailable
from firmware_py.interfaces import BLANK, LedFrame
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_hw.board import open_board
from dvonn_hw.direct_scanner import DirectScanner
from dvonn_hw.leds import ChainEncoder, PioStrip
from dvonn_hw.profile import load_profile


class FakeLedDevice:
    """A FIFO standing in for /dev/leds0, recording the bytes written to it."""

    def __init__(self, path):
        self.path = str(path)
        os.mkfifo(self.path)
        self.data = bytearray()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        with open(self.path, "rb", buffering=0) as f:  # blocks until the strip opens it
            while chunk := f.read(4096):
                self.data += chunk

    def received(self) -> bytes:
        self._thread.join(timeout=5)  # the writer closed: the reader saw end of file
        return bytes(self.data)


def frame(**colours):
    spaces = [(0, 0, 0)] * N_SPACES
    for name, rgb in colours.items():
        spaces[INDEX[name]] = rgb
    return LedFrame(spaces=tuple(spaces), status=((0, 0, 255),))


def test_pio_strip_writes_pass_through_then_rgbw_frames(tmp_path):
    dev = FakeLedDevice(tmp_path / "leds0")
    profile = load_profile("direct-pi5")
    strip = PioStrip(ChainEncoder.from_profile(profile), dev.path)
    strip.show(frame(a1=(255, 0, 0), j2=(0, 255, 0)))
    strip.show(frame(a1=(255, 0, 0), j2=(0, 255, 0)))  # unchanged: not written again
    strip.close()  # blanks the chain
    data = dev.received()
    n = profile.leds.count
    assert len(data) == 1 + 2 * 4 * n
    assert data[0] == 0  # brightness 0 = pass-through: our gamma and cap only
    first, last = data[1:1 + 4 * n], data[1 + 4 * n:]
    red = round(255 * 0.4)  # full red at the 40 % cap (gamma leaves 255 at 255)
    assert first[0:4] == bytes([red, 0, 0, 0])  # a1 is LED 0: R, G, B, W
    assert first[4 * 9:4 * 9 + 4] == bytes([0, red, 0, 0])  # j2 is LED 9 (serpentine)
    assert first[4 * 49:4 * 49 + 4] == bytes([0, 0, red, 0])  # the status LED
    assert first[3::4] == bytes(n)  # white never lit
    assert last == bytes(4 * n)


@pytest.fixture
def factory():
    saved = Device.pin_factory
    Device.pin_factory = f = MockFactory()
    yield f
    f.reset()
    f.close()
    Device.pin_factory = saved


def test_profile_chooses_the_pio_strip(tmp_path, factory):
    """direct-pi5 opens the real DirectScanner and buttons on gpiozero's MockFactory, and the
    LEDs on the (fake) ws2812-pio device."""
    dev = FakeLedDevice(tmp_path / "leds0")
    profile = load_profile("direct-pi5")
    profile = replace(profile, leds=replace(profile.leds, device=dev.path))
    board = open_board(profile, pin_factory=factory)
    assert isinstance(board.leds, PioStrip) and isinstance(board.sensors, DirectScanner)
    board.leds.show(frame(e3=(255, 255, 255)))
    board.close()
    assert len(dev.received()) == 1 + 2 * 4 * profile.leds.count


def test_missing_device_says_how_to_get_it(tmp_path):
    with pytest.raises(HardwareUnavailable, match=r"dtoverlay=ws2812-pio,gpio=18,num_leds=50"):
        PioStrip(ChainEncoder.from_profile(load_profile("direct-pi5")), str(tmp_path / "leds0"))


def test_rgbw_layout():
    assert PioStrip.rgbw(bytes([1, 2, 3, 4, 5, 6])) == bytes([1, 2, 3, 0, 4, 5, 6, 0])
    assert BLANK.spaces[0] == (0, 0, 0)


def test_diagnostics_go_on_without_the_pi5_leds(tmp_path, factory):
    """`diag` on a Pi 5 whose overlay is missing: the sensors still work, the self-test gets
    the LED error to report."""
    from firmware_py.diag.backend import open_board as open_diag
    from importlib import resources
    text = (resources.files("dvonn_hw") / "profiles" / "direct-pi5.toml").read_text()
    mine = tmp_path / "board.toml"
    mine.write_text(text.replace('device = "/dev/leds0"', f'device = "{tmp_path / "leds0"}"'))
    board = open_diag("hw", str(mine))
    try:
        assert "ws2812-pio overlay is not loaded" in board.led_error
        assert isinstance(board.source, DirectScanner)
    finally:
        board.close()
