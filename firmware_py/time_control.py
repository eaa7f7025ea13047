"""Times as players write them: time controls, the clock face, the PlyTimes tag.

The clock (`clock.py`) counts seconds; this module turns them into text and back, with a clear
error for a bad value:

- `TimeControl.parse`: `25m` (sudden death: 25 minutes a player for the whole game, as at the
  GIPF championships), `10m+5s` (Fischer: 5 seconds added after each of a player's own plies,
  passes excepted) or `none`; `str()` writes it back the shortest way (the TimeControl tag);
- `format_time`: a clock face, whole seconds rounded up ('24:32', '1:05:00');
- `ply_times_tag` / `parse_ply_times`: the seconds spent on each ply, as a record stores them.

>>> control = TimeControl.parse("10m + 5")
>>> control, str(control), format_time(control.base_s)
(TimeControl(base_s=600.0, increment_s=5.0), '10m+5s', '10:00')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_TIME = re.compile(r"(\d+(?:\.\d+)?)\s*(h|m|min|s|sec)?")
MAX_BASE_S = 10 * 3600.0
MAX_INCREMENT_S = 600.0


def _seconds(text: str, default_unit: str, what: str, whole: str) -> float:
    m = _TIME.fullmatch(text.strip())
    if not m:
        raise ValueError(f"--clock {whole!r}: {what} {text!r} is not a time such as 25m, "
                         f"90s or 1h")
    unit = (m.group(2) or default_unit)[0]
    return float(m.group(1)) * {"h": 3600.0, "m": 60.0, "s": 1.0}[unit]


@dataclass(frozen=True)
class TimeControl:
    """base_s: each player's time for the game (None: no clock); increment_s: added after each
    of a player's own plies (Fischer; 0 for sudden death).

    >>> TimeControl.parse("25m"), str(TimeControl.parse("10m+5s")), TimeControl.parse("none").on
    (TimeControl(base_s=1500.0, increment_s=0.0), '10m+5s', False)
    """

    base_s: float | None = None
    increment_s: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """'25m', '90s', '1h', '10m+5s' (the increment's unit defaults to seconds) or 'none'.
        ValueError naming what is wrong and the allowed range."""
        whole = text
        text = text.strip().lower()
        if text in ("none", "off", "no", ""):
            return cls()
        base, plus, inc = text.partition("+")
        base_s = _seconds(base, "m", "the time", whole)
        inc_s = _seconds(inc, "s", "the increment", whole) if plus else 0.0
        if not 0 < base_s <= MAX_BASE_S:
            raise ValueError(f"--clock {whole!r}: the time must be more than 0 and at most 10h")
        if not 0 <= inc_s <= MAX_INCREMENT_S:
            raise ValueError(f"--clock {whole!r}: the increment must be at most 10m")
        return cls(base_s, inc_s)

    @property
    def on(self) -> bool:
        return self.base_s is not None

    def __str__(self) -> str:
        if not self.on:
            return "none"
        text = _short(self.base_s)
        return text + ("+" + _short(self.increment_s, "s") if self.increment_s else "")


def _short(seconds: float, unit: str | None = None) -> str:
    """90 -> '90s', 1500 -> '25m', 3600 -> '1h' (the largest unit that divides it)."""
    for name, size in (("h", 3600), ("m", 60), ("s", 1)):
        if unit in (None, name) and seconds % size == 0:
            return f"{int(seconds // size)}{name}"
    return f"{seconds:g}s"


def format_time(seconds: float) -> str:
    """'24:31', '1:05:00'; whole seconds, rounded up (a clock shows 0:00 only when it is out).

    >>> format_time(1471.2), format_time(3900), format_time(0.3), format_time(0)
    ('24:32', '1:05:00', '0:01', '0:00')
    """
    s = max(0, math.ceil(seconds - 1e-9))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def ply_times_tag(spent: list[float | None]) -> str:
    """The record's PlyTimes tag: seconds per ply, one decimal, '-' where not known.

    >>> ply_times_tag([3.04, None, 12.0])
    '3.0 - 12.0'
    """
    return " ".join("-" if s is None else f"{s:.1f}" for s in spent)


def parse_ply_times(text: str) -> list[float | None]:
    """The PlyTimes tag read back (ValueError naming a bad entry).

    >>> parse_ply_times('3.0 - 12.0')
    [3.0, None, 12.0]
    """
    out: list[float | None] = []
    for n, word in enumerate(text.split(), 1):
        if word == "-":
            out.append(None)
            continue
        try:
            value = float(word)
        except ValueError:
            raise ValueError(f"PlyTimes: entry {n} ({word!r}) is not a number of seconds") from None
        if value < 0 or math.isnan(value):
            raise ValueError(f"PlyTimes: entry {n} ({word!r}) is not a number of seconds")
        out.append(value)
    return out
