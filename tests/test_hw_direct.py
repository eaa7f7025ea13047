"""The direct scanner on gpiozero's MockFactory: real gpiozero MCP3208/MCP3008 and output
devices, talking bit by bit to a fake ADC whose inputs follow the mock mux select pins.

gpiozero ships no MCP3xxx mock, only the bit-level MockSPIDevice; the fake below answers a
read with a null bit and the code (bits + 2 bits in all), as the real chips do.
"""

import importlib.util

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockSPIDevice

from firmware_py.errors import HardwareUnavailable
from firmware_py.interfaces import SensorSource
from firmware_py.spaces import N_SPACES
from dvonn_hw.direct_scanner import GRAY_ORDER, DirectScanner, benchmark
from dvonn_hw.profile import load_profile

SELECT = (5, 6, 13, 19)


class FakeMuxedADC(MockSPIDevice):
    """An MCP3x08 on SPI0 CE0 whose channel k carries multiplexer k's selected input.

    board[channel] gives the code of scanner channel mux * 16 + input; `wobble` adds a zero-mean
    pattern to successive samples so oversampling has something to average.
    """

    def __init__(self, factory, board, bits=12, wobble=(0,)):
        super().__init__(11, 10, 9, 8, pin_factory=factory)  # SCLK, MOSI, MISO, CE0
        self.select = [factory.pin(p) for p in SELECT]
        self.board, self.bits, self.wobble = board, bits, wobble
        self.samples = 0
        self.inputs_seen = []
        self.state = "idle"

    def on_start(self):
        super().on_start()
        self.state = "idle"

    def on_bit(self):
        if self.state == "idle":
            if self.rx_buf[-1]:  # the start bit
                self.state, self.rx_buf = "mode", []
        elif self.state == "mode":
            assert self.rx_buf[-1] == 1, "single-ended reads expected"
            self.state, self.rx_buf = "channel", []
        elif self.state == "channel" and len(self.rx_buf) == 3:
            channel = self.rx_word()
            mux_input = sum(pin.state << b for b, pin in enumerate(self.select))
            self.inputs_seen.append(mux_input)
            code = self.board[channel * 16 + mux_input]
            code += self.wobble[self.samples % len(self.wobble)]
            self.samples += 1
            self.tx_word(max(0, min(code, (1 << self.bits) - 1)), self.bits + 2)
            self.state = "result"


@pytest.fixture
def factory():
    # gpiozero's mock SPI bus builds its pins on Device.pin_factory, so set it as well.
    saved = Device.pin_factory
    Device.pin_factory = f = MockFactory()
    yield f
    f.reset()  # mock pins keep every state change: start each test clean
    f.close()
    Device.pin_factory = saved


def codes(base=100):
    return [base + 37 * ch for ch in range(64)]


def test_frame_is_the_board_in_space_order(factory):
    board = codes()
    adc = FakeMuxedADC(factory, board)
    profile = load_profile("direct")
    scanner = DirectScanner.from_profile(profile, pin_factory=factory, settle_us=0)
    assert isinstance(scanner, SensorSource) and scanner.adc_max == 4095
    scanner.oversample = 1
    frame = scanner.read_frame(timeout=1)
    assert frame.raw == tuple(board[ch] for ch in profile.channels)
    assert frame.seq == 0
    # Inputs visited in Gray order: each step changes one select line.
    visited = list(dict.fromkeys(adc.inputs_seen))
    assert visited == list(GRAY_ORDER)
    scanner.close()
    adc.close()


def test_channel_map_and_oversampling(factory):
    board = codes(5)
    adc = FakeMuxedADC(factory, board, wobble=(3, -3, 1, -1))
    channels = tuple(reversed(range(N_SPACES)))  # space i wired to channel 48 - i
    scanner = DirectScanner(channels, select_pins=SELECT, oversample=4, settle_us=0,
                            pin_factory=factory)
    frame = scanner.read_frame(timeout=1)
    assert frame.raw == tuple(board[48 - i] for i in range(N_SPACES))  # wobble averaged out
    assert adc.samples == 4 * N_SPACES
    scanner.close()
    adc.close()


def test_mcp3008_ten_bit_codes(factory):
    board = [min(1023, 3 + 20 * ch) for ch in range(64)]
    adc = FakeMuxedADC(factory, board, bits=10)
    scanner = DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, adc_type="MCP3008",
                            oversample=1, settle_us=0, pin_factory=factory)
    assert scanner.adc_max == 1023
    assert scanner.read_frame(timeout=1).raw == tuple(board[:N_SPACES])
    scanner.close()
    adc.close()


def test_mcp3008_oversampled_readings_keep_their_fraction_of_a_code(factory):
    # Four samples of one channel that noise spreads over two codes: the reading is their
    # mean, 300.25 or 300.75, not a rounded 300 or 301 (the fraction is what averaging gives).
    board = [300 + (ch % 2) for ch in range(64)]
    adc = FakeMuxedADC(factory, board, bits=10, wobble=(0, 0, 0, 1))
    profile = load_profile("direct")
    assert profile.sensor.oversample == 4  # the direct profile's frame budget
    scanner = DirectScanner.from_profile(profile, adc_type="MCP3008", pin_factory=factory,
                                         settle_us=0)
    assert scanner.oversample == 4 and scanner.reading_step == 0.25
    raw = scanner.read_frame(timeout=1).raw
    assert raw == tuple(board[ch] + 0.25 for ch in profile.channels)
    assert adc.samples == 4 * N_SPACES
    scanner.close()
    adc.close()


class SteppedClock:
    def __init__(self):
        self.now = 100.0
        self.slept = []

    def __call__(self):
        return self.now

    def sleep(self, s):
        self.slept.append(round(s, 6))
        self.now += s


def test_frames_are_paced_to_the_rate(factory):
    clock = SteppedClock()
    scanner = DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, rate_hz=50, settle_us=0,
                            pin_factory=factory, readers=[lambda: 7] * 4,
                            clock=clock, sleep=clock.sleep)
    a = scanner.read_frame()
    assert scanner.read_frame(timeout=0) is None  # the next slot is 20 ms away
    b = scanner.read_frame(timeout=1)
    assert (a.time, b.time) == (100.0, pytest.approx(100.02)) and b.seq == a.seq + 1
    assert a.raw == (7,) * N_SPACES
    scanner.close()
    scanner.close()


def test_settle_wait_after_each_select_change(factory):
    clock = SteppedClock()
    scanner = DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, settle_us=300,
                            pin_factory=factory, readers=[lambda: 1] * 4,
                            clock=clock, sleep=clock.sleep)
    scanner.scan()
    assert clock.slept == [0.0003] * 16
    scanner.close()


def test_select_pins_released_on_close(factory):
    scanner = DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, pin_factory=factory,
                            readers=[lambda: 0] * 4, settle_us=0)
    scanner.scan()
    scanner.close()
    again = DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, pin_factory=factory,
                          readers=[lambda: 0] * 4, settle_us=0)  # pins free again
    again.close()


def test_bad_wiring_is_refused(factory):
    with pytest.raises(ValueError, match="mux 4"):
        DirectScanner(tuple(range(60, 60 + N_SPACES)), pin_factory=factory, readers=[int] * 4)
    with pytest.raises(ValueError, match="unknown ADC"):
        DirectScanner(tuple(range(N_SPACES)), adc_type="ADS1115", pin_factory=factory)
    with pytest.raises(ValueError, match="oversample: 0 is outside 1..64"):
        DirectScanner(tuple(range(N_SPACES)), oversample=0, pin_factory=factory)


def test_pin_in_use_is_hardware_unavailable(factory):
    from gpiozero import DigitalOutputDevice

    taken = DigitalOutputDevice(6, pin_factory=factory)
    with pytest.raises(HardwareUnavailable, match="cannot open"):
        DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, pin_factory=factory,
                      readers=[int] * 4)
    taken.close()
    # The select line that was opened before the failure was released again.
    DirectScanner(tuple(range(N_SPACES)), select_pins=SELECT, pin_factory=factory,
                  readers=[int] * 4).close()


def test_benchmark_reports_figures():
    r = benchmark(frames=5, oversample=2)
    assert r["reads_per_frame"] == 98 and r["scan_us"] > 0 and r["loop_us"] > 0


def test_frame_time_with_the_adc(factory):
    from dvonn_hw.direct_scanner import frame_time

    adc = FakeMuxedADC(factory, codes(), bits=10)
    scanner = DirectScanner.from_profile(load_profile("direct"), adc_type="MCP3008",
                                         pin_factory=factory)
    r = frame_time(scanner, frames=1)  # bit-banged mock SPI: slow, but every sample is real
    assert adc.samples == 3 * 4 * N_SPACES and r["oversample"] == 4
    assert r["scan_us"] > r["sample_us"] * 4 * N_SPACES > 0 and r["share"] > 0
    scanner.close()
    adc.close()


def test_frame_time_off_the_pi_says_why_in_one_line(monkeypatch, capsys):
    from dvonn_hw.direct_scanner import main

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    assert main(["--profile", "direct", "--frames", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("direct scanner: ") and len(err.splitlines()) == 1


def test_spi_problem_names_what_is_missing(tmp_path, monkeypatch):
    """gpiozero needs SPI enabled (the /dev node) AND the spidev module; say which is missing."""
    from dvonn_hw.direct_scanner import spi_problem

    if importlib.util.find_spec("spidev") is not None:
        pytest.skip("spidev is installed here")
    both = spi_problem(0, 0, dev_dir=tmp_path)
    assert "SPI is not enabled" in both and "spidev0.0 is missing" in both
    assert "python3-spidev" in both and "--system-site-packages" in both
    (tmp_path / "spidev0.0").touch()
    only_module = spi_problem(0, 0, dev_dir=tmp_path)
    assert "not enabled" not in only_module and "python3-spidev" in only_module
    modules = tmp_path / "site"
    modules.mkdir()
    (modules / "spidev.py").write_text("")  # an importable spidev: find_spec sees it
    monkeypatch.syspath_prepend(str(modules))
    assert spi_problem(0, 0, dev_dir=tmp_path) is None
    (tmp_path / "spidev0.0").unlink()
    only_node = spi_problem(0, 0, dev_dir=tmp_path)
    assert "not enabled" in only_node and "spidev is missing" not in only_node
    assert spi_problem(0, 1, dev_dir=tmp_path).count("spidev0.1") == 1
