"""The fabrication files: every hole where the board geometry says, at 1:1, in every format."""

import math
import sys
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pytest

from firmware_py.cli import main
from firmware_py.errors import ProfileError
from firmware_py.spaces import INDEX, N_SPACES, NEIGHBOURS, SPACES
from dvonn_hw import bom, fabrication
from dvonn_hw.geometry import Geometry, bounds, outline, space_xy
from dvonn_hw.profile import load_profile, parse_profile

DEFAULT_TEXT = (Path(__file__).parent.parent / "hw" / "profiles" / "default.toml").read_text()


def circles_by_layer(doc) -> dict[str, dict[tuple[float, float], float]]:
    found: dict[str, dict] = {}
    for c in doc.modelspace().query("CIRCLE"):
        found.setdefault(c.dxf.layer, {})[(round(c.dxf.center.x, 3), round(c.dxf.center.y, 3))] = c.dxf.radius
    return found


def test_dxf_positions_match_the_board_geometry(tmp_path):
    g = Geometry()
    doc = ezdxf.readfile(fabrication.write_dxf(tmp_path / "b.dxf", g))
    assert doc.units == ezdxf.units.MM
    circles = circles_by_layer(doc)
    sensors = circles["BOTTOM_SENSOR_POCKETS"]
    assert len(sensors) == N_SPACES and set(circles["TOP_PILOTS"]) == set(sensors)
    assert set(sensors.values()) == {g.sensor_pocket_mm / 2}
    # every pair of neighbours is exactly one pitch apart, every other pair further
    xy = {s: space_xy(s) for s in range(N_SPACES)}
    assert {(round(x, 3), round(y, 3)) for x, y in xy.values()} == set(sensors)
    for s in range(N_SPACES):
        for n in range(N_SPACES):
            d = math.dist(xy[s], xy[n])
            if n in NEIGHBOURS[s]:
                assert d == pytest.approx(25.0)
            elif n != s:
                assert d > 25.0 + 1
    # the a1 -> i1 row is along x, row 5 is up: e5 lies 4 rows above e1
    assert xy[INDEX["i1"]] == pytest.approx((200.0, 0.0))
    assert xy[INDEX["e5"]][1] == pytest.approx(4 * 25 * math.sqrt(3) / 2)
    # each LED hole sits led_offset_mm above its space, inside its halo pocket
    leds = circles["TOP_LED_HOLES"]
    for (x, y) in sensors:
        assert (x, round(y + g.led_offset_mm, 3)) in leds
    assert set(circles["TOP_HALO_POCKETS"].values()) == {g.halo_diameter_mm / 2}
    layers = {layer.dxf.name for layer in doc.layers}
    assert set(fabrication.LAYERS) <= layers
    labels = {t.dxf.text for t in doc.modelspace().query("TEXT")}
    assert labels == set(SPACES)


def test_outline_holds_every_hole_with_the_margin():
    g = Geometry()
    pts = outline(g)
    for s in range(N_SPACES):
        x, y = space_xy(s)
        for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):  # inside every edge, by the margin
            cross = ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / math.dist((ax, ay), (bx, by))
            assert cross >= g.margin_mm - 1e-6


def test_channels_stay_inside_the_board():
    g = Geometry()
    xmin, ymin, xmax, ymax = bounds(g)
    channels = [f for f in fabrication.features(g) if f.layer == "BOTTOM_CHANNELS"]
    assert len(channels) == 2 * 5 + 1
    for f in channels:
        for x, y in f.points:
            assert xmin + 5 < x < xmax - 5 and ymin + 5 < y < ymax - 5


def test_svg_template_is_one_to_one(tmp_path):
    g = Geometry()
    root = ET.fromstring(fabrication.template_svg(g))
    w, h = root.get("width"), root.get("height")
    assert w.endswith("mm") and h.endswith("mm")
    box = [float(v) for v in root.get("viewBox").split()]
    assert box[2] == pytest.approx(float(w[:-2]), abs=0.01)  # one user unit is one mm
    assert box[3] == pytest.approx(float(h[:-2]), abs=0.01)
    ns = "{http://www.w3.org/2000/svg}"
    pilots = {c.get("data-space"): (float(c.get("cx")), -float(c.get("cy")))
              for c in root.iter(f"{ns}circle") if c.get("class") == "TOP_PILOTS"}
    assert len(pilots) == N_SPACES
    for name, (x, y) in pilots.items():
        assert (x, y) == pytest.approx(space_xy(INDEX[name]), abs=0.001)
    bar = next(p for p in root.iter(f"{ns}path") if p.get("class") == "SCALE")
    assert "h100" in bar.get("d")


def test_pdf_template_tiles_cover_the_board(tmp_path):
    g = Geometry()
    tiles = fabrication.template_tiles(g)
    xmin, ymin, xmax, ymax = bounds(g)
    assert min(t[0] for t in tiles) <= xmin and max(t[0] + t[2] for t in tiles) >= xmax
    assert min(t[1] for t in tiles) <= ymin and max(t[1] + t[3] for t in tiles) >= ymax
    for t in tiles:  # landscape A4 inside the margins
        assert t[2] <= 297 - 2 * fabrication.PAGE_MARGIN and t[3] <= 210 - 2 * fabrication.PAGE_MARGIN
    data = fabrication.write_template_pdf(tmp_path / "t.pdf", g).read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", data)) == len(tiles) >= 2
    # 297 x 210 mm in points: the pages are A4 landscape, so "actual size" prints 1:1
    assert re.search(rb"/MediaBox \[ 0 0 841\.889\d* 595\.275\d* \]", data)


def test_geometry_from_the_profile_moves_the_holes(tmp_path):
    text = DEFAULT_TEXT.replace("[spaces]", "[geometry]\nspace_pitch_mm = 30\nhalo_diameter_mm = 26\n\n[spaces]")
    profile = parse_profile(text)
    assert profile.geometry.space_pitch_mm == 30.0
    doc = ezdxf.readfile(fabrication.write_dxf(tmp_path / "b.dxf", profile.geometry))
    sensors = circles_by_layer(doc)["BOTTOM_SENSOR_POCKETS"]
    assert (30.0, 0.0) in sensors  # b1


@pytest.mark.parametrize("key, value, message", [
    ("cover_mm", 7, "less than top_mm"),
    ("halo_diameter_mm", 26, "halos would touch"),
    ("halo_diameter_mm", 19, "a stack would hide it"),
    ("led_offset_mm", 11, "inside the halo disc"),
    ("space_pitch_mm", -3, "a length in mm"),
    ("pitch", 25, "unknown key"),
])
def test_bad_geometry_names_the_key(key, value, message):
    text = DEFAULT_TEXT.replace("[spaces]", f"[geometry]\n{key} = {value}\n\n[spaces]")
    with pytest.raises(ProfileError, match=rf"geometry\.{key}: .*{message}"):
        parse_profile(text)


def test_bom_counts_follow_the_profile():
    default, direct = bom.parts(load_profile()), bom.parts(load_profile("direct"))
    names = lambda items: " ".join(p.part for p in items)  # noqa: E731
    assert "Pico" in names(default) and "MCP3208" not in names(default)
    assert "MCP3208" in names(direct) and "Pico" not in names(direct)
    sensors = next(p for p in default if "Hall sensor" in p.part)
    assert sensors.qty == N_SPACES + bom.SPARE_SENSORS
    caps = next(p for p in default if p.part.startswith("100 nF"))
    assert caps.qty == N_SPACES + bom.SPARE_SENSORS + 4 + 1  # sensors, muxes, level shifter
    assert bom.total(default) == pytest.approx(sum(p.qty * p.unit_eur for p in default if p.group != "tools"))
    assert bom.total(default, tools=True) > bom.total(default)
    table = bom.to_markdown(default)
    assert f"**{bom.total(default):.2f} €**" in table and "74AHCT125" in table
    csv_text = bom.to_csv(default)
    assert csv_text.splitlines()[-1].endswith(f"{bom.total(default):.2f}")


def test_build_files_command_writes_everything(tmp_path, capsys):
    assert main(["build-files", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    for name in ("board.dxf", "template.svg", "template.pdf", "bom.csv"):
        assert (tmp_path / "out" / name).stat().st_size > 0
        assert name in out
    assert "actual size" in out


def test_build_files_bad_profile_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(DEFAULT_TEXT.replace("[spaces]", "[geometry]\ntop_mm = 3\n\n[spaces]"))
    assert main(["build-files", "--out", str(tmp_path / "o"), "--profile", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "geometry.cover_mm" in err and "Traceback" not in err


def test_readme_parts_list_is_the_generated_one():
    readme = (Path(__file__).parent.parent / "hw" / "README.md").read_text()
    block = readme.split("<!-- bom: made by hw/bom.py; a test keeps it equal -->\n")[1].split("<!-- /bom -->")[0]
    assert block == bom.to_markdown(bom.parts(load_profile())), \
        "the parts list in hw/README.md is stale: paste bom.to_markdown(bom.parts(load_profile()))"


def test_readme_stands_alone():
    """hw/README.md names no file outside the repository, and every repository file it names exists."""
    root = Path(__file__).parent.parent
    readme = (root / "hw" / "README.md").read_text()
    assert "shared/" not in readme and "sensing.md" not in readme
    for target in re.findall(r"\]\(((?!https?:|#)[^)]+)\)", readme):
        assert (root / "hw" / target).exists(), target
    for path in re.findall(r"`((?:hw|firmware_py)/[\w/.-]+\.\w+)`", readme):
        assert (root / path).exists(), path


@pytest.mark.parametrize("module", ["ezdxf", "reportlab"])
def test_missing_fabrication_library_is_a_clear_message(module, tmp_path, capsys, monkeypatch):
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # import now fails as if not installed
    assert main(["build-files", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{module} is not installed" in err and "dvonn-board[build]" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", ["dvonn_hw.geometry", "dvonn_hw.fabrication", "dvonn_hw.bom", "dvonn_hw.setup_pi",
                                  "dvonn_hw.firmware.install", "dvonn_hw.drawings.svg"])
def test_doctests(name):
    import doctest
    import importlib
    assert doctest.testmod(importlib.import_module(name)).failed == 0


def test_bom_names_the_pi_each_profile_needs():
    pi = {name: bom.parts(load_profile(name))[0].part for name in ("default", "direct", "direct-pi5")}
    assert "or 5" in pi["default"] and "Pi 5" not in pi["direct"].replace("or 5", "")
    assert pi["direct"].endswith("(or 3B+)") and pi["direct-pi5"].startswith("Raspberry Pi 5")
