"""open_board: the right drivers for each profile, and nothing left open when one fails."""

import os
import tty
from dataclasses import replace

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

import dvonn_hw as hw
from firmware_py.errors import HardwareUnavailable, ProfileError
from firmware_py.interfaces import ButtonSource, LedSink, SensorSource
from dvonn_hw.board import link_stats
from dvonn_hw.buttons import GpioButtons
from dvonn_hw.direct_scanner import DirectScanner
from dvonn_hw.leds import NoLeds
from dvonn_hw.profile import load_profile
from dvonn_hw.serial_link import SerialScanner


@pytest.fixture
def factory():
    saved = Device.pin_factory
    Device.pin_factory = f = MockFactory()
    yield f
    f.reset()
    f.close()
    Device.pin_factory = saved


@pytest.fixture
def pty_port():
    master, slave = os.openpty()
    tty.setraw(slave)
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_default_profile_is_one_serial_scanner(factory, pty_port):
    board = hw.open_board(None, port=pty_port, pin_factory=factory)
    sensors, leds, buttons = board
    assert isinstance(sensors, SerialScanner) and leds is sensors
    assert isinstance(sensors, SensorSource) and isinstance(leds, LedSink)
    assert isinstance(buttons, GpioButtons) and isinstance(buttons, ButtonSource)
    assert sensors.port_name == pty_port and board.profile.name == "default"
    stats = link_stats(sensors)
    assert stats["frames"] == 0 and "bad_crc" in stats and "reconnects" in stats
    board.close()
    board.close()


def test_direct_profile_without_leds(factory):
    profile = load_profile("direct")
    profile = replace(profile, leds=replace(profile.leds, driver="none"))
    board = hw.open_board(profile, pin_factory=factory)
    assert isinstance(board.sensors, DirectScanner) and isinstance(board.leds, NoLeds)
    assert link_stats(board.sensors) is None
    board.close()


def test_failure_closes_what_was_opened(factory):
    # The direct profile drives a WS2812 strip: impossible on this machine (not a Pi).
    with pytest.raises(HardwareUnavailable, match="rpi_ws281x"):
        hw.open_board("direct", pin_factory=factory)
    # The scanner's select lines were released again.
    profile = load_profile("direct")
    hw.open_board(replace(profile, leds=replace(profile.leds, driver="none")),
                  pin_factory=factory).close()


def test_port_with_a_direct_scanner_is_refused(factory):
    with pytest.raises(ProfileError, match="scanner.kind: a port"):
        hw.open_board("direct", port="/dev/ttyACM0", pin_factory=factory)


def test_buttons_unavailable_is_a_warning(pty_port, monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    board = hw.open_board("default", port=pty_port)
    assert board.buttons is None
    assert board.warnings and "buttons disabled" in board.warnings[0]
    board.close()


def test_list_ports_is_exposed():
    assert isinstance(hw.list_ports(), list)


@pytest.fixture
def no_gpio(monkeypatch):
    """This machine as a laptop: gpiozero finds no pin library."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(Exception):
        Device.ensure_pin_factory()
    monkeypatch.setattr(Device, "pin_factory", None)


@pytest.mark.filterwarnings("ignore:Falling back")  # gpiozero trying each pin library
def test_no_gpio_is_said_in_words_and_known_to_the_board(no_gpio, tmp_path):
    board = hw.open_board(None, port=str(tmp_path / "nothing"))  # the real default pin factory
    try:
        assert board.buttons is None and board.gpio is False
        [warning] = board.warnings
        assert "no GPIO on this machine" in warning and "pin factory" not in warning
    finally:
        board.close()


def test_a_board_with_gpio_says_so(tmp_path, factory):
    board = hw.open_board(None, port=str(tmp_path / "nothing"), pin_factory=factory)
    try:
        assert board.gpio is True and board.buttons is not None and board.warnings == ()
    finally:
        board.close()


@pytest.mark.filterwarnings("ignore:Falling back")
def test_play_with_no_scanner_and_no_gpio_says_what_is_missing(no_gpio, tmp_path, capsys):
    from firmware_py.cli import main
    status = main(["play", "--port", str(tmp_path / "nothing"),
                   "--db", str(tmp_path / "g.sqlite3")])
    err = capsys.readouterr().err
    assert status == 1
    assert f"no scanner on {tmp_path / 'nothing'} and no GPIO" in err
    assert "dvonn-board diag ports" in err and "dvonn-board sim" in err
    assert "pin factory" not in err and "Traceback" not in err
