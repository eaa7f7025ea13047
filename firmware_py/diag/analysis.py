"""What a run of sensor frames says about the sensors and the link: per-sensor statistics,
faulty sensors (dead, saturated, stuck, noisy) and frame rate, gaps and losses.

Pure functions on arrays of frames, shared by `diag sensors`, `diag selftest` and `diag calibrate`.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> raw = 2048 + rng.normal(0, 1, (100, 49)).round()
>>> raw[:, 3] = 0; raw[:, 5] = 2100; raw[:, 7] += rng.normal(0, 20, 100).round()
>>> [(f.name, f.kind) for f in find_faults(raw, Units())]
[('d1', 'dead'), ('f1', 'stuck'), ('h1', 'noisy')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..interfaces import SensorFrame
from ..spaces import N_SPACES, SPACES

SEQ_MOD = 1 << 16
FAULT_KINDS = ("dead", "saturated", "stuck", "noisy")

# Thresholds, in the board's own terms.
DEAD_FRACTION = 0.005  # reading within 0.5 % of code 0: no output at all
RAIL_FRACTION = 0.03  # within 3 % of full scale (or of 0, above the dead band): pinned
SATURATION_MT = 75.0  # an empty board reading this far from mid-scale: the sensor's own limit
NOISY_FACTOR = 4.0  # noise this many times the board's median...
NOISY_FLOOR_MT = 0.15  # ...and above this (mT RMS per reading) is a noisy sensor
STUCK_MIN_FRAMES = 20  # a stuck sensor is told from a quiet one only over enough frames
STUCK_BOARD_NOISE = 0.25  # codes: a board quieter than this cannot tell stuck from quiet
BOARD_NOISE_LIMIT_MT = 0.3  # median noise per reading above this: the whole board is noisy

CHECKS = {
    "dead": "no output: check the sensor's supply and ground, its solder joints and the wire "
            "to its multiplexer input",
    "saturated": "pinned at the end of its range: a magnet or piece near it, the output "
                 "shorted to the supply, or a more sensitive sensor variant than the profile's",
    "stuck": "never changes: the multiplexer input shorted to a fixed voltage or to its "
             "neighbour, or a broken select line on that multiplexer",
    "noisy": "far noisier than the rest: a loose joint or long unshielded wire; check the "
             "100 nF decoupling capacitor at the sensor",
    "swapped": "its reading comes in on another space's channel: check the two wires at the "
               "multiplexer inputs (or the multiplexers' order)",
    "silent": "no sensor answered a piece here: the sensor is dead or its channel is not read",
}


@dataclass(frozen=True)
class Units:
    """How raw codes relate to millitesla (nominal, from the board profile's sensor and ADC).

    >>> round(Units().codes_per_mt, 2), Units().mid_code
    (20.48, 2048.0)
    """

    adc_max: int = 4095
    mv_per_mt: float = 16.5
    supply_v: float = 3.3
    vref: float = 3.3

    @classmethod
    def from_profile(cls, profile) -> Units:
        return cls(profile.adc.max, profile.sensor.mv_per_mt, profile.sensor.supply_v,
                   profile.adc.vref)

    @property
    def codes_per_mt(self) -> float:
        return self.mv_per_mt / 1000 / self.vref * (self.adc_max + 1)

    @property
    def mid_code(self) -> float:
        """The code of zero field: a ratiometric sensor sits at half its supply."""
        return self.supply_v / 2 / self.vref * (self.adc_max + 1)

    def mt(self, codes):
        """Codes (a difference) in mT."""
        return np.asarray(codes, dtype=float) / self.codes_per_mt


def as_array(frames: Sequence[SensorFrame] | np.ndarray) -> np.ndarray:
    """Frames as a (T, 49) float array of raw codes."""
    if isinstance(frames, np.ndarray):
        raw = frames.astype(float)
    else:
        raw = np.array([f.raw for f in frames], dtype=float).reshape(-1, N_SPACES)
    if raw.ndim != 2 or raw.shape[1] != N_SPACES:
        raise ValueError(f"expected frames of {N_SPACES} readings, got shape {raw.shape}")
    return raw


@dataclass(frozen=True)
class SensorStats:
    """Per-sensor figures over a run of frames, in codes (arrays of 49)."""

    frames: int
    mean: np.ndarray
    median: np.ndarray
    std: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @property
    def board_noise(self) -> float:
        """The median sensor's noise (codes RMS): what a healthy sensor shows on this board."""
        return float(np.median(self.std))


def sensor_stats(frames) -> SensorStats:
    raw = as_array(frames)
    if len(raw) == 0:
        raise ValueError("no frames to analyse")
    return SensorStats(len(raw), raw.mean(0), np.median(raw, 0), raw.std(0), raw.min(0),
                       raw.max(0))


@dataclass(frozen=True)
class Finding:
    """One sensor that is not right."""

    space: int
    kind: str  # one of FAULT_KINDS (or 'swapped' / 'silent' from the wiring check)
    detail: str
    check: str = ""

    @property
    def name(self) -> str:
        return SPACES[self.space]

    def as_dict(self) -> dict:
        return {"space": self.name, "kind": self.kind, "detail": self.detail, "check": self.check}


def classify(stats: SensorStats, units: Units,
             empty_board: bool = True) -> dict[int, tuple[str, str]]:
    """space -> (kind, detail) for every faulty sensor; each gets the first kind that fits.

    `empty_board`: readings far from mid-scale mean saturation (with pieces on, they may not).
    """
    out: dict[int, tuple[str, str]] = {}
    can_tell_stuck = stuck_decidable(stats)
    top = units.adc_max
    noise = stats.std
    board = stats.board_noise
    floor = NOISY_FLOOR_MT * units.codes_per_mt
    for s in range(N_SPACES):
        med = stats.median[s]
        off_mt = (med - units.mid_code) / units.codes_per_mt
        if med <= DEAD_FRACTION * top:
            out[s] = ("dead", f"reads {med:.0f} of {top}")
        elif med >= (1 - RAIL_FRACTION) * top or med <= RAIL_FRACTION * top:
            out[s] = ("saturated", f"reads {med:.0f} of {top}")
        elif empty_board and abs(off_mt) >= SATURATION_MT:
            out[s] = ("saturated", f"{off_mt:+.0f} mT from mid-scale on an empty board")
        elif can_tell_stuck and stats.high[s] == stats.low[s]:
            out[s] = ("stuck", f"{med:.0f} in all {stats.frames} frames")
        elif noise[s] > NOISY_FACTOR * board and noise[s] > floor:
            ratio = f"{noise[s] / board:.0f}x" if board > 0.05 else "far above"
            out[s] = ("noisy", f"{units.mt(noise[s]):.2f} mT RMS, {ratio} the board's "
                               f"{units.mt(board):.3f}")
    return out


def stuck_decidable(stats: SensorStats) -> bool:
    """Whether a sensor that never changed is stuck rather than merely quiet: only over enough
    frames, on a board whose healthy sensors do show noise, and when few sensors are constant
    (many constant ones mean the ADC's steps are coarser than the noise, not many faults)."""
    constant = int(np.sum(stats.high == stats.low))
    return (stats.frames >= STUCK_MIN_FRAMES and stats.board_noise >= STUCK_BOARD_NOISE
            and constant <= N_SPACES // 4)


def find_faults(frames, units: Units, empty_board: bool = True, wiring=None) -> list[Finding]:
    """Faulty sensors over a run of frames, in space order; `wiring`: the profile's spaces
    (to name the multiplexer input in the advice)."""
    stats = frames if isinstance(frames, SensorStats) else sensor_stats(frames)
    found = []
    for s, (kind, detail) in sorted(classify(stats, units, empty_board).items()):
        found.append(Finding(s, kind, detail, CHECKS[kind] + where(wiring, s)))
    return found


def where(wiring, space: int) -> str:
    """' (mux 1 input 7)' for the space's sensor in a profile's wiring, or ''."""
    if wiring is None:
        return ""
    w = wiring[space]
    return f" (mux {w.mux} input {w.input})"


@dataclass
class LinkSummary:
    """Frame rate and continuity of a run of frames, on the source's clock."""

    frames: int = 0
    seconds: float = 0.0
    rate_hz: float = 0.0
    gaps: int = 0  # jumps in the sequence numbers
    lost: int = 0  # frames missing in those jumps
    extra: dict = field(default_factory=dict)  # the link's own counters (CRC errors...)

    def as_dict(self) -> dict:
        return {"frames": self.frames, "seconds": round(self.seconds, 3),
                "rate_hz": round(self.rate_hz, 1), "gaps": self.gaps, "lost": self.lost,
                **self.extra}


def link_summary(frames: Sequence[SensorFrame]) -> LinkSummary:
    """Rate over the frames' own times; gaps from their sequence numbers (16-bit, wrapping)."""
    out = LinkSummary(frames=len(frames))
    if len(frames) >= 2:
        out.seconds = frames[-1].time - frames[0].time
        if out.seconds > 0:
            out.rate_hz = (len(frames) - 1) / out.seconds
    for a, b in zip(frames, frames[1:]):
        step = (b.seq - a.seq) % SEQ_MOD
        if step != 1:
            out.gaps += 1
            out.lost += (step - 1) % SEQ_MOD
    return out
