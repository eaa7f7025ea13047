"""The RP2040 firmware's logic on CPython with stand-in hardware, and end to end against the
Pi's SerialScanner over a real pseudo-terminal. Plus a guard that the shared files stay within
what MicroPython runs."""

import ast
import os
import tty
from pathlib import Path

import pytest

from firmware_py.interfaces import LedFrame
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_hw import protocol as p
from dvonn_hw.firmware.scanner import GRAY_ORDER, Scanner
from dvonn_hw.leds import ChainEncoder
from dvonn_hw.profile import load_profile
from dvonn_hw.serial_link import SerialScanner

HW = Path(__file__).parent.parent / "hw"
TICKS_PERIOD = 2**30  # MicroPython's ticks_us wraps here on the RP2040


class StandIn:
    """The Pico's pins, ADC, LED chain, USB and clock, as Scanner sees them."""

    def __init__(self, board, wobble=(0,)):
        self.board, self.wobble = board, wobble
        self.input = self.mux = None
        self.selects = 0
        self.reads = 0
        self.now = TICKS_PERIOD - 5_000  # near the wrap on purpose
        self.sent = bytearray()
        self.incoming = bytearray()
        self.shown = []

    def select(self, mux_input):
        self.input = mux_input
        self.selects += 1

    def enable(self, mux):
        self.mux = mux

    def read(self):
        value = self.board[self.mux * 16 + self.input] + self.wobble[self.reads % len(self.wobble)]
        self.reads += 1
        return value

    def show(self, chain):
        self.shown.append(bytes(chain))

    def send(self, data):
        self.sent += data

    def receive(self):
        data, self.incoming = bytes(self.incoming), bytearray()
        return data

    def ticks_us(self):
        return self.now

    def ticks_diff(self, a, b):
        return ((a - b + TICKS_PERIOD // 2) % TICKS_PERIOD) - TICKS_PERIOD // 2

    def ticks_add(self, a, delta):
        return (a + delta) % TICKS_PERIOD

    def sleep_us(self, us):
        self.advance(us)

    def advance(self, us):
        self.now = (self.now + us) % TICKS_PERIOD


def host_says(hw, *packets):
    enc = p.Encoder()
    for kind, body in packets:
        hw.incoming += enc.packet(kind, body)


def replies(hw, decoder):
    out = decoder.feed(bytes(hw.sent))
    hw.sent.clear()
    return out


BOARD = [200 + 13 * ch for ch in range(64)]


def test_frames_at_the_rate_with_a_32_bit_clock():
    hw = StandIn(BOARD, wobble=(2, -2))
    fw = Scanner(hw, rate_hz=100, oversample=4, settle_us=0)
    dec = p.Decoder()
    times = []
    for _ in range(100):  # 50 ms in 0.5 ms steps, across the ticks_us wrap
        fw.step()
        hw.advance(500)
        for m in replies(hw, dec):
            assert m.kind == p.SENSOR_FRAME
            t, readings = p.parse_sensor(m.body)
            assert list(readings) == BOARD[:49]
            times.append(t)
    assert len(times) == 5
    assert [b - a for a, b in zip(times, times[1:])] == [10_000] * 4  # no jump at the wrap
    assert hw.reads == 5 * 49 * 4
    assert hw.selects == 5 * 16  # each input selected once per scan


def test_scan_visits_inputs_in_gray_order():
    hw = StandIn(BOARD)
    seen = []
    select = hw.select
    hw.select = lambda i: (seen.append(i), select(i))
    Scanner(hw, oversample=1, settle_us=0).scan()
    assert seen == GRAY_ORDER


def test_obeys_the_host():
    hw = StandIn(BOARD)
    fw = Scanner(hw, rate_hz=100, leds=50, name="unit")
    dec = p.Decoder()
    chain = bytes(range(150))
    host_says(hw, (p.HELLO, p.hello_body(p.ROLE_HOST)), (p.LED_FRAME, chain),
              (p.SET_RATE, p.rate_body(0)), (p.SET_OVERSAMPLE, p.oversample_body(2)),
              (p.PING, p.ping_body(77)), (0x42, b""), (p.LED_FRAME, bytes(3 * 51)))
    fw.step()
    got = replies(hw, dec)
    assert [m.kind for m in got] == [p.HELLO, p.PONG, p.ERROR, p.ERROR]
    hello = p.parse_hello(got[0].body)
    assert (hello["role"], hello["channels"], hello["adc_bits"], hello["leds"], hello["name"]) \
        == (p.ROLE_SCANNER, 49, 12, 50, "unit")
    assert p.parse_pong(got[1].body) == (77, [7, 0, 0, 0])  # 7 good packets, no damage
    assert p.parse_error(got[2].body)[0] == p.ERR_UNKNOWN_TYPE
    assert p.parse_error(got[3].body) == (p.ERR_BAD_BODY, "51 LEDs sent, the chain has 50")
    assert hw.shown == [chain]
    assert fw.oversample == 2 and fw.rate_hz == 0
    for _ in range(10):  # rate 0: paused
        hw.advance(20_000)
        assert not fw.step()


def test_counts_damage_from_the_host():
    hw = StandIn(BOARD)
    fw = Scanner(hw, rate_hz=0)
    good = p.encode(p.PING, 5, p.ping_body(1))
    bad = bytearray(good)
    bad[4] ^= 1
    hw.incoming += bytes(bad) + b"junk\x00" + p.encode(p.PING, 9, p.ping_body(2))
    fw.step()
    (pong,) = p.Decoder().feed(bytes(hw.sent))
    frames, bad_crc, broken, gaps = p.parse_pong(pong.body)[1]
    assert (frames, bad_crc, gaps) == (1, 1, 0) and broken == 1


class PtyHardware(StandIn):
    """The stand-in with its USB end on a real pty master."""

    def __init__(self, board, master):
        super().__init__(board)
        self.master = master

    def send(self, data):
        os.write(self.master, data)

    def receive(self):
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""


def test_end_to_end_over_a_pty():
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    profile = load_profile()
    host = SerialScanner.from_profile(profile, port=os.ttyname(slave))
    hw = PtyHardware(BOARD, master)
    fw = Scanner(hw, rate_hz=100, oversample=2, settle_us=0, name="pty-scanner")
    try:
        fw.start()
        frames = []
        for _ in range(5):
            fw.step()  # obeys the host's HELLO, SET_RATE, SET_OVERSAMPLE; sends a frame
            frames.append(host.read_frame(timeout=5))
            hw.advance(10_000)
        assert all(f.raw == tuple(BOARD[ch] for ch in profile.channels) for f in frames)
        assert [f.seq for f in frames] == list(range(frames[0].seq, frames[0].seq + 5))
        assert frames[-1].time - frames[0].time == pytest.approx(0.04)
        assert host.stats.scanner["name"] == "pty-scanner"
        assert fw.rate_hz == profile.scanner.rate_hz and fw.oversample == 8
        led = LedFrame(spaces=tuple((0, 255, 0) if i == INDEX["e3"] else (0, 0, 0)
                                    for i in range(N_SPACES)))
        host.show(led)
        while not hw.shown:
            fw.step()
        assert hw.shown[-1] == bytes(ChainEncoder.from_profile(profile).encode(led))
        s = host.stats
        assert (s.garbage_bytes, s.bad_crc, s.gaps, s.bad_frames) == (0, 0, 0, 0)
    finally:
        host.close()
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("path", ["protocol.py", "firmware/scanner.py", "firmware/main.py",
                                  "firmware/config.py"])
def test_files_for_the_microcontroller_stay_micropython(path):
    """No annotations, f-strings, __future__, dataclasses or typing: what the RP2040 runs."""
    tree = ast.parse((HW / path).read_text())
    allowed = {"struct", "dvonn_hw", "protocol", "sys", "time", "machine", "micropython", "neopixel",
               "select", "config", "scanner"}
    for node in ast.walk(tree):
        assert not isinstance(node, ast.JoinedStr), f"{path}:{node.lineno}: f-string"
        assert not isinstance(node, ast.AnnAssign), f"{path}:{node.lineno}: annotation"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), \
                f"{path}:{node.lineno}: annotation"
        if isinstance(node, ast.Import):
            assert {a.name.split(".")[0] for a in node.names} <= allowed, f"{path}:{node.lineno}"
        if isinstance(node, ast.ImportFrom):
            assert node.module.split(".")[0] in allowed, f"{path}:{node.lineno}: {node.module}"


def test_link_tool_against_a_live_scanner(capsys):
    """`python -m dvonn_hw.serial_diag --port ...` against the firmware running in a thread."""
    import threading
    import time

    from dvonn_hw import serial_diag

    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    hw = PtyHardware(BOARD, master)
    hw.ticks_us = lambda: (time.monotonic_ns() // 1000) % TICKS_PERIOD
    hw.sleep_us = lambda us: None
    fw = Scanner(hw, rate_hz=200, oversample=1, settle_us=0, name="live")
    stop = threading.Event()

    def run():
        while not stop.is_set():
            if not fw.step():
                stop.wait(0.001)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert serial_diag.main(["--port", os.ttyname(slave), "--seconds", "0.3"]) == 0
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)
    out = capsys.readouterr().out
    assert "'name': 'live'" in out and "ping:" in out
    assert "first frame: (200, 213," in out
