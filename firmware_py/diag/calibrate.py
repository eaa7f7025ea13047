"""`diag calibrate`: guided calibration. The empty board gives every sensor's baseline and
noise; then the LEDs ask for one piece on each space in turn ("put it here", then "take it
off"), which gives each sensor's response to a known magnet and its neighbours' cross-talk.
Writes the calibration file the controller loads (`firmware_py.calibration`), and reports each
sensor's offset and gain and the outliers, with what to check for each.

Offset: the empty reading's distance from mid-scale, in mT (a healthy sensor: within a few mT).
Gain: the response to one piece against the nominal one (44.7 mT for a 6x2 mm N52 magnet 5 mm
above the sensor), 1.00 being nominal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.table import Table

from ..spaces import SPACES, parse_space
from .analysis import CHECKS, classify, where
from .boardview import board_values
from .common import add_arguments, console_for, fail, with_board
from .prompts import Interaction

NOMINAL_MT = {"W": 44.7, "B": 44.7, "D": 57.0}  # one piece 5 mm above the sensor (sensing.md)
GAIN_LIMIT = 0.2  # a gain this far from the board's median is an outlier
OFFSET_LIMIT_MT = 10.0  # an empty reading this far from mid-scale is an outlier
DEFAULT_FILE = "calibration.json"

ADVICE = {
    "offset": "empty reading far from mid-scale: a magnet or steel near the sensor, or a "
              "different sensor variant (check the part number)",
    "low gain": "weak response: the sensor sits deeper than the others or off-centre under "
                "the space (check its height and position), or a weak magnet in that piece",
    "high gain": "strong response: the sensor sits closer to the surface than the others, or "
                 "a more sensitive sensor variant",
    "reversed": "responds with the wrong sign: the sensor is mounted upside down, or the "
                "piece's magnet is flipped",
    "elsewhere": "the piece was read on another space's channel: run `diag map` to check the "
                 "wiring",
    "silent": CHECKS["silent"],
}


def default_path() -> Path:
    """The calibration file in the user's data directory (beside the games database)."""
    import platformdirs
    return Path(platformdirs.user_data_dir("dvonn-board")) / DEFAULT_FILE


def polarity(profile, kind: str) -> float:
    """+1 when the piece kind's magnet has north up (reads positive), -1 for south up."""
    names = {"W": "white", "B": "black", "D": "dvonn"}
    magnet = profile.magnets.get(names[kind]) if profile is not None else None
    if magnet is None:
        return -1.0 if kind == "B" else 1.0
    return 1.0 if magnet.polarity == "north" else -1.0


def sensor_gains(cal, profile=None) -> list[float | None]:
    """Each sensor's response relative to the nominal one (None where not measured)."""
    out = []
    for r, k in zip(cal.response, cal.kind):
        if r is None or k is None:
            out.append(None)
        else:
            out.append(r / (NOMINAL_MT[k] * cal.codes_per_mt * polarity(profile, k)))
    return out


@dataclass
class Outlier:
    space: int
    problem: str
    detail: str
    check: str

    def as_dict(self) -> dict:
        return {"space": SPACES[self.space], "problem": self.problem, "detail": self.detail,
                "check": self.check}


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="guided calibration: empty board, then one piece per "
                                         "space as the LEDs ask",
                       description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--output", "-o", metavar="FILE", default=None,
                   help=f"calibration file to write (default: {DEFAULT_FILE} in the user's "
                        "data directory)")
    p.add_argument("--spaces", metavar="LIST", default=None,
                   help="only these spaces (e.g. e3,f3), updating an existing file")
    p.add_argument("--kind", choices=("W", "B", "D"), default="W",
                   help="the piece to place each time (default W)")
    p.add_argument("--baseline", type=int, default=100, metavar="N",
                   help="empty-board frames for the baseline")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="seconds to wait for each piece")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def calibrate(board, spaces, kind: str = "W", baseline_frames: int = 100, cal=None,
              say=lambda text: None, timeout_s: float = 30.0):
    """Run the guided calibration on `board` for `spaces`; returns (calibration, flagged, answers)
    where flagged maps a space to its baseline fault kind."""
    from ..calibration import Calibration
    units = board.units
    if cal is None:
        cal = Calibration.nominal(units.adc_max, units.mv_per_mt, units.supply_v)
    it = Interaction(board, say, timeout_s=timeout_s)
    stats = it.read_baseline(baseline_frames)
    cal.set_empty(stats.mean, stats.std)
    flagged = {s: k for s, (k, _) in classify(stats, units, empty_board=True).items()}
    it.ignore = {s for s, k in flagged.items() if k != "noisy"}  # noisy still answers
    answers = {}
    for n, space in enumerate(spaces, 1):
        if space in flagged and flagged[space] != "noisy":
            continue  # a dead, stuck or pinned sensor cannot answer: reported, not asked
        answer = it.ask_piece(space, f"a {kind} piece", f"[{n}/{len(spaces)}] ")
        answers[space] = answer
        if answer.reading is not None:
            cal.learn_placement(space, kind, it.baseline, answer.reading)
        it.ask_clear(space, answered=not answer.silent)
    return cal, flagged, answers


def outliers(cal, flagged, answers, profile) -> list[Outlier]:
    """What looks wrong, with what to check."""
    out = []
    units_mid = (profile.adc.max + 1) * profile.sensor.supply_v / 2 / profile.adc.vref
    wiring = profile.spaces
    for s, kind in sorted(flagged.items()):
        out.append(Outlier(s, kind, "in the empty-board reading", CHECKS[kind] + where(wiring, s)))
    gains = sensor_gains(cal, profile)
    known = [g for g in gains if g is not None and g > 0]
    median = float(np.median(known)) if known else 1.0
    for s in range(len(SPACES)):
        if s in flagged:
            continue
        off = (cal.baseline[s] - units_mid) / cal.codes_per_mt
        if abs(off) > OFFSET_LIMIT_MT:
            out.append(Outlier(s, "offset", f"{off:+.1f} mT", ADVICE["offset"]))
        a = answers.get(s)
        if a is None:
            continue
        if a.silent:
            out.append(Outlier(s, "silent", "no sensor answered",
                               ADVICE["silent"] + where(wiring, s)))
        elif a.sensor != s:
            out.append(Outlier(s, "elsewhere", f"answered on {SPACES[a.sensor]}'s channel",
                               ADVICE["elsewhere"]))
        elif gains[s] is not None and gains[s] < 0:
            out.append(Outlier(s, "reversed", f"gain {gains[s]:+.2f}", ADVICE["reversed"]))
        elif gains[s] is not None and abs(gains[s] - median) > GAIN_LIMIT * median:
            problem = "low gain" if gains[s] < median else "high gain"
            out.append(Outlier(s, problem, f"gain {gains[s]:.2f} (board median {median:.2f})",
                               ADVICE[problem]))
    return out


def run(args, board=None) -> int:
    console = console_for(args)
    from ..calibration import Calibration
    path = Path(args.output) if args.output else default_path()
    try:
        spaces = [parse_space(s) for s in args.spaces.split(",")] if args.spaces else \
            list(range(len(SPACES)))
    except ValueError as e:
        return fail("calibrate", f"--spaces: {e}")
    cal = None
    if args.spaces and path.exists():
        try:
            cal = Calibration.load(path)
        except (OSError, ValueError) as e:
            return fail("calibrate", f"{path}: {e}")

    def say(text: str) -> None:
        if not args.json:
            console.print(text, highlight=False)

    def body(board) -> int:
        if board.person is not None:
            board.person.kind = args.kind  # the simulated person places what it is asked for
        result, flagged, answers = calibrate(board, spaces, args.kind, args.baseline, cal, say,
                                             args.timeout)
        result.save(path)
        found = outliers(result, flagged, answers, board.profile)
        if args.json:
            print(json.dumps({"file": str(path), "ok": not found,
                              "sensors": sensor_rows(result, board),
                              "outliers": [o.as_dict() for o in found]}))
        else:
            report(console, result, found, board, path)
        return 1 if found else 0

    return with_board("calibrate", args, body, board)


def sensor_rows(cal, board) -> list[dict]:
    mid = board.units.mid_code
    gains = sensor_gains(cal, board.profile)
    return [{"space": name, "offset_mt": round((cal.baseline[s] - mid) / cal.codes_per_mt, 3),
             "gain": None if gains[s] is None else round(gains[s], 3),
             "noise_mt": round(cal.noise[s] / cal.codes_per_mt, 4)}
            for s, name in enumerate(SPACES)]


def report(console, cal, found, board, path) -> None:
    rows = sensor_rows(cal, board)
    styles = {o.space: "wrong" for o in found}
    console.print("offset from mid-scale (mT):")
    console.print(board_values([r["offset_mt"] for r in rows], "{:+.1f}", styles, scale=3.0))
    console.print("gain (1.00 = nominal):")
    console.print(board_values([r["gain"] for r in rows], "{:.2f}", styles, scale=10.0))
    if found:
        t = Table("space", "problem", "detail", "what to check", title="outliers")
        for o in found:
            t.add_row(SPACES[o.space], o.problem, o.detail, o.check)
        console.print(t)
    else:
        console.print("no outliers")
    console.print(f"calibration written to {path}")


__all__ = ["calibrate", "outliers", "sensor_gains", "default_path", "run", "add_parser"]
