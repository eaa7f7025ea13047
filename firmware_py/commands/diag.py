"""`dvonn-board diag ...`: the tools for building, calibrating and repairing a board (see
`firmware_py.diag`). Every subcommand works on the real board (`--profile`, `--port`) and on
the simulator (`--backend sim`, faults with `--fault`)."""

from __future__ import annotations

import importlib

ORDER = 60
SUBCOMMANDS = ("selftest", "sensors", "leds", "calibrate", "map", "ports")  # firmware_py.diag.*


def register(subparsers) -> None:
    p = subparsers.add_parser("diag", help="diagnostics: sensors, LEDs, calibration, wiring, "
                                           "self-test, serial ports",
                              description=__doc__.split("\n\n")[0])
    p.fill_later(_add_subcommands)  # they import numpy and more: only for `diag ...`
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1], simulator=simulator)


def _add_subcommands(p) -> None:
    sub = p.add_subparsers(dest="diag_command", metavar="DIAG_COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"firmware_py.diag.{name}").add_parser(sub)


def simulator(profile, **options):
    """The simulated board for `--backend sim` (built where the commands compose the parts)."""
    from dvonn_sim.compose import diag_board

    return diag_board(profile, **options)
