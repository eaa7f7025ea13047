"""The build drawings: made from the profiles by code, kept current, and saying what the
profile and the firmware's pin map say."""

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_py.spaces import N_SPACES
from dvonn_hw.drawings import drawings, harness, power, schematics, section
from dvonn_hw.drawings.__main__ import main as write_drawings, to_png
from dvonn_hw.firmware import config as fw_config
from dvonn_hw.profile import load_profile

DOCS = Path(__file__).parent.parent / "hw" / "docs"
README = (Path(__file__).parent.parent / "hw" / "README.md").read_text()


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")]


@pytest.mark.parametrize("name", sorted(drawings()))
def test_committed_drawings_are_up_to_date(name):
    assert (DOCS / name).read_text(encoding="utf-8") == drawings()[name](), \
        f"hw/docs/{name} is stale: run python -m dvonn_hw.drawings"
    assert f"docs/{name[:-4]}." in README, f"hw/README.md does not show {name}"


def test_reference_schematic_follows_the_firmware_pins():
    words = texts(schematics.reference_svg(load_profile()))
    for pin in fw_config.SELECT_PINS + fw_config.ENABLE_PINS + (fw_config.LED_PIN,):
        assert f"GP{pin}" in words
    assert f"GP{fw_config.ADC_PIN} / ADC0" in words
    for k in range(4):
        assert f"74HC4067 MUX {k}" in words and f"/E{k}" in words
    assert "74AHCT125 (one gate used)" in words and "/1OE" in words
    assert "sensors a1..g2" in words  # mux 0's inputs, from the profile


def test_direct_schematic_follows_the_profile():
    profile = load_profile("direct")
    moved = replace(profile, mux=replace(profile.mux, select=(12, 16, 20, 21)))
    words = texts(schematics.direct_svg(moved))
    assert {"GPIO12", "GPIO16", "GPIO20", "GPIO21"} <= set(words)
    assert "MCP3208 ADC" in words and "GPIO18" in words


def test_harness_shows_each_sensors_mux_input_and_led():
    profile = load_profile()
    words = texts(harness.harness_svg(profile))
    for s in profile.spaces:
        assert f"M{s.mux}.{s.input}" in words and s.name in words and str(s.led) in words
    assert any(f"{3 * N_SPACES} wire ends" in w for w in words)
    lengths = harness.wire_lengths_m(profile)
    assert 5 < lengths["signal"] < 30 and lengths["bus"] > 0 and lengths["led_chain"] > 0


def test_section_is_dimensioned_from_the_geometry():
    profile = load_profile()
    words = texts(section.section_svg(profile))
    g = profile.geometry
    for label in (f"{g.space_pitch_mm:g} pitch (to the next space)", f"sensor gap {g.sensor_gap_mm:g}",
                  f"halo {g.halo_diameter_mm:g}", f"LED offset {g.led_offset_mm:g}", f"top {g.top_mm:g}"):
        assert label in words
    thicker = replace(profile, geometry=replace(g, top_mm=8.0))
    assert "top 8" in texts(section.section_svg(thicker))


def test_power_figures():
    profile = load_profile()
    amps = power.currents(profile)
    assert amps["sensor_rail"] == round(N_SPACES * power.SENSOR_MA + 4 * power.MUX_MA)
    assert 1000 < amps["leds_max"] < 2000  # 50 LEDs all white at the 40 % cap
    words = " ".join(texts(power.power_svg(profile)))
    assert "ground star point" in words and "fed from Pico VBUS" in words
    assert "fed from Pi 5 V pin 2" in " ".join(texts(power.power_svg(load_profile("direct"))))


def test_writer_makes_svg_and_png(tmp_path, monkeypatch, capsys):
    import dvonn_hw.drawings.__main__ as writer
    monkeypatch.setattr(writer, "to_png", lambda path: None)  # PNGs: the next test, once
    assert write_drawings([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(drawings())
    png = to_png(tmp_path / "section.svg")
    if png is None:
        pytest.skip("no Chromium here")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_schemdraw_is_a_clear_message(tmp_path, monkeypatch, capsys):
    import sys
    for name in [m for m in sys.modules if m == "schemdraw" or m.startswith("schemdraw.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "schemdraw", None)
    assert write_drawings([str(tmp_path)]) == 1
    assert "schemdraw is not installed: pip install 'dvonn-board[build]'" in capsys.readouterr().err
