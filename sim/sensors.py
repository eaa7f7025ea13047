"""The 49 linear Hall sensors and the ADC behind them: field (mT) in, raw codes out.

Per sensor: a quiescent offset and a gain error (drawn once, like parts off a reel), a slow
linear drift, a warm-up (offset and gain move over the first minutes, approaching their warm
values exponentially), white noise on every raw sample, rare single-sample spikes, mains pickup
(each raw sample at its own moment of the scan: 50 Hz sampled at 100 frames a second does not
average out), the field of the LED current (`led_mt`, set by the board from what its LEDs show),
saturation of the sensor's output, the ADC's resolution, reference and non-linearity (a smooth
bow of `adc_inl_lsb` codes plus uneven code widths of +-`adc_dnl_lsb`), and `oversample` raw
samples averaged into one reading (rounded to a whole code, as the serial scanner sends it; the
direct scanner, `scanner = "direct"`, keeps the mean's fraction of a code: each raw sample's own
noise dithers the ADC, so the mean resolves steps finer than one code). Faults
can be injected on demand:

- ``dead``: the sensor gives no output (reads code 0, as with a broken supply);
- ``stuck``: the reading freezes (at its last value, or at a given code);
- ``noisy``: extra white noise (default 2 mT RMS per raw sample);
- ``swap(a, b)``: two channels exchanged (a wiring or multiplexer mistake).

>>> import numpy as np
>>> from dvonn_sim.params import Params
>>> s = SensorArray(Params.preset("ideal", noise="clean"), seed=1)
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
        # Newer imperfections draw from their own stream: the parts above stay as they were.
        more = np.random.default_rng([seed, 0x5E46])
        self.warm_offset_mt = more.uniform(-1, 1, N_SPACES) * p.warmup_offset_mt
        self.warm_gain = more.uniform(-1, 1, N_SPACES) * p.warmup_gain
        self.mains_amp_mt = more.uniform(0.3, 1.0, N_SPACES) * p.mains_mt
        self.mains_phase = float(more.uniform(0, 2 * np.pi))
        self._seed = seed
        self._dnl: dict[int, np.ndarray] = {}
        self.led_mt = np.zeros(N_SPACES)  # the LEDs' field at each sensor now (the board sets it)
        self.faults: dict[int, tuple[str, float | int | None]] = {}
        self.swaps: list[tuple[int, int]] = []
        self._last = np.full(N_SPACES, 1 << (p.adc_bits - 1))

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
            value = self._last[space].item()
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
        warm = self.warmed(t)
        b = (field_mt * self.gain * (1 + self.warm_gain * warm) + self.offset_mt
             + self.warm_offset_mt * warm + self.drift_mt_per_s * t + self.led_mt)  # (T, 49)
        sigma = np.full(N_SPACES, p.noise_mt)
        for space, (fault, value) in self.faults.items():
            if fault == "noisy":
                sigma[space] = np.hypot(p.noise_mt, value)
        n = p.oversample
        shape = (b.shape[0], n, N_SPACES)
        if sigma.any():
            noise = self._noise_rng.standard_normal(shape, dtype=np.float32)
            samples = b[:, None, :] + noise * sigma
        else:
            samples = np.broadcast_to(b[:, None, :], shape)
        if p.mains_mt:
            # Raw sample j of sensor s is taken (s * n + j) sample periods into the frame.
            at = t[:, :, None] + self._sample_offsets(n)[None]
            samples = samples + self.mains_amp_mt * np.sin(
                2 * np.pi * p.mains_hz * at + self.mains_phase)
        if p.spike_rate:
            count = self._noise_rng.binomial(samples.size, p.spike_rate)
            if count:
                flat = np.array(samples, dtype=float).ravel()  # a copy: never the noise-free view
                where = self._noise_rng.integers(0, flat.size, count)
                size = self._noise_rng.uniform(0.3, 1.0, count) * p.spike_mt
                flat[where] += size * self._noise_rng.choice((-1.0, 1.0), count)
                samples = flat.reshape(shape)
        # The sensor's output saturates; the ADC converts (not quite linearly), rounds and clips
        # each raw sample.
        samples = np.clip(samples, -p.field_range_mt, p.field_range_mt)
        ideal = samples * self._codes_per_mt + self._mid_code
        if p.adc_inl_lsb or p.adc_dnl_lsb:
            ideal = self._nonlinear(ideal)
        codes = np.clip(np.floor(ideal + 0.5), 0, p.adc_max)
        out = codes.mean(axis=1)
        if p.scanner == "serial":
            out = np.floor(out + 0.5).astype(np.int64)
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

    def warmed(self, t):
        """How far the warm-up has gone at time t: 0 when switched on, 1 when warm."""
        return 1 - np.exp(-np.asarray(t, dtype=float) / self.params.warmup_tau_s)

    def _sample_offsets(self, n: int) -> np.ndarray:
        """(n, 49): when each raw sample is taken, in seconds after the frame's start."""
        order = np.arange(N_SPACES)[None, :] * n + np.arange(n)[:, None]
        return order * self.params.sample_us * 1e-6

    def _nonlinear(self, ideal: np.ndarray) -> np.ndarray:
        """The ADC's transfer curve: a bow (INL) and uneven code widths (DNL, one random
        offset per code drawn for this board's ADC)."""
        p = self.params
        full = p.adc_max + 1
        out = ideal + p.adc_inl_lsb * np.sin(np.pi * np.clip(ideal, 0, full) / full)
        if p.adc_dnl_lsb:
            table = self._dnl.get(p.adc_bits)
            if table is None:
                rng = np.random.default_rng([self._seed, 0xADC, p.adc_bits])
                table = self._dnl[p.adc_bits] = rng.uniform(-1, 1, full) * p.adc_dnl_lsb
            out = out + table[np.clip(ideal, 0, p.adc_max).astype(np.int64)]
        return out

    def code_of(self, field_mt: float, space: int = 0, t: float = 0.0) -> float:
        """The noise-free reading (before rounding and the ADC's non-linearity) of `space` for
        a field: for tests."""
        p = self.params
        warm = float(self.warmed(t))
        b = (field_mt * self.gain[space] * (1 + self.warm_gain[space] * warm)
             + self.offset_mt[space] + self.warm_offset_mt[space] * warm
             + self.drift_mt_per_s[space] * t + self.led_mt[space])
        b = min(max(b, -p.field_range_mt), p.field_range_mt)
        return b * self._codes_per_mt + self._mid_code


def _check_space(space: int) -> None:
    if not (isinstance(space, (int, np.integer)) and 0 <= space < N_SPACES):
        raise ValueError(f"no sensor {space!r} (spaces are 0..{N_SPACES - 1})")
