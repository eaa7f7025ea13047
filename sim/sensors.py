"""The 49 linear Hall sensors and the ADC behind them: field (mT) in, raw codes out.

Per sensor: a quiescent offset and a gain error (drawn once, like parts off a reel), a slow
linear drift, white noise on every raw sample, saturation of the sensor's output, the ADC's
resolution and reference, and `oversample` raw samples averaged into one reading. Faults can be
injected on demand:

- ``dead``: the sensor gives no output (reads code 0, as with a broken supply);
- ``stuck``: the reading freezes (at its last value, or at a given code);
- ``noisy``: extra white noise (default 2 mT RMS per raw sample);
- ``swap(a, b)``: two channels exchanged (a wiring or multiplexer mistake).

>>> import numpy as np
>>> from sim.params import Params
>>> s = SensorArray(Params.from_noise("clean", offset_spread_mt=0.0, gain_spread=0.0,
...                                     drift_mt_per_min=0.0), seed=1)
>>> int(s.read(np.zeros((1, 49)), np.zeros(1))[0, 0])  # no field: mid-scale
2048
>>> s.fail(3, "dead"); int(s.read(np.zeros((1, 49)), np.zeros(1))[0, 3])
0
"""

from __future__ import annotations

import numpy as np

from firmware_py.spaces import N_SPACES

from .params import Params

FAULTS = ("dead", "stuck", "noisy")


class SensorArray:
    """The sensors of one board, with their individual errors drawn from `seed`."""

    def __init__(self, params: Params, seed: int = 0):
        self.params = params
        rng = np.random.default_rng([seed, 0x5E45])
        self._noise_rng = np.random.default_rng([seed, 0x401E])
        p = params
        self.offset_mt = rng.uniform(-p.offset_spread_mt, p.offset_spread_mt, N_SPACES)
        self.gain = 1 + rng.uniform(-p.gain_spread, p.gain_spread, N_SPACES)
        self.drift_mt_per_s = rng.uniform(-p.drift_mt_per_min, p.drift_mt_per_min, N_SPACES) / 60
        self.faults: dict[int, tuple[str, float | int | None]] = {}
        self.swaps: list[tuple[int, int]] = []
        self._last = np.full(N_SPACES, 1 << (p.adc_bits - 1), dtype=np.int64)

    @property
    def params(self) -> Params:
        return self._params

    @params.setter
    def params(self, p: Params) -> None:
        """New settings (noise, ADC...); the parts' own offsets, gains and drifts stay."""
        self._params = p
        # mT -> ADC codes: ratiometric output around supply/2
        self._codes_per_mt = p.sensitivity_mv_per_mt / 1000 / p.adc_vref * (1 << p.adc_bits)
        self._mid_code = p.supply_v / 2 / p.adc_vref * (1 << p.adc_bits)

    # -- faults ---------------------------------------------------------------------------------
    def fail(self, space: int, fault: str, value: float | int | None = None) -> None:
        """Inject a fault on one sensor: 'dead', 'stuck' (value: the code, default the last
        reading) or 'noisy' (value: extra noise in mT RMS per raw sample, default 2.0)."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r} (one of {', '.join(FAULTS)})")
        _check_space(space)
        if fault == "stuck" and value is None:
            value = int(self._last[space])
        if fault == "noisy" and value is None:
            value = 2.0
        self.faults[space] = (fault, value)

    def swap(self, a: int, b: int) -> None:
        """Exchange the channels of spaces a and b."""
        _check_space(a)
        _check_space(b)
        self.swaps.append((a, b))

    def repair(self, space: int | None = None) -> None:
        """Clear the faults of one sensor (and swaps involving it), or of all."""
        if space is None:
            self.faults.clear()
            self.swaps.clear()
        else:
            self.faults.pop(space, None)
            self.swaps = [s for s in self.swaps if space not in s]

    # -- reading --------------------------------------------------------------------------------
    def read(self, field_mt: np.ndarray, times: np.ndarray) -> np.ndarray:
        """Raw codes (T, 49) for the true field (T, 49) at the sensors at `times` (T,)."""
        p = self.params
        field_mt = np.asarray(field_mt, dtype=float)
        t = np.asarray(times, dtype=float)[:, None]
        b = field_mt * self.gain + self.offset_mt + self.drift_mt_per_s * t  # (T, 49)
        sigma = np.full(N_SPACES, p.noise_mt)
        for space, (fault, value) in self.faults.items():
            if fault == "noisy":
                sigma[space] = np.hypot(p.noise_mt, value)
        n = p.oversample
        if sigma.any():
            noise = self._noise_rng.standard_normal((b.shape[0], n, N_SPACES), dtype=np.float32)
            samples = b[:, None, :] + noise * sigma
        else:
            samples = np.broadcast_to(b[:, None, :], (b.shape[0], n, N_SPACES))
        # The sensor's output saturates; the ADC rounds and clips each raw sample.
        samples = np.clip(samples, -p.field_range_mt, p.field_range_mt)
        codes = np.clip(np.floor(samples * self._codes_per_mt + self._mid_code + 0.5), 0, p.adc_max)
        out = np.floor(codes.mean(axis=1) + 0.5).astype(np.int64)
        for space, (fault, value) in self.faults.items():
            if fault == "dead":
                out[:, space] = 0
            elif fault == "stuck":
                out[:, space] = value
        for a, b_ in self.swaps:
            out[:, [a, b_]] = out[:, [b_, a]]
        if len(out):
            self._last = out[-1].copy()
        return out

    def code_of(self, field_mt: float, space: int = 0, t: float = 0.0) -> float:
        """The noise-free reading (before rounding) of `space` for a field: for tests."""
        p = self.params
        b = field_mt * self.gain[space] + self.offset_mt[space] + self.drift_mt_per_s[space] * t
        b = min(max(b, -p.field_range_mt), p.field_range_mt)
        return b * self._codes_per_mt + self._mid_code


def _check_space(space: int) -> None:
    if not (isinstance(space, (int, np.integer)) and 0 <= space < N_SPACES):
        raise ValueError(f"no sensor {space!r} (spaces are 0..{N_SPACES - 1})")
