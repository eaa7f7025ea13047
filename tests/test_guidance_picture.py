"""The README's picture of the LED language is drawn from `colours` and kept up to date."""

import doctest
import xml.etree.ElementTree as ET
from pathlib import Path

from firmware_py.tools import docs_pictures
from firmware_py.colours import SIGNALS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_doctest():
    assert doctest.testmod(docs_pictures).failed == 0


def test_svg_is_well_formed_and_shows_every_signal_in_its_colour():
    svg = docs_pictures.legend_svg()
    root = ET.fromstring(svg)
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    fills = {r.get("fill") for r in root.iter("{http://www.w3.org/2000/svg}rect")}
    for signal in SIGNALS:
        assert signal.name in texts
        assert docs_pictures.hex_rgb(signal.rgb) in fills


def test_committed_picture_matches_the_language():
    assert (DOCS / "leds.svg").read_text(encoding="utf-8") == docs_pictures.legend_svg(), \
        "docs/leds.svg is stale: run python -m firmware_py.tools.docs_pictures"
    assert (DOCS / "leds.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "docs/leds.png" in (DOCS.parent / "README.md").read_text(encoding="utf-8")
