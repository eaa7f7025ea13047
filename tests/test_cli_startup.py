"""What the command imports before it runs: `--help` and `replay FILE` must not pay for numpy,
rich, pyserial, SQLite or the AI (start-up time is measured by `dvonn-board bench startup`,
never asserted here)."""

import json
import subprocess
import sys
from pathlib import Path

from firmware_py.cli import main

RECORD = Path(__file__).parent / "data" / "games" / "littlegolem_dvonn_mc_2014_may_1_1.txt"
HEAVY = ("numpy", "rich", "serial", "sqlite3", "platformdirs", "gpiozero", "asyncio", "http",
         "inspect", "dataclasses", "firmware_py.ai", "firmware_py.store",
         "firmware_py.session", "firmware_py.controller", "firmware_py.diag", "firmware_py.web",
         "hw", "sim")


def imported_by(*argv) -> set[str]:
    """The modules a fresh interpreter holds after running `dvonn-board ARGV`."""
    code = ("import sys\nfrom firmware_py.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         check=True)
    return set(out.stderr.rsplit("MODULES ", 1)[1].split())


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY
                  or any(m.startswith(h + ".") for h in HEAVY))


def test_help_imports_nothing_heavy():
    assert heavy_in(imported_by("--help")) == []


def test_replay_imports_only_the_rules_and_the_records():
    modules = imported_by("replay", str(RECORD))
    assert heavy_in(modules) == []
    assert {"firmware_py.rules", "firmware_py.records"} <= modules


def test_diag_subcommands_are_still_all_there(capsys):
    try:
        main(["diag", "--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("selftest", "sensors", "leds", "calibrate", "map",
                                        "ports"))
    assert main(["diag"]) == 2


def test_bench_startup_prints_medians_and_ratios(capsys):
    assert main(["bench", "startup", "--runs", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert list(figures["ratio"]) == ["python -c 'import argparse'", "dvonn-board --help",
                                      "dvonn-board replay FILE"]
    assert figures["ratio"]["python -c 'import argparse'"] == 1.0
    assert all(ms > 0 for ms in figures["median_ms"].values())
