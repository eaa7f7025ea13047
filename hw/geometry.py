"""The board's mechanical geometry: where each space is, and the depths of one space in section.

A profile's ``[geometry]`` table sets these numbers (every key optional); the fabrication files
(`dvonn_hw.fabrication`) and the drawings (`dvonn_hw.drawings`) are made from them, so a board built from
the files matches what the software expects (the simulator and the inference use the same
25 mm pitch and 5 mm sensor-to-magnet gap).

One space in section, from the top down::

    piece (piece_height_mm), its magnet recessed magnet_recess_mm into its base
    ---- board surface ----------------------------------------------------------------
    halo disc: frosted acrylic, halo_diameter_mm wide, halo_depth_mm thick, set into a pocket
    milled from the top; the LED shines into it from below, led_offset_mm from the centre
    wood: cover_mm - halo_depth_mm left above the sensor
    sensor pocket milled from below, sensor_pocket_mm wide, top_mm - cover_mm deep
    ---- underside of the top panel (top_mm thick) -----------------------------------

So the sensor's face is ``cover_mm + magnet_recess_mm`` below the magnet (`sensor_gap_mm`).

>>> g = Geometry()
>>> g.sensor_gap_mm, g.sensor_pocket_depth_mm
(5.0, 2.0)
>>> x, y = space_xy(INDEX["b1"], g.space_pitch_mm)
>>> round(x, 6), round(y, 6)
(25.0, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from firmware_py.spaces import COORDS, INDEX, N_SPACES  # noqa: F401 (INDEX: the doctest)


@dataclass(frozen=True)
class Geometry:
    """Lengths in mm. The defaults are the reference board (hw/README.md)."""

    space_pitch_mm: float = 25.0  # between neighbouring intersections, as on the DVONN board
    top_mm: float = 6.0  # thickness of the top panel (plywood or MDF)
    cover_mm: float = 4.0  # material between the sensor's face and the board surface
    magnet_recess_mm: float = 1.0  # magnet face above the bottom of a piece
    piece_diameter_mm: float = 20.0  # measure your pieces
    piece_height_mm: float = 6.0
    sensor_pocket_mm: float = 6.0  # diameter of the pocket milled from below
    halo_diameter_mm: float = 23.0  # a few mm wider than a piece, narrower than the pitch
    halo_depth_mm: float = 2.0  # the acrylic disc's thickness = its pocket's depth
    led_offset_mm: float = 8.0  # LED centre from the intersection, towards row 5
    led_hole_mm: float = 5.0  # through the wood under the halo, for the LED's light
    pilot_mm: float = 1.5  # pilot hole through at each intersection: locates the underside
    channel_mm: float = 5.0  # width of the wire channels milled from below
    channel_depth_mm: float = 1.5
    margin_mm: float = 22.0  # board edge beyond the outermost intersections

    @property
    def sensor_gap_mm(self) -> float:
        """Sensor face to the bottom magnet of a resting stack."""
        return self.cover_mm + self.magnet_recess_mm

    @property
    def sensor_pocket_depth_mm(self) -> float:
        return self.top_mm - self.cover_mm

    def problems(self) -> list[tuple[str, str]]:
        """(key, what is wrong) for numbers that cannot make a board; empty when all fit."""
        out = []
        if self.cover_mm >= self.top_mm:
            out.append(("cover_mm", f"{self.cover_mm:g} mm must be less than top_mm "
                        f"({self.top_mm:g} mm): the sensor pocket needs some depth"))
        if self.halo_depth_mm >= self.cover_mm:
            out.append(("halo_depth_mm", f"{self.halo_depth_mm:g} mm must be less than cover_mm "
                        f"({self.cover_mm:g} mm): wood must stay above the sensor"))
        if self.halo_diameter_mm >= self.space_pitch_mm:
            out.append(("halo_diameter_mm", f"{self.halo_diameter_mm:g} mm must be less than "
                        f"space_pitch_mm ({self.space_pitch_mm:g} mm): halos would touch"))
        if self.halo_diameter_mm <= self.piece_diameter_mm:
            out.append(("halo_diameter_mm", f"{self.halo_diameter_mm:g} mm must be more than "
                        f"piece_diameter_mm ({self.piece_diameter_mm:g} mm): a stack would hide it"))
        if self.led_offset_mm + self.led_hole_mm / 2 > self.halo_diameter_mm / 2:
            out.append(("led_offset_mm", f"the LED hole ({self.led_offset_mm:g} + "
                        f"{self.led_hole_mm / 2:g} mm) must stay inside the halo disc "
                        f"(radius {self.halo_diameter_mm / 2:g} mm)"))
        if self.led_offset_mm - self.led_hole_mm / 2 < self.sensor_pocket_mm / 2:
            out.append(("led_offset_mm", "the LED hole overlaps the sensor pocket"))
        if self.channel_depth_mm >= self.top_mm - self.halo_depth_mm:
            out.append(("channel_depth_mm", "a wire channel would cut through into a halo pocket"))
        return out


SQRT3_2 = math.sqrt(3) / 2


def space_xy(space: int, pitch_mm: float = 25.0) -> tuple[float, float]:
    """Centre of a space in mm, seen from above: a1 at the origin, x along row 1, y towards row 5.

    On the hex grid the steps (1, 0), (0, 1) and (1, 1) in (column, row) are all one pitch long.
    """
    col, row = COORDS[space]
    return (col - row / 2) * pitch_mm, row * pitch_mm * SQRT3_2


def all_xy(pitch_mm: float = 25.0) -> list[tuple[float, float]]:
    """Centres of the 49 spaces, in space order."""
    return [space_xy(s, pitch_mm) for s in range(N_SPACES)]


def led_xy(space: int, g: Geometry) -> tuple[float, float]:
    """Centre of a space's LED: led_offset_mm from the intersection, towards row 5 (+y)."""
    x, y = space_xy(space, g.space_pitch_mm)
    return x, y + g.led_offset_mm


# The six corner spaces of the elongated hexagon, going round anticlockwise.
CORNERS = ("a1", "i1", "k3", "k5", "c5", "a3")


def outline(g: Geometry) -> list[tuple[float, float]]:
    """The board's edge: the hexagon through the corner spaces, pushed out by margin_mm."""
    pts = [space_xy(INDEX[c], g.space_pitch_mm) for c in CORNERS]
    n = len(pts)
    out = []
    for i in range(n):
        prev, here, nxt = pts[i - 1], pts[i], pts[(i + 1) % n]
        n1, n2 = _normal(prev, here), _normal(here, nxt)
        scale = g.margin_mm / (1 + n1[0] * n2[0] + n1[1] * n2[1])  # the mitre of two offsets
        out.append((here[0] + (n1[0] + n2[0]) * scale, here[1] + (n1[1] + n2[1]) * scale))
    return out


def _normal(a, b):
    """Outward unit normal of the edge a->b of an anticlockwise polygon."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return dy / length, -dx / length


def bounds(g: Geometry) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of the board outline."""
    pts = outline(g)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)
