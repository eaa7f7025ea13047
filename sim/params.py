"""Every physical number of the simulated board, in one place (the "reference board" of
shared/design/sensing.md by default), loadable from a TOML file.

>>> p = Params()
>>> p.magnets["W"].br_mt, p.noise_mt, p.adc_bits
(1450.0, 0.1, 12)
>>> Params.from_noise("bad").noise_mt
1.0
>>> Params.preset("rough").gain_spread, Params.preset("ideal").placement_mm
(0.15, 0.0)

The defaults are what a careful builder's board shows; `PRESETS` holds "rough" (every
imperfection at the top of what real boards show) and "ideal" (none at all: exact physics, for
tests that check the controller's arithmetic rather than its tolerance).

A TOML profile overrides any subset; unknown keys and wrong types raise `ProfileError` naming the
key::

    preset = "rough"          # start from a preset (default: "default")
    noise_mt = 0.3            # or: noise = "poor"
    offset_spread_mt = 5.0
    [magnets.D]
    thickness_mm = 3.0
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.errors import ProfileError

NOISE_LEVELS: dict[str, float] = {"clean": 0.0, "default": 0.1, "poor": 0.3, "bad": 1.0}
"""White noise per raw sample (mT RMS) at the benchmark noise levels of sensing.md."""


@dataclass(frozen=True)
class MagnetSpec:
    """A disc magnet in the base of a piece. polarity +1: north up, -1: south up.

    br_mt: remanence. 1450 mT (N52) reproduces sensing.md's table (44.7 mT at 5 mm for 6x2 mm).
    """

    diameter_mm: float = 6.0
    thickness_mm: float = 2.0
    br_mt: float = 1450.0
    polarity: int = 1


def _default_magnets() -> dict[str, MagnetSpec]:
    return {
        "W": MagnetSpec(polarity=1),
        "B": MagnetSpec(polarity=-1),
        "D": MagnetSpec(thickness_mm=3.0, polarity=1),
    }


@dataclass(frozen=True)
class HandTiming:
    """How long a person takes, in seconds: (low, high) ranges drawn uniformly per action."""

    think: tuple[float, float] = (0.4, 2.0)       # before starting a ply
    lift: tuple[float, float] = (0.15, 0.45)      # from resting to carry height
    set_down: tuple[float, float] = (0.15, 0.45)  # from carry height to resting
    carry_speed: tuple[float, float] = (150.0, 400.0)  # mm/s across the board
    react: tuple[float, float] = (0.25, 0.9)      # to notice the LEDs and respond
    knock: tuple[float, float] = (0.05, 0.12)     # a knocked stack slides away
    dwell: tuple[float, float] = (0.3, 0.7)       # hovering over a space on the way (a slide)
    fast_answer: tuple[float, float] = (0.03, 0.12)  # reply before the last move settled
    hover: tuple[float, float] = (0.1, 0.8)       # held just above the landing before contact
    hover_mm: tuple[float, float] = (0.5, 3.0)    # ... this far above it
    shortest_carry: float = 0.15                  # a carry takes at least this, however near


@dataclass(frozen=True)
class Params:
    """The reference board. Lengths in mm, fields in mT, times in s."""

    magnets: dict[str, MagnetSpec] = field(default_factory=_default_magnets)
    strength_spread: float = 0.10        # +-10 % magnet strength, piece to piece (one N52 batch)
    magnet_offset_mm: float = 0.3        # a magnet's axis up to this far off its piece's centre
    sensor_gap_mm: float = 5.0           # sensor to the bottom magnet of a resting stack
    piece_pitch_mm: float = 6.0          # height of a piece
    space_pitch_mm: float = 25.0         # between neighbouring intersections
    placement_mm: float = 1.0            # a piece set on an empty space lands up to this far off
    misalign_mm: float = 0.7             # a stack set on a stack lands up to this far off it
    nudge_mm: float = 0.2                # a landing shifts the stack below by up to this much
    hover_chance: float = 0.3            # share of landings on a stack held just above it first
    carry_height_mm: tuple[float, float] = (30.0, 60.0)  # a carried stack above the board
    sensitivity_mv_per_mt: float = 16.5  # DRV5055A3-like at 3.3 V, ratiometric
    supply_v: float = 3.3
    field_range_mt: float = 85.0         # output saturates beyond +-this
    offset_spread_mt: float = 3.0        # +- quiescent offset, sensor to sensor (uniform)
    gain_spread: float = 0.08            # +- sensitivity, sensor to sensor (uniform)
    drift_mt_per_min: float = 0.05       # each sensor drifts at up to this rate
    warmup_offset_mt: float = 0.5        # +- offset change while the board warms up ...
    warmup_gain: float = 0.01            # ... +- relative gain change ...
    warmup_tau_s: float = 120.0          # ... approached exponentially with this time constant
    mains_mt: float = 0.02               # mains pickup (amplitude at the worst sensor) ...
    mains_hz: float = 50.0               # ... at the mains frequency
    led_mt: float = 0.01                 # field of one fully lit LED at its own space's sensor
    spike_rate: float = 0.0              # chance per raw sample of a single-sample spike ...
    spike_mt: float = 20.0               # ... of up to this size
    noise_mt: float = 0.1                # white, RMS per raw sample
    oversample: int = 8                  # raw samples averaged per reading
    sample_us: float = 20.0              # time between raw samples while scanning a frame
    scanner: str = "serial"              # "serial": the Pico sends each reading rounded to a
    #                                      whole code; "direct": the Pi keeps the exact mean
    adc_bits: int = 12
    adc_vref: float = 3.3
    adc_inl_lsb: float = 1.0             # ADC integral non-linearity: a bow of this many codes
    adc_dnl_lsb: float = 0.3             # ADC differential non-linearity: code widths +- this
    frame_rate: float = 100.0            # frames per second
    timing: HandTiming = field(default_factory=HandTiming)

    @property
    def adc_max(self) -> int:
        return (1 << self.adc_bits) - 1

    @property
    def reading_step(self) -> float:
        """The finest step of a reading in codes: whole codes from the serial scanner, 1/N
        code from the direct scanner's mean of N raw samples."""
        return 1.0 / self.oversample if self.scanner == "direct" else 1.0

    @property
    def frame_period(self) -> float:
        return 1.0 / self.frame_rate

    @classmethod
    def from_noise(cls, level: str | float, **changes) -> "Params":
        """The reference board at a named noise level ('clean', 'default', 'poor', 'bad').
        'clean' (or 0) is free of every electrical disturbance: no white noise, mains
        pickup, LED fields or spikes."""
        return cls(**{**_electrical(noise_level(level)), **changes})

    @classmethod
    def preset(cls, name: str, noise: str | float | None = None, **changes) -> "Params":
        """A board from `PRESETS` ('default', 'rough', 'ideal'), at a noise level if given."""
        if name not in PRESETS:
            raise ProfileError("preset", f"unknown preset {name!r} (one of {', '.join(PRESETS)})")
        values = dict(PRESETS[name])
        if noise is not None:
            values.update(_electrical(noise_level(noise)))
        values.update(changes)
        p = cls(**values)
        p.check()
        return p

    def replace(self, **changes) -> "Params":
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_toml(cls, path: str | Path) -> "Params":
        try:
            data = tomllib.loads(Path(path).read_text())
        except tomllib.TOMLDecodeError as e:
            raise ProfileError(str(path), f"not valid TOML: {e}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict) -> "Params":
        """Build from plain values (as read from TOML); errors name the offending key."""
        data = dict(data)
        return cls.preset(_preset_name(data.pop("preset", "default"))).changed(data)

    def changed(self, data: dict) -> "Params":
        """This board with a profile's keys changed (plain values, as read from TOML: nested
        tables for `magnets` and `timing`); errors name the offending key::

            Params.preset("rough").changed({"sensor_gap_mm": 7,
                                            "magnets": {"D": {"br_mt": 1200}}})
        """
        data = dict(data)
        base = self
        changes = {}
        if "noise" in data:
            if "noise_mt" in data:
                raise ProfileError("noise", "give either noise or noise_mt, not both")
            changes["noise_mt"] = noise_level(data.pop("noise"))
        if "magnets" in data:
            changes["magnets"] = _magnets(data.pop("magnets"), base.magnets)
        if "timing" in data:
            changes["timing"] = _fill(HandTiming, base.timing, data.pop("timing"), "timing")
        p = _fill(type(self), base, data, "", skip=("magnets", "timing"))
        p = dataclasses.replace(p, **changes)
        p.check()
        return p

    def check(self) -> None:
        """Raise ProfileError naming the first value that makes no physical sense."""
        positive = ("sensor_gap_mm", "piece_pitch_mm", "space_pitch_mm", "sensitivity_mv_per_mt",
                    "supply_v", "field_range_mt", "oversample", "adc_bits", "adc_vref",
                    "frame_rate")
        for key in positive:
            if not getattr(self, key) > 0:
                raise ProfileError(key, f"must be > 0, not {getattr(self, key)!r}")
        for key in IMPERFECTIONS + ("noise_mt", "sample_us"):
            if getattr(self, key) < 0:
                raise ProfileError(key, f"must be >= 0, not {getattr(self, key)!r}")
        for key in ("strength_spread", "gain_spread", "warmup_gain", "hover_chance",
                    "spike_rate"):
            if not getattr(self, key) <= 1:
                raise ProfileError(key, f"must be a fraction 0..1, not {getattr(self, key)!r}")
        for key in ("warmup_tau_s", "mains_hz"):
            if not getattr(self, key) > 0:
                raise ProfileError(key, f"must be > 0, not {getattr(self, key)!r}")
        for kind in ("W", "B", "D"):
            if kind not in self.magnets:
                raise ProfileError(f"magnets.{kind}", "missing")
            m = self.magnets[kind]
            if m.polarity not in (1, -1):
                raise ProfileError(f"magnets.{kind}.polarity", "must be 1 (north up) or -1")
            for k in ("diameter_mm", "thickness_mm", "br_mt"):
                if not getattr(m, k) > 0:
                    raise ProfileError(f"magnets.{kind}.{k}", "must be > 0")
        if self.scanner not in SCANNERS:
            raise ProfileError("scanner", f"expected one of {', '.join(SCANNERS)}, "
                                          f"got {self.scanner!r}")
        lo, hi = self.carry_height_mm
        if not 0 < lo <= hi:
            raise ProfileError("carry_height_mm", "must be [low, high] with 0 < low <= high")


SCANNERS = ("serial", "direct")

ADC_BOARDS: dict[int, dict] = {
    12: {},  # the reference board: the Pico's 12-bit ADC, whole codes over serial
    # The `direct` profile with an MCP3008: 10 bits, each reading the mean of 4 raw samples
    # (hw/profiles/direct.toml says why 4) about 36 us apart, a fraction of a code. The
    # default noise per sample (0.1 mT, sensing.md's figure) is half a 10-bit code: it dithers.
    10: {"adc_bits": 10, "scanner": "direct", "oversample": 4, "sample_us": 36.0},
}
"""What `--adc BITS` stands for: keyword changes to a preset (autoplay, bench inference)."""


def adc_board(bits: int) -> dict:
    """The changes to a preset for a board with a `bits`-bit ADC (`ADC_BOARDS`)."""
    if bits not in ADC_BOARDS:
        raise ProfileError("adc_bits", f"expected one of {', '.join(map(str, ADC_BOARDS))}, "
                                       f"got {bits!r}")
    return ADC_BOARDS[bits]

IMPERFECTIONS = ("strength_spread", "magnet_offset_mm", "placement_mm", "misalign_mm",
                 "nudge_mm", "hover_chance", "offset_spread_mt", "gain_spread",
                 "drift_mt_per_min", "warmup_offset_mt", "warmup_gain", "mains_mt", "led_mt",
                 "spike_rate", "spike_mt", "adc_inl_lsb", "adc_dnl_lsb")
"""The parameters that make one board differ from the ideal one (all zero in "ideal")."""

PRESETS: dict[str, dict] = {
    "default": {},  # the dataclass defaults: a careful builder's board
    "rough": {      # the top of what real boards show (shared/design and issue 19's facts)
        "strength_spread": 0.10, "magnet_offset_mm": 1.0, "placement_mm": 2.5,
        "misalign_mm": 2.0, "nudge_mm": 1.0, "hover_chance": 1.0, "offset_spread_mt": 8.0,
        "gain_spread": 0.15, "drift_mt_per_min": 0.1, "warmup_offset_mt": 2.0,
        "warmup_gain": 0.03, "mains_mt": 0.1, "led_mt": 0.05, "spike_rate": 1e-4,
        "spike_mt": 40.0, "adc_inl_lsb": 2.0, "adc_dnl_lsb": 0.5},
    "ideal": {key: 0.0 for key in IMPERFECTIONS},
}
"""Named boards: keyword changes to `Params()`."""


def settings(lines) -> dict:
    """A profile's keys from `KEY=VALUE` lines (each a line of TOML, so dotted keys reach into
    tables: `magnets.D.br_mt=1200`), merged into one table for `Params.changed`.

    >>> settings(["sensor_gap_mm=7", "magnets.D.br_mt=1200", "magnets.W.br_mt=1200"])
    {'sensor_gap_mm': 7, 'magnets': {'D': {'br_mt': 1200}, 'W': {'br_mt': 1200}}}
    """
    merged: dict = {}
    for line in lines:
        try:
            data = tomllib.loads(line)
        except tomllib.TOMLDecodeError as e:
            raise ProfileError(line, f"not KEY=VALUE ({e})") from None
        _merge(merged, data)
    return merged


def _merge(into: dict, data: dict) -> None:
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


BEYOND: dict[str, list[str]] = {
    # Built differently: a thicker top, weaker magnets, both.
    "gap 4 mm": ["sensor_gap_mm=4"],
    "gap 7 mm": ["sensor_gap_mm=7"],
    "N35 magnets": ["magnets.W.br_mt=1200", "magnets.B.br_mt=1200", "magnets.D.br_mt=1200"],
    "N35, gap 6 mm": ["sensor_gap_mm=6", "magnets.W.br_mt=1200", "magnets.B.br_mt=1200",
                      "magnets.D.br_mt=1200"],
    "pieces 8 mm tall": ["piece_pitch_mm=8"],
    "DVONN magnet 6x2": ["magnets.D.thickness_mm=2"],
    # Other parts: a sensor of another sensitivity or spread, cheaper magnets.
    "13 mV/mT": ["sensitivity_mv_per_mt=13"],
    "20 mV/mT": ["sensitivity_mv_per_mt=20"],
    "offsets 20 mT": ["offset_spread_mt=20"],
    "gains 25 %": ["gain_spread=0.25"],
    "magnets 15 %": ["strength_spread=0.15"],
    # Other hands, rooms and supplies.
    "placed 3 mm off": ["placement_mm=3"],
    "nudges 2 mm": ["nudge_mm=2"],
    "drift 1 mT/min": ["drift_mt_per_min=1"],
    "warm-up 5 mT": ["warmup_offset_mt=5", "warmup_gain=0.06"],
    "mains 0.3 mT": ["mains_mt=0.3"],
    "spikes x10": ["spike_rate=0.001"],
    "50 frames/s": ["frame_rate=50"],
}
"""Boards a person can build that no preset covers, one difference at a time (`--set` lines):
`dvonn-board bench inference --beyond` plays each on top of the presets. The controller was
never tuned to them: they measure how it does on a board it has never seen."""


def _electrical(noise_mt: float) -> dict:
    """The changes for a noise level: a noise-free board has no disturbance at all."""
    if noise_mt:
        return {"noise_mt": noise_mt}
    return {"noise_mt": 0.0, "mains_mt": 0.0, "led_mt": 0.0, "spike_rate": 0.0}


def _preset_name(name) -> str:
    if not isinstance(name, str) or name not in PRESETS:
        raise ProfileError("preset", f"expected one of {', '.join(PRESETS)}, got {name!r}")
    return name


def noise_level(level, key: str = "noise") -> float:
    """mT per raw sample for a level name ('clean', 'default', 'poor', 'bad') or a number."""
    if isinstance(level, str):
        try:
            return NOISE_LEVELS[level]
        except KeyError:
            raise ProfileError(key, f"unknown noise level {level!r} "
                                    f"(one of {', '.join(NOISE_LEVELS)})") from None
    if isinstance(level, bool) or not isinstance(level, (int, float)) or level < 0:
        raise ProfileError(key, f"must be a noise level name or mT >= 0, not {level!r}")
    return float(level)


def _fill(cls, base, data, prefix: str, skip=()):
    """dataclasses.replace(base, **data) with each value checked against the field's type."""
    if not isinstance(data, dict):
        raise ProfileError(prefix.rstrip(".") or "profile", "must be a table")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name not in skip}
    changes = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if key not in fields:
            raise ProfileError(name, f"unknown key (known: {', '.join(sorted(fields))})")
        changes[key] = _convert(name, getattr(base, key), value)
    return dataclasses.replace(base, **changes)


def _convert(name: str, default, value):
    """value converted to the type of default, or ProfileError naming the key."""
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, tuple):
        ok = (isinstance(value, (list, tuple)) and len(value) == len(default)
              and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value))
        value = tuple(float(v) for v in value) if ok else value
    else:
        ok = True
    if not ok:
        raise ProfileError(name, f"expected {type(default).__name__} like {default!r}, "
                                 f"got {value!r}")
    return value


def _magnets(data, base: dict[str, MagnetSpec]) -> dict[str, MagnetSpec]:
    if not isinstance(data, dict):
        raise ProfileError("magnets", "must be a table of W, B, D")
    out = dict(base)
    for kind, spec in data.items():
        if kind not in base:
            raise ProfileError(f"magnets.{kind}", "unknown piece kind (W, B or D)")
        out[kind] = _fill(MagnetSpec, base[kind], spec, f"magnets.{kind}.")
    return out
