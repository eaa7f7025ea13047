"""Magnetic field of the pieces' disc magnets at the Hall sensors.

All lengths in mm, fields in mT. A sensor measures Bz, the field component normal to the board
(positive up). `h` is always the height of a magnet's bottom face above the sensor plane and `rho`
the sideways distance between the magnet's axis and the sensor.

Three models of one axially magnetised cylinder, from exact to fast:

- `bz_on_axis`: the textbook on-axis formula (sensing.md's table comes from it);
- `bz_exact`: the exact off-axis field (Derby & Olbert, Am. J. Phys. 78, 229 (2010), with
  Bulirsch's generalised complete elliptic integral `cel`), equal to `bz_on_axis` on the axis;
- `bz_dipole`: a point dipole at the magnet's centre, good to a few % beyond about 15 mm.

`FieldModel` combines them for speed: an exact table (interpolated) for near magnets, the dipole
for far ones, and exact precomputed kernels for stacks resting on spaces. Fields of several
magnets simply add (NdFeB has a relative permeability near 1).

>>> from dvonn_sim.params import Params
>>> w = Params().magnets["W"]
>>> round(float(bz_on_axis(w, 5.0)), 1), round(float(bz_exact(w, 0.0, 5.0)), 1)
(44.7, 44.7)
>>> float(bz_exact(w, 25.0, 5.0)) < 0  # a neighbour's piece: small and of opposite sign
True
"""

from __future__ import annotations

import math

import numpy as np

from firmware_py.spaces import COORDS, N_SPACES

from .params import MagnetSpec, Params

KINDS = ("W", "B", "D")
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}


def space_xy(pitch_mm: float = 25.0) -> np.ndarray:
    """(49, 2) board coordinates of the intersections in mm: a1 at the origin, rows going up.

    On the hex grid, (col, row) steps (1, 0), (0, 1) and (1, 1) are all one pitch long.
    """
    c = np.array([cr[0] for cr in COORDS], dtype=float)
    r = np.array([cr[1] for cr in COORDS], dtype=float)
    return np.stack([(c - r / 2) * pitch_mm, r * pitch_mm * math.sqrt(3) / 2], axis=1)


def bz_on_axis(m: MagnetSpec, h):
    """Exact field on the axis, h mm below the pole face: Br/2 [(h+L)/sqrt(R²+(h+L)²) - h/sqrt(R²+h²)]."""
    h = np.asarray(h, dtype=float)
    r, ln = m.diameter_mm / 2, m.thickness_mm
    return m.br_mt / 2 * ((h + ln) / np.sqrt(r * r + (h + ln) ** 2) - h / np.sqrt(r * r + h * h))


def cel(kc, p, c, s):
    """Bulirsch's generalised complete elliptic integral, vectorised (p > 0)."""
    kc, p, c, s = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (kc, p, c, s)))
    k = np.abs(kc)
    em = np.ones_like(k)
    pp = np.sqrt(p)
    ss = s / pp
    cc = c.copy()
    f = cc
    cc = cc + ss / pp
    g = k / pp
    ss = 2 * (ss + f * g)
    pp = g + pp
    g = em
    em = k + em
    kk = k
    for _ in range(40):
        if np.all(np.abs(g - k) <= g * 1e-12):
            break
        k = 2 * np.sqrt(kk)
        kk = k * em
        f = cc
        cc = cc + ss / pp
        g = kk / pp
        ss = 2 * (ss + f * g)
        pp = g + pp
        g = em
        em = k + em
    return (math.pi / 2) * (ss + cc * em) / (em * (em + pp))


def bz_exact(m: MagnetSpec, rho, h):
    """Exact Bz of the cylinder at sideways distance rho, h below its bottom face (any shapes)."""
    rho, h = np.broadcast_arrays(np.asarray(rho, dtype=float), np.asarray(h, dtype=float))
    a, b = m.diameter_mm / 2, m.thickness_mm / 2
    # cel needs p = gamma² > 0: nudge points exactly under the magnet's rim.
    rho = np.where(np.abs(rho - a) < 1e-9, a + 1e-9, np.abs(rho))
    z = h + b  # from the magnet's centre (Bz is even in z)
    gamma = (a - rho) / (a + rho)
    out = 0.0
    for zs, sign in ((z + b, 1.0), (z - b, -1.0)):
        d_plus = zs * zs + (rho + a) ** 2
        beta = zs / np.sqrt(d_plus)
        kc = np.sqrt((zs * zs + (a - rho) ** 2) / d_plus)
        out = out + sign * beta * cel(kc, gamma * gamma, 1.0, gamma)
    return m.br_mt / math.pi * a / (a + rho) * out


def dipole_moment(m: MagnetSpec) -> float:
    """mu0 m / 4 pi in mT·mm³: Br V / 4 pi."""
    return m.br_mt * math.pi * (m.diameter_mm / 2) ** 2 * m.thickness_mm / (4 * math.pi)


def bz_dipole(m: MagnetSpec, rho, h):
    """Bz of a point dipole at the magnet's centre (h + L/2 above the sensor)."""
    rho, h = np.asarray(rho, dtype=float), np.asarray(h, dtype=float)
    z = h + m.thickness_mm / 2
    r2 = rho * rho + z * z
    return dipole_moment(m) * (3 * z * z / r2 - 1) / (r2 * np.sqrt(r2))


class FieldModel:
    """Fast field of many magnets at the 49 sensors for one set of `Params`.

    Near magnets (rho < NEAR_RHO and h < NEAR_H) use an exact table interpolated bilinearly,
    far ones the dipole. Stacks resting on spaces use exact kernels, precomputed per level.
    """

    NEAR_RHO = 40.0
    NEAR_H = 45.0
    STEP = 0.25

    def __init__(self, params: Params):
        self.params = params
        self.specs = tuple(params.magnets[k] for k in KINDS)
        self.sensor_xy = space_xy(params.space_pitch_mm)
        self._h0 = min(1.0, params.sensor_gap_mm)
        self._rho_grid = np.arange(0.0, self.NEAR_RHO + self.STEP, self.STEP)
        self._h_grid = np.arange(self._h0, self.NEAR_H + self.STEP, self.STEP)
        rr, hh = np.meshgrid(self._rho_grid, self._h_grid, indexing="ij")
        self._tables = tuple(bz_exact(s, rr, hh) for s in self.specs)
        self._moments = np.array([dipole_moment(s) for s in self.specs])
        self._half = np.array([s.thickness_mm / 2 for s in self.specs])
        d = self.sensor_xy[:, None, :] - self.sensor_xy[None, :, :]
        self._space_rho = np.hypot(d[..., 0], d[..., 1])  # [sensor, space]
        self._kernels: dict[tuple[int, int], np.ndarray] = {}

    def resting_h(self, level: int) -> float:
        """Height above the sensors of the bottom face of the level-th piece of a resting stack."""
        return self.params.sensor_gap_mm + self.params.piece_pitch_mm * level

    def kernel(self, kind: int, level: int) -> np.ndarray:
        """[sensor, space]: Bz of a unit-strength magnet of `kind` at `level` on each space."""
        key = (kind, level)
        k = self._kernels.get(key)
        if k is None:
            k = self._kernels[key] = bz_exact(self.specs[kind], self._space_rho,
                                              self.resting_h(level))
        return k

    def resting_field(self, stacks) -> np.ndarray:
        """Field (49,) of stacks on spaces: stacks[space] = [(kind index, signed strength), ...]."""
        out = np.zeros(N_SPACES)
        for space, stack in enumerate(stacks):
            for level, (kind, strength) in enumerate(stack):
                out += strength * self.kernel(kind, level)[:, space]
        return out

    def field(self, kinds, strengths, x, y, h) -> np.ndarray:
        """Field at the 49 sensors of magnets at (x, y, h).

        kinds, strengths: shape (M,) (kind index, polarity x strength factor);
        x, y, h: shape (..., M) (leading axes: e.g. time). Returns (..., 49).
        """
        kinds = np.asarray(kinds, dtype=int)
        strengths = np.asarray(strengths, dtype=float)
        x, y, h = (np.asarray(a, dtype=float) for a in (x, y, h))
        dx = x[..., None] - self.sensor_xy[:, 0]
        dy = y[..., None] - self.sensor_xy[:, 1]
        rho = np.hypot(dx, dy)  # (..., M, 49)
        hh = np.broadcast_to(h[..., None], rho.shape)
        kk = np.broadcast_to(kinds[:, None], rho.shape)
        # Dipole everywhere, then the near pairs replaced by the exact table.
        z = hh + self._half[kk]
        r2 = rho * rho + z * z
        b = self._moments[kk] * (3 * z * z / r2 - 1) / (r2 * np.sqrt(r2))
        near = (rho < self.NEAR_RHO) & (hh < self.NEAR_H) & (hh >= self._h0)
        if near.any():
            b[near] = self._table(kk[near], rho[near], hh[near])
        return np.einsum("...mn,m->...n", b, strengths)

    def _table(self, kinds, rho, h):
        fi = rho / self.STEP
        fj = (h - self._h0) / self.STEP
        i = np.minimum(fi.astype(int), len(self._rho_grid) - 2)
        j = np.minimum(fj.astype(int), len(self._h_grid) - 2)
        u, v = fi - i, fj - j
        out = np.empty(rho.shape)
        for kind in range(len(KINDS)):
            sel = kinds == kind
            if not sel.any():
                continue
            t = self._tables[kind]
            a, b_, uu, vv = i[sel], j[sel], u[sel], v[sel]
            out[sel] = ((1 - uu) * (1 - vv) * t[a, b_] + uu * (1 - vv) * t[a + 1, b_]
                        + (1 - uu) * vv * t[a, b_ + 1] + uu * vv * t[a + 1, b_ + 1])
        return out
