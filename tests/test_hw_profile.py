"""Board profiles: the packaged ones load, and every mistake names its key."""

import re
from pathlib import Path

import pytest

from firmware_py.errors import ProfileError
from firmware_py.spaces import N_SPACES
from dvonn_hw.profile import load_profile, packaged_profiles, parse_profile

DEFAULT = (Path(__file__).parent.parent / "hw" / "profiles" / "default.toml").read_text()


def test_packaged_profiles_load():
    assert {"default", "direct"} <= set(packaged_profiles())
    default, direct = load_profile(), load_profile("direct")
    assert default.scanner.kind == "serial" and default.leds.driver == "serial"
    assert direct.scanner.kind == "direct" and direct.leds.driver == "ws281x"
    assert direct.adc.type == "MCP3208" and direct.adc.max == 4095
    for p in (default, direct):
        assert [s.index for s in p.spaces] == list(range(N_SPACES))
        assert len(set(p.channels)) == N_SPACES
        assert sorted(p.led_map + p.leds.status) == list(range(p.leds.count))
        assert p.magnets["white"].polarity == "north" and p.magnets["black"].polarity == "south"
        assert p.magnets["dvonn"].height_mm > p.magnets["white"].height_mm
        assert p.buttons.pins == {"confirm": 17, "undo": 27, "new_game": 22}


def test_default_wiring_channels_follow_space_order():
    # The reference scanner streams readings in space order: the simulator relies on it.
    assert load_profile().channels == tuple(range(N_SPACES))


def test_load_from_file(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text(DEFAULT.replace('name = "default"\n', ""))
    assert load_profile(f).name == "mine"


def edited(old, new, count=1):
    assert old in DEFAULT, old
    return DEFAULT.replace(old, new, count)


@pytest.mark.parametrize("text, key, problem", [
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = [1,  7], led = 60 }"),
     "spaces.e3.led", "index 60 out of range 0..49"),
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = [1,  6], led = 23 }"),
     "spaces.e3.sensor", "mux 1 input 6 is already used by d3"),
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = [1,  7], led = 22 }"),
     "spaces.e3.led", "index 22 is already used by d3"),
    (edited("e3 = { sensor = [1,  7], led = 23 }\n", ""), "spaces", "missing e3"),
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = [1,  7], led = 23 }\nz9 = { sensor = [3, 9], led = 49 }"),
     "spaces.z9", "no such space"),
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = [5,  7], led = 23 }"),
     "spaces.e3.sensor", "mux 5 out of range 0..3"),
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = 23, led = 23 }"),
     "spaces.e3.sensor", "expected [mux, input]"),
    (edited("e3 = { sensor = [1,  7], led = 23 }", "e3 = { sensor = [1,  7], led = 23, colour = 1 }"),
     "spaces.e3.colour", "unknown key"),
    (edited('type = "RP2040"', 'type = "MCP3009"'), "adc.type", "unknown ADC 'MCP3009'"),
    (edited("brightness = 0.4", "brightness = 1.5"), "leds.brightness", "expected a number 0..1"),
    (edited("brightness = 0.4", 'brightness = "high"'), "leds.brightness", "expected a number 0..1"),
    (edited("brightness = 0.4", "brightnes = 0.4"), "leds.brightnes", "unknown key"),
    (edited('order = "GRB"', 'order = "GRBW"'), "leds.order", "unknown colour order"),
    (edited('type = "WS2812B"', 'type = "SK6812RGBW"'), "leds.type", "unknown LED type"),
    (edited("status = [49]", "status = [12]"), "spaces.g2.led", "index 12 is already used by leds.status[0]"),
    (edited('kind = "serial"', 'kind = "wifi"'), "scanner.kind", "one of serial, direct"),
    (edited("undo = 27", "undo = 17"), "buttons.undo", "GPIO 17 is already used by buttons.confirm"),
    (edited("undo = 27", "undo = 40"), "buttons.undo", "a BCM GPIO number"),
    (edited("select = [2, 3, 4, 5]", "select = [2, 3, 4]"), "mux.select", "expected 4 entries"),
    (edited('polarity = "south"', 'polarity = "up"'), "magnets.black.polarity", "'north' or 'south'"),
    (re.sub(r"\[magnets\.dvonn\][^#]*", "", DEFAULT), "magnets.dvonn", "missing table"),
    (edited("[scanner]", "[scanner\n"), "test.toml", "not valid TOML"),
])
def test_errors_name_the_key(text, key, problem):
    with pytest.raises(ProfileError) as info:
        parse_profile(text, "test.toml")
    assert info.value.key == key
    assert problem in info.value.problem, str(info.value)


def test_direct_profile_pin_clash():
    direct = (Path(__file__).parent.parent / "hw" / "profiles" / "direct.toml").read_text()
    with pytest.raises(ProfileError, match=r"buttons.confirm: GPIO 6 is already used by mux.select\[1\]"):
        parse_profile(direct.replace("confirm = 17", "confirm = 6"))
    with pytest.raises(ProfileError, match="adc.type: a direct scanner needs an SPI ADC"):
        parse_profile(direct.replace('type = "MCP3208"', 'type = "RP2040"'))
    with pytest.raises(ProfileError, match="leds.gpio"):
        parse_profile(direct.replace("gpio = 18", "gpio = 17"))


def test_missing_file_names_it(tmp_path):
    with pytest.raises(ProfileError, match="nowhere.toml: cannot read"):
        load_profile(tmp_path / "nowhere.toml")


@pytest.mark.parametrize("old, new, key, problem", [
    ("baud = 921600", "baud = 4000000000", "scanner.baud", "a baud rate 300..4000000"),
    ("silent_s = 2.0", "silent_s = 0.001", "scanner.silent_s", "seconds 0.5..60, or 0 for never"),
    ("silent_s = 2.0", "silent_s = inf", "scanner.silent_s", "seconds 0.5..60"),
    ("hello_timeout = 2.0", "hello_timeout = 1e308", "scanner.hello_timeout", "seconds 0..60"),
    ("reopen_max_s = 5.0", "reopen_max_s = nan", "scanner.reopen_max_s", "seconds 0.1..60"),
    ("type = \"RP2040\"", "type = \"RP2040\"\nvref = 1e-308", "adc.vref", "volts 1..5.5"),
    ("mv_per_mt = 16.5", "mv_per_mt = 1e-308", "sensor.mv_per_mt", "mV per mT 1..200"),
    ("diameter_mm = 6", "diameter_mm = inf", "magnets.white.diameter_mm", "mm 0.5..50"),
    ("diameter_mm = 6", "diameter_mm = 1e308", "magnets.white.diameter_mm", "mm 0.5..50"),
    ("height_mm = 2", "height_mm = 1e-308", "magnets.white.height_mm", "mm 0.2..50"),
    ("height_mm = 2", "height_mm = " + "9" * 400, "magnets.white.height_mm", "too large"),
])
def test_every_number_has_a_sane_range_named_in_the_error(old, new, key, problem):
    with pytest.raises(ProfileError) as info:
        parse_profile(edited(old, new), "test.toml")
    assert (info.value.key, problem in info.value.problem) == (key, True), str(info.value)


def test_hostile_files_are_profile_errors(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 1000 + "]" * 1000 + "\n")
    with pytest.raises(ProfileError, match="deep.toml: not a profile: nested too deeply"):
        load_profile(deep)
    latin = tmp_path / "latin1.toml"
    latin.write_bytes(DEFAULT.replace('name = "default"', 'name = "caf\xe9"').encode("latin-1"))
    with pytest.raises(ProfileError, match=r"latin1.toml: line \d+: not UTF-8 text .*0xe9"):
        load_profile(latin)


def test_play_and_selftest_name_a_hostile_profile_without_a_traceback(tmp_path, capsys):
    from firmware_py.cli import main
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 1000 + "]" * 1000 + "\n")
    for argv in (["play", "--profile", str(deep), "--db", str(tmp_path / "g.sqlite3")],
                 ["diag", "selftest", "--profile", str(deep)]):
        assert main(argv) in (1, 2)
        err = capsys.readouterr().err
        assert "nested too deeply" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["dvonn_hw.profile", "dvonn_hw.profile_reading"])
def test_doctests(name):
    import doctest
    import importlib
    failed, attempted = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
