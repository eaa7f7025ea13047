"""LED output: the chain encoder, and the rpi_ws281x strip against a fake rpi_ws281x module.

The real rpi_ws281x cannot run here (and a failed begin() must never be touched), so a fake
module with the same PixelStrip API is put into sys.modules.
"""

import atexit
import doctest
import sys
import types

import pytest

import dvonn_hw.leds
from firmware_py.errors import HardwareUnavailable
from firmware_py.interfaces import BLANK, LedFrame, LedSink
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_hw.leds import ChainEncoder, NoLeds, Ws281xStrip, check_ws281x_model, pi_model
from dvonn_hw.profile import load_profile

PI4 = "Raspberry Pi 4 Model B Rev 1.4"


def frame_with(**colours):
    spaces = [(0, 0, 0)] * N_SPACES
    for name, rgb in colours.items():
        spaces[INDEX[name]] = rgb
    return LedFrame(spaces=tuple(spaces))


def test_doctests():
    assert doctest.testmod(dvonn_hw.leds).failed == 0


def test_gamma_and_brightness_cap():
    enc = ChainEncoder(49, tuple(range(49)), order="RGB", brightness=0.5, gamma=2.0)
    chain = enc.encode(frame_with(a1=(255, 128, 0)))
    assert list(chain[:3]) == [128, round(127.5 * (128 / 255) ** 2), 0]
    assert enc.lut[0] == 0 and max(enc.lut) == 128  # nothing brighter than the cap
    assert list(ChainEncoder(49, tuple(range(49)), order="RGB", brightness=1, gamma=1).lut) \
        == list(range(256))


@pytest.mark.parametrize("order, wire", [
    ("RGB", [10, 20, 30]), ("GRB", [20, 10, 30]), ("BGR", [30, 20, 10]),
    ("BRG", [30, 10, 20]), ("GBR", [20, 30, 10]), ("RBG", [10, 30, 20]),
])
def test_colour_order(order, wire):
    enc = ChainEncoder(49, tuple(range(49)), order=order, brightness=1, gamma=1)
    assert list(enc.encode(frame_with(a1=(10, 20, 30)))[:3]) == wire
    assert enc.decode(enc.encode(frame_with(a1=(10, 20, 30)))).spaces[0] == (10, 20, 30)


def test_index_map_and_status_leds():
    profile = load_profile()  # serpentine: row 2 runs right to left; status LED 49
    enc = ChainEncoder.from_profile(profile)
    frame = LedFrame(spaces=frame_with(j2=(255, 255, 255), a2=(255, 0, 0)).spaces,
                     status=((0, 0, 255), (9, 9, 9)))  # a second status colour has no LED
    chain = enc.encode(frame)
    lit = {i for i in range(enc.count) if any(chain[3 * i:3 * i + 3])}
    assert lit == {9, 18, 49}  # j2 -> 9, a2 -> 18, status 0 -> 49
    assert len(chain) == 3 * 50
    back = enc.decode(chain)
    assert back.spaces[INDEX["j2"]] == (255, 255, 255) and back.status == ((0, 0, 255),)


def test_decode_is_near_for_every_level():
    enc = ChainEncoder.from_profile(load_profile())
    for v in range(256):
        got = enc.decode(enc.encode(frame_with(a1=(v, v, v)))).spaces[0][0]
        assert enc.lut[got] == enc.lut[v]  # indistinguishable on the strip


# --------------------------------------------------------------------------- the strip


class FakePixelStrip:
    instances = []
    fail_begin = None

    def __init__(self, num, pin, freq_hz=800000, dma=10, invert=False, brightness=255,
                 channel=0, strip_type=None, gamma=None):
        self.args = dict(num=num, pin=pin, freq_hz=freq_hz, dma=dma, invert=invert,
                         brightness=brightness, channel=channel, strip_type=strip_type)
        self._leds = object()
        self.begun = False
        self.pixels = [0] * num
        self.set_calls = 0
        self.shows = 0
        atexit.register(self._cleanup)
        FakePixelStrip.instances.append(self)

    def _cleanup(self):
        if self._leds is not None and not self.begun:
            raise AssertionError("cleanup of a strip that never began: the real one segfaults")
        self._leds = None

    def begin(self):
        if FakePixelStrip.fail_begin:
            raise RuntimeError(FakePixelStrip.fail_begin)
        self.begun = True

    def setPixelColor(self, n, color):
        assert self.begun, "setPixelColor before begin(): the real one segfaults"
        self.pixels[n] = color
        self.set_calls += 1

    def show(self):
        assert self.begun
        self.shows += 1


@pytest.fixture
def fake_ws281x(monkeypatch):
    module = types.ModuleType("rpi_ws281x")
    module.PixelStrip = FakePixelStrip
    module.ws = types.SimpleNamespace(WS2811_STRIP_RGB=0x00100800, WS2811_STRIP_GRB=0x00081000)
    monkeypatch.setitem(sys.modules, "rpi_ws281x", module)
    FakePixelStrip.instances = []
    FakePixelStrip.fail_begin = None
    yield module
    for strip in FakePixelStrip.instances:
        atexit.unregister(strip._cleanup)


def test_strip_shows_encoded_colours(fake_ws281x):
    profile = load_profile("direct")
    strip = Ws281xStrip.from_profile(profile, model=PI4)
    assert isinstance(strip, LedSink)
    (fake,) = FakePixelStrip.instances
    assert fake.args["num"] == 50 and fake.args["pin"] == 18 and fake.args["dma"] == 10
    assert fake.args["brightness"] == 255  # our own cap, not the library's
    assert fake.args["strip_type"] == 0x00100800  # bytes go out as we ordered them
    strip.show(frame_with(e3=(255, 0, 0)))
    led = profile.spaces[INDEX["e3"]].led
    assert fake.pixels[led] == 102 << 8  # GRB on the wire: (0, 102, 0)
    assert sum(1 for p in fake.pixels if p) == 1
    calls = fake.set_calls
    strip.show(frame_with(e3=(255, 0, 0)))  # nothing changed: no per-pixel calls
    assert fake.set_calls == calls and fake.shows == 2
    strip.close()
    assert not any(fake.pixels) and fake.shows == 3
    strip.close()
    strip.show(frame_with(e3=(255, 0, 0)))  # after close: ignored
    assert fake.shows == 3


def test_failed_begin_is_defused(fake_ws281x):
    FakePixelStrip.fail_begin = "ws2811_init failed with code -3 (Hardware revision is not supported)"
    with pytest.raises(HardwareUnavailable, match="Hardware revision is not supported"):
        Ws281xStrip.from_profile(load_profile("direct"), model=PI4)
    (fake,) = FakePixelStrip.instances
    assert fake._leds is None  # its cleanup will not reach the C library
    fake._cleanup()  # and running it anyway is harmless


def test_failed_begin_without_root_says_so(fake_ws281x):
    FakePixelStrip.fail_begin = "ws2811_init failed with code -5 (mmap() failed)"
    with pytest.raises(HardwareUnavailable, match="need root"):
        Ws281xStrip.from_profile(load_profile("direct"), model=PI4)


@pytest.mark.parametrize("model, message", [
    ("Raspberry Pi 5 Model B Rev 1.0", "does not support the Raspberry Pi 5"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "does not support"),
    ("", "needs a Raspberry Pi"),
    ("Orange Pi 5", "needs a Raspberry Pi"),
])
def test_unsupported_models_never_make_a_strip(fake_ws281x, model, message):
    with pytest.raises(HardwareUnavailable, match=message) as info:
        Ws281xStrip.from_profile(load_profile("direct"), model=model)
    assert 'driver = "serial"' in str(info.value)  # points to the scanner-driven LEDs
    assert FakePixelStrip.instances == []


def test_missing_library_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)  # import fails
    with pytest.raises(HardwareUnavailable, match="rpi_ws281x is not installed"):
        Ws281xStrip.from_profile(load_profile("direct"), model=PI4)


def test_model_detection(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert pi_model(model) == PI4
    assert pi_model(tmp_path / "missing") == ""
    check_ws281x_model(PI4)


def test_no_leds_sink():
    sink = NoLeds()
    assert isinstance(sink, LedSink)
    sink.show(BLANK)
    sink.close()
