"""The scanner link: the binary protocol between the Pi and a scanner microcontroller.

This one file runs unchanged on CPython (the Pi, the tests, the simulator's emulated scanner) and
on MicroPython (the RP2040 firmware in ``hw/firmware``: copy this file onto the board next to
``main.py``). So it uses only what both have: no dataclasses, typing, f-string tricks or
``__future__``; only ``struct`` with ``<``, ``B``, ``H``, ``I``.

Wire format (protocol version 2)
--------------------------------
Each message is one *packet*, COBS-encoded and ended by a single zero byte (the delimiter)::

    packet   = cobs(frame) 0x00
    frame    = version:u8  type:u8  seq:u16  body:bytes  crc:u16
    crc      = CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of version..body, big-endian
    integers = little-endian (except the CRC)

COBS removes every zero from the frame, so a receiver that starts mid-stream or loses bytes is
back in step at the next zero. ``seq`` counts the sender's packets (each direction has its own
counter, wrapping at 2**16); a jump means packets were lost. A receiver drops, and counts, a
packet that is broken (bad COBS or too short: *truncated*), fails its CRC (*bad_crc*), carries
another protocol version (*bad_version*) or runs past ``MAX_PACKET`` bytes without a delimiter
(*too_long*); every byte not delivered in a good frame counts as a *garbage byte*. A good
packet whose ``seq`` repeats or precedes the last one is *stale* (``SeqTracker``): dropped
and counted, never taken for new data nor for a jump of lost packets. A HELLO restarts the
count (the sender has restarted).

Message types (body layouts)
----------------------------
====  ==============  ====  ===============================================================
code  name            dir   body
====  ==============  ====  ===============================================================
0x01  HELLO           both  version:u8 role:u8 (0 host, 1 scanner) adc_bits:u8 channels:u8
                            leds:u16 rate_hz:u16 firmware:u16 name:utf-8 (rest). The host
                            sends one on opening the port; the scanner answers with its own
                            (and sends one when it starts). ``firmware`` is the scanner's
                            FIRMWARE_VERSION (hw/firmware/scanner.py); the host refuses
                            frames from any other (0 from the host).
0x02  PING            down  token:u32
0x03  PONG            up    token:u32 then the scanner's receive counters as u16s:
                            frames bad_crc truncated gaps (saturating at 65535)
0x10  SENSOR_FRAME    up    time_us:u32 (scanner clock, wraps) count:u8 count x reading:u16.
                            Readings are raw ADC codes in *channel order*: channel k is mux
                            k // 16, input k % 16 (the board profile maps channels to spaces).
0x20  LED_FRAME       down  the LED chain's bytes, 3 per LED in chain order and in the strip's
                            own colour order, brightness and gamma already applied: the
                            firmware copies them to the strip as they are.
0x30  SET_RATE        down  frames_per_second:u16 (0 pauses the sensor frames)
0x31  SET_OVERSAMPLE  down  samples_per_reading:u8 (1..64)
0x7F  ERROR           both  code:u8 (see ERR_*) detail:utf-8 (rest): the sender could not use
                            a packet it received (unknown type, wrong body length...).
====  ==============  ====  ===============================================================

Example::

    >>> enc, dec = Encoder(), Decoder()
    >>> wire = enc.packet(PING, ping_body(7))
    >>> [(NAMES[m.kind], m.seq, parse_ping(m.body)) for m in dec.feed(wire)]
    [('PING', 0, 7)]
"""

import struct

VERSION = 2  # 2: HELLO carries the firmware version
DELIMITER = 0

HELLO = 0x01
PING = 0x02
PONG = 0x03
SENSOR_FRAME = 0x10
LED_FRAME = 0x20
SET_RATE = 0x30
SET_OVERSAMPLE = 0x31
ERROR = 0x7F

NAMES = {
    HELLO: "HELLO", PING: "PING", PONG: "PONG", SENSOR_FRAME: "SENSOR_FRAME",
    LED_FRAME: "LED_FRAME", SET_RATE: "SET_RATE", SET_OVERSAMPLE: "SET_OVERSAMPLE", ERROR: "ERROR",
}

ROLE_HOST = 0
ROLE_SCANNER = 1

ERR_UNKNOWN_TYPE = 1
ERR_BAD_BODY = 2
ERR_BAD_VERSION = 3
ERR_BUSY = 4

HEADER = 4  # version, type, seq
TRAILER = 2  # crc
MAX_BODY = 1024  # 340 LEDs or 500 readings: far more than a DVONN board needs
MAX_FRAME = HEADER + MAX_BODY + TRAILER
MAX_PACKET = MAX_FRAME + MAX_FRAME // 254 + 2  # COBS worst case plus the delimiter

# ---------------------------------------------------------------------------- CRC-16/CCITT


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of `data` (bytes-like); pass `crc` to continue a running CRC.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


# ---------------------------------------------------------------------------- COBS


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: `data` without any zero byte (delimiter not added)."""
    out = bytearray()
    code_at = 0
    out.append(0)  # placeholder for the first code byte
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo `cobs_encode`; ValueError if `data` is not valid COBS (a cut or damaged packet)."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS packet")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the end of the packet")
        out.extend(data[i + 1:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------------------- packets


class Message:
    """One received (or to be sent) message: its type code, sequence number and body bytes."""

    __slots__ = ("kind", "seq", "body")

    def __init__(self, kind, seq, body=b""):
        self.kind = kind
        self.seq = seq
        self.body = bytes(body)

    def __eq__(self, other):
        return (isinstance(other, Message) and self.kind == other.kind
                and self.seq == other.seq and self.body == other.body)

    def __repr__(self):
        return "Message(%s, seq=%d, %d body bytes)" % (
            NAMES.get(self.kind, hex(self.kind)), self.seq, len(self.body))


def encode(kind, seq, body=b""):
    """The wire bytes of one packet (COBS-encoded, with its delimiter)."""
    if len(body) > MAX_BODY:
        raise ValueError("body of %d bytes exceeds %d" % (len(body), MAX_BODY))
    frame = bytearray(struct.pack("<BBH", VERSION, kind & 0xFF, seq & 0xFFFF))
    frame.extend(body)
    crc = crc16(frame)
    frame.append(crc >> 8)
    frame.append(crc & 0xFF)
    return cobs_encode(frame) + b"\x00"


class Encoder:
    """Numbers outgoing packets: ``Encoder().packet(kind, body)`` -> wire bytes."""

    def __init__(self):
        self.seq = 0

    def packet(self, kind, body=b""):
        wire = encode(kind, self.seq, body)
        self.seq = (self.seq + 1) & 0xFFFF
        return wire


class Decoder:
    """Turns a byte stream into Messages, dropping and counting everything broken.

    ``feed(data)`` takes any chunk of received bytes and returns the complete good messages in
    it; a packet cut between chunks is kept until its delimiter arrives. Counters: frames,
    garbage_bytes, truncated, bad_crc, bad_version, too_long.
    """

    COUNTERS = ("frames", "garbage_bytes", "truncated", "bad_crc", "bad_version", "too_long")

    def __init__(self):
        self._buf = bytearray()
        self._skipping = False  # an over-long packet: drop bytes up to the next delimiter
        self.reset_counters()

    def reset_counters(self):
        self.frames = 0
        self.garbage_bytes = 0
        self.truncated = 0
        self.bad_crc = 0
        self.bad_version = 0
        self.too_long = 0
        self.other_version = None  # the version byte of the last packet dropped for it

    def resync(self):
        """Forget a partly received packet (after reopening the port), counting it as garbage."""
        self.garbage_bytes += len(self._buf)
        self._buf = bytearray()
        self._skipping = False

    def counters(self):
        return dict((name, getattr(self, name)) for name in self.COUNTERS)

    def feed(self, data):
        data = bytes(data)
        out = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._take(data[start:])
                break
            self._take(data[start:end])
            if self._skipping:
                self._skipping = False
            elif self._buf:
                message = self._packet(bytes(self._buf))
                if message is not None:
                    out.append(message)
            self._buf = bytearray()
            start = end + 1
        return out

    def _take(self, chunk):
        if self._skipping:
            self.garbage_bytes += len(chunk)
            return
        self._buf.extend(chunk)
        if len(self._buf) > MAX_PACKET:
            self.too_long += 1
            self.garbage_bytes += len(self._buf)
            self._buf = bytearray()
            self._skipping = True

    def _packet(self, packet):
        try:
            frame = cobs_decode(packet)
        except ValueError:
            frame = None
        if frame is None or len(frame) < HEADER + TRAILER:
            self.truncated += 1
            self.garbage_bytes += len(packet)
            return None
        body_end = len(frame) - TRAILER
        if crc16(frame[:body_end]) != (frame[body_end] << 8) | frame[body_end + 1]:
            self.bad_crc += 1
            self.garbage_bytes += len(packet)
            return None
        version, kind, seq = struct.unpack("<BBH", frame[:HEADER])
        if version != VERSION:
            self.bad_version += 1
            self.other_version = version
            self.garbage_bytes += len(packet)
            return None
        self.frames += 1
        return Message(kind, seq, frame[HEADER:body_end])


class SeqTracker:
    """Counts gaps in a stream of received sequence numbers (u16, wrapping), and tells stale
    packets (a repeat, or one older than the last: a duplicate sent again, a reordering) apart.

    `check(seq)` returns how many packets went missing just before `seq` (0 or more), or
    STALE for a stale one: the caller drops it, and it moves nothing (the packet after it is
    not counted as lost). After `RESYNC_AFTER` stale numbers in a row the sender is taken to
    have restarted its count (a restart whose HELLO was lost) and the numbering starts again.

    >>> t = SeqTracker(); [t.check(s) for s in (5, 6, 9, 10, 7, 10, 11)], t.gaps, t.lost, t.stale
    ([0, 0, 2, 0, -1, -1, 0], 1, 2, 2)
    """

    STALE = -1
    RESYNC_AFTER = 4

    def __init__(self):
        self.reset()
        self.gaps = 0
        self.lost = 0
        self.stale = 0

    def reset(self):
        """Forget the last number (a new connection starts a new count)."""
        self.last = None
        self._stale_run = 0

    def check(self, seq):
        """Record `seq`; how many packets went missing just before it, or STALE."""
        missing = 0
        if self.last is not None:
            missing = (seq - self.last - 1) & 0xFFFF
            if missing >= 0x8000:  # a repeat or an older packet, not 60000 lost ones
                self.stale += 1
                self._stale_run += 1
                if self._stale_run < self.RESYNC_AFTER:
                    return self.STALE
                missing = 0  # the sender counts from somewhere else now: follow it
            if missing:
                self.gaps += 1
                self.lost += missing
        self._stale_run = 0
        self.last = seq
        return missing


# ---------------------------------------------------------------------------- bodies


def hello_body(role, adc_bits=0, channels=0, leds=0, rate_hz=0, name="", firmware=0):
    return struct.pack("<BBBBHHH", VERSION, role, adc_bits, channels, leds, rate_hz, firmware) + \
        name.encode("utf-8")[:32]


def parse_hello(body):
    """A dict: version, role, adc_bits, channels, leds, rate_hz, firmware, name."""
    if len(body) < 10:
        raise ValueError("HELLO body of %d bytes, need at least 10" % len(body))
    version, role, adc_bits, channels, leds, rate_hz, firmware = struct.unpack("<BBBBHHH", body[:10])
    return {"version": version, "role": role, "adc_bits": adc_bits, "channels": channels,
            "leds": leds, "rate_hz": rate_hz, "firmware": firmware,
            "name": bytes(body[10:]).decode("utf-8")}


def ping_body(token):
    return struct.pack("<I", token & 0xFFFFFFFF)


def parse_ping(body):
    if len(body) != 4:
        raise ValueError("PING body of %d bytes, need 4" % len(body))
    return struct.unpack("<I", body)[0]


def pong_body(token, counters=()):
    """`counters`: the scanner's frames, bad_crc, truncated, gaps (each capped at 65535)."""
    return struct.pack("<I", token & 0xFFFFFFFF) + b"".join(
        struct.pack("<H", min(c, 0xFFFF)) for c in counters)


def parse_pong(body):
    """(token, [counters...])."""
    if len(body) < 4 or len(body) % 2:
        raise ValueError("PONG body of %d bytes" % len(body))
    n = (len(body) - 4) // 2
    return struct.unpack("<I", body[:4])[0], list(struct.unpack("<%dH" % n, body[4:]))


def sensor_body(time_us, readings):
    n = len(readings)
    if n > 255:
        raise ValueError("%d readings, at most 255" % n)
    return struct.pack("<IB", time_us & 0xFFFFFFFF, n) + struct.pack("<%dH" % n, *readings)


def parse_sensor(body):
    """(time_us, tuple of readings); ValueError if the body does not hold what it says."""
    if len(body) < 5:
        raise ValueError("SENSOR_FRAME body of %d bytes, need at least 5" % len(body))
    time_us, n = struct.unpack("<IB", body[:5])
    if len(body) != 5 + 2 * n:
        raise ValueError("SENSOR_FRAME says %d readings but holds %d bytes" % (n, len(body)))
    return time_us, struct.unpack("<%dH" % n, body[5:])


def led_body(chain):
    """`chain`: the strip's bytes, 3 per LED (see LED_FRAME)."""
    if len(chain) % 3:
        raise ValueError("LED chain of %d bytes is not 3 per LED" % len(chain))
    return bytes(chain)


def parse_led(body):
    if len(body) % 3:
        raise ValueError("LED_FRAME body of %d bytes is not 3 per LED" % len(body))
    return bytes(body)


def rate_body(frames_per_second):
    return struct.pack("<H", frames_per_second)


def parse_rate(body):
    if len(body) != 2:
        raise ValueError("SET_RATE body of %d bytes, need 2" % len(body))
    return struct.unpack("<H", body)[0]


def oversample_body(samples):
    if not 1 <= samples <= 64:
        raise ValueError("oversampling %d outside 1..64" % samples)
    return struct.pack("<B", samples)


def parse_oversample(body):
    if len(body) != 1 or not 1 <= body[0] <= 64:
        raise ValueError("SET_OVERSAMPLE body must be one byte 1..64")
    return body[0]


def error_body(code, detail=""):
    return struct.pack("<B", code) + detail.encode("utf-8")[:64]


def parse_error(body):
    """(code, detail text)."""
    if not body:
        raise ValueError("empty ERROR body")
    return body[0], bytes(body[1:]).decode("utf-8")
