"""The README's pictures of the clock (and the review graph) are drawn by the code and kept current."""

import doctest
import xml.etree.ElementTree as ET
from pathlib import Path

from firmware_py.tools import study_pictures

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_doctest():
    assert doctest.testmod(study_pictures).failed == 0


def test_clock_picture_is_well_formed_and_current():
    svg = study_pictures.clock_svg()
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert any("Black 0:00 (out of time)" in t for t in texts)
    assert (DOCS / "clock.svg").read_text(encoding="utf-8") == svg, \
        "docs/clock.svg is stale: run python -m firmware_py.tools.study_pictures"
    assert "docs/clock.svg" in (DOCS.parent / "README.md").read_text(encoding="utf-8")


def test_review_picture_is_current():
    svg = study_pictures.review_picture()
    assert (DOCS / "review.svg").read_text(encoding="utf-8") == svg, \
        "docs/review.svg is stale: run python -m firmware_py.tools.study_pictures"
    assert "docs/review.svg" in (DOCS.parent / "README.md").read_text(encoding="utf-8")
