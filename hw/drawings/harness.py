"""The wiring harness, seen from above (as on the template), drawn from the profile.

Each space shows the multiplexer input its sensor goes to (colour = multiplexer, ``M1.7`` =
mux 1 input C7); the LED chain is drawn in its order with each LED's index; each row's channel
carries the row's 3.3 V and GND buses and one signal wire per sensor to the spine on the left,
which leads to the electronics. The figures under the drawing (wire ends, wire lengths) are
computed from the profile's geometry.
"""

from __future__ import annotations

import math

from firmware_py.spaces import N_SPACES, ROW_SPANS, at

from ..geometry import bounds, led_xy, outline, space_xy
from .svg import Canvas

MUX_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8d6a9f", "#30638e", "#a37c40", "#555")
SCALE = 3.2  # px per mm


def wire_lengths_m(profile) -> dict[str, float]:
    """Rough lengths to cut: signal wires from each sensor along its row and down the spine to
    the electronics (which sit at the spine's middle), and the buses; 20 % for slack."""
    g = profile.geometry
    pitch = g.space_pitch_mm
    rows = []
    for row, (first, last) in enumerate(ROW_SPANS):
        x0, y = space_xy(at(first, row), pitch)
        rows.append((x0 - pitch / 2, y, [space_xy(at(c, row), pitch)[0] for c in range(first, last + 1)]))
    mid_y = (rows[0][1] + rows[-1][1]) / 2
    signal = sum(x - x_start + abs(y - mid_y) + 80 for x_start, y, xs in rows for x in xs)
    bus = sum(2 * (xs[-1] - x_start + abs(y - mid_y) + 80) for x_start, y, xs in rows)
    led = sum(math.dist(led_xy(a, g), led_xy(b, g)) for a, b in zip(_chain(profile), _chain(profile)[1:]))
    return {"signal": round(signal * 1.2 / 1000, 1), "bus": round(bus * 1.2 / 1000, 1),
            "led_chain": round(3 * led * 1.2 / 1000, 1)}


def _chain(profile) -> list[int]:
    """The spaces in LED-chain order."""
    return [s.index for s in sorted(profile.spaces, key=lambda s: s.led)]


def harness_svg(profile) -> str:
    g = profile.geometry
    xmin, ymin, xmax, ymax = bounds(g)
    left, top = 150.0, 70.0
    w = left + (xmax - xmin) * SCALE + 300
    h = top + (ymax - ymin) * SCALE + 200
    c = Canvas(w, h)

    def P(xy):  # noqa: N802 - board mm (y up) -> px
        return left + (xy[0] - xmin) * SCALE, top + (ymax - xy[1]) * SCALE

    c.text(20, 30, "Wiring harness, seen from above (as on the template)", 18, weight="bold")
    c.text(20, 52, f"profile \"{profile.name}\": each space's sensor goes to the multiplexer input "
           "it shows (M1.7 = mux 1, input C7); the arrows are the LED chain", 12, fill="#444")
    c.polyline([P(p) for p in outline(g) + outline(g)[:1]], width=1.5)
    # rows' channels and the spine
    spine = []
    for row, (first, last) in enumerate(ROW_SPANS):
        a, b = space_xy(at(first, row), g.space_pitch_mm), space_xy(at(last, row), g.space_pitch_mm)
        start = (a[0] - g.space_pitch_mm / 2, a[1])
        c.line(*P(start), *P(b), stroke="#bbb", width=5)
        spine.append(start)
        n = last - first + 1
        muxes = sorted({s.mux for s in profile.spaces if s.index in range(at(first, row), at(last, row) + 1)})
        c.text(P(b)[0] + 44, P(b)[1] + 4, f"row {row + 1}: 3V3 + GND bus, {n} signal wires "
               f"(mux {', '.join(map(str, muxes))})", 11, fill="#444")
    c.polyline([P(p) for p in spine], stroke="#bbb", width=7)
    mid = P((spine[2][0] - 30, spine[2][1]))  # the electronics, beside the board's left corner
    c.rect(mid[0] - 60, mid[1] - 28, 90, 56, fill="#f5f5f5", stroke="#333", rx=6)
    c.text(mid[0] - 15, mid[1] - 6, "electronics", 11, "middle", "bold")
    c.text(mid[0] - 15, mid[1] + 10, "muxes, LDO,", 10, "middle")
    c.text(mid[0] - 15, mid[1] + 22, "scanner", 10, "middle")
    # the LED chain
    chain = _chain(profile)
    pts = [P(led_xy(s, g)) for s in chain]
    c.polyline([mid] + pts[:1], stroke="#2a7a2a", width=1.2, dash="4 3", arrow=True)
    c.polyline(pts, stroke="#2a7a2a", width=1.2, arrow="every")
    # spaces
    for sw in profile.spaces:
        x, y = P(space_xy(sw.index, g.space_pitch_mm))
        colour = MUX_COLOURS[sw.mux % len(MUX_COLOURS)]
        c.circle(x, y, 18, fill="white", stroke=colour, width=3)
        c.text(x, y - 2, sw.name, 11, "middle", "bold")
        c.text(x, y + 10, f"M{sw.mux}.{sw.input}", 9, "middle", fill=colour)
        lx, ly = P(led_xy(sw.index, g))
        c.text(lx + 8, ly + 3, str(sw.led), 9, fill="#2a7a2a")
    # legend and figures
    y = top + (ymax - ymin) * SCALE + 40
    for k in range(profile.mux.count):
        c.circle(30 + 130 * k, y - 4, 7, stroke=MUX_COLOURS[k], width=3)
        c.text(44 + 130 * k, y, f"multiplexer {k}", 12)
    lengths = wire_lengths_m(profile)
    lines = [
        f"Each sensor has 3 wires: {3 * N_SPACES} wire ends at the sensors. Per row, run a 3.3 V "
        "and a GND bus along the channel and solder each sensor's VCC and GND to them;",
        "only the OUT wires run back, one per sensor, to their multiplexer input. Label each OUT "
        "wire with its space at both ends before it goes into the channel.",
        f"To cut: about {lengths['signal']} m of signal wire, {lengths['bus']} m for the buses, "
        f"{lengths['led_chain']} m for the LED chain (DIN, 5 V and GND between neighbours), with 20 % slack.",
    ]
    for i, text in enumerate(lines):
        c.text(20, y + 30 + 18 * i, text, 12)
    return c.svg()
