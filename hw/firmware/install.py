"""Copying the scanner firmware from the installed package onto a MicroPython board.

`dvonn-board firmware install` runs mpremote (``pip install 'dvonn-board[pico]'``) with the
files of *this installation*, so the Pico and the Pi always run the same version (the Pi checks
it: `FIRMWARE_VERSION` in scanner.py). ``--to DIR`` copies them into a folder instead (for
Thonny, or to look at them).

>>> [dest for _, dest in firmware_files()]
['protocol.py', 'scanner.py', 'config.py', 'main.py']
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

# MicroPython for the Raspberry Pi Pico (board RPI_PICO); the tests run the firmware on 1.27.
MICROPYTHON_MIN = "1.22"
MICROPYTHON_TESTED = "1.27"
UF2_PAGE = "https://micropython.org/download/RPI_PICO/"


def firmware_files(config: str | Path | None = None) -> list[tuple[Path, str]]:
    """(source in the installed package, name on the board), main.py last: it starts the scanner
    at the next reset, so everything it imports must be there first."""
    hw = resources.files("dvonn_hw")
    fw = hw / "firmware"
    return [(Path(str(hw / "protocol.py")), "protocol.py"),
            (Path(str(fw / "scanner.py")), "scanner.py"),
            (Path(config) if config else Path(str(fw / "config.py")), "config.py"),
            (Path(str(fw / "main.py")), "main.py")]


def mpremote_command(port: str | None, files: list[tuple[Path, str]]) -> list[str]:
    """One mpremote call: connect, copy each file, reset (which starts main.py)."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port or "auto"]
    for src, dest in files:
        cmd += ["cp", str(src), f":{dest}", "+"]
    return cmd + ["reset"]


def install(port: str | None = None, config: str | Path | None = None, dry_run: bool = False,
            say=print, run=subprocess.run) -> int:
    files = firmware_files(config)
    for src, _ in files:
        if not src.is_file():
            say(f"cannot find {src}")
            return 2
    cmd = mpremote_command(port, files)
    say(("would run: " if dry_run else "running: ") + " ".join(cmd))
    if dry_run:
        return 0
    if importlib.util.find_spec("mpremote") is None:
        say("mpremote is not installed: pip install mpremote (or the extra: "
            "pip install 'dvonn-board[pico]'), in the same venv as dvonn-board")
        return 1
    result = run(cmd)
    if result.returncode != 0:
        say(f"mpremote failed (status {result.returncode}). Is MicroPython on the Pico "
            f"(hw/README.md, \"Flash the Pico\") and the dvonn-board service stopped "
            "(sudo systemctl stop dvonn-board)?")
        return 1
    say("done: the Pico restarted with this installation's firmware")
    return 0


def copy_to(folder: str | Path, config: str | Path | None = None, say=print) -> int:
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for src, dest in firmware_files(config):
            shutil.copyfile(src, folder / dest)
            say(f"copied {folder / dest}")
    except OSError as exc:
        say(f"cannot copy the firmware to {folder}: {exc.strerror or exc}")
        return 1
    return 0
