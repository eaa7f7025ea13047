"""The `dvonn-board` command: a thin shell that hands each subcommand to its module.

Each module in `firmware_py.commands` offers `register(subparsers)`, which adds its subcommand
and sets `func(args) -> int` (the exit status) as the parser default.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

# One module per top-level subcommand, in the order `--help` lists them.
COMMAND_MODULES = (
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dvonn-board", description="The electronic DVONN board.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"firmware_py.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
