"""`dvonn-board diag ...`: the tools for building, calibrating and repairing a board (see
`firmware_py.diag`). Every subcommand works on the real board (`--profile`, `--port`) and on
the simulator (`--backend sim`, faults with `--fault`)."""

from __future__ import annotations

from ..diag import calibrate, leds, ports, selftest, sensors
from ..diag import map as wiring_map

ORDER = 60
SUBCOMMANDS = (selftest, sensors, leds, calibrate, wiring_map, ports)


def register(subparsers) -> None:
    p = subparsers.add_parser("diag", help="diagnostics: sensors, LEDs, calibration, wiring, "
                                           "self-test, serial ports",
                              description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="diag_command", metavar="DIAG_COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(sub)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1], simulator=simulator)


def simulator(profile, **options):
    """The simulated board for `--backend sim` (built where the commands compose the parts)."""
    from sim.compose import diag_board

    return diag_board(profile, **options)
