"""`diag ports`: the machine's serial ports with their USB vendor and product, and which one is
most likely the scanner.

A port is the likely scanner when it is the profile's (or `--port`'s) port, or when its USB vendor
is the Raspberry Pi Foundation's (an RP2040 running the scanner firmware); a common USB-UART
bridge is a possible one. A port given by path that pyserial does not list (a pseudo-terminal,
e.g. the simulator's scanner emulation) is shown too, without USB information.

>>> from serial.tools.list_ports_common import ListPortInfo
>>> pico = ListPortInfo("/dev/ttyACM0"); pico.vid, pico.pid = 0x2E8A, 0x0005
>>> [(p.device, p.verdict) for p in survey([pico])]
[('/dev/ttyACM0', 'likely the scanner (RP2040 USB vendor)')]
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from serial.tools import list_ports

SCANNER_VIDS = {0x2E8A: "RP2040 USB vendor"}  # Raspberry Pi: Pico / RP2040 boards
BRIDGE_VIDS = {0x10C4: "CP210x USB-UART bridge", 0x1A86: "CH340 USB-UART bridge",
               0x0403: "FTDI USB-UART bridge", 0x067B: "PL2303 USB-UART bridge"}


@dataclass
class PortReport:
    device: str
    description: str = ""
    vid: int | None = None
    pid: int | None = None
    manufacturer: str | None = None
    product: str | None = None
    serial_number: str | None = None
    location: str | None = None
    verdict: str = ""  # '' or why it may be the scanner
    likely: bool = False

    @property
    def usb(self) -> str:
        return "" if self.vid is None else f"{self.vid:04x}:{self.pid or 0:04x}"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["usb"] = self.usb
        return d


def _real(path: str) -> str:
    try:
        return os.path.realpath(path)
    except OSError:
        return path


def survey(infos=None, expected: str | None = None) -> list[PortReport]:
    """Reports for the ports pyserial lists (or `infos`), plus `expected` (the profile's port)
    if it exists but is not listed; likely scanners first."""
    infos = list_ports.comports() if infos is None else list(infos)
    wanted = _real(expected) if expected else None
    out: list[PortReport] = []
    for info in infos:
        r = PortReport(info.device, info.description or "", info.vid, info.pid,
                       info.manufacturer, info.product, info.serial_number, info.location)
        if wanted and _real(info.device) == wanted:
            r.verdict, r.likely = f"the scanner's port ({expected})", True
        elif info.vid in SCANNER_VIDS:
            r.verdict, r.likely = f"likely the scanner ({SCANNER_VIDS[info.vid]})", True
        elif info.vid in BRIDGE_VIDS:
            r.verdict = f"possibly a scanner behind a {BRIDGE_VIDS[info.vid]}"
        out.append(r)
    if wanted and not any(_real(r.device) == wanted for r in out) and os.path.exists(expected):
        out.append(PortReport(expected, "not listed by the USB subsystem: a virtual port "
                              "(pseudo-terminal, e.g. the simulator) or a symlink",
                              verdict=f"the scanner's port ({expected})", likely=True))
    return sorted(out, key=lambda r: (not r.likely, not r.verdict, r.device))


def describe_missing(expected: str | None) -> str:
    """What to do when no scanner was found."""
    hint = ("no scanner found: plug it in (a data USB cable), check `dmesg` for a new ttyACM "
            "device, and that ModemManager leaves it alone (hw/README.md)")
    if expected and not os.path.exists(expected):
        hint += f"; the profile's port {expected} does not exist (the udev rule makes it)"
    return hint


# ----------------------------------------------------------------------------- command

def add_parser(sub) -> None:
    p = sub.add_parser("ports", help="serial ports with USB vendor/product; which is the scanner",
                       description="List serial ports with their USB vendor and product, "
                                   "pointing out the scanner. Exit 1 when none looks like it.")
    p.add_argument("--profile", metavar="FILE", default=None,
                   help="board profile whose scanner port to look for")
    p.add_argument("--port", metavar="PORT", default=None, help="the port to look for")
    p.add_argument("--json", action="store_true", help="print the ports as JSON")
    p.set_defaults(func=run)


def run(args, infos=None) -> int:
    import json

    from rich.table import Table

    from ..errors import ProfileError
    from .common import console_for, fail
    expected = args.port
    if expected is None:
        try:
            from dvonn_hw.profile import load_profile
            profile = load_profile(args.profile)
        except ProfileError as e:
            return fail("ports", str(e))
        if profile.scanner.kind == "serial":
            expected = profile.scanner.port
    reports = survey(infos, expected)
    found = any(r.likely for r in reports)
    if args.json:
        print(json.dumps({"expected": expected, "scanner_found": found,
                          "ports": [r.as_dict() for r in reports]}))
        return 0 if found else 1
    console = console_for(args)
    if reports:
        t = Table("port", "USB vid:pid", "description", "maker / product", "serial", "scanner?")
        for r in reports:
            maker = " / ".join(x for x in (r.manufacturer, r.product) if x)
            t.add_row(r.device, r.usb or "-", r.description, maker or "-",
                      r.serial_number or "-",
                      f"[bold green]{r.verdict}[/bold green]" if r.likely else r.verdict)
        console.print(t)
    else:
        console.print("no serial ports on this machine")
    if not found:
        console.print(describe_missing(expected))
    return 0 if found else 1
