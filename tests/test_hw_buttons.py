"""Buttons on gpiozero's MockFactory: presses become events, oldest first."""

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_py.errors import HardwareUnavailable
from firmware_py.interfaces import ButtonSource
from dvonn_hw.buttons import GpioButtons
from dvonn_hw.profile import load_profile


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()
    f.close()


def press(pin, pull_up=True):
    # gpiozero's callbacks run in the mock pin's thread synchronously on the state change
    if pull_up:
        pin.drive_low()
        pin.drive_high()
    else:
        pin.drive_high()
        pin.drive_low()


def test_presses_become_events(factory):
    buttons = GpioButtons.from_profile(load_profile(), pin_factory=factory)
    buttons_pins = load_profile().buttons.pins
    assert isinstance(buttons, ButtonSource)
    assert buttons.events() == []
    press(factory.pin(buttons_pins["undo"]))
    press(factory.pin(buttons_pins["confirm"]))
    assert buttons.events() == ["undo", "confirm"]
    assert buttons.events() == []
    press(factory.pin(buttons_pins["new_game"]))
    assert buttons.events() == ["new_game"]
    buttons.close()
    buttons.close()


def test_pull_down_wiring(factory):
    buttons = GpioButtons({"confirm": 4}, pull_up=False, bounce_s=None, pin_factory=factory)
    press(factory.pin(4), pull_up=False)
    assert buttons.events() == ["confirm"]
    buttons.close()


def test_queue_keeps_recent_presses(factory):
    buttons = GpioButtons({"confirm": 4}, bounce_s=None, pin_factory=factory)
    for _ in range(40):
        press(factory.pin(4))
        factory.pin(4).clear_states()
    assert len(buttons.events()) == 32
    buttons.close()


def test_no_buttons_in_profile():
    profile = load_profile()
    from dataclasses import replace
    assert GpioButtons.from_profile(replace(profile, buttons=None)) is None


def test_errors(factory):
    with pytest.raises(ValueError, match="unknown button 'resign'"):
        GpioButtons({"resign": 4}, pin_factory=factory)
    first = GpioButtons({"confirm": 4}, pin_factory=factory)
    with pytest.raises(HardwareUnavailable, match="cannot open the buttons"):
        GpioButtons({"undo": 5, "new_game": 4}, pin_factory=factory)
    first.close()
    GpioButtons({"undo": 5, "new_game": 4}, pin_factory=factory).close()  # 5 was released
