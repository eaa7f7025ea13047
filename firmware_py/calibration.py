"""Per-sensor calibration: empty-board baselines, single-piece responses, cross-talk, drift.

No separate calibration step is needed. The empty board at the start of a game gives each
sensor's baseline and noise; each placement then gives, for the space it lands on, the reading
of one known piece on that sensor (the rules engine knows what was placed where), and for its
neighbours the cross-talk of that piece. A calibration saved by the diagnostics CLI is used when
present (baselines are re-read from an empty board anyway; the rest is kept until relearned).

Everything is in ADC codes. Responses are signed: a piece whose north pole faces up (White,
DVONN on the reference board) reads positive.

File format (JSON, `save` / `load`)::

    {"format": "dvonn-board calibration", "version": 1,
     "codes_per_mt": 20.48,                  # nominal sensor gain used for priors
     "baseline": [49 numbers],               # empty-board reading of each sensor (codes)
     "noise": [49 numbers],                  # RMS noise of one reading (codes)
     "response": [49 numbers or null],       # signed reading of the bottom piece placed there
     "kind": [49 of "W" | "B" | "D" | null], # which piece kind gave `response`
     "crosstalk": {"e3": {"d3": -6.1, ...}}} # sensor e3 <- the bottom piece on d3, per unit
                                             # polarity (codes)

>>> cal = Calibration.nominal(adc_max=4095)
>>> round(cal.baseline[0]), round(cal.codes_per_mt, 2)
(2048, 20.48)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ProfileError
from .spaces import INDEX, N_SPACES, SPACES

FORMAT = "dvonn-board calibration"
VERSION = 1
POLARITY = {"W": 1.0, "B": -1.0, "D": 1.0}  # reference board: White and DVONN north up
PRIOR_DVONN_FACTOR = 1.275  # a 6x3 DVONN magnet against a 6x2 one at 5 mm (exact cylinder)
NOMINAL_UNIT_MT = 44.7  # a White piece: a 6x2 mm N52 magnet at 5 mm (sensing.md)


@dataclass
class Calibration:
    """What the controller knows about each sensor (see the module docstring)."""

    codes_per_mt: float
    baseline: list[float]
    noise: list[float]
    response: list[float | None] = field(default_factory=lambda: [None] * N_SPACES)
    kind: list[str | None] = field(default_factory=lambda: [None] * N_SPACES)
    crosstalk: dict[tuple[int, int], float] = field(default_factory=dict)  # (sensor, source)
    polarity: dict[str, float] = field(default_factory=lambda: dict(POLARITY))
    baseline_known: bool = False  # True once read from an empty board (or a saved file)
    # Spaces whose baselines were never read empty: a game resumed with no calibration file
    # reads only its empty spaces; under a stack the sensor's offset (+-20 mT) is unknown.
    unread: set[int] = field(default_factory=set)
    # Per space, how far (codes) its baseline may be off, having aged under a stack on a board
    # seen drifting with no reading to follow it (`Reference._age_baselines`); read afresh
    # from the empty space once the stack has left.
    aged: dict[int, float] = field(default_factory=dict)
    version: int = 0  # bumped by every change of a response (models cache what they derive)

    def changed(self) -> None:
        """Say that responses or cross-talk changed (call after editing them directly)."""
        self.version += 1
        self._cache = {}

    def _cached(self, key, compute):
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def nominal(cls, adc_max: int = 4095, mv_per_mt: float = 16.5, supply_v: float = 3.3,
                noise_mt: float = 0.05) -> "Calibration":
        """A calibration from datasheet figures only: mid-scale baselines, nominal gain."""
        codes_per_mt = mv_per_mt * (adc_max + 1) / (supply_v * 1000.0)
        mid = (adc_max + 1) / 2.0
        return cls(codes_per_mt, [mid] * N_SPACES, [noise_mt * codes_per_mt] * N_SPACES)

    # -- learning ----------------------------------------------------------------------------
    def set_empty(self, values, spread) -> None:
        """Take an empty board's settled snapshot as every sensor's baseline and noise."""
        self.baseline = [float(v) for v in values]
        self.noise = [max(float(s), 0.05) for s in spread]
        self.baseline_known = True
        self.unread = set()
        self.aged = {}
        self.changed()

    def learn_placement(self, space: int, kind: str, before, after, *, others=()) -> None:
        """Learn from a placement of one `kind` piece on `space`: `before`/`after` are the
        settled readings around it. Cross-talk is learned for its neighbours within two steps,
        unless `others` (spaces that also changed in between) make it unclear."""
        delta = [a - b for a, b in zip(after, before)]
        self.response[space] = delta[space]
        self.kind[space] = kind
        self.changed()
        if others:
            return
        # Cross-talk is about 1 % of a piece's own field (0.2-0.5 mT at 25-30 mm): a neighbour
        # that moved by more than 5 % of it felt something else as well (a hand, a knocked
        # stack, the next piece already coming): learn no cross-talk from this placement.
        if any(abs(delta[s]) > 0.05 * abs(delta[space]) for s in NEAR[space]):
            return
        for s in NEAR[space]:  # per unit polarity, for this kind of piece at the bottom
            self.crosstalk[(s, space)] = delta[s] / self.polarity[kind]

    def dvonn_factor(self) -> float:
        """|DVONN response| / |White or Black response|, learned once both were placed."""
        return self._cached("dvonn", self._dvonn_factor)

    def _dvonn_factor(self) -> float:
        d = [abs(r) for r, k in zip(self.response, self.kind) if k == "D" and r is not None]
        p = [abs(r) for r, k in zip(self.response, self.kind) if k in ("W", "B") and r is not None]
        if len(d) < 1 or len(p) < 4:
            return PRIOR_DVONN_FACTOR
        return (sum(d) / len(d)) / _median(p)

    def unit(self, space: int) -> float:
        """The magnitude (codes) of one White/Black bottom piece on this sensor: learned, or the
        board's typical value, or the nominal prior."""
        return self._cached(("unit", space), lambda: self._unit(space))

    def _unit(self, space: int) -> float:
        r, k = self.response[space], self.kind[space]
        if r is not None:
            return abs(r) / (self.dvonn_factor() if k == "D" else 1.0)
        return self.typical_unit()

    def strength_learned(self) -> bool:
        """Whether a White or Black piece has been read on this board (`typical_unit` is then
        this board's, not the datasheet's)."""
        return any(k in ("W", "B") and r is not None for r, k in zip(self.response, self.kind))

    def typical_unit(self) -> float:
        return self._cached("typical", self._typical_unit)

    def _typical_unit(self) -> float:
        known = [abs(r) for r, k in zip(self.response, self.kind)
                 if k in ("W", "B") and r is not None]
        if known:
            return _median(known)
        dvonn = [abs(r) for r, k in zip(self.response, self.kind) if k == "D" and r is not None]
        if dvonn:  # the DVONN pieces, placed first, already tell a weak board from the datasheet
            return _median(dvonn) / PRIOR_DVONN_FACTOR
        return NOMINAL_UNIT_MT * self.codes_per_mt

    def track_drift(self, space: int, empty_reading: float, weight: float = 0.2,
                    reach: float = 0.0) -> None:
        """Follow a slow baseline drift of an empty space from a reading known to be empty.
        A reading over 1 mT away is not drift (at most 0.05 mT a minute, followed every few
        seconds) but something else near the sensor: it is not followed, unless a drift not
        followed may have moved it by `reach` (codes) further."""
        if abs(empty_reading - self.baseline[space]) <= 1.0 * self.codes_per_mt + reach:
            self.baseline[space] += weight * (empty_reading - self.baseline[space])

    # -- files -------------------------------------------------------------------------------
    def to_json(self) -> dict:
        xt: dict[str, dict[str, float]] = {}
        for (s, t), v in sorted(self.crosstalk.items()):
            xt.setdefault(SPACES[s], {})[SPACES[t]] = round(v, 3)
        return {"format": FORMAT, "version": VERSION,
                "codes_per_mt": self.codes_per_mt,
                "baseline": [round(v, 3) for v in self.baseline],
                "noise": [round(v, 4) for v in self.noise],
                "response": [None if r is None else round(r, 3) for r in self.response],
                "kind": list(self.kind),
                "crosstalk": xt}

    @classmethod
    def from_json(cls, data: dict) -> "Calibration":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProfileError("format", f"not a {FORMAT!r} file")
        if data.get("version") != VERSION:
            raise ProfileError("version", f"unsupported version {data.get('version')!r}")
        cpm = _number(data.get("codes_per_mt"), "codes_per_mt")
        base = _numbers(data.get("baseline"), "baseline")
        noise = _numbers(data.get("noise"), "noise")
        resp = _numbers(data.get("response", [None] * N_SPACES), "response", optional=True)
        kinds = data.get("kind", [None] * N_SPACES)
        if not isinstance(kinds, list) or len(kinds) != N_SPACES:
            raise ProfileError("kind", f"expected a list of {N_SPACES} entries")
        for i, k in enumerate(kinds):
            if k not in (None, "W", "B", "D"):
                raise ProfileError(f"kind[{i}]", f"expected 'W', 'B', 'D' or null, got {k!r}")
        xt = {}
        raw_xt = data.get("crosstalk", {})
        if not isinstance(raw_xt, dict):
            raise ProfileError("crosstalk", "expected a table")
        for sname, row in raw_xt.items():
            if sname not in INDEX or not isinstance(row, dict):
                raise ProfileError(f"crosstalk.{sname}", "expected a space name with a table")
            for tname, v in row.items():
                if tname not in INDEX:
                    raise ProfileError(f"crosstalk.{sname}.{tname}", "no such space")
                xt[(INDEX[sname], INDEX[tname])] = _number(v, f"crosstalk.{sname}.{tname}")
        return cls(cpm, base, noise, resp, list(kinds), xt, baseline_known=True)

    def save(self, path) -> None:
        """Write the calibration file (atomically: a crash leaves the old file whole)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        tmp.replace(path)

    @classmethod
    def load(cls, path) -> "Calibration":
        """Read a calibration file; ProfileError naming the key when it is wrong."""
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as e:
            raise ProfileError(str(path), f"not JSON: {e}") from None
        return cls.from_json(data)


def load_or_nominal(path, adc_max: int = 4095) -> Calibration:
    """The saved calibration at `path` when there is one, else `Calibration.nominal`."""
    if path is not None and Path(path).exists():
        return Calibration.load(path)
    return Calibration.nominal(adc_max=adc_max)


def _median(xs) -> float:
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def _number(v, key: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ProfileError(key, f"expected a number, got {v!r}")
    return float(v)


def _numbers(v, key: str, optional: bool = False) -> list:
    if not isinstance(v, list) or len(v) != N_SPACES:
        raise ProfileError(key, f"expected a list of {N_SPACES} numbers")
    return [None if (optional and x is None) else _number(x, f"{key}[{i}]")
            for i, x in enumerate(v)]


def _near(space: int, reach: int = 2) -> tuple[int, ...]:
    from .spaces import distance
    return tuple(t for t in range(N_SPACES) if t != space and distance(space, t) <= reach)


NEAR: tuple[tuple[int, ...], ...] = tuple(_near(s) for s in range(N_SPACES))
"""NEAR[s]: the spaces within two steps of s: the only ones whose cross-talk is modelled."""
