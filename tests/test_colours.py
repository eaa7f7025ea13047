"""The LED colours read apart in a still picture (a photo of the board, a screenshot of the
page), where no blink pattern helps: signals lit at the same time are clearly different colours,
not two shades of one."""

from __future__ import annotations

from firmware_py.colours import BY_NAME, MODE_SIGNALS

CLEARLY_APART = 40.0  # CIE76 colour difference: about 2.3 is just noticeable, over 40 unmistakable


def lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """sRGB (0..255) -> CIE L*a*b* (D65)."""
    def linear(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    pa, pb = lab(BY_NAME[a].rgb), lab(BY_NAME[b].rgb)
    return sum((p - q) ** 2 for p, q in zip(pa, pb)) ** 0.5


def test_the_colour_difference_is_measured_as_usual():
    assert delta_e("white_to_play", "white_to_play") == 0
    assert 140 < delta_e("white_to_play", "black_to_play") < 160  # white and blue: far apart


def test_paused_reads_apart_from_what_it_shares_the_board_with():
    for other in MODE_SIGNALS["paused"]:
        if other != "paused":
            assert delta_e("paused", other) > CLEARLY_APART, other
    # and from the other signal of the machine on the same six corners
    assert delta_e("paused", "link_lost") > CLEARLY_APART
