"""The bill of materials: every part needed to build a board from a profile, with quantities,
a typical price and the total.

Quantities come from the profile (sensors per space, multiplexers, LEDs in the chain, which ADC
and LED driver) and its geometry (the panel's size); prices are typical single-unit prices in
euros from hobby electronics shops in 2026, to budget with, not quotes. hw/README.md shows
``to_markdown(parts(load_profile()))``, and a test keeps it equal to this module.

>>> from dvonn_hw.profile import load_profile
>>> items = parts(load_profile())
>>> [p.qty for p in items if p.part.startswith("DRV5055")]
[51]
>>> round(total(items)) > 100
True
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from firmware_py.spaces import N_SPACES

from .geometry import bounds

SPARE_SENSORS = 2
SPARE_MAGNETS = 4
BUILD_HOURS = (("the panel, by hand (1 h on a CNC)", 3),
               ("magnets into the pieces", 1),
               ("sensors soldered, glued and wired in rows", 5),
               ("LEDs and halo discs", 3),
               ("electronics on perfboard and the frame", 3),
               ("flashing, installing, calibrating", 1))


@dataclass(frozen=True)
class Part:
    group: str  # "electronics", "board and pieces", "wiring and assembly", "tools"
    qty: int
    part: str
    notes: str
    unit_eur: float

    @property
    def line_eur(self) -> float:
        return self.qty * self.unit_eur


def parts(profile) -> list[Part]:
    """Everything to buy for `profile`'s board (tools listed apart: `total` leaves them out)."""
    serial = profile.scanner.kind == "serial"
    leds = profile.leds
    n_mux = profile.mux.count
    g = profile.geometry
    xmin, ymin, xmax, ymax = bounds(g)
    panel = f"{math.ceil((xmax - xmin + 20) / 10) * 10:.0f} x {math.ceil((ymax - ymin + 20) / 10) * 10:.0f} mm"
    e = "electronics"
    out = [
        _pi(serial, leds.driver),
        Part(e, 1, "Raspberry Pi power supply, 5 V 3 A USB-C (5 A for a Pi 5)", "the Pi's own supply", 9.0),
        Part(e, 1, "microSD card, 16 GB or more, class A1", "", 6.0),
    ]
    if serial:
        out += [Part(e, 1, "Raspberry Pi Pico (RP2040), with headers", "the scanner; MicroPython", 4.5),
                Part(e, 1, "USB cable, micro-B to USB-A, 0.5 m, with data lines", "Pi to Pico: data and the sensors' 5 V", 3.0)]
    else:
        out.append(Part(e, 1, f"{profile.adc.type} 8-channel SPI ADC, DIP-16", "on the Pi's SPI0", 3.5))
    caps = N_SPACES + SPARE_SENSORS + n_mux + 1 + (0 if serial else 1)
    out += [
        Part(e, N_SPACES + SPARE_SENSORS, f"{profile.sensor.type} linear Hall sensor, TO-92 (DRV5055A3QLPG)",
             f"one per space and {SPARE_SENSORS} spare; A1324/5/6 also work", 1.2),
        Part(e, caps, "100 nF ceramic capacitor, 50 V X7R",
             f"one at each sensor, one per multiplexer, one at the level shifter{'' if serial else ', one at the ADC'}", 0.05),
        Part(e, n_mux, "74HC4067 16-channel analogue multiplexer breakout board", "select lines shared", 1.5),
        Part(e, 1, "3.3 V LDO regulator, 500 mA or more, TO-220 or module (AMS1117-3.3, LD1117V33)",
             "the sensors' own rail: 49 sensors draw about 300 mA", 0.8),
        Part(e, 2, "10 µF capacitor, 16 V (tantalum or electrolytic)", "the LDO's input and output", 0.2),
        Part(e, 1, "74AHCT125 quad buffer, DIP-14", "3.3 V data to the 5 V LEDs; tie all four /OE to GND", 0.6),
        Part(e, 1, "330 Ω resistor, 1/4 W", "in the LED data line", 0.05),
        Part(e, 1, "1000 µF 10 V electrolytic capacitor", "across the LED supply at the first LED", 0.5),
        Part(e, math.ceil(leds.count / 60), f"{leds.type} LED strip, 60 LEDs per m, 1 m, 5 V, unsealed (IP30)",
             f"cut into {leds.count} single LEDs: {N_SPACES} spaces and {leds.count - N_SPACES} status", 8.0),
        Part(e, 1, "5 V 4 A power supply with 5.5/2.1 mm barrel plug", "the LEDs (40 % cap: under 1.5 A)", 12.0),
        Part(e, 1, "5.5/2.1 mm barrel socket, panel mount", "", 1.0),
        Part(e, 5, "push button, 12 mm, normally open", "confirm, undo, new game, hint, say", 0.5),
    ]
    b = "board and pieces"
    magnets = profile.magnets
    white = magnets.get("white")
    dvonn = magnets.get("dvonn")
    out += [
        Part(b, 1, "a DVONN game (for its 49 pieces)", "23 white, 23 black, 3 red; the set's own board is not used", 30.0),
        Part(b, 46 + SPARE_MAGNETS, f"{white.grade if white else 'N52'} disc magnet "
             f"{_mm(white.diameter_mm) if white else 6} x {_mm(white.height_mm) if white else 2} mm",
             f"White and Black pieces, {SPARE_MAGNETS} spare", 0.15),
        Part(b, 4, f"{dvonn.grade if dvonn else 'N52'} disc magnet "
             f"{_mm(dvonn.diameter_mm) if dvonn else 6} x {_mm(dvonn.height_mm) if dvonn else 3} mm",
             "the 3 DVONN pieces and 1 spare", 0.25),
        Part(b, 1, f"birch plywood {g.top_mm:g} mm, {panel}", "the top panel (template: build-files)", 8.0),
        Part(b, N_SPACES, f"frosted (satin) acrylic disc, {g.halo_diameter_mm:g} mm x {g.halo_depth_mm:g} mm",
             "the halos: laser-cut from one sheet (board.dxf, layer TOP_HALO_POCKETS) or bought", 0.3),
        Part(b, 1, f"MDF 3 mm, {panel}, and 1.5 m of 12 x 30 mm pine strip",
             "the base and the frame: a box 30 mm deep under the panel", 10.0),
    ]
    w = "wiring and assembly"
    out += [
        Part(w, 1, "stranded hook-up wire 0.14 mm² (26 AWG), 3 colours x 10 m",
             "sensor rows: 3.3 V and GND buses, one signal wire per sensor", 12.0),
        Part(w, 1, "stranded wire 0.5 mm² (20 AWG), red and black, 3 m each", "the LED chain's 5 V and GND", 4.0),
        Part(w, 2, "perfboard 7 x 9 cm", "multiplexers, LDO, level shifter" + ("" if serial else ", ADC"), 1.5),
        Part(w, 1, "pin headers and female headers, 2.54 mm, 40-way strips (2 each)", "to plug the breakouts in", 2.0),
        Part(w, 10, "JST-XH 3-pin connector pair with leads", "one per sensor row and LED segment: the panel comes off", 0.3),
        Part(w, 1, "jumper wires female-female, 20 pcs" + ("" if serial else " (to the Pi's header)"),
             "buttons" + ("" if serial else ", SPI and the LED data to the Pi"), 2.0),
        Part(w, 1, "two-part epoxy, 5 minutes", "magnets and sensors", 6.0),
        Part(w, 1, "hot glue sticks", "LED pieces and wires in their channels", 3.0),
        Part(w, 1, "heat-shrink tubing assortment", "", 4.0),
        Part(w, 1, "solder wire 0.8 mm with flux core", "", 6.0),
    ]
    t = "tools"
    out += [
        Part(t, 1, "soldering iron, temperature controlled", "", 25.0),
        Part(t, 1, "drill press or a hand drill with a drill stand", "", 45.0),
        Part(t, 1, f"Forstner bits {g.halo_diameter_mm:g} mm and {g.sensor_pocket_mm:g} mm; "
             f"drill bits {g.pilot_mm:g} mm and {g.led_hole_mm:g} mm", "for the template; a CNC needs none", 15.0),
        Part(t, 1, "6.2 mm drill bit", "the magnet holes in the pieces", 2.0),
        Part(t, 1, "multimeter", "", 15.0),
        Part(t, 1, "compass (or a marked magnet)", "to mark the magnets' north poles", 3.0),
    ]
    return out


def _pi(serial: bool, led_driver: str) -> Part:
    """The Pi a board needs: any for a serial scanner, a Pi 5 for ws2812-pio, a Pi 3/4 for
    rpi_ws281x."""
    os_note = "Raspberry Pi OS Bookworm 64-bit, Lite is enough"
    if led_driver == "pio":
        return Part("electronics", 1, "Raspberry Pi 5, 2 GB", os_note + "; LEDs by the kernel's ws2812-pio", 55.0)
    if not serial and led_driver == "ws281x":
        return Part("electronics", 1, "Raspberry Pi 4 Model B, 2 GB (or 3B+)",
                    os_note + "; not a Pi 5: rpi_ws281x (use the direct-pi5 profile there)", 45.0)
    return Part("electronics", 1, "Raspberry Pi 4 Model B, 2 GB (or 3B+ or 5)", os_note, 45.0)


def _mm(v: float) -> str:
    return f"{v:g}"


def total(items: list[Part], tools: bool = False) -> float:
    """Sum of the lines, without the tools unless asked."""
    return sum(p.line_eur for p in items if tools or p.group != "tools")


def build_hours() -> int:
    return sum(h for _, h in BUILD_HOURS)


def to_markdown(items: list[Part]) -> str:
    """The table for hw/README.md, with the totals and the build time."""
    lines = ["| qty | part | notes | each | line |", "|---:|---|---|---:|---:|"]
    group = None
    for p in items:
        if p.group != group:
            group = p.group
            lines.append(f"| | **{group}** | | | |")
        lines.append(f"| {p.qty} | {p.part} | {p.notes} | {p.unit_eur:.2f} € | {p.line_eur:.2f} € |")
    lines.append(f"| | **total, without tools** | | | **{total(items):.2f} €** |")
    lines.append(f"| | total of the tools, if you have none | | | {total(items, True) - total(items):.2f} € |")
    hours = "; ".join(f"{what}: {h} h" for what, h in BUILD_HOURS)
    lines.append("")
    lines.append(f"Build time, for a first build: about {build_hours()} hours ({hours}).")
    return "\n".join(lines) + "\n"


def to_csv(items: list[Part]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["group", "qty", "part", "notes", "unit_eur", "line_eur"])
    for p in items:
        writer.writerow([p.group, p.qty, p.part, p.notes, f"{p.unit_eur:.2f}", f"{p.line_eur:.2f}"])
    writer.writerow(["total without tools", "", "", "", "", f"{total(items):.2f}"])
    return out.getvalue()
