"""`diag sensors`: the 49 readings live on the hex board, as offset from the baseline in mT (as
`selftest` reports them: nominal, from the profile's sensor and ADC; with a calibration file,
each sensor's own gain), each sensor's noise, flags for dead / stuck / saturated / noisy
sensors, and the frame rate and link statistics.

The baseline is the mean of the first `--baseline` frames (keep the board as it should read
zero), or the calibration file's empty-board reading. Noise is the RMS of each sensor over the
last `--window` frames. Stops on Ctrl-C (LEDs off, port closed), or by itself after `--frames N`
or `--seconds S`.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from ..spaces import N_SPACES
from .analysis import classify, link_summary, sensor_stats
from .boardview import board_values, legend
from .common import Stop, Throttle, add_arguments, add_stop_arguments, console_for, fail, with_board


def add_parser(sub) -> None:
    p = sub.add_parser("sensors", help="live view of the 49 sensor readings",
                       description=__doc__.split("\n\n")[0])
    add_arguments(p)
    add_stop_arguments(p)
    p.add_argument("--calibration", metavar="FILE", default=None,
                   help="a calibration file: show mT and use its baselines")
    p.add_argument("--baseline", type=int, default=50, metavar="N",
                   help="frames averaged into the baseline (without a calibration)")
    p.add_argument("--window", type=int, default=100, metavar="N",
                   help="frames over which noise and flags are computed")
    p.set_defaults(func=run)


class SensorView:
    """The state of the live view: baseline, recent frames, and what to draw."""

    def __init__(self, board, calibration=None, baseline_frames: int = 50, window: int = 100):
        self.board = board
        self.cal = calibration
        self.baseline_frames = baseline_frames
        self.recent: deque = deque(maxlen=max(window, 2))
        self.first: list = []
        self.baseline: np.ndarray | None = None
        # Codes per mT, per sensor: nominal (the profile's sensor and ADC) unless calibrated.
        self.scale = np.full(N_SPACES, board.units.codes_per_mt)
        self.basis = "nominal"
        if calibration is not None:
            from .calibrate import sensor_gains
            self.baseline = np.asarray(calibration.baseline, dtype=float)
            gains = sensor_gains(calibration, board.profile)
            self.scale = np.array([calibration.codes_per_mt * (g if g and g > 0.2 else 1.0)
                                   for g in gains])
            self.basis = "calibrated"

    def add(self, frame) -> None:
        self.recent.append(frame)
        if self.baseline is None:
            self.first.append(frame.raw)
            if len(self.first) >= self.baseline_frames:
                self.baseline = np.mean(self.first, axis=0)
                self.first = []

    def render(self):
        frames = list(self.recent)
        if not frames:
            return Text("waiting for the first frame...")
        raw = np.asarray(frames[-1].raw, dtype=float)
        stats = sensor_stats(frames)
        flags = {s: kind for s, (kind, _) in classify(stats, self.board.units, False).items()}
        scale = self.scale
        if self.baseline is None:
            offsets = [None] * len(raw)
            title = f"offset from baseline (mT, {self.basis}): reading the baseline " \
                    f"({len(self.first)}/{self.baseline_frames})..."
        else:
            # + 0.0 turns a rounded -0.0 into 0.0: no "-0.0" on a quiet sensor
            offsets = [round(v, 1) + 0.0 for v in (raw - self.baseline) / scale]
            title = f"offset from baseline (mT, {self.basis})"
        noise = list(stats.std / scale)
        piece = (44.7 * self.board.units.codes_per_mt / scale).mean() * 0.2
        link = link_summary(frames)
        c = self.board.counters()
        status = Text(f"{c['frames']} frames · {link.rate_hz:.1f} frames/s · "
                      f"{c['gaps']} gaps ({c['lost']} lost) · {c['crc_errors']} CRC errors · "
                      f"noise over the last {len(frames)} frames")
        if flags:
            status.append("\nflagged: " + ", ".join(
                f"{self.board.wiring[s].name} {k}" for s, k in sorted(flags.items())),
                style="bold red")
        return Group(
            Panel(board_values(offsets, "{:+.1f}", flags, scale=piece), title=title,
                  expand=False),
            Panel(board_values(noise, "{:.2f}", flags,
                               scale=float(np.median(noise)) * 3 or 1.0, names=False),
                  title=f"noise (mT RMS, {self.basis})", expand=False),
            legend(), status)


def run(args, board=None) -> int:
    console = console_for(args)
    cal = None
    if args.calibration:
        from ..calibration import Calibration
        try:
            cal = Calibration.load(args.calibration)
        except (OSError, ValueError) as e:
            return fail("sensors", f"{args.calibration}: {e}")

    def body(board) -> int:
        view = SensorView(board, cal, args.baseline, args.window)
        stop = Stop(args.frames, args.seconds)
        redraw = Throttle(0.25)
        with Live(view.render(), console=console, auto_refresh=False) as live:
            while True:
                frame = board.read(timeout=1.0)
                if frame is not None:
                    view.add(frame)
                if stop(frame):
                    break
                if redraw():
                    live.update(view.render(), refresh=True)
            live.update(view.render(), refresh=True)
        if not console.is_terminal:
            console.line()  # the last picture ends its line in a log or a pipe too
        return 0

    if board is None and args.backend == "sim" and args.frames is None and args.seconds is None:
        args.real_time = True  # a person watching: the simulator at the wall clock's pace
    return with_board("sensors", args, body, board)
