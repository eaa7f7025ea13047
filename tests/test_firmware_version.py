"""The firmware reports its version; the Pi refuses the frames of any other, and says why."""

import pytest

from firmware_py.errors import FirmwareMismatch, LinkLost
from dvonn_hw import protocol as p
from dvonn_hw.firmware.scanner import FIRMWARE_VERSION

from tests.test_hw_serial import link, readings  # noqa: F401 (the fixture)


def test_mismatched_firmware_is_refused_with_a_clear_message(link):  # noqa: F811
    fake, scanner, _ = link()
    fake.send(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "old", FIRMWARE_VERSION - 1))
    fake.frame(readings())
    with pytest.raises(FirmwareMismatch) as caught:
        for _ in range(50):
            scanner.read_frame(timeout=0.05)
    message = str(caught.value)
    assert f"firmware version {FIRMWARE_VERSION - 1}" in message
    assert f"needs version {FIRMWARE_VERSION}" in message
    assert "dvonn-board firmware install" in message
    assert isinstance(caught.value, LinkLost)  # the game waits, as for a pulled cable
    assert scanner.stats.refused >= 1 or scanner.stats.frames == 0
    # the right firmware says hello (after being copied, it restarts): frames flow again
    fake.send(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "new", FIRMWARE_VERSION))
    fake.frame(readings(2000))
    frame = None
    for _ in range(50):
        try:
            frame = scanner.read_frame(timeout=0.05)
        except FirmwareMismatch:
            continue
        if frame is not None:
            break
    assert frame is not None and frame.raw == tuple(readings(2000))
    assert scanner.stats.mismatch == ""


def test_old_protocol_is_named(link):  # noqa: F811
    """A scanner still on protocol 1 (every packet dropped as bad_version) is named as such,
    not reported as a silent scanner."""
    fake, scanner, _ = link()
    old = p.VERSION - 1
    frame = bytes([old, p.SENSOR_FRAME, 0, 0]) + p.sensor_body(0, readings())
    fake.raw(p.cobs_encode(frame + p.crc16(frame).to_bytes(2, "big")) + b"\x00")
    with pytest.raises(FirmwareMismatch, match=rf"protocol version {old}, this dvonn-board version {p.VERSION}"):
        for _ in range(50):
            scanner.read_frame(timeout=0.05)


def test_the_firmware_reports_its_version():
    from tests.test_hw_firmware import StandIn, BOARD, replies, host_says
    from dvonn_hw.firmware.scanner import Scanner

    hw = StandIn(BOARD)
    fw = Scanner(hw)
    host_says(hw, (p.HELLO, p.hello_body(p.ROLE_HOST)))
    fw.step()
    hello = [m for m in replies(hw, p.Decoder()) if m.kind == p.HELLO]
    assert p.parse_hello(hello[0].body)["firmware"] == FIRMWARE_VERSION


def test_the_player_sees_why(link, tmp_path):  # noqa: F811
    """In a game, the refusal pauses play like a pulled cable, and the board's message says
    what to do."""
    from firmware_py.controller import Controller
    from firmware_py.session import Session
    from firmware_py.store import Store

    fake, scanner, _ = link()
    session = Session(scanner, scanner, Store(tmp_path / "g.sqlite3"),
                      lambda board: Controller(board=board), None, resume=False)
    fake.send(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "old", FIRMWARE_VERSION + 1))
    for _ in range(40):
        session.step(0.05)
        if "firmware" in session.state.message:
            break
    assert session.state.mode == "link_lost"
    assert "dvonn-board firmware install" in session.state.message
    assert f"firmware version {FIRMWARE_VERSION + 1}" in session.state.message
    session.close()
