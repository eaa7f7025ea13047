"""The scanner-link codec: round trips, and every kind of damage dropped and counted."""

import doctest
import random

import pytest
from hypothesis import given, settings, strategies as st

from dvonn_hw import protocol as p


def test_doctests():
    assert doctest.testmod(p).failed == 0


def test_crc_check_value():
    # The catalogued check value of CRC-16/CCITT-FALSE.
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16(b"6789", p.crc16(b"12345")) == 0x29B1


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


def test_cobs_long_runs_without_zero():
    for n in (253, 254, 255, 508, 509):
        data = bytes(range(1, 256)) * 3
        data = data[:n]
        assert p.cobs_decode(p.cobs_encode(data)) == data


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=p.MAX_BODY))
@settings(max_examples=60)
def test_packet_round_trip(kind, seq, body):
    (message,) = p.Decoder().feed(p.encode(kind, seq, body))
    assert (message.kind, message.seq, message.body) == (kind, seq, body)


def test_body_round_trips():
    readings = tuple(range(0, 4096, 84))[:49]
    assert p.parse_sensor(p.sensor_body(2**32 + 5, readings)) == (5, readings)
    hello = p.parse_hello(p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "dvonn-rp2040", 7))
    assert hello == {"version": p.VERSION, "role": 1, "adc_bits": 12, "channels": 49,
                     "leds": 50, "rate_hz": 100, "firmware": 7, "name": "dvonn-rp2040"}
    assert p.parse_ping(p.ping_body(0xDEADBEEF)) == 0xDEADBEEF
    assert p.parse_pong(p.pong_body(9, (1, 2, 70000))) == (9, [1, 2, 0xFFFF])
    assert p.parse_rate(p.rate_body(250)) == 250
    assert p.parse_oversample(p.oversample_body(16)) == 16
    assert p.parse_error(p.error_body(p.ERR_UNKNOWN_TYPE, "type 0x55")) == (1, "type 0x55")
    assert p.parse_led(p.led_body(b"\x01\x02\x03" * 50)) == b"\x01\x02\x03" * 50


@pytest.mark.parametrize("parse, body", [
    (p.parse_sensor, b"\x00\x00\x00\x00\x03\x01\x00"),  # says 3 readings, holds 1
    (p.parse_sensor, b"\x00"),
    (p.parse_hello, b"\x01\x01"),
    (p.parse_ping, b"\x01"),
    (p.parse_led, b"\x01\x02"),
    (p.parse_oversample, b"\x00"),
    (p.parse_error, b""),
])
def test_bad_bodies_raise_value_error(parse, body):
    with pytest.raises(ValueError):
        parse(body)


def test_stream_split_anywhere():
    enc = p.Encoder()
    wire = b"".join(enc.packet(p.SENSOR_FRAME, p.sensor_body(i, [i] * 49)) for i in range(20))
    rng = random.Random(3)
    dec = p.Decoder()
    got, i = [], 0
    while i < len(wire):
        n = rng.randint(1, 40)
        got += dec.feed(wire[i:i + n])
        i += n
    assert [m.seq for m in got] == list(range(20))
    assert dec.frames == 20 and dec.garbage_bytes == 0


def test_damage_is_dropped_and_counted():
    enc = p.Encoder()
    good = [enc.packet(p.PING, p.ping_body(i)) for i in range(6)]
    flipped = bytearray(good[1])
    flipped[3] ^= 0x40  # payload byte: CRC fails
    cut = good[2][:5] + b"\x00"  # a packet cut short
    other = p.VERSION + 1
    wrong_version = p.cobs_encode(
        bytes([other, p.PING, 3, 0]) + b"abcd"
        + p.crc16(bytes([other, p.PING, 3, 0]) + b"abcd").to_bytes(2, "big")) + b"\x00"
    stream = (b"\x13\x37garbage\x00" + good[0] + bytes(flipped) + cut + wrong_version
              + b"\xff" * (p.MAX_PACKET + 10) + b"\x00" + good[4] + good[5])
    dec = p.Decoder()
    got = dec.feed(stream)
    assert [p.parse_ping(m.body) for m in got] == [0, 4, 5]
    assert dec.bad_crc == 1
    assert dec.bad_version == 1 and dec.other_version == other
    assert dec.too_long == 1
    assert dec.truncated >= 1
    # Every byte is either delivered or counted as garbage (delimiters aside).
    assert dec.garbage_bytes == len(stream) - sum(len(g) for g in (good[0], good[4], good[5])) \
        - stream.count(0) + 3


@given(st.binary(max_size=2000))
@settings(max_examples=80)
def test_random_garbage_never_crashes(noise):
    dec = p.Decoder()
    enc = p.Encoder()
    dec.feed(noise)
    # After any garbage, the next delimiter puts the decoder back in step.
    got = dec.feed(b"\x00" + enc.packet(p.PING, p.ping_body(42)))
    assert [p.parse_ping(m.body) for m in got][-1:] == [42]


def test_seq_tracker_gaps_and_wrap():
    t = p.SeqTracker()
    assert [t.check(s) for s in (65534, 65535, 0, 3, 3, 4)] == [0, 0, 0, 2, t.STALE, 0]
    assert (t.gaps, t.lost, t.stale) == (1, 2, 1)
    t.reset()
    assert t.check(100) == 0  # a new connection starts a new count


def test_seq_tracker_drops_stale_packets_without_counting_a_jump():
    t = p.SeqTracker()
    assert [t.check(s) for s in range(100, 151)] == [0] * 51
    assert t.check(101) == t.STALE  # one old packet sent again
    assert t.check(150) == t.STALE  # a duplicate
    assert t.check(151) == 0 and (t.gaps, t.lost, t.stale) == (0, 0, 2)  # not 49 lost


def test_seq_tracker_follows_a_sender_that_restarted_its_count():
    t = p.SeqTracker()
    for s in range(5000, 5010):
        t.check(s)
    got = [t.check(s) for s in range(0, 8)]  # restarted without a HELLO seen
    assert got == [t.STALE] * (t.RESYNC_AFTER - 1) + [0] * (8 - t.RESYNC_AFTER + 1)
    assert t.lost == 0
