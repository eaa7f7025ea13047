"""The power supplies, the rails they feed, what each draws, and where the grounds join.

Two supplies and no more: the Pi's own, and a 5 V supply for the LEDs. The sensors' 3.3 V rail
comes from its own LDO, fed from clean 5 V (the Pico's VBUS, i.e. the Pi's USB port, on the
reference board; the Pi's 5 V pin on the direct board), never from the LED supply, whose
current changes with every frame. All grounds meet at one star point beside the level shifter.
"""

from __future__ import annotations

from firmware_py.spaces import N_SPACES

from .svg import Canvas

SENSOR_MA = 6.0  # DRV5055 supply current, typical (10 mA at most)
MUX_MA = 0.1
LED_MA_PER_CHANNEL = 20.0  # WS2812B at full drive, per colour


def currents(profile) -> dict[str, float]:
    """Typical currents in mA: the sensor rail, and the LED chain all white at the profile's cap
    (the worst the board ever shows; each LED also idles at about 1 mA)."""
    sensors = N_SPACES * SENSOR_MA + profile.mux.count * MUX_MA
    leds = profile.leds.count * (3 * LED_MA_PER_CHANNEL * profile.leds.brightness + 1.0)
    return {"sensor_rail": round(sensors), "leds_max": round(leds)}


def power_svg(profile) -> str:
    serial = profile.scanner.kind == "serial"
    amps = currents(profile)
    c = Canvas(1060, 560)
    c.text(20, 30, f"Power and grounds (profile \"{profile.name}\")", 18, weight="bold")
    c.text(20, 52, "Two supplies; the sensors get their own clean 3.3 V; every ground meets at one "
           "point", 12, fill="#444")

    def box(x, y, w, h, title, lines=(), fill="#f5f5f5"):
        c.rect(x, y, w, h, fill=fill, stroke="#333", rx=6)
        c.text(x + w / 2, y + 20, title, 13, "middle", "bold")
        for i, line in enumerate(lines):
            c.text(x + w / 2, y + 38 + 15 * i, line, 11, "middle")

    def wire(points, label="", colour="#c00", width=2.5, at=0):
        c.polyline(points, stroke=colour, width=width, arrow=True)
        if label:
            (x1, y1), (x2, y2) = points[at], points[at + 1]
            c.text((x1 + x2) / 2 + 6, (y1 + y2) / 2 - 6, label, 11, fill=colour)

    box(20, 80, 200, 60, "Pi power supply", ["5 V 3 A USB-C (Pi 5: 5 A)"], "#fff3e0")
    box(20, 200, 200, 80, "Raspberry Pi", ["its own 3.3 V for its GPIO", "buttons to GND"])
    wire([(120, 140), (120, 200)], "5 V")
    if serial:
        box(320, 200, 200, 80, "Raspberry Pi Pico", ["VBUS (pin 40) = USB 5 V", "ADC_VREF from +3V3S"])
        wire([(220, 240), (320, 240)], "USB", "#c00")
        feed, feed_from = "Pico VBUS", (420, 280)
    else:
        feed, feed_from = "Pi 5 V pin 2", (220, 260)
    box(320, 340, 200, 70, "LDO 3.3 V", ["10 µF in, 10 µF out", f"fed from {feed}"], "#e8f5e9")
    wire([feed_from, (420, 340)] if serial else [feed_from, (270, 260), (270, 375), (320, 375)], "5 V")
    box(600, 320, 260, 110, "+3V3S: the sensor rail",
        [f"{N_SPACES} Hall sensors, 100 nF at each", f"{profile.mux.count} multiplexers, 100 nF at each",
         ("the Pico's ADC_VREF" if serial else f"the {profile.adc.type}'s VDD and VREF"),
         f"about {amps['sensor_rail']} mA"], "#e8f5e9")
    wire([(520, 375), (600, 375)], "3.3 V", "#080")
    box(600, 80, 260, 60, "LED power supply", ["5 V 4 A, barrel socket"], "#fff3e0")
    box(600, 180, 260, 90, "LED chain + 74AHCT125", [
        f"{profile.leds.count} LEDs; all white at the {profile.leds.brightness:.0%} cap:",
        f"about {amps['leds_max'] / 1000:.1f} A; 1000 µF at LED 0",
        "feed 5 V at both ends of the chain"], "#fffde7")
    wire([(730, 140), (730, 180)], "5 V")
    # the ground star
    sx, sy = 470, 500
    c.circle(sx, sy, 9, fill="#000")
    c.text(sx + 16, sy + 5, "ground star point (beside the 74AHCT125): the only place the grounds join",
           12, weight="bold")
    for x, y in ((120, 280), (420, 410), (730, 430)):
        c.line(x, y, sx, sy, stroke="#000", width=1.2, dash="5 3")
    c.polyline([(860, 225), (930, 225), (930, 470), (sx + 12, sy - 4)], stroke="#000", width=1.2,
               dash="5 3")
    c.text(936, 350, "LED GND", 11)
    if serial:
        c.text(20, 300, "the Pi's GND reaches the Pico through the USB cable", 11, fill="#444")
    c.text(20, 545, "Keep the LED supply's wires away from the sensor rows: a changing current makes "
           "a changing field. A steady field is calibrated out.", 12, fill="#444")
    return c.svg()
