"""The serial scanner: a microcontroller streaming sensor frames over USB serial (pyserial),
which also drives the LED chain. Speaks `dvonn_hw.protocol`.

`SerialScanner` is both the `SensorSource` and the `LedSink` of a board with a scanner::

    >>> scanner = SerialScanner.from_profile(load_profile())     # doctest: +SKIP
    >>> frame = scanner.read_frame(timeout=0.1)                  # doctest: +SKIP
    >>> scanner.show(led_frame); scanner.stats.bad_crc           # doctest: +SKIP

Nothing on the wire can crash it: garbage, cut packets, bad CRCs, unknown messages and gaps in
the sequence numbers are dropped and counted in ``scanner.stats``. When the port vanishes (USB
unplugged) `read_frame` raises `LinkLost`; later calls try to reopen the port with a growing
back-off (0.1 s doubling up to the profile's ``reopen_max_s``) and raise `LinkLost` until it is
back, then frames simply resume. LED frames shown while the link is down are kept, and the last
one is sent again on reconnection.

This module is the port (opening, reopening, reading, writing) and the LEDs; what received bytes
become is `dvonn_hw.scanner_receive`; talking to a scanner by hand and the benchmark are
`python -m dvonn_hw.serial_diag`.
"""

from __future__ import annotations

import time
from collections import deque

import serial
from serial.tools import list_ports as _list_ports

from firmware_py.errors import FirmwareMismatch, LinkLost
from firmware_py.interfaces import LedFrame, SensorFrame
from firmware_py.spaces import N_SPACES

from . import protocol
from .leds import ChainEncoder
from .scanner_receive import LinkStats, ScannerReceiver

RP2040_VID = 0x2E8A  # Raspberry Pi (Pico, RP2040 boards running MicroPython)
FIRST_BACKOFF = 0.1
LED_REFRESH_S = 1.0  # an unchanged LED frame is sent again after this long
READ_QUANTUM = 0.02  # longest single blocking read: read_frame's timeout may overshoot by this
# Ctrl-C, Ctrl-C, Ctrl-D: a MicroPython scanner whose main.py stopped sits at its REPL, where
# this soft-resets it and so restarts main.py. A running firmware ignores it as garbage.
REPL_RESTART = b"\x03\x03\x04"


def list_ports() -> list[dict]:
    """The machine's serial ports, likely scanners (an RP2040's USB VID) first.

    Each: device, description, hwid, vid, pid, serial_number, manufacturer, likely_scanner.
    """
    ports = []
    for info in _list_ports.comports():
        ports.append({
            "device": info.device, "description": info.description, "hwid": info.hwid,
            "vid": info.vid, "pid": info.pid, "serial_number": info.serial_number,
            "manufacturer": info.manufacturer, "likely_scanner": info.vid == RP2040_VID,
        })
    return sorted(ports, key=lambda p: (not p["likely_scanner"], p["device"]))


class SerialScanner(ScannerReceiver):
    """SensorSource and LedSink over a scanner link.

    channels: the scanner channel of each space (space-index order), from the profile.
    encoder: makes the LED chain's bytes; None for a scanner without LEDs.
    clock/sleep: the host's monotonic clock and sleep (tests pass fakes to step the back-off).
    """

    def __init__(self, port: str, channels: tuple[int, ...] = tuple(range(N_SPACES)),
                 adc_max: int = 4095, encoder: ChainEncoder | None = None, *,
                 baud: int = 921600, rate_hz: int | None = None, oversample: int | None = None,
                 reopen_max_s: float = 5.0, silent_s: float = 2.0, hello_timeout: float = 2.0,
                 clock=time.monotonic,
                 sleep=time.sleep):
        if len(channels) != N_SPACES:
            raise ValueError(f"need the channel of each of the {N_SPACES} spaces")
        self.port_name = port
        self.channels = tuple(channels)
        self.adc_max = adc_max
        self.encoder = encoder
        self.baud = baud
        self.rate_hz = rate_hz
        self.oversample = oversample
        self.reopen_max_s = reopen_max_s
        self.silent_s = silent_s
        self.hello_timeout = hello_timeout
        self._last_packet_at = 0.0
        self._clock, self._sleep = clock, sleep
        self.stats = LinkStats()
        self._decoder = protocol.Decoder()
        self._tracker = protocol.SeqTracker()
        self._encoder = protocol.Encoder()
        self._pending: deque[SensorFrame] = deque()
        self._replies: deque[protocol.Message] = deque()  # HELLO/PONG for hello() and ping()
        self._port: serial.Serial | None = None
        self._closed = False
        self._backoff = FIRST_BACKOFF
        self._next_attempt = 0.0
        self._seq = -1
        self._t_offset: float | None = None
        self._t_last_us = 0
        self._t_wraps = 0
        self._last_time = float("-inf")
        self._last_chain: bytes | None = None
        self._ping_token = 0
        self._last_led_send = float("-inf")
        self._open()

    @classmethod
    def from_profile(cls, profile, port: str | None = None, **kwargs) -> SerialScanner:
        s = profile.scanner
        encoder = ChainEncoder.from_profile(profile) if profile.leds.driver == "serial" else None
        return cls(port or s.port, profile.channels, profile.adc.max, encoder, baud=s.baud,
                   rate_hz=s.rate_hz, oversample=profile.sensor.oversample,
                   reopen_max_s=s.reopen_max_s, silent_s=s.silent_s,
                   hello_timeout=s.hello_timeout, **kwargs)

    # ------------------------------------------------------------------ the connection

    @property
    def connected(self) -> bool:
        return self._port is not None

    def _open(self) -> bool:
        try:
            # A fixed short read timeout: changing it per call would reconfigure the tty.
            port = serial.serial_for_url(self.port_name, self.baud, timeout=READ_QUANTUM,
                                         write_timeout=0.5, do_not_open=True)
            port.exclusive = True  # a second program on the port garbles both
            port.open()
        except (serial.SerialException, OSError, ValueError) as exc:
            self.stats.last_error = f"cannot open {self.port_name}: {exc}"
            self._next_attempt = self._clock() + self._backoff
            self._backoff = min(self._backoff * 2, self.reopen_max_s)
            return False
        self._port = port
        self._backoff = FIRST_BACKOFF
        self._decoder.resync()
        self._tracker.reset()
        self._t_offset = None
        self._last_packet_at = self._clock()
        self._say_hello()
        if self.rate_hz is not None:
            self._send(protocol.SET_RATE, protocol.rate_body(self.rate_hz))
        if self.oversample is not None:
            self._send(protocol.SET_OVERSAMPLE, protocol.oversample_body(self.oversample))
        if self._last_chain is not None:  # the scanner may have restarted: repaint
            self._send(protocol.LED_FRAME, self._last_chain)
            self._last_led_send = self._clock()
        return self._port is not None

    def _say_hello(self) -> None:
        if self._port is not None:
            try:  # a lone delimiter first: ends whatever partial packet the scanner holds
                self._port.write(b"\x00")
            except (serial.SerialException, OSError):
                pass  # _send below reports a dead port
        self._send(protocol.HELLO, protocol.hello_body(protocol.ROLE_HOST, name="dvonn-board"))

    def _is_silent(self, now: float) -> bool:
        return bool(self.silent_s) and self.rate_hz != 0 and now - self._last_packet_at > self.silent_s

    def _silence(self) -> LinkLost:
        """The port is open but the scanner said nothing for silent_s: nudge it, report it."""
        self.stats.silences += 1
        self.stats.last_error = f"{self.port_name}: scanner silent for {self.silent_s:g} s"
        try:
            self._port.write(REPL_RESTART)
        except (serial.SerialException, OSError) as exc:
            return self._lose(exc)
        self._say_hello()
        if self.rate_hz is not None:
            self._send(protocol.SET_RATE, protocol.rate_body(self.rate_hz))
        self._last_packet_at = self._clock()
        return LinkLost(f"scanner link silent ({self.stats.last_error}); asked it to restart")

    def _lose(self, exc: BaseException) -> LinkLost:
        """Close a failed port; the caller raises the returned LinkLost."""
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a vanished device may fail too; it is gone either way
                pass
            self.stats.link_losses += 1
        self.stats.last_error = f"{self.port_name}: {exc}"
        self._pending.clear()
        self._backoff = FIRST_BACKOFF
        self._next_attempt = self._clock() + self._backoff
        return LinkLost(f"scanner link lost ({self.stats.last_error}); reopening")

    def _ensure_open(self, deadline: float | None) -> None:
        """Reopen a lost port when its back-off has passed; LinkLost if it stays down."""
        tried = False
        while self._port is None:
            if self._closed:
                raise LinkLost("the scanner link is closed")
            now = self._clock()
            wait = self._next_attempt - now
            if wait > 0:
                if tried or (deadline is not None and self._next_attempt > deadline):
                    raise LinkLost(f"scanner link down ({self.stats.last_error}); "
                                   f"next try in {wait:.1f} s")
                self._sleep(wait)
            tried = True
            if self._open():
                self.stats.reconnects += 1

    def _send(self, kind: int, body: bytes) -> None:
        if self._port is None:
            return
        try:
            self._port.write(self._encoder.packet(kind, body))
        except serial.SerialTimeoutException:
            self.stats.write_errors += 1  # nobody reading: drop, the next frame replaces it
        except (serial.SerialException, OSError) as exc:
            self.stats.write_errors += 1
            self._lose(exc)  # read_frame reports it

    # ------------------------------------------------------------------ SensorSource

    def read_frame(self, timeout: float | None = None) -> SensorFrame | None:
        """The next sensor frame, None after `timeout` seconds, LinkLost while the link is down."""
        deadline = None if timeout is None else self._clock() + timeout
        while True:
            self._ensure_open(deadline)
            if self.stats.mismatch:
                self._refuse()
            if self._pending:
                return self._pending.popleft()
            now = self._clock()
            remaining = None if deadline is None else deadline - now
            if remaining is not None and remaining <= 0:
                self.feed(self._read(block=False))  # what is already there still counts
                if self._pending:
                    return self._pending.popleft()
                if self._is_silent(now):
                    raise self._silence()
                return None
            if self._is_silent(now):
                raise self._silence()
            data = self._read()
            if data:
                self.feed(data)

    def _refuse(self) -> None:
        """Raise FirmwareMismatch, after reading what came in: a corrected scanner's HELLO
        (after copying the firmware it restarts and says hello) lifts the refusal."""
        self.feed(self._read())
        if self.stats.mismatch:
            self._pending.clear()
            self._last_packet_at = self._clock()  # a refused scanner is not a silent one
            raise FirmwareMismatch(self.stats.mismatch)

    def _read(self, block: bool = True) -> bytes:
        """What has arrived; if nothing has and `block`, up to one byte within READ_QUANTUM."""
        port = self._port
        try:
            waiting = port.in_waiting
            if not waiting and not block:
                return b""
            return port.read(waiting or 1)
        except (serial.SerialException, OSError, TypeError) as exc:
            # TypeError: pyserial's read on a port closed under it by another thread
            raise self._lose(exc) from None

    # ------------------------------------------------------------------ LedSink

    def show(self, frame: LedFrame) -> None:
        """Send `frame` to the scanner's LED chain (kept for later if the link is down)."""
        if self.encoder is None:
            return
        chain = bytes(self.encoder.encode(frame))
        now = self._clock()
        if chain == self._last_chain and now - self._last_led_send < LED_REFRESH_S:
            return  # the scanner still shows it; resent now and then in case a packet was lost
        self._last_chain = chain
        if self._port is not None:
            self._send(protocol.LED_FRAME, chain)
            self._last_led_send = now
            self.stats.led_frames += 1

    # ------------------------------------------------------------------ diagnostics

    def _await_reply(self, kind: int, timeout: float, match=None) -> protocol.Message | None:
        deadline = self._clock() + timeout
        while True:
            for message in list(self._replies):
                if message.kind == kind and (match is None or match(message)):
                    self._replies.remove(message)
                    return message
            remaining = deadline - self._clock()
            if remaining <= 0 or self._port is None:
                return None
            data = self._read()
            if data:
                self.feed(data)  # sensor frames meanwhile stay queued for read_frame

    def hello(self, timeout: float | None = None) -> dict | None:
        """Ask the scanner who it is: its HELLO as a dict, or None if it did not answer within
        `timeout` (default: the profile's hello_timeout)."""
        timeout = self.hello_timeout if timeout is None else timeout
        self._ensure_open(self._clock() + timeout)
        self._replies.clear()
        self._say_hello()
        reply = self._await_reply(protocol.HELLO, timeout)
        return None if reply is None else protocol.parse_hello(reply.body)

    def ping(self, timeout: float = 1.0) -> tuple[float, list[int]] | None:
        """Round trip in seconds and the scanner's receive counters, or None on no answer."""
        self._ensure_open(self._clock() + timeout)
        self._ping_token = token = (self._ping_token + 1) & 0xFFFFFFFF
        start = self._clock()
        self._send(protocol.PING, protocol.ping_body(token))
        reply = self._await_reply(protocol.PONG, timeout,
                                  lambda m: protocol.parse_pong(m.body)[0] == token)
        if reply is None:
            return None
        return self._clock() - start, protocol.parse_pong(reply.body)[1]

    def set_rate(self, frames_per_second: int) -> None:
        self.rate_hz = frames_per_second
        self._send(protocol.SET_RATE, protocol.rate_body(frames_per_second))

    # ------------------------------------------------------------------ both

    def close(self) -> None:
        """Blank the LEDs, close the port (idempotent)."""
        if self._closed:
            return
        if self._port is not None and self.encoder is not None:
            self._send(protocol.LED_FRAME, bytes(3 * self.encoder.count))
        self._closed = True
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass
