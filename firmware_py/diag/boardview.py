"""Draw 49 numbers on the hex board in the terminal with rich (one per space, space-index order).

Each space is two lines: its name (dimmed) over its value, laid out like the board (row 5 at the
top, each row half a cell to the left of the one below)::

    5         c5    d5    e5 ...
              +0.1  -0.3  +12.4
    4      b4    c4 ...

A cell's style comes from `styles` (a flag per space, e.g. 'dead') or, without a flag, from the
size of the value against `scale` (dim when small, brighter as it grows).

>>> from rich.console import Console
>>> text = board_values([float(i) for i in range(49)], fmt="{:+.0f}")
>>> "k5" in text.plain and "+48" in text.plain
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from ..spaces import COORDS, N_SPACES, SPACES

CELL = 6  # characters per space, separator included (a value is at most 5 wide)
INDENT = 6  # half a cell per row up, so row 3's a3 needs this much room on the left

FLAG_STYLES = {
    "dead": "bold white on red3",
    "saturated": "bold black on yellow3",
    "stuck": "bold white on magenta",
    "noisy": "bold black on dark_orange",
    "missing": "grey42",
    "lit": "bold black on bright_white",
    "answer": "bold black on green3",
    "wrong": "bold white on red3",
}
FLAG_MEANINGS = {
    "dead": "no output (reads 0)",
    "saturated": "pinned at the end of its range",
    "stuck": "never changes",
    "noisy": "noise far above the rest",
}


def heat_style(value: float, scale: float) -> str:
    """Dim for values near 0, brighter cyan (positive) or pink (negative) as |value| grows."""
    if value != value:  # NaN: nothing to show
        return "grey42"
    size = abs(value) / scale if scale > 0 else 0.0
    if size < 1:
        return "grey62"
    hue = "cyan" if value > 0 else "magenta"
    return f"bold {hue}" if size >= 4 else hue


def _rows() -> dict[int, list[tuple[int, int]]]:
    rows: dict[int, list[tuple[int, int]]] = {}
    for space, (col, row) in enumerate(COORDS):
        rows.setdefault(row, []).append((col, space))
    return rows


def board_values(values: Sequence[float | None], fmt: str | Callable[[float], str] = "{:+.1f}",
                 styles: dict[int, str] | None = None, scale: float = 1.0,
                 names: bool = True) -> Text:
    """The hex board with `values[i]` at space i; `styles`: space -> flag or rich style.

    None or NaN shows as '--'. `fmt` is a format string or a function giving at most 5 chars.
    """
    if len(values) != N_SPACES:
        raise ValueError(f"need {N_SPACES} values, got {len(values)}")
    styles = styles or {}
    show = fmt.format if isinstance(fmt, str) else fmt
    out = Text()
    for row, cells in sorted(_rows().items(), reverse=True):
        for line in ("name", "value") if names else ("value",):
            label = f"{row + 1} " if line == ("name" if names else "value") else "  "
            text = Text(label, style="grey42")
            x = 0
            for col, space in cells:
                want = CELL * col - CELL // 2 * row + INDENT
                text.append(" " * (want - x))
                if line == "name":
                    text.append(f"{SPACES[space]:^5}", style="grey42")
                else:
                    v = values[space]
                    missing = v is None or v != v
                    s = "--" if missing else show(v)
                    flag = styles.get(space)
                    style = FLAG_STYLES.get(flag, flag) if flag else \
                        heat_style(float("nan") if missing else v, scale)
                    text.append(f"{s[:5]:>5}", style=style)
                x = want + 5
            out.append_text(text)
            out.append("\n")
    out.rstrip()
    return out


def legend(flags: Sequence[str] = tuple(FLAG_MEANINGS)) -> Text:
    """One line naming the flag colours used on the board."""
    t = Text()
    for flag in flags:
        t.append(f" {flag} ", style=FLAG_STYLES[flag])
        t.append(f" {FLAG_MEANINGS.get(flag, '')}  ")
    return t
