"""`dvonn-board firmware`: the files of the installed package, copied whole, main.py last."""

import ast
import sys
from pathlib import Path

from firmware_py.cli import main
from dvonn_hw.firmware import install
from dvonn_hw.firmware.scanner import FIRMWARE_VERSION

HW = Path(__file__).parent.parent / "hw"


def test_copy_writes_the_package_files(tmp_path, capsys):
    assert main(["firmware", "copy", "--to", str(tmp_path / "pico")]) == 0
    names = sorted(p.name for p in (tmp_path / "pico").iterdir())
    assert names == ["config.py", "main.py", "protocol.py", "scanner.py"]
    assert (tmp_path / "pico" / "protocol.py").read_bytes() == (HW / "protocol.py").read_bytes()
    assert f"FIRMWARE_VERSION = {FIRMWARE_VERSION}" in (tmp_path / "pico" / "scanner.py").read_text()


def test_every_module_main_imports_is_copied():
    """main.py (and what it imports) finds each of our modules on the board."""
    ours = {dest[:-3] for _, dest in install.firmware_files()}
    for name in ("main.py", "scanner.py"):
        tree = ast.parse((HW / "firmware" / name).read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        builtin = {"sys", "time", "machine", "micropython", "neopixel", "select", "dvonn_hw"}
        assert imported - builtin <= ours, name
    assert install.firmware_files()[-1][1] == "main.py"


def test_install_runs_one_mpremote_command(capsys):
    calls = []

    class Done:
        returncode = 0

    status = install.install("/dev/ttyACM0", run=lambda cmd: calls.append(cmd) or Done())
    assert status == 0
    (cmd,) = calls
    assert cmd[:5] == [sys.executable, "-m", "mpremote", "connect", "/dev/ttyACM0"]
    assert cmd[-1] == "reset"
    copies = [(cmd[i + 1], cmd[i + 2]) for i, word in enumerate(cmd) if word == "cp"]
    assert [dest for _, dest in copies] == [":protocol.py", ":scanner.py", ":config.py", ":main.py"]
    for src, _ in copies:
        assert Path(src).is_file()


def test_dry_run_and_own_config(tmp_path, capsys):
    mine = tmp_path / "config.py"
    mine.write_text("NAME = 'mine'\n")
    assert main(["firmware", "install", "--dry-run", "--config", str(mine)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("would run: ") and f"{mine} :config.py" in out
    assert main(["firmware", "install", "--config", str(tmp_path / "nope.py")]) == 2
    assert "nope.py" in capsys.readouterr().err


def test_mpremote_failure_is_explained(capsys):
    class Failed:
        returncode = 1

    assert install.install(None, run=lambda cmd: Failed()) == 1
    assert "MicroPython on the Pico" in capsys.readouterr().out
