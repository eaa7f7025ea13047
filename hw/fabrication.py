"""Fabrication files for the board's top panel, made from a profile's ``[geometry]``.

`features(geometry)` lists every hole, pocket and channel with its position (mm, seen from
above, a1 at the origin, y towards row 5); the writers only draw that list:

- ``board.dxf`` (ezdxf): one layer per operation, for a CNC router or a laser. Every position
  is seen from **above**; the layer name says from which side and how deep to cut.
- ``template.svg``: the same at 1:1 (its size is in mm), to print, tape onto the panel and
  drill through with a hand drill; a 100 mm scale bar checks the print's scale.
- ``template.pdf`` (reportlab): the template tiled onto A4 pages at 1:1, with crop marks
  and overlap, for printers that shrink an SVG.

`dvonn-board build-files --out DIR` writes them with the bill of materials.

>>> fs = features(Geometry())
>>> sorted({f.layer for f in fs})[:3]
['BOTTOM_CHANNELS', 'BOTTOM_SENSOR_POCKETS', 'OUTLINE']
>>> len([f for f in fs if f.layer == "BOTTOM_SENSOR_POCKETS"])
49
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_py.spaces import N_SPACES, ROW_SPANS, SPACES, at

from .geometry import Geometry, bounds, led_xy, outline, space_xy

# Layer -> (what to do, colour for the drawings: AutoCAD colour index, SVG colour)
LAYERS = {
    "OUTLINE": ("cut the panel out along this line", 7, "#000000"),
    "TOP_PILOTS": ("drill through from the top at each intersection", 1, "#c00000"),
    "TOP_HALO_POCKETS": ("mill or Forstner-drill from the top, for the acrylic halo discs", 5, "#0050c0"),
    "TOP_LED_HOLES": ("drill through from the bottom of each halo pocket, for the LED's light", 3, "#008000"),
    "BOTTOM_SENSOR_POCKETS": ("mill from the underside, centred on the pilot hole", 6, "#a000a0"),
    "BOTTOM_CHANNELS": ("route from the underside, for the wires", 8, "#808080"),
    "LABELS": ("space names, for orientation", 7, "#404040"),
}


@dataclass(frozen=True)
class Feature:
    """One thing to cut. A hole or pocket is a circle (diameter, depth) at (x, y); a channel
    an open polyline through `points`, `diameter` wide; the outline a closed one."""

    layer: str
    space: str  # '' for the outline and channels
    x: float = 0.0
    y: float = 0.0
    diameter: float = 0.0
    depth: float = 0.0  # mm from the side named in the layer; the panel's thickness = through
    points: tuple[tuple[float, float], ...] = ()


def features(g: Geometry) -> list[Feature]:
    """Every cut in the top panel."""
    out = [Feature("OUTLINE", "", points=tuple(outline(g)), depth=g.top_mm)]
    for s in range(N_SPACES):
        x, y = space_xy(s, g.space_pitch_mm)
        lx, ly = led_xy(s, g)
        name = SPACES[s]
        out += [
            Feature("TOP_PILOTS", name, x, y, g.pilot_mm, g.top_mm),
            Feature("TOP_HALO_POCKETS", name, x, y, g.halo_diameter_mm, g.halo_depth_mm),
            Feature("TOP_LED_HOLES", name, lx, ly, g.led_hole_mm, g.top_mm),
            Feature("BOTTOM_SENSOR_POCKETS", name, x, y, g.sensor_pocket_mm, g.sensor_pocket_depth_mm),
        ]
    out += _channels(g)
    return out


def _channels(g: Geometry) -> list[Feature]:
    """Along each row, one channel through its sensor pockets and one through its LED holes;
    on the left, a spine joining the rows' ends. The row's sensor wires run in the first, its
    part of the LED chain in the second, and everything meets the electronics at the spine."""
    out, spine = [], []
    half = g.space_pitch_mm / 2
    for row, (first, last) in enumerate(ROW_SPANS):
        x1, y = space_xy(at(first, row), g.space_pitch_mm)
        x2, _ = space_xy(at(last, row), g.space_pitch_mm)
        for dy in (0.0, g.led_offset_mm):
            out.append(Feature("BOTTOM_CHANNELS", "", diameter=g.channel_mm,
                               depth=g.channel_depth_mm,
                               points=((x1 - half, y + dy), (x2, y + dy))))
        spine += [(x1 - half, y), (x1 - half, y + g.led_offset_mm)]
    out.append(Feature("BOTTOM_CHANNELS", "", diameter=g.channel_mm, depth=g.channel_depth_mm,
                       points=tuple(spine)))
    return out


# ------------------------------------------------------------------------------------- DXF


def write_dxf(path: Path, g: Geometry) -> Path:
    """The drill/milling layout as DXF R2010, in mm, one layer per operation."""
    try:
        import ezdxf
    except ImportError:
        raise RuntimeError(_missing("ezdxf")) from None
    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.header["$INSUNITS"] = ezdxf.units.MM
    for name, (description, aci, _) in LAYERS.items():
        layer = doc.layers.add(name, color=aci)
        layer.description = description
    msp = doc.modelspace()
    for f in features(g):
        attribs = {"layer": f.layer}
        if f.layer == "OUTLINE":
            msp.add_lwpolyline(f.points, close=True, dxfattribs=attribs)
        elif f.layer == "BOTTOM_CHANNELS":
            msp.add_lwpolyline(f.points, dxfattribs={**attribs, "const_width": f.diameter})
        else:
            msp.add_circle((f.x, f.y), f.diameter / 2, dxfattribs=attribs)
    for s in range(N_SPACES):
        x, y = space_xy(s, g.space_pitch_mm)
        msp.add_text(SPACES[s], height=3.0, dxfattribs={"layer": "LABELS"}).set_placement(
            (x - g.halo_diameter_mm / 2, y - g.halo_diameter_mm / 2))
    path = Path(path)
    doc.saveas(path)
    return path


# ------------------------------------------------------------------------------------- SVG


def template_svg(g: Geometry) -> str:
    """The drilling template at 1:1: width and height in mm, one user unit = 1 mm."""
    xmin, ymin, xmax, ymax = bounds(g)
    pad = 10.0
    x0, y0 = xmin - pad, -(ymax + pad)  # SVG's y grows downwards: draw at (x, -y)
    w, h = xmax - xmin + 2 * pad, ymax - ymin + 2 * pad + 16
    font = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w:.2f}mm' height='{h:.2f}mm' "
             f"viewBox='{x0:.3f} {y0:.3f} {w:.3f} {h:.3f}'>",
             f"<rect x='{x0:.3f}' y='{y0:.3f}' width='{w:.3f}' height='{h:.3f}' fill='white'/>"]
    for f in features(g):
        colour = LAYERS[f.layer][2]
        if f.layer == "OUTLINE":
            pts = " ".join(f"{x:.3f},{-y:.3f}" for x, y in f.points)
            parts.append(f"<polygon class='{f.layer}' points='{pts}' fill='none' stroke='{colour}' "
                         "stroke-width='0.3'/>")
        elif f.layer == "BOTTOM_CHANNELS":
            pts = " ".join(f"{x:.3f},{-y:.3f}" for x, y in f.points)
            parts.append(f"<polyline class='{f.layer}' points='{pts}' fill='none' "
                         f"stroke='{colour}' stroke-width='0.2' stroke-dasharray='2 1.5'/>")
        elif f.layer != "TOP_PILOTS":
            parts.append(f"<circle class='{f.layer}' data-space='{f.space}' cx='{f.x:.3f}' "
                         f"cy='{-f.y:.3f}' r='{f.diameter / 2:.3f}' fill='none' "
                         f"stroke='{colour}' stroke-width='0.25'/>")
    for f in features(g):  # centre crosses last, on top: the drill's point goes here
        if f.layer == "TOP_PILOTS":
            c = LAYERS[f.layer][2]
            parts.append(f"<circle class='{f.layer}' data-space='{f.space}' cx='{f.x:.3f}' "
                         f"cy='{-f.y:.3f}' r='{f.diameter / 2:.3f}' fill='{c}'/>"
                         f"<path d='M{f.x - 3:.3f},{-f.y:.3f}h6M{f.x:.3f},{-f.y - 3:.3f}v6' "
                         f"stroke='{c}' stroke-width='0.15'/>"
                         f"<text x='{f.x - 9:.3f}' y='{-f.y - 7:.3f}' {font} font-size='3'>"
                         f"{f.space}</text>")
    # scale bar and legend below the board
    bx, by = xmin, -(ymin - 8)
    parts.append(f"<path class='SCALE' d='M{bx:.3f},{by:.3f}h100M{bx:.3f},{by - 2:.3f}v4"
                 f"M{bx + 100:.3f},{by - 2:.3f}v4' stroke='black' stroke-width='0.3'/>"
                 f"<text x='{bx + 103:.3f}' y='{by + 1:.3f}' {font} font-size='3.5'>100 mm: "
                 f"measure it on the print before drilling</text>"
                 f"<text x='{bx:.3f}' y='{by + 7:.3f}' {font} font-size='3'>Red: pilot "
                 f"{g.pilot_mm:g} mm, through. Blue: halo pocket {g.halo_diameter_mm:g} mm, "
                 f"{g.halo_depth_mm:g} mm deep. Green: LED hole {g.led_hole_mm:g} mm, through. "
                 f"Violet: sensor pocket {g.sensor_pocket_mm:g} mm, {g.sensor_pocket_depth_mm:g} "
                 f"mm deep from below. Grey: wire channels, below.</text>")
    parts.append("</svg>\n")
    return "".join(parts)


# ------------------------------------------------------------------------------------- PDF

A4 = (210.0, 297.0)
PAGE_MARGIN = 10.0  # printers do not print to the edge
OVERLAP = 10.0  # each page repeats this much of its neighbour, to line the sheets up


def template_tiles(g: Geometry, page=A4) -> list[tuple[float, float, float, float]]:
    """The board's area cut into pages: (x, y, width, height) in board mm, landscape A4."""
    pw, ph = max(page) - 2 * PAGE_MARGIN, min(page) - 2 * PAGE_MARGIN
    xmin, ymin, xmax, ymax = bounds(g)
    tiles = []
    y = ymin
    while True:
        x = xmin
        while True:
            tiles.append((x, y, pw, ph))
            if x + pw >= xmax:
                break
            x += pw - OVERLAP
        if y + ph >= ymax:
            break
        y += ph - OVERLAP
    return tiles


def write_template_pdf(path: Path, g: Geometry) -> Path:
    """The template on landscape A4 pages at 1:1 ("actual size" when printing)."""
    try:
        from reportlab.lib.units import mm
        from reportlab.pdfgen import canvas
    except ImportError:
        raise RuntimeError(_missing("reportlab")) from None
    page_w, page_h = max(A4) * mm, min(A4) * mm
    tiles = template_tiles(g)
    pdf = canvas.Canvas(str(path), pagesize=(page_w, page_h), invariant=1)
    pdf.setTitle("DVONN board drilling template (1:1)")
    for n, (tx, ty, tw, th) in enumerate(tiles, 1):
        pdf.saveState()
        pdf.translate((PAGE_MARGIN - tx) * mm, (PAGE_MARGIN - ty) * mm)  # board mm -> page
        clip = pdf.beginPath()
        clip.rect(tx * mm, ty * mm, tw * mm, th * mm)
        pdf.clipPath(clip, stroke=0, fill=0)
        for f in features(g):
            colour = LAYERS[f.layer][2]
            pdf.setStrokeColor(colour)
            pdf.setFillColor(colour)
            if f.layer == "OUTLINE":
                p = pdf.beginPath()
                p.moveTo(f.points[0][0] * mm, f.points[0][1] * mm)
                for x, y in f.points[1:]:
                    p.lineTo(x * mm, y * mm)
                p.close()
                pdf.setLineWidth(0.3 * mm)
                pdf.drawPath(p, stroke=1, fill=0)
            elif f.layer == "BOTTOM_CHANNELS":
                pdf.setLineWidth(0.2 * mm)
                pdf.setDash(2 * mm, 1.5 * mm)
                for (xa, ya), (xb, yb) in zip(f.points, f.points[1:]):
                    pdf.line(xa * mm, ya * mm, xb * mm, yb * mm)
                pdf.setDash()
            elif f.layer == "TOP_PILOTS":
                pdf.circle(f.x * mm, f.y * mm, f.diameter / 2 * mm, stroke=0, fill=1)
                pdf.setLineWidth(0.15 * mm)
                pdf.line((f.x - 3) * mm, f.y * mm, (f.x + 3) * mm, f.y * mm)
                pdf.line(f.x * mm, (f.y - 3) * mm, f.x * mm, (f.y + 3) * mm)
                pdf.setFillColor("#000000")
                pdf.setFont("Helvetica", 8)
                pdf.drawString((f.x - 9) * mm, (f.y + 6) * mm, f.space)
            else:
                pdf.setLineWidth(0.25 * mm)
                pdf.circle(f.x * mm, f.y * mm, f.diameter / 2 * mm, stroke=1, fill=0)
        pdf.restoreState()
        # on the page itself: crop frame, page number, a 50 mm scale bar
        pdf.setStrokeColor("#000000")
        pdf.setFillColor("#000000")
        pdf.setLineWidth(0.2 * mm)
        pdf.setDash(1 * mm, 1 * mm)
        pdf.rect(PAGE_MARGIN * mm, PAGE_MARGIN * mm, tw * mm, th * mm, stroke=1, fill=0)
        pdf.setDash()
        pdf.setFont("Helvetica", 8)
        pdf.drawString(PAGE_MARGIN * mm, (PAGE_MARGIN - 6) * mm,
                       f"DVONN board template, page {n} of {len(tiles)}: print at actual size "
                       f"(100 %); pages overlap by {OVERLAP:g} mm. The bar is 50 mm:")
        bar_x = (PAGE_MARGIN + 150) * mm
        pdf.line(bar_x, (PAGE_MARGIN - 5) * mm, bar_x + 50 * mm, (PAGE_MARGIN - 5) * mm)
        pdf.showPage()
    pdf.save()
    return Path(path)


def _missing(module: str) -> str:
    return (f"{module} is not installed: the fabrication files need it. Install the extra: "
            f"pip install 'dvonn-board[build]'")


def write_all(out: Path, profile) -> list[Path]:
    """Write every fabrication file and the bill of materials into `out`; the paths written."""
    from . import bom

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    g = profile.geometry
    written = [write_dxf(out / "board.dxf", g)]
    (out / "template.svg").write_text(template_svg(g), encoding="utf-8")
    written.append(out / "template.svg")
    written.append(write_template_pdf(out / "template.pdf", g))
    (out / "bom.csv").write_text(bom.to_csv(bom.parts(profile)), encoding="utf-8")
    written.append(out / "bom.csv")
    return written
