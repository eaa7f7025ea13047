"""`dvonn-board build-files --out DIR [--profile FILE]`: the files to build a board.

Writes, from the profile's geometry and wiring (`dvonn_hw.fabrication`, `dvonn_hw.bom`): board.dxf (the
drilling and milling layout for a CNC or a laser), template.svg and template.pdf (the same at
1:1 for a hand drill; the PDF is tiled on A4) and bom.csv (the parts list with prices), and
prints what it wrote.
"""

from __future__ import annotations

import sys

ORDER = 70


def register(subparsers) -> None:
    p = subparsers.add_parser("build-files", help="write the drilling layout, template and parts list",
                              description=__doc__.split("\n\n")[1])
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write into (made if missing)")
    p.add_argument("--profile", default="default",
                   help="a profile file, or 'default' / 'direct' / 'direct-pi5' (default: default)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dvonn_hw import bom, fabrication
    from dvonn_hw.profile import load_profile

    from ..errors import ProfileError

    try:
        profile = load_profile(args.profile)
    except ProfileError as e:
        print(f"dvonn-board build-files: profile: {e}", file=sys.stderr)
        return 2
    try:
        written = fabrication.write_all(args.out, profile)
    except RuntimeError as e:  # a missing optional library
        print(f"dvonn-board build-files: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"dvonn-board build-files: cannot write to {args.out}: {e.strerror or e}", file=sys.stderr)
        return 1
    g = profile.geometry
    for path in written:
        print(f"wrote {path}")
    from dvonn_hw.drawings.harness import wire_lengths_m
    from dvonn_hw.drawings.power import currents

    items, wire, amps = bom.parts(profile), wire_lengths_m(profile), currents(profile)
    print(f"{profile.name}: 49 spaces at {g.space_pitch_mm:g} mm, a {g.top_mm:g} mm panel, sensors "
          f"{g.sensor_gap_mm:g} mm below the magnets")
    print(f"parts about {bom.total(items):.0f} € (tools {bom.total(items, True) - bom.total(items):.0f} € "
          f"more), about {bom.build_hours()} hours to build")
    print(f"wire to cut: {wire['signal']} m signal, {wire['bus']} m buses, {wire['led_chain']} m "
          f"LED chain; sensor rail about {amps['sensor_rail']} mA, LEDs at most "
          f"{amps['leds_max'] / 1000:.1f} A")
    print("print template.pdf at actual size (100 %) and measure its 50 mm bar before drilling")
    return 0
