"""`dvonn-board firmware install [--port PORT] [--config FILE] [--dry-run]` and
`dvonn-board firmware copy --to DIR`: put this installation's scanner firmware on the Pico.

install runs mpremote to copy protocol.py, scanner.py, config.py and main.py from the installed
package onto a Pico already running MicroPython, then resets it. copy writes the same files
into a folder. --config uses your own config.py (other pins) instead of the reference one.
"""

from __future__ import annotations

import sys

ORDER = 72


def register(subparsers) -> None:
    p = subparsers.add_parser("firmware", help="copy the scanner firmware onto the Pico",
                              description=__doc__.split("\n\n")[1])
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    i = sub.add_parser("install", help="copy the firmware onto the Pico with mpremote and reset it")
    i.add_argument("--port", default=None, help="the Pico's port (default: mpremote finds it)")
    i.add_argument("--config", default=None, metavar="FILE", help="your own config.py")
    i.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    c = sub.add_parser("copy", help="copy the firmware files into a folder")
    c.add_argument("--to", required=True, metavar="DIR")
    c.add_argument("--config", default=None, metavar="FILE", help="your own config.py")
    p.set_defaults(func=run)


def run(args) -> int:
    from dvonn_hw.firmware import install as fw

    if args.config is not None:
        from pathlib import Path
        if not Path(args.config).is_file():
            print(f"dvonn-board firmware: --config {args.config}: no such file", file=sys.stderr)
            return 2
    if args.action == "copy":
        return fw.copy_to(args.to, args.config)
    return fw.install(args.port, args.config, args.dry_run)
