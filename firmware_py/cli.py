"""The `dvonn-board` command: a thin shell that hands each subcommand to its module.

Each module in `firmware_py.commands` offers `register(subparsers)`, which adds its subcommand
and sets `func(args) -> int` (the exit status) as the parser default. Modules are found by
listing the package, so adding a command touches no other file; `ORDER` (default 50) in a module
sorts `--help`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from . import __version__, commands


def command_modules() -> list:
    found = [importlib.import_module(f"{commands.__name__}.{m.name}")
             for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")]
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dvonn-board", description="The electronic DVONN board.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules():
        module.register(subparsers)
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
