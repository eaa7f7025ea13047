"""What a board is built as: its magnets (and the field of a disc magnet, `disc_bz`), where they
sit over the sensors (`Geometry`), how far a real build strays from the drawing (`Tolerances`),
and what the controller is told of a build by its profile (`BoardSpec`). The forward model
(`board_model`) computes readings from these.

>>> round(disc_bz(Magnet(), 0.0, 5.0) / disc_bz(Magnet(), 0.0, 11.0), 1)   # one piece higher
6.4
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .spaces import COORDS


@dataclass(frozen=True)
class Magnet:
    diameter_mm: float = 6.0
    thickness_mm: float = 2.0


@dataclass(frozen=True)
class Geometry:
    """The board's build, from its profile: where magnets sit relative to the sensors."""

    sensor_gap_mm: float = 5.0     # sensor to the bottom face of a resting stack's bottom magnet
    piece_pitch_mm: float = 6.0    # height of one piece
    space_pitch_mm: float = 25.0   # between neighbouring intersections
    magnets: dict = field(default_factory=lambda: {"W": Magnet(), "B": Magnet(),
                                                   "D": Magnet(thickness_mm=3.0)})


@dataclass(frozen=True)
class Tolerances:
    """What no board tells its software, as ranges: how far real pieces, magnets and sensors
    stray from the drawing. Not this board's values (those are unknown) but the widest any
    careful person's board shows, so that a reading within them is never taken as evidence.

    placement_mm: a piece set on an empty space, off its intersection (people: 1.5-2.5 mm);
    misalign_mm: each piece of a stack off the one below (1-2 mm);
    nudge_mm: a landing shifts the stack it lands on by up to this;
    strength: magnets +- this, piece to piece (one batch of N52 discs: 10 %);
    gain: sensors +- this, part to part (15 %), until a piece on that sensor taught its own;
    gain_drift: a sensor's gain changes by up to this while the board warms up (3 %);
    magnet_offset_mm: a magnet off the centre of its piece (glued by hand: up to 1 mm).
    """

    placement_mm: float = 2.5
    misalign_mm: float = 2.0
    nudge_mm: float = 1.0
    strength: float = 0.10
    gain: float = 0.15
    gain_drift: float = 0.03
    magnet_offset_mm: float = 1.0


@dataclass(frozen=True)
class BoardSpec:
    """What the controller must know about a board's build: given by the command layer from the
    board profile (`dvonn_hw.profile`), so `firmware_py` needs nothing from `hw`.

    polarity: per piece kind ('W', 'B', 'D'), +1.0 when the magnet's north pole faces up (the
        reference board: White and DVONN +1, Black -1); geometry: the magnets' sizes and where
        they sit; mv_per_mt / vref / adc_max: the sensor gain and the ADC (a ratiometric sensor
        on an ADC referenced to its supply), for the nominal calibration.

    >>> BoardSpec().polarity["B"]
    -1.0
    """

    polarity: dict = field(default_factory=lambda: {"W": 1.0, "B": -1.0, "D": 1.0})
    geometry: Geometry = field(default_factory=Geometry)
    mv_per_mt: float = 16.5
    vref: float = 3.3
    adc_max: int = 4095

    def __post_init__(self):
        for k in ("W", "B", "D"):
            if self.polarity.get(k) not in (1.0, -1.0):
                raise ValueError(f"polarity[{k!r}]: expected +1.0 or -1.0, got "
                                 f"{self.polarity.get(k)!r}")
        if self.polarity["W"] == self.polarity["B"]:
            raise ValueError("polarity: White and Black must differ (colour is read by polarity)")


def xy(space: int, pitch: float) -> tuple[float, float]:
    c, r = COORDS[space]
    return ((c - r / 2) * pitch, r * pitch * math.sqrt(3) / 2)


def disc_bz(m: Magnet, rho: float, h: float, n_phi: int = 96, n_z: int = 12) -> float:
    """Bz (per unit remanence) of an axially magnetised disc whose bottom face is h mm above a
    point rho mm off its axis: the surface current sheet integrated numerically (midpoint rule
    in height, trapezoid in angle; accurate to well under 1 % here)."""
    a = m.diameter_mm / 2
    if rho == 0:
        t = m.thickness_mm
        return 0.5 * ((h + t) / math.hypot(a, h + t) - h / math.hypot(a, h))
    total = 0.0
    dz = m.thickness_mm / n_z
    cos = [math.cos(2 * math.pi * i / n_phi) for i in range(n_phi)]
    for j in range(n_z):
        z = h + (j + 0.5) * dz
        s = 0.0
        for c in cos:
            s += a * (a - rho * c) / (rho * rho + a * a - 2 * a * rho * c + z * z) ** 1.5
        total += s * (2 * math.pi / n_phi) * dz
    return total / (4 * math.pi)
