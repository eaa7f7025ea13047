"""Pictures for the README's clock and review sections:
`python -m firmware_py.tools.study_pictures [DIR]` writes DIR/clock.svg and DIR/review.svg
(default DIR: docs/).

The clock picture is drawn from `clock.GameClock` readings themselves (a 10m+5s game in three
moments: White's time running, Black low on time with the corners' LED pattern, and a flag),
so it shows exactly what the terminal and the page show. The review graph is `review` of the
example game `docs/review-example.txt` (the engine against itself with some random moves) at
`PICTURE_NODES` per position, as `dvonn-board review docs/review-example.txt --nodes 1000
--svg docs/review.svg` draws it. A test keeps both files current.

>>> svg = clock_svg()
>>> svg.startswith("<svg") and "9:36" in svg and "out of time" in svg
True
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

from ..clock import GameClock, TimeControl, format_time
from ..colours import BY_NAME, PATTERNS, is_lit
from ..rules import BLACK, WHITE

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "review-example.txt"
PICTURE_NODES = 1000

FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"
LOW_RED = "#c00020"


def clock_moments():
    """(title, ClockReading) for the picture: a 10m+5s game at three moments."""
    clock = GameClock(TimeControl.parse("10m+5s"))
    clock.run(WHITE, 0.0)
    clock.ply(WHITE, 12.0)
    clock.run(BLACK, 12.0)
    clock.ply(BLACK, 30.0)
    clock.run(WHITE, 30.0)
    first = clock.reading(47.0)
    clock.ply(WHITE, 60.0)
    clock.run(BLACK, 60.0)
    low = clock.reading(60.0 + 562.0)
    clock.check(60.0 + 600.0)
    flag = clock.reading(60.0 + 600.0)
    return [("White to move: White's time runs (it switched when Black's hand let go)", first),
            ("Black low on time: the six corners flash three times (low_time)", low),
            ("Black's time ran out: the game ends, 1-0, recorded as a time forfeit", flag)]


def _face(x: int, y: int, name: str, seconds: int, running: bool, red: bool, out: bool) -> str:
    border = LOW_RED if red else ("#222" if running else "#bbb")
    text = f"{name} {format_time(seconds)}" + (" (out of time)" if out else "")
    weight = "bold" if running or out else "normal"
    return (f"<rect x='{x}' y='{y}' width='290' height='44' rx='8' fill='white' "
            f"stroke='{border}' stroke-width='{3 if running or red else 1.5}'/>"
            f"<text x='{x + 14}' y='{y + 29}' {FONT} font-size='18' font-weight='{weight}' "
            f"fill='{LOW_RED if red else '#222'}'>{'▶ ' if running else ''}"
            f"{escape(text)}</text>")


def _strip(x: int, y: int, pattern: str, rgb) -> str:
    """Two seconds of the LED pattern as a strip (as in leds.svg)."""
    colour = "#%02x%02x%02x" % rgb
    cells = []
    for i in range(40):
        fill = colour if is_lit(pattern, i * 0.05) else "#2b2b2b"
        cells.append(f"<rect x='{x + i * 4}' y='{y}' width='4' height='16' fill='{fill}'/>")
    return "".join(cells)


def clock_svg() -> str:
    body, y = [], 16
    for title, r in clock_moments():
        body.append(f"<text x='16' y='{y + 12}' {FONT} font-size='13'>{escape(title)}</text>")
        y += 20
        for i, side in enumerate((WHITE, BLACK)):
            running = r.running == side
            out = r.flagged == side
            body.append(_face(16 + i * 310, y, ("White", "Black")[side], r.left[side], running,
                              (running and r.low) or out, out))
        if r.low:
            low = BY_NAME["low_time"]
            body.append(_strip(640, y + 14, low.pattern, low.rgb))
            body.append(f"<text x='810' y='{y + 27}' {FONT} font-size='12'>"
                        f"{escape(PATTERNS[low.pattern].description)}</text>")
        y += 62
    width = 1020
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{y}' "
            f"viewBox='0 0 {width} {y}'><rect width='100%' height='100%' fill='white'/>"
            + "".join(body) + "</svg>\n")


def example_game(seed: int = 4) -> str:
    """The example game's record: the engine (level 1, 300 nodes) against itself, one move in
    five random, from `seed` (how docs/review-example.txt was made)."""
    import random

    from .. import ai
    from ..records import write_record
    from ..rules import Board
    board, rng = Board(), random.Random(seed)
    while not board.is_over():
        board.push(ai.choose_ply(board, 1, rng, nodes=300) if rng.random() < 0.8
                   else rng.choice(board.legal_plies()))
    return write_record(board, tags={"Event": "review example", "White": "engine + chance",
                                     "Black": "engine + chance"})


def review_picture(path: Path = EXAMPLE) -> str:
    """The README's review graph: the example game reviewed at `PICTURE_NODES`."""
    from ..records import read_file
    from ..review import review, review_svg
    return review_svg(review(read_file(path)[0].plies, nodes=PICTURE_NODES))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "clock.svg"
    path.write_text(clock_svg(), encoding="utf-8")
    print(f"wrote {path}")
    example = out / EXAMPLE.name
    if not example.exists():
        example.write_text(example_game(), encoding="utf-8")
        print(f"wrote {example}")
    (out / "review.svg").write_text(review_picture(example), encoding="utf-8")
    print(f"wrote {out / 'review.svg'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
