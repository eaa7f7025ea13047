"""The `dvonn-board` command: a thin shell that hands each subcommand to its module.

Each module in `firmware_py.commands` offers `register(subparsers)`, which adds its subcommand
and sets `func(args) -> int` (the exit status) as the parser default. Modules are found by
listing the package, so adding a command touches no other file; `ORDER` (default 50) in a module
sorts `--help`.

Start-up time counts on a Pi (every import is paid on each run): a command module imports at
its top only what building its parser needs, and the rest inside the function that runs it. A
parser whose arguments come from heavy modules fills itself when first used
(`LazyParser.fill_later`). `dvonn-board bench startup` measures it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from . import __version__, commands


class LazyParser(argparse.ArgumentParser):
    """An ArgumentParser that can add its arguments only when it is used (to parse or to print
    its help), so that listing the subcommands imports none of their heavy modules."""

    _filler = None

    def fill_later(self, fill) -> None:
        """Call `fill(self)` before this parser is first used."""
        self._filler = fill

    def _fill(self) -> None:
        fill, self._filler = self._filler, None
        if fill is not None:
            fill(self)

    def parse_known_args(self, args=None, namespace=None):
        self._fill()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._fill()
        return super().format_help()

    def format_usage(self) -> str:
        self._fill()
        return super().format_usage()


def command_modules() -> list:
    # A plain listing of the folder (pkgutil.iter_modules costs an import of `inspect`).
    names = sorted({f[:-3] for folder in commands.__path__ for f in os.listdir(folder)
                    if f.endswith(".py") and not f.startswith("_")})
    found = [importlib.import_module(f"{commands.__name__}.{name}") for name in names]
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))


def build_parser() -> argparse.ArgumentParser:
    parser = LazyParser(prog="dvonn-board", description="The electronic DVONN board.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")  # LazyParsers too
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
