"""The build drawings in hw/README.md, made from the packaged profiles by code:
`python -m dvonn_hw.drawings [DIR]` writes DIR/*.svg (default DIR: hw/docs) and a PNG of each when
headless Chromium is found; a test checks that the SVGs in hw/docs are up to date.

=====================  ================================================  ==========
file                   what                                              made by
=====================  ================================================  ==========
schematic-default.svg  the reference board (Pico scanner)                schemdraw
schematic-direct.svg   the direct board (MCP3208 on the Pi's SPI)        schemdraw
harness.svg            sensor rows, mux inputs, the LED chain's order    our SVG
section.svg            one space in section, dimensioned                 our SVG
power-default.svg      supplies, rails, currents, the ground star        our SVG
power-direct.svg       the same for the direct board                     our SVG
=====================  ================================================  ==========
"""

from __future__ import annotations


def drawings() -> dict[str, callable]:
    """File name -> a function returning that drawing's SVG text."""
    from dvonn_hw.profile import load_profile

    from . import harness, power, schematics, section

    default, direct = load_profile("default"), load_profile("direct")
    return {
        "schematic-default.svg": lambda: schematics.reference_svg(default),
        "schematic-direct.svg": lambda: schematics.direct_svg(direct),
        "harness.svg": lambda: harness.harness_svg(default),
        "section.svg": lambda: section.section_svg(default),
        "power-default.svg": lambda: power.power_svg(default),
        "power-direct.svg": lambda: power.power_svg(direct),
    }
