"""One space in section, to scale and dimensioned from the profile's ``[geometry]`` and magnets.

The cut runs along the row through the intersection (x: along the row, z: up); the LED sits
`led_offset_mm` towards row 5, which is drawn folded into the cut plane so that its hole shows.
"""

from __future__ import annotations

from .svg import Canvas

SCALE = 22.0  # px per mm
WOOD, ACRYLIC, PIECE, MAGNET = "#e3c48f", "#d6ecff", "#f4f1e8", "#8a8f98"


def section_svg(profile) -> str:
    g = profile.geometry
    magnet = profile.magnets.get("white")
    mag_d = magnet.diameter_mm if magnet else 6.0
    mag_h = magnet.height_mm if magnet else 2.0
    half = g.space_pitch_mm / 2
    left, top_px = 230.0, 110.0
    z_top = g.piece_height_mm + 1.0  # mm above the board surface shown
    width = left + g.space_pitch_mm * SCALE + 260
    height = top_px + (z_top + g.top_mm + 3.5) * SCALE + 120
    c = Canvas(width, height)

    def X(mm):  # noqa: N802 - board x in mm -> px (x = 0 at the intersection)
        return left + (mm + half) * SCALE

    def Z(mm):  # noqa: N802 - height in mm -> px (z = 0 at the board surface)
        return top_px + (z_top - mm) * SCALE

    c.text(20, 30, "One space in section (to scale, sizes in mm)", 18, weight="bold")
    c.text(20, 52, f"Reference geometry of profile \"{profile.name}\": sensor face "
           f"{g.sensor_gap_mm:g} mm below the piece's magnet", 12, fill="#444")
    # the panel, then what is cut out of it
    c.rect(X(-half), Z(0), g.space_pitch_mm * SCALE, g.top_mm * SCALE, fill=WOOD, stroke="#7a5a20")
    c.rect(X(-g.halo_diameter_mm / 2), Z(0), g.halo_diameter_mm * SCALE, g.halo_depth_mm * SCALE,
           fill=ACRYLIC, stroke="#4a7fb0")
    pocket_w = g.sensor_pocket_mm
    c.rect(X(-pocket_w / 2), Z(-g.cover_mm), pocket_w * SCALE, g.sensor_pocket_depth_mm * SCALE,
           fill="white", stroke="#7a5a20")
    # the row's wire channel, milled from below, runs in the cut plane towards the spine
    c.rect(X(-half), Z(-g.top_mm + g.channel_depth_mm), (half - pocket_w / 2) * SCALE,
           g.channel_depth_mm * SCALE, fill="white", stroke="#7a5a20", dash="4 2")
    sensor_w, sensor_t = 4.0, 1.5  # DRV5055 in TO-92, lying on its back, marked face up
    c.rect(X(-sensor_w / 2), Z(-g.cover_mm), sensor_w * SCALE, sensor_t * SCALE, fill="#222")
    lead_z = -g.top_mm + g.channel_depth_mm / 2
    c.polyline([(X(-sensor_w / 2), Z(-g.cover_mm - sensor_t / 2)),
                (X(-pocket_w / 2), Z(lead_z)), (X(-half - 1.5), Z(lead_z))],
               stroke="#b00", width=1.5)  # its legs, bent into the channel
    led_x = g.led_offset_mm
    c.rect(X(led_x - g.led_hole_mm / 2), Z(-g.halo_depth_mm), g.led_hole_mm * SCALE,
           (g.top_mm - g.halo_depth_mm) * SCALE, fill="white", stroke="#7a5a20")
    c.rect(X(led_x - 2.5), Z(-g.top_mm), 5 * SCALE, 1.6 * SCALE, fill="#fff7c0", stroke="#000")
    c.rect(X(led_x - 5), Z(-g.top_mm - 1.6), 10 * SCALE, 0.4 * SCALE, fill="#2a7a2a", stroke="none")
    for dx in (-1.2, 0, 1.2):  # light from the LED into the disc
        c.line(X(led_x + dx), Z(-g.top_mm + 1.8), X(led_x + dx * 2.5), Z(-0.3), stroke="#e0b000",
               width=1, dash="3 3")
    # the piece with its magnet
    c.rect(X(-g.piece_diameter_mm / 2), Z(g.piece_height_mm), g.piece_diameter_mm * SCALE,
           g.piece_height_mm * SCALE, fill=PIECE, stroke="#555", rx=6)
    c.rect(X(-mag_d / 2), Z(g.magnet_recess_mm + mag_h), mag_d * SCALE, mag_h * SCALE,
           fill=MAGNET, stroke="#333")
    c.text(X(0), Z(g.magnet_recess_mm + mag_h / 2) + 4, "N", 11, "middle", "bold", "#fff")
    # labels
    c.text(X(-half) - 8, Z(g.piece_height_mm / 2) + 4, "piece", 12, "end")
    c.text(X(-half) - 8, Z(-g.halo_depth_mm / 2) + 4, "acrylic halo disc", 12, "end")
    c.text(X(-half) - 8, Z(-g.top_mm + 2.5) + 4, "plywood top", 12, "end")
    c.text(X(-half) - 8, Z(-g.top_mm) + 22, "sensor (black), marked face up;", 12, "end")
    c.text(X(-half) - 8, Z(-g.top_mm) + 38, "its legs in the wire channel", 12, "end")
    c.text(X(half) + 8, Z(g.magnet_recess_mm + mag_h / 2) + 4,
           f"magnet {mag_d:g} x {mag_h:g} mm", 12)
    c.text(X(led_x + 5.2), Z(-g.top_mm - 1.2) + 4, "LED (on its strip piece)", 12)
    # dimensions
    c.dim_h(X(-half), X(half), Z(z_top) - 26, f"{g.space_pitch_mm:g} pitch (to the next space)")
    c.dim_h(X(-g.piece_diameter_mm / 2), X(g.piece_diameter_mm / 2), Z(g.piece_height_mm) - 10,
            f"piece {g.piece_diameter_mm:g}")
    bottom = Z(-g.top_mm - 2.2)
    c.dim_h(X(-g.halo_diameter_mm / 2), X(g.halo_diameter_mm / 2), bottom + 26,
            f"halo {g.halo_diameter_mm:g}")
    c.dim_h(X(0), X(led_x), bottom + 56, f"LED offset {led_x:g}")
    c.dim_h(X(-pocket_w / 2), X(pocket_w / 2), bottom + 86, f"sensor pocket {pocket_w:g}")
    c.line(X(0), Z(z_top), X(0), bottom + 90, stroke="#888", width=0.6, dash="6 3")
    right = X(half) + 150
    c.dim_v(right, Z(0), Z(-g.top_mm), f"top {g.top_mm:g}")
    c.dim_v(right + 60, Z(0), Z(-g.halo_depth_mm), f"disc {g.halo_depth_mm:g}")
    c.dim_v(X(-half) - 40, Z(0), Z(-g.cover_mm), f"cover {g.cover_mm:g}", side="left")
    c.dim_v(X(-pocket_w / 2) - 12, Z(-g.cover_mm), Z(-g.top_mm),
            f"pocket {g.sensor_pocket_depth_mm:g}", side="left")
    c.dim_v(X(mag_d / 2) + 14, Z(g.magnet_recess_mm), Z(-g.cover_mm),
            f"sensor gap {g.sensor_gap_mm:g}")
    c.dim_v(X(-mag_d / 2) - 14, Z(g.magnet_recess_mm), Z(0), f"recess {g.magnet_recess_mm:g}",
            side="left")
    return c.svg()
