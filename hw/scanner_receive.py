"""The receive half of the serial scanner: bytes from the scanner in, sensor frames and counters out.

Whatever arrives goes through `dvonn_hw.protocol`'s `Decoder` (framing, CRC, version) and
`SeqTracker` (lost and stale packets); then each good message is handled by its type:

- SENSOR_FRAME: its readings, put in space order through the profile's channel map, become a
  `SensorFrame` queued for `read_frame`; the scanner's microsecond clock (u32, wrapping) is
  anchored to the host's monotonic clock on each new connection and never runs backwards;
- HELLO: who the scanner is; a firmware version other than this installation's refuses its
  frames (`LinkStats.mismatch`) until a corrected scanner says hello again;
- PONG: kept as the answer to a `ping`;
- ERROR: counted, its text kept as the last error; anything else: counted as unknown.

Nothing here touches the port: `SerialScanner` (`dvonn_hw.serial_link`) opens, reopens and
reads it, and hands every chunk of bytes to `feed`, so the receive path can be driven (and
measured) without any I/O.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from firmware_py.interfaces import SensorFrame

from . import protocol
from .firmware.scanner import FIRMWARE_VERSION

MAX_PENDING = 256  # frames received but not yet read; beyond this the oldest are dropped
COPY_FIRMWARE = ("copy this installation's firmware onto it with `dvonn-board firmware install` "
                 "(hw/README.md, \"Flash the Pico\")")


@dataclass
class LinkStats:
    """What the link has seen since it was created (reconnections included)."""

    frames: int = 0  # sensor frames delivered
    packets: int = 0  # good packets of any type
    garbage_bytes: int = 0  # bytes not in any good packet
    truncated: int = 0  # packets cut short or not valid COBS
    bad_crc: int = 0
    bad_version: int = 0
    too_long: int = 0
    gaps: int = 0  # jumps in the scanner's sequence numbers
    lost: int = 0  # packets missing in those jumps
    stale: int = 0  # packets repeated or older than the last one: dropped
    bad_frames: int = 0  # sensor, HELLO or PONG packets with a wrong body
    unknown: int = 0  # packets of a type we do not use
    scanner_errors: int = 0  # ERROR packets from the scanner
    led_frames: int = 0  # LED frames sent
    write_errors: int = 0
    link_losses: int = 0
    reconnects: int = 0
    silences: int = 0  # times the scanner sent nothing for silent_s while connected
    dropped: int = 0  # frames dropped because nobody read them
    last_error: str = ""
    scanner: dict = field(default_factory=dict)  # the scanner's HELLO (name, adc_bits, ...)
    mismatch: str = ""  # why the scanner's frames are refused (another firmware version)
    refused: int = 0  # sensor frames refused for that

    def as_dict(self) -> dict:
        return asdict(self)


class ScannerReceiver:
    """What `SerialScanner` does with received bytes (a mixin: it shares the scanner's state).

    Needs: stats (LinkStats), channels, adc_max, _decoder, _tracker, _pending and _replies
    (deques), _seq, _t_offset, _t_last_us, _t_wraps, _last_time, _last_packet_at, _clock.
    """

    def feed(self, data: bytes) -> None:
        """Handle received bytes: queue their sensor frames, count everything else."""
        messages = self._decoder.feed(data)
        if messages:
            self._last_packet_at = self._clock()
        for message in messages:
            self.stats.packets += 1
            kind = message.kind
            if kind == protocol.HELLO:
                self._tracker.reset()  # a (re)started scanner numbers from 0 again
            missing = self._tracker.check(message.seq)
            if missing == protocol.SeqTracker.STALE:
                continue  # a repeat or an old packet: never new data
            if kind == protocol.SENSOR_FRAME:
                self._sensor(message, missing)
            elif kind == protocol.HELLO:
                self._hello(message)
            elif kind == protocol.PONG:
                self._pong(message)
            elif kind == protocol.ERROR:
                self.stats.scanner_errors += 1
                try:
                    code, detail = protocol.parse_error(message.body)
                    self.stats.last_error = f"scanner error {code}: {detail}"
                except ValueError:
                    pass
            else:
                self.stats.unknown += 1
        d, s = self._decoder, self.stats
        if d.bad_version > s.bad_version and not messages and not s.scanner:
            s.mismatch = (f"the scanner speaks protocol version {d.other_version}, this "
                          f"dvonn-board version {protocol.VERSION}: {COPY_FIRMWARE}")
        s.garbage_bytes, s.truncated, s.bad_crc = d.garbage_bytes, d.truncated, d.bad_crc
        s.bad_version, s.too_long = d.bad_version, d.too_long
        s.gaps, s.lost, s.stale = self._tracker.gaps, self._tracker.lost, self._tracker.stale

    def _sensor(self, message: protocol.Message, missing: int) -> None:
        if self.stats.mismatch:
            self.stats.refused += 1
            return
        try:
            time_us, readings = protocol.parse_sensor(message.body)
            raw = tuple([readings[c] for c in self.channels])
        except (ValueError, IndexError):
            self.stats.bad_frames += 1
            return
        self._seq = (self._seq + 1 + missing) & 0xFFFF
        if len(self._pending) >= MAX_PENDING:
            self._pending.popleft()
            self.stats.dropped += 1
        self._pending.append(SensorFrame(self._seq, self._frame_time(time_us), raw))
        self.stats.frames += 1

    def _frame_time(self, time_us: int) -> float:
        """Scanner microseconds (u32, wrapping) as seconds on the host's monotonic clock."""
        if self._t_offset is None:  # new connection: anchor the scanner clock to ours
            self._t_wraps, self._t_last_us = 0, time_us
            self._t_offset = self._clock() - time_us / 1e6
        elif time_us < self._t_last_us:
            self._t_wraps += 1
        self._t_last_us = time_us
        t = self._t_offset + (self._t_wraps * 2**32 + time_us) / 1e6
        t = max(t, self._last_time + 1e-6)  # never backwards, whatever the scanner does
        self._last_time = t
        return t

    def _pong(self, message: protocol.Message) -> None:
        try:
            protocol.parse_pong(message.body)
        except ValueError:  # e.g. an odd length: a broken scanner, not an answer
            self.stats.bad_frames += 1
            return
        self._replies.append(message)

    def _hello(self, message: protocol.Message) -> None:
        try:
            info = protocol.parse_hello(message.body)
        except ValueError:
            self.stats.bad_frames += 1
            return
        self.stats.scanner = info
        if info["role"] == protocol.ROLE_SCANNER:
            self.stats.mismatch = "" if info["firmware"] == FIRMWARE_VERSION else (
                f"the scanner runs firmware version {info['firmware']}, this dvonn-board needs "
                f"version {FIRMWARE_VERSION}: {COPY_FIRMWARE}")
            if self.stats.mismatch:
                self.stats.last_error = self.stats.mismatch
        if info["adc_bits"] and (1 << info["adc_bits"]) - 1 != self.adc_max:
            self.stats.last_error = (f"the scanner has a {info['adc_bits']}-bit ADC but the "
                                     f"profile expects codes up to {self.adc_max}")
        if info["channels"] and info["channels"] <= max(self.channels):
            self.stats.last_error = (f"the scanner sends {info['channels']} channels but the "
                                     f"profile uses channel {max(self.channels)}")
        self._replies.append(message)
