"""The serial scanner over real pseudo-terminals: frames, damage, LED frames, unplug and return.

A fake scanner owns the pty's master end and speaks hw.protocol; SerialScanner opens the slave
through a symlink, as it would open /dev/dvonn-scanner. A pty ignores the baud rate.
"""

import os
import random
import select
import threading
import time
import tty

import pytest
from serial.tools import list_ports_common

from firmware_py.errors import LinkLost
from firmware_py.interfaces import LedFrame, LedSink, SensorSource
from firmware_py.spaces import N_SPACES
from dvonn_hw import protocol as p
from dvonn_hw import scanner_receive, serial_diag, serial_link
from dvonn_hw.leds import ChainEncoder
from dvonn_hw.profile import load_profile
from dvonn_hw.serial_link import SerialScanner
from dvonn_hw.firmware.scanner import FIRMWARE_VERSION


class FakeScanner:
    """The microcontroller's end of the link: a pty master speaking the protocol."""

    def __init__(self, link_path):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo before pyserial sets the port up
        os.set_blocking(self.master, False)
        self.encoder = p.Encoder()
        self.decoder = p.Decoder()
        if os.path.lexists(link_path):
            os.unlink(link_path)
        os.symlink(os.ttyname(self.slave), link_path)

    def send(self, kind, body=b""):
        os.write(self.master, self.encoder.packet(kind, body))

    def frame(self, readings, time_us=0):
        self.send(p.SENSOR_FRAME, p.sensor_body(time_us, readings))

    def raw(self, data):
        os.write(self.master, data)

    def received(self):
        """Messages the host sent so far."""
        data = b""
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            data += chunk
        return self.decoder.feed(data)

    def answer_hello_with(self, *packets):
        """In the background: once the host's HELLO arrives, send `packets` (pyserial flushes
        whatever came before it opened the port)."""
        def run():
            seen = []
            while not any(m.kind == p.HELLO for m in seen):
                if not select.select([self.master], [], [], 5)[0]:
                    return
                seen += self.received()
            for packet in packets:
                os.write(self.master, packet)
            self.seen_before_answer = seen
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def raw_received(self):
        data = b""
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except BlockingIOError:
                return data
            if not chunk:
                return data
            data += chunk

    def unplug(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Clock:
    """Real time plus jumps: the back-off's sleeps become instant, real reads stay real.
    `frozen`: real time stopped (while nothing real is read), so the sleeps are exact."""

    def __init__(self):
        self.offset = 0.0
        self.slept = []
        self.frozen: float | None = None

    def __call__(self):
        return (time.monotonic() if self.frozen is None else self.frozen) + self.offset

    def sleep(self, seconds):
        self.slept.append(round(seconds, 3))
        self.offset += seconds


@pytest.fixture
def link(tmp_path):
    made = []

    def make(**kwargs):
        path = str(tmp_path / "dvonn-scanner")
        fake = FakeScanner(path)
        clock = Clock()
        scanner = SerialScanner(path, clock=clock, sleep=clock.sleep, **kwargs)
        made.append((fake, scanner))
        return fake, scanner, clock

    yield make
    for fake, scanner in made:
        scanner.close()
        fake.unplug()


def readings(base=1000):
    return [base + i for i in range(N_SPACES)]


def test_frames_arrive_in_space_order(link):
    channels = tuple(reversed(range(N_SPACES)))  # space i read on channel 48 - i
    fake, scanner, _ = link(channels=channels, adc_max=4095)
    assert isinstance(scanner, SensorSource) and isinstance(scanner, LedSink)
    fake.frame(readings(), time_us=1_000)
    fake.frame(readings(2000), time_us=11_000)
    a = scanner.read_frame(timeout=2)
    b = scanner.read_frame(timeout=2)
    assert a.raw == tuple(reversed(readings()))
    assert b.raw[0] == 2048
    assert b.seq == a.seq + 1
    assert b.time - a.time == pytest.approx(0.010)
    assert scanner.read_frame(timeout=0.01) is None
    assert scanner.stats.frames == 2 and scanner.stats.garbage_bytes == 0


def test_opening_says_hello_and_sets_rate(link):
    fake, scanner, _ = link(rate_hz=250, oversample=16)
    fake.send(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 250, "dvonn-rp2040", FIRMWARE_VERSION))
    assert scanner.read_frame(timeout=0.05) is None  # handles the HELLO meanwhile
    assert scanner.stats.scanner["name"] == "dvonn-rp2040"
    sent = fake.received()
    assert [m.kind for m in sent] == [p.HELLO, p.SET_RATE, p.SET_OVERSAMPLE]
    assert p.parse_hello(sent[0].body)["role"] == p.ROLE_HOST
    assert p.parse_rate(sent[1].body) == 250
    assert p.parse_oversample(sent[2].body) == 16


def test_zero_timeout_polls_what_arrived(link):
    fake, scanner, _ = link()
    assert scanner.read_frame(timeout=0) is None
    fake.frame(readings())
    fake.send(p.HELLO, p.hello_body(p.ROLE_SCANNER, 10, 40, 50, 100, "small", FIRMWARE_VERSION))
    frame = None
    for _ in range(100_000):  # bytes cross the pty asynchronously: poll until they are there
        frame = scanner.read_frame(timeout=0)
        if frame is not None:
            break
    assert frame.raw == tuple(readings())
    assert scanner.read_frame(timeout=0.05) is None
    assert "10-bit ADC" in scanner.stats.last_error or "40 channels" in scanner.stats.last_error


def test_hello_and_ping_diagnostics(link):
    fake, scanner, _ = link()
    fake.send(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "scanner-1", FIRMWARE_VERSION))
    fake.frame(readings())  # a frame in between is kept for read_frame
    assert scanner.hello(timeout=2)["name"] == "scanner-1"
    fake.send(p.PONG, p.pong_body(99, (5, 0, 0, 0)))  # a stale answer is ignored
    fake.send(p.PONG, p.pong_body(1, (7, 1, 2, 3)))  # the first ping's token is 1
    rtt, counters = scanner.ping(timeout=2)
    assert counters == [7, 1, 2, 3] and rtt >= 0
    assert scanner.read_frame(timeout=2).raw == tuple(readings())
    assert scanner.ping(timeout=0.05) is None  # no answer


def test_damage_is_skipped_and_counted(link):
    fake, scanner, _ = link()
    good = p.encode(p.SENSOR_FRAME, 0, p.sensor_body(0, readings()))
    bad_crc = bytearray(good)
    bad_crc[10] ^= 0x01
    fake.raw(b"\x01\x02 line noise \xff\xfe\x00")  # garbage
    fake.raw(good[: len(good) // 2] + b"\x00")  # truncated
    fake.raw(bytes(bad_crc))
    fake.raw(p.encode(p.SENSOR_FRAME, 1, p.sensor_body(0, readings()[:20])))  # too few channels
    fake.raw(p.encode(0x55, 2, b"who knows"))  # a type we do not use
    fake.raw(p.encode(p.ERROR, 3, p.error_body(p.ERR_BAD_BODY, "LED frame too long")))
    fake.raw(p.encode(p.SENSOR_FRAME, 4, p.sensor_body(0, readings(7))))
    fake.raw(p.encode(p.SENSOR_FRAME, 9, p.sensor_body(100, readings(8))))  # 5..8 lost
    first = scanner.read_frame(timeout=2)
    second = scanner.read_frame(timeout=2)
    assert first.raw[0] == 7 and second.raw[0] == 8
    assert second.seq - first.seq == 5  # the loss shows in the frame numbers
    s = scanner.stats
    assert (s.frames, s.bad_frames, s.unknown, s.scanner_errors) == (2, 1, 1, 1)
    assert s.bad_crc == 1 and s.truncated >= 1 and s.garbage_bytes > 20
    assert (s.gaps, s.lost) == (1, 4)
    assert "LED frame too long" in s.last_error


def test_random_garbage_between_frames_never_crashes(link):
    fake, scanner, _ = link()
    rng = random.Random(7)
    sent = 0
    for i in range(30):
        fake.raw(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 60))) + b"\x00")
        fake.frame(readings(i))
        sent += 1
    got = []
    while (frame := scanner.read_frame(timeout=0.2)) is not None:
        got.append(frame.raw[0])
    # Each burst of noise ends at a delimiter, so every frame after it gets through.
    assert got == list(range(30))
    assert scanner.stats.garbage_bytes > 0 and scanner.stats.frames == 30


def test_led_frames_go_down_the_link(link):
    encoder = ChainEncoder.from_profile(load_profile())
    fake, scanner, clock = link(encoder=encoder)
    fake.received()
    frame = LedFrame(spaces=((0, 255, 0),) * N_SPACES, status=((255, 0, 0),))
    scanner.show(frame)
    (message,) = fake.received()
    assert message.kind == p.LED_FRAME
    assert message.body == bytes(encoder.encode(frame))
    assert encoder.decode(message.body) == frame
    assert scanner.stats.led_frames == 1
    scanner.show(frame)  # unchanged: not sent again...
    assert fake.received() == []
    clock.offset += 1.5
    scanner.show(frame)  # ...until a refresh is due
    assert [m.kind for m in fake.received()] == [p.LED_FRAME]
    scanner.close()
    (blank,) = fake.received()
    assert blank.kind == p.LED_FRAME and blank.body == bytes(3 * encoder.count)
    scanner.close()  # idempotent


def test_unplug_and_return(link, tmp_path):
    encoder = ChainEncoder.from_profile(load_profile())
    fake, scanner, clock = link(encoder=encoder, reopen_max_s=1.0)
    fake.frame(readings(), time_us=5_000_000)
    before = scanner.read_frame(timeout=2)
    fake.unplug()
    os.unlink(tmp_path / "dvonn-scanner")
    with pytest.raises(LinkLost, match="link lost"):
        scanner.read_frame(timeout=2)
    assert not scanner.connected and scanner.stats.link_losses == 1
    shown = LedFrame(spaces=((0, 0, 255),) * N_SPACES)
    scanner.show(shown)  # kept while down, painted on return
    # While the port is gone, every call raises LinkLost; the back-off grows to its cap. (The
    # first sleep is what is left of the first back-off after the loss, real time on a loaded
    # machine: none at all when that is over, and the rest is the same.)
    clock.frozen = time.monotonic()
    for _ in range(6):
        with pytest.raises(LinkLost, match="down"):
            scanner.read_frame(timeout=10)
    clock.offset -= time.monotonic() - clock.frozen  # real time goes on from where it stood
    clock.frozen = None
    assert clock.slept[-5:] == [0.1, 0.2, 0.4, 0.8, 1.0]
    assert len(clock.slept) == 5 or 0 < clock.slept[0] <= 0.1
    # Plugged in again: a new pty behind the same name.
    fake2 = FakeScanner(str(tmp_path / "dvonn-scanner"))
    try:
        # a restarted scanner's clock starts again
        fake2.answer_hello_with(p.encode(p.SENSOR_FRAME, 0, p.sensor_body(10, readings(3000))))
        after = scanner.read_frame(timeout=10)
        fake2.thread.join()
        assert after.raw[0] == 3000
        assert after.time > before.time and after.seq == before.seq + 1
        assert scanner.stats.reconnects == 1 and scanner.connected
        kinds = [m.kind for m in fake2.seen_before_answer + fake2.received()]
        assert kinds[0] == p.HELLO and kinds[-1] == p.LED_FRAME  # repainted
    finally:
        scanner.close()
        fake2.unplug()


def test_missing_port_at_start_is_a_lost_link(tmp_path):
    clock = Clock()
    scanner = SerialScanner(str(tmp_path / "nothing"), clock=clock, sleep=clock.sleep)
    with pytest.raises(LinkLost, match="nothing"):
        scanner.read_frame(timeout=0)
    scanner.close()
    with pytest.raises(LinkLost, match="closed"):
        scanner.read_frame(timeout=0)


def test_from_profile_maps_channels(tmp_path):
    profile = load_profile()
    fake = FakeScanner(str(tmp_path / "port"))
    scanner = SerialScanner.from_profile(profile, port=str(tmp_path / "port"))
    try:
        assert scanner.adc_max == 4095 and scanner.channels == profile.channels
        assert scanner.encoder.count == profile.leds.count
        fake.frame(readings())
        assert scanner.read_frame(timeout=2).raw == tuple(readings())
    finally:
        scanner.close()
        fake.unplug()


def test_list_ports_puts_rp2040_first(monkeypatch):
    other = list_ports_common.ListPortInfo("/dev/ttyUSB0", skip_link_detection=True)
    other.vid, other.pid, other.description = 0x0403, 0x6001, "FT232R"
    pico = list_ports_common.ListPortInfo("/dev/ttyACM0", skip_link_detection=True)
    pico.vid, pico.pid, pico.description = 0x2E8A, 0x0005, "Board in FS mode"
    monkeypatch.setattr(serial_link._list_ports, "comports", lambda: [other, pico])
    ports = serial_link.list_ports()
    assert [p_["device"] for p_ in ports] == ["/dev/ttyACM0", "/dev/ttyUSB0"]
    assert ports[0]["likely_scanner"] and not ports[1]["likely_scanner"]


def test_receive_path_benchmark_reports_figures(capsys):
    r = serial_diag.benchmark(frames=20)
    assert r["frames"] == 20 and min(r["encode_us"], r["decode_us"], r["feed_us"]) > 0
    assert serial_diag.main(["--bench", "--frames", "20"]) == 0
    assert "SerialScanner.feed" in capsys.readouterr().out


def test_a_silent_scanner_is_nudged_and_reported(link):
    fake, scanner, clock = link(silent_s=2.0, rate_hz=100)
    fake.frame(readings())
    assert scanner.read_frame(timeout=2) is not None
    fake.raw_received()
    clock.offset += 2.5  # nothing for longer than silent_s
    with pytest.raises(LinkLost, match="silent"):
        scanner.read_frame(timeout=1)
    sent = fake.raw_received()
    assert sent.startswith(serial_link.REPL_RESTART)  # restarts a MicroPython at its REPL
    assert [m.kind for m in p.Decoder().feed(sent[len(serial_link.REPL_RESTART):])] \
        == [p.HELLO, p.SET_RATE]
    assert scanner.connected and scanner.stats.silences == 1
    # The REPL's banner, then the restarted firmware: the banner is garbage, frames resume.
    fake.raw(b"MPY: soft reboot\r\nMicroPython v1.27.0 on 2026-01-01; Raspberry Pi Pico\r\n\x00")
    fake.frame(readings(5))
    assert scanner.read_frame(timeout=2).raw[0] == 5
    assert scanner.read_frame(timeout=0.05) is None  # quiet, but not yet silent_s
    clock.offset += 2.5
    with pytest.raises(LinkLost, match="silent"):  # polling sees the silence too
        scanner.read_frame(timeout=0)
    assert scanner.stats.silences == 2


def test_unread_frames_are_capped(link):
    fake, scanner, _ = link()
    enc = p.Encoder()
    scanner.feed(b"".join(enc.packet(p.SENSOR_FRAME, p.sensor_body(i, readings(i)))
                          for i in range(scanner_receive.MAX_PENDING + 10)))
    assert scanner.stats.dropped == 10
    first = scanner.read_frame(timeout=0)
    assert first.raw[0] == 10  # the oldest went; the frame numbers show the loss
    assert first.seq == 10


def test_a_pong_of_odd_length_is_a_bad_frame_not_an_error(link):
    fake, scanner, _ = link()
    fake.send(p.PONG, p.ping_body(1) + b"\x07")  # token 1 and half a counter, CRC valid
    assert scanner.ping(timeout=0.3) is None
    assert scanner.stats.bad_frames == 1
    fake.send(p.PONG, p.pong_body(2, (1, 0, 0, 0)))
    assert scanner.ping(timeout=2)[1] == [1, 0, 0, 0]


def test_stale_and_duplicate_packets_are_dropped_and_counted_as_such(link):
    fake, scanner, _ = link()
    for seq in range(51):
        fake.raw(p.encode(p.SENSOR_FRAME, seq, p.sensor_body(seq * 10_000, readings(seq))))
    fake.raw(p.encode(p.SENSOR_FRAME, 1, p.sensor_body(0, readings(999))))  # stale
    fake.raw(p.encode(p.SENSOR_FRAME, 50, p.sensor_body(0, readings(998))))  # duplicate
    fake.raw(p.encode(p.SENSOR_FRAME, 51, p.sensor_body(510_000, readings(51))))
    got = []
    while (frame := scanner.read_frame(timeout=0.3)) is not None:
        got.append(frame)
    assert [f.raw[0] for f in got] == list(range(52))
    assert [b.seq - a.seq for a, b in zip(got, got[1:])] == [1] * 51
    s = scanner.stats
    assert (s.stale, s.gaps, s.lost, s.frames) == (2, 0, 0, 52)


def test_a_restarted_scanner_s_hello_starts_the_count_again(link):
    fake, scanner, _ = link()
    for seq in range(1000, 1005):
        fake.raw(p.encode(p.SENSOR_FRAME, seq, p.sensor_body(0, readings(seq))))
    fake.raw(p.encode(p.HELLO, 0, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "again", FIRMWARE_VERSION)))
    fake.raw(p.encode(p.SENSOR_FRAME, 1, p.sensor_body(0, readings(7))))
    got = []
    while (frame := scanner.read_frame(timeout=0.3)) is not None:
        got.append(frame.raw[0])
    assert got == [1000, 1001, 1002, 1003, 1004, 7] and scanner.stats.stale == 0


def test_the_link_tool_reports_a_broken_pong_without_a_traceback(tmp_path, capsys):
    path = str(tmp_path / "dvonn-scanner")
    fake = FakeScanner(path)
    enc = p.Encoder()
    fake.answer_hello_with(enc.packet(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "x", FIRMWARE_VERSION)),
                           enc.packet(p.PONG, p.ping_body(1) + b"\x07"))
    try:
        assert serial_diag.main(["--port", path, "--seconds", "0.1"]) == 0
    finally:
        fake.unplug()
    out = capsys.readouterr().out
    assert "ping: no answer" in out and '"bad_frames": 1' in out
