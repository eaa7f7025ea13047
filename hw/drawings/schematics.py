"""Schematics of the reference board and of the direct board, drawn with schemdraw.

Wires between blocks are named nets (a flag with the net's name at each end, as on any large
schematic): every pin with the same name is connected. Power nets end in a supply symbol.
The pin numbers and GPIOs come from the profile and from hw/firmware/config.py, so the drawing
follows the wiring the software expects.

Nets: ``+3V3S`` the sensors' own 3.3 V rail (from the LDO), ``+5VUSB`` the Pico's VBUS (the
Pi's USB 5 V), ``+5VLED`` the LED supply; ``S0``..``S3`` the multiplexer selects, ``/E0``..
``/E3`` their enables, ``SIG`` the joined mux outputs, ``DIN`` the LED data.
"""

from __future__ import annotations

from dvonn_hw.firmware import config as fw_config

FONT = 11
POWER = {"+3V3S", "+5VUSB", "+5VLED", "+5V", "+3V3"}


def _drawing():
    import schemdraw

    schemdraw.use("svg")
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=FONT, unit=2.5, lw=1.2)
    return d


def _svg(d) -> str:
    return d.get_imagedata("svg").decode("utf-8") + "\n"


def _net(d, at, direction: str, net: str, length: float = 0.8):
    """A short lead from `at` and the net's flag, supply or ground symbol at its end."""
    import schemdraw.elements as elm

    lead = getattr(elm.Line().at(at), direction)(length)
    d.add(lead)
    if direction in ("left", "right") and net:  # on an IC's side: a net name, no symbol
        flip = direction == "left"
        d.add(elm.Label().at(lead.end).theta(0).label(net, loc="left" if flip else "right",
                                             halign="right" if flip else "left", fontsize=FONT))
    elif net == "GND":
        d.add(elm.Ground().at(lead.end))
    elif net in POWER:
        d.add(elm.Vdd().at(lead.end).label(net, fontsize=FONT - 1))
    elif net:
        flip = direction == "left"
        d.add(elm.Label().at(lead.end).theta(0).label(net, loc="left" if flip else "right",
                                             halign="right" if flip else "left", fontsize=FONT))
    return lead.end


def _chip(d, label: str, at, left=(), right=(), top=(), bottom=(), width=None, anchor=None):
    """An IC box; each side a list of (name inside, pin number, net); `anchor` names the pin
    placed at `at` (e.g. "left0"). Returns the element."""
    import schemdraw.elements as elm

    pins = []
    for side, items in (("left", left), ("right", right), ("top", top), ("bottom", bottom)):
        for i, (name, number, _) in enumerate(items):
            slot = len(items) - i if side in ("left", "right") else i + 1  # listed top down
            pins.append(elm.IcPin(name=name, pin=str(number), side=side,
                                  slot=f"{slot}/{len(items)}", anchorname=f"{side}{i}"))
    ic = elm.Ic(pins=pins, edgepadW=width or 1.2, edgepadH=0.6, pinspacing=0.6,
                plblsize=FONT - 2, lsize=FONT + 1).at(at).theta(0).label(label, loc="top", fontsize=FONT + 1)
    if anchor:
        ic.anchor(anchor)
    d.add(ic)
    for side, items, direction in (("left", left, "left"), ("right", right, "right"),
                                   ("top", top, "up"), ("bottom", bottom, "down")):
        for i, (_, _, net) in enumerate(items):
            if net is not None:
                _net(d, getattr(ic, f"{side}{i}"), direction, net)
    return ic


def _sensor(d, at, title="DRV5055A3 x 49, one under each space"):
    """One Hall sensor with its decoupling capacitor."""
    ic = _chip(d, title, at,
               left=[("VCC", 1, "+3V3S"), ("GND", 2, "GND")],
               right=[("OUT", 3, "Cn of its mux")], width=0.8)
    import schemdraw.elements as elm
    cap_x, cap_y = ic.left0[0] - 4.6, ic.left0[1]
    d.add(elm.Capacitor().at((cap_x, cap_y + 0.6)).down().label("100 nF\nat the sensor", loc="bottom", fontsize=FONT - 1))
    _net(d, (cap_x, cap_y + 0.6), "up", "+3V3S", 0.4)
    _net(d, (cap_x, cap_y + 0.6 - 2.5), "down", "GND", 0.4)
    return ic


def _mux(d, at, k: int, select_nets, enable_net, sig_net, first_space: str, last_space: str):
    return _chip(d, f"74HC4067 MUX {k}", at,
                 left=[("S0", 10, select_nets[0]), ("S1", 11, select_nets[1]),
                       ("S2", 14, select_nets[2]), ("S3", 13, select_nets[3]),
                       ("/E", 15, enable_net), ("SIG", 1, sig_net)],
                 right=[("C0..C15", "2-9,16-23", f"sensors {first_space}..{last_space}"),
                        ("VCC", 24, "+3V3S"), ("GND", 12, "GND")],
                 width=1.6)


def _ldo(d, at, source_net: str):
    import schemdraw.elements as elm

    ic = _chip(d, "LDO 3.3 V (AMS1117-3.3)", at,
               left=[("IN", 3, source_net)], right=[("OUT", 2, "+3V3S")],
               bottom=[("GND", 1, "GND")], width=1.0)
    for anchor, x_shift in ((ic.left0, -0.8), (ic.right0, 0.8)):  # at the leads' ends
        x, y = anchor[0] + x_shift, anchor[1]
        d.add(elm.Capacitor().at((x, y - 0.4)).down().label("10 µF", loc="bottom", fontsize=FONT - 1))
        _net(d, (x, y - 0.4 - 2.5), "down", "GND", 0.3)
        d.add(elm.Line().at((x, y - 0.4)).to((x, y)))
        d.add(elm.Dot().at((x, y)))
    return ic


def _leds(d, at, data_net: str, count: int):
    """The level shifter, the series resistor and the LED chain with its bulk capacitor."""
    import schemdraw.elements as elm

    ic = _chip(d, "74AHCT125 (one gate used)", at,
               left=[("1A", 2, data_net), ("/1OE", 1, "GND")], right=[("1Y", 3, None)],
               top=[("VCC", 14, "+5VLED")], bottom=[("GND", 7, "GND")], width=1.2)
    d.add(elm.Label().at((ic.left1[0] - 4, ic.left1[1] - 3.6)).theta(0).label(
        "unused inputs 2A, 3A, 4A and /2OE, /3OE, /4OE\n(pins 4, 5, 9, 10, 12, 13) to GND",
        fontsize=FONT - 1, halign="left"))
    r = d.add(elm.Resistor().at(ic.right0).right(2.5).label("330 Ω", fontsize=FONT - 1))
    point = r.end
    names = ("LED 0 (a1)", "LED 1 (b1)", f"LED {count - 1} (status)")
    for i, name in enumerate(names):
        box = _chip(d, name, point, left=[("DIN", "", None)], right=[("DOUT", "", None)],
                    top=[("5V", "", "+5VLED")], bottom=[("GND", "", "GND")], width=0.5,
                    anchor="left0")
        end = (box.right0[0] + 1.8, box.right0[1])
        if i == 1:
            d.add(elm.Line().at(box.right0).to(end).linestyle(":"))
        elif i == 0:
            d.add(elm.Line().at(box.right0).to(end))
        point = end
    cap_x = ic.left0[0] - 4.5
    cap_y = ic.left0[1] - 4.5
    d.add(elm.Capacitor(polar=True).at((cap_x, cap_y)).down().label("1000 µF 10 V\nat LED 0", loc="bottom", fontsize=FONT - 1))
    _net(d, (cap_x, cap_y), "up", "+5VLED", 0.4)
    _net(d, (cap_x, cap_y - 2.5), "down", "GND", 0.4)
    d.add(elm.Capacitor().at((cap_x - 3, cap_y)).down().label("100 nF\nat the 74AHCT125", loc="bottom", fontsize=FONT - 1))
    _net(d, (cap_x - 3, cap_y), "up", "+5VLED", 0.4)
    _net(d, (cap_x - 3, cap_y - 2.5), "down", "GND", 0.4)
    return ic


def _buttons(d, at, pins: dict[str, int]):
    import schemdraw.elements as elm

    x, y = at
    for i, (event, pin) in enumerate(sorted(pins.items(), key=lambda kv: kv[1])):
        start = (x, y - 1.6 * i)
        lead = d.add(elm.Line().at(start).right(1.6).label(f"GPIO{pin}", loc="top", fontsize=FONT - 1))
        sw = d.add(elm.Button().at(lead.end).right(2).label(event.replace("_", " "), fontsize=FONT - 1))
        d.add(elm.Ground().at(sw.end))


def _title(d, at, text: str):
    import schemdraw.elements as elm

    d.add(elm.Label().at(at).theta(0).label(text, fontsize=FONT + 4, halign="left"))


def reference_svg(profile) -> str:
    """The reference board: Raspberry Pi Pico scanner, 4 muxes, sensors, LDO, LED chain."""
    import schemdraw.elements as elm

    c = fw_config
    d = _drawing()
    _title(d, (-4, 5), "Reference board (profile \"default\"): the Pico reads the sensors and drives the LEDs")
    sel = [f"S{i}" for i in range(4)]
    _chip(d, "Raspberry Pi Pico (MicroPython)", (0, -8),
          left=[("VBUS", 40, "+5VUSB"), ("GND", 38, "GND"), ("ADC_VREF", 35, "+3V3S"),
                ("AGND", 33, "GND"), (f"GP{c.ADC_PIN} / ADC0", 31, "SIG")],
          right=[(f"GP{p}", _pico_pin(p), n) for p, n in zip(c.SELECT_PINS, sel)]
          + [(f"GP{p}", _pico_pin(p), f"/E{k}") for k, p in enumerate(c.ENABLE_PINS)]
          + [(f"GP{c.LED_PIN}", _pico_pin(c.LED_PIN), "DIN")],
          width=2.2)
    d.add(elm.Label().at((-1, -10)).label("USB cable to the Pi: data and +5VUSB", fontsize=FONT, halign="left"))
    ranges = _mux_ranges(profile)
    for k in range(profile.mux.count):
        _mux(d, (15 + 14 * (k % 2), -1 - 8 * (k // 2)), k, sel, f"/E{k}", "SIG", *ranges[k])
    _sensor(d, (15, -15))
    _ldo(d, (31, -15), "+5VUSB")
    _leds(d, (4, -23), "DIN", profile.leds.count)
    if profile.buttons is not None and profile.buttons.pins:
        _buttons(d, (-4, -14), profile.buttons.pins)
    return _svg(d)


def direct_svg(profile) -> str:
    """The direct board: the Pi reads an MCP3208 on SPI0 and drives the mux selects and LEDs."""
    import schemdraw.elements as elm

    d = _drawing()
    led_via = "ws2812-pio (Pi 5)" if profile.leds.driver == "pio" else "rpi_ws281x"
    _title(d, (-4, 5), f"Direct board (profile \"{profile.name}\"): the Pi reads an {profile.adc.type} "
           f"on SPI{profile.adc.spi_port}, LEDs by {led_via}")
    sel = [f"S{i}" for i in range(4)]
    spi = {0: (11, 10, 9, 8 if profile.adc.spi_device == 0 else 7)}.get(profile.adc.spi_port, (21, 20, 19, 18))
    right = [(f"GPIO{p}", _header_pin(p), n) for p, n in zip(profile.mux.select, sel)]
    right += [(f"GPIO{spi[0]} SCLK", _header_pin(spi[0]), "CLK"), (f"GPIO{spi[1]} MOSI", _header_pin(spi[1]), "DIN_ADC"),
              (f"GPIO{spi[2]} MISO", _header_pin(spi[2]), "DOUT_ADC"), (f"GPIO{spi[3]} CE{profile.adc.spi_device}", _header_pin(spi[3]), "/CS")]
    if profile.leds.driver in ("ws281x", "pio"):
        right.append((f"GPIO{profile.leds.gpio}", _header_pin(profile.leds.gpio), "DIN"))
    _chip(d, "Raspberry Pi 40-pin header", (0, -8),
          left=[("5V", 2, "+5V"), ("GND", 6, "GND")], right=right, width=2.4)
    adc_pins = [(f"CH{ch}", ch + 1, f"SIG{k}") for k, ch in enumerate(profile.adc.mux_channels)]
    _chip(d, f"{profile.adc.type} ADC", (15, -9),
          left=adc_pins,
          right=[("CLK", 13, "CLK"), ("DIN", 11, "DIN_ADC"), ("DOUT", 12, "DOUT_ADC"), ("/CS", 10, "/CS"),
                 ("VDD", 16, "+3V3S"), ("VREF", 15, "+3V3S"), ("AGND", 14, "GND"), ("DGND", 9, "GND")],
          width=1.4)
    ranges = _mux_ranges(profile)
    for k in range(profile.mux.count):
        _mux(d, (31 + 14 * (k % 2), -1 - 8 * (k // 2)), k, sel, "GND", f"SIG{k}", *ranges[k])
    _sensor(d, (31, -16))
    _ldo(d, (47, -16), "+5V")
    d.add(elm.Label().at((15, -15)).label("a 100 nF capacitor at each mux's VCC and at the ADC's VDD",
                                           fontsize=FONT, halign="left"))
    if profile.leds.driver in ("ws281x", "pio"):
        _leds(d, (4, -24), "DIN", profile.leds.count)
    if profile.buttons is not None and profile.buttons.pins:
        _buttons(d, (-4, -16), profile.buttons.pins)
    return _svg(d)


def _mux_ranges(profile) -> list[tuple[str, str]]:
    """First and last space on each mux, in input order."""
    out = []
    for k in range(profile.mux.count):
        on = sorted((s for s in profile.spaces if s.mux == k), key=lambda s: s.input)
        out.append((on[0].name, on[-1].name) if on else ("-", "-"))
    return out


def _pico_pin(gp: int) -> int:
    """The Pico's physical pin of GPn (its 40-pin DIP outline)."""
    pins = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
            13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
            26: 31, 27: 32, 28: 34}
    return pins[gp]


def _header_pin(bcm: int) -> int:
    """The Raspberry Pi 40-pin header's physical pin of BCM GPIO `bcm`."""
    pins = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33,
            19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32,
            16: 36, 20: 38, 21: 40}
    return pins[bcm]
