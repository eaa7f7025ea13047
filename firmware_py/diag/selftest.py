"""`diag selftest`: a non-interactive check of the whole board in a few seconds.

With the board empty: the link delivers frames, at the profile's rate, without gaps or CRC
errors; every sensor's noise; dead, stuck, saturated and noisy sensors; the LED strip started.
A human report or JSON; the exit status is 1 when anything is at fault.

>>> from dvonn_sim.compose import diag_board      # the simulator as `diag --backend sim` opens it
>>> with diag_board(faults=["stuck:c2"], seed=1) as board:
...     report = selftest(board, frames=100)
>>> report.ok, [(f.name, f.kind) for f in report.faults]
(False, [('c2', 'stuck')])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import LinkLost
from ..spaces import SPACES
from .analysis import (BOARD_NOISE_LIMIT_MT, Finding, LinkSummary, SensorStats, find_faults,
                       link_summary, sensor_stats, stuck_decidable)

RATE_TOLERANCE = 0.2  # a frame rate within 20 % of the profile's is fine
LOSS_LIMIT = 0.01  # more than 1 % of frames lost (or bad CRCs) is a fault


@dataclass
class Check:
    name: str
    ok: bool
    detail: str

    def as_dict(self) -> dict:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass
class Report:
    backend: str
    checks: list[Check] = field(default_factory=list)
    faults: list[Finding] = field(default_factory=list)
    stats: SensorStats | None = None
    link: LinkSummary | None = None
    units: object = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks) and not self.faults

    def noise_mt(self) -> list[float]:
        return [] if self.stats is None else [round(float(v), 4) for v in
                                              self.units.mt(self.stats.std)]

    def as_dict(self) -> dict:
        sensors = []
        if self.stats is not None:
            flags = {f.space: f.kind for f in self.faults}
            for s, name in enumerate(SPACES):
                sensors.append({"space": name, "mean": round(float(self.stats.mean[s]), 2),
                                "noise_mt": self.noise_mt()[s], "flag": flags.get(s)})
        return {"ok": self.ok, "backend": self.backend,
                "checks": [c.as_dict() for c in self.checks],
                "faults": [f.as_dict() for f in self.faults],
                "link": None if self.link is None else self.link.as_dict(),
                "notes": self.notes,
                "sensors": sensors}


def selftest(board, frames: int = 200, timeout: float = 2.0) -> Report:
    """Read `frames` frames of the (empty) board and judge link, sensors and LEDs."""
    report = Report(board.kind, units=board.units)
    got = []
    error = ""
    try:
        while len(got) < frames:
            frame = board.read(timeout=timeout)
            if frame is None:
                error = f"no frame within {timeout:g} s"
                break
            got.append(frame)
    except LinkLost as e:
        error = f"link lost: {e}"
    ok = len(got) >= min(frames, 10)
    report.checks.append(Check("link", ok, f"{len(got)} frames" + (f"; {error}" if error else "")))

    summary = link_summary(got)
    counters = board.counters()
    summary.extra = {k: counters[k] for k in ("crc_errors", "truncated", "garbage_bytes",
                                               "link_losses") if k in counters}
    report.link = summary
    if len(got) >= 2:
        want = board.profile.scanner.rate_hz if board.kind == "hw" else \
            getattr(getattr(board.sim, "params", None), "frame_rate", summary.rate_hz)
        ok = abs(summary.rate_hz - want) <= RATE_TOLERANCE * want
        report.checks.append(Check("frame rate", ok, f"{summary.rate_hz:.1f} frames/s "
                                                     f"(expected {want:g})"))
        bad = summary.lost + counters.get("crc_errors", 0) + counters.get("truncated", 0)
        ok = bad <= LOSS_LIMIT * max(len(got), 1)
        report.checks.append(Check("continuity", ok,
                                   f"{summary.gaps} gaps, {summary.lost} frames lost, "
                                   f"{counters.get('crc_errors', 0)} CRC errors, "
                                   f"{counters.get('truncated', 0)} truncated"))
    if len(got) >= 2:
        stats = sensor_stats(got)
        report.stats = stats
        report.faults = find_faults(stats, board.units, empty_board=True, wiring=board.wiring)
        if not stuck_decidable(stats):
            report.notes.append("the readings are too quiet (or too coarse) to tell a stuck "
                                "sensor from a quiet one: stuck sensors are not checked")
        healthy = np.ones(len(SPACES), dtype=bool)
        healthy[[f.space for f in report.faults]] = False
        board_mt = float(board.units.mt(np.median(stats.std[healthy]))) if healthy.any() else 0.0
        report.checks.append(Check("noise", board_mt <= BOARD_NOISE_LIMIT_MT,
                                   f"median {board_mt:.3f} mT RMS per reading "
                                   f"(limit {BOARD_NOISE_LIMIT_MT:g})"))
    ok, detail = board.led_startup()
    report.checks.append(Check("LED strip", ok, detail))
    return report


# ----------------------------------------------------------------------------- command

def add_parser(sub) -> None:
    from .common import add_arguments
    p = sub.add_parser("selftest", help="non-interactive check: link, rate, noise, faulty "
                                        "sensors, LEDs (exit 1 on a fault)",
                       description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--frames", type=int, default=200, metavar="N",
                   help="frames to analyse (default 200: 2 s at 100 frames/s)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=run)


def run(args, board=None) -> int:
    import json

    from .common import console_for, with_board
    console = console_for(args)

    def body(board) -> int:
        report = selftest(board, frames=args.frames)
        if args.json:
            print(json.dumps(report.as_dict()))
        else:
            show(console, report)
        return 0 if report.ok else 1

    return with_board("selftest", args, body, board, person=False)


def show(console, report: Report) -> None:
    from rich.table import Table

    from .boardview import board_values, legend
    t = Table("check", "", "detail", title=f"self-test ({report.backend})")
    for c in report.checks:
        t.add_row(c.name, "[green]ok[/green]" if c.ok else "[bold red]FAULT[/bold red]", c.detail)
    console.print(t)
    if report.stats is not None:
        flags = {f.space: f.kind for f in report.faults}
        console.print("noise per sensor (mT RMS per reading):")
        console.print(board_values(report.noise_mt(), "{:.3f}", flags, scale=0.1))
        console.print(legend())
    if report.faults:
        f = Table("space", "fault", "detail", "what to check", title="faulty sensors")
        for x in report.faults:
            f.add_row(x.name, x.kind, x.detail, x.check)
        console.print(f)
    for note in report.notes:
        console.print(f"note: {note}")
    console.print("[green]PASS[/green]" if report.ok else "[bold red]FAIL[/bold red]")
