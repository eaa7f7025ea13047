"""Pictures of the LED language for the README: `python -m firmware_py.tools.docs_pictures [DIR]`.

Writes DIR/leds.svg (default DIR: docs/) from `colours` itself, so the picture cannot drift from
what the board shows, and DIR/leds.png when a converter is found (headless chromium, or
rsvg-convert / ImageMagick). The SVG has one row per signal: a two-second strip of the LED's
on/off pattern in its colour (readable without the colour), its name and its meaning; and two
small example boards drawn by `guidance`.

>>> svg = legend_svg()
>>> svg.startswith("<svg") and "destination" in svg and "#00ff00" in svg
True
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
import tempfile
from html import escape
from pathlib import Path

from ..colours import BY_NAME, PATTERNS, SIGNALS, is_lit
from ..guidance import signals
from ..rules import Board
from ..spaces import COORDS, N_SPACES, SPACES
from ..state import BoardState

GROUPS = (
    ("Whose turn", ("white_to_play", "black_to_play", "dvonn_to_place")),
    ("A stack in the hand", ("source", "destination")),
    ("After a move", ("remove",)),
    ("Questions and mistakes", ("ask", "ask_faulty", "error", "missing", "extra")),
    ("The computer's move, passes", ("computer_from", "computer_to", "pass")),
    ("The end", ("winner", "draw")),
    ("The game clock", ("low_time",)),
    ("The board itself", ("link_lost", "paused", "calibrating", "drifting")),
)
STRIP_SECONDS, STRIP_STEP = 2.4, 0.05
CELL_W, ROW_H = 5, 30
DARK = "#2b2b2b"
FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"


def hex_rgb(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def _strip(x: float, y: float, signal) -> str:
    """The LED's on/off pattern over STRIP_SECONDS: lit cells in colour, dark cells dark."""
    n = round(STRIP_SECONDS / STRIP_STEP)
    out = [f"<rect x='{x - 2}' y='{y - 2}' width='{n * CELL_W + 4}' height='22' rx='4' "
           f"fill='#111'/>"]
    for i in range(n):
        lit = is_lit(signal.pattern, (i + 0.5) * STRIP_STEP)
        colour = hex_rgb(signal.rgb) if lit else DARK
        out.append(f"<rect x='{x + i * CELL_W}' y='{y}' width='{CELL_W - 1}' height='18' "
                   f"fill='{colour}'/>")
    return "".join(out)


def _mini_board(x: float, y: float, state: BoardState, title: str, r: float = 9) -> str:
    """A small hex board: stacks as grey discs with their height, lit spaces as coloured halos."""
    lit = signals(state)
    out = [f"<text x='{x}' y='{y}' {FONT} font-size='13' font-weight='bold'>{escape(title)}</text>"]
    pitch = 2.6 * r
    for s in range(N_SPACES):
        col, row = COORDS[s]
        cx = x + 10 + r + (col - row / 2 + 1) * pitch
        cy = y + 22 + r + (4 - row) * pitch * math.sqrt(3) / 2
        if s in lit:
            sig = BY_NAME[lit[s]]
            out.append(f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{r + 3}' "
                       f"fill='{hex_rgb(sig.rgb)}'/>")
        stack = state.board.stack(s)
        if stack:
            fill = {"W": "#f4f1e8", "B": "#222", "D": "#c0392b"}[stack[-1]]
            ink = "#000" if stack[-1] == "W" else "#fff"
            out.append(f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{r - 1}' fill='{fill}' "
                       f"stroke='#555'/><text x='{cx:.1f}' y='{cy + 4:.1f}' {FONT} "
                       f"font-size='10' text-anchor='middle' fill='{ink}'>{len(stack)}</text>")
        else:
            out.append(f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='2.5' fill='#888'/>")
    return "".join(out)


def _example_states() -> list[tuple[str, BoardState]]:
    import random
    rnd = random.Random(1)
    board = Board()
    while board.ply_count < 56:
        board.push(rnd.choice(board.legal_plies()))
    src = max(board.mobile_stacks(), key=lambda s: len(board.destinations(s)))
    lifted = BoardState(board=board, mode="lifted", lifted=src, destinations=board.destinations(src))
    idle = BoardState(board=board, mode="idle")
    return [(f"{('White', 'Black')[board.turn]} to move: the stacks that may move", idle),
            (f"lifted from {SPACES[src]}: source and destinations", lifted)]


def legend_svg() -> str:
    """The whole picture as SVG text."""
    strip_w = round(STRIP_SECONDS / STRIP_STEP) * CELL_W
    x_strip, x_name, x_meaning = 20, 40 + strip_w, 160 + strip_w
    width = x_meaning + 560
    body, y = [], 50
    body.append(f"<text x='20' y='30' {FONT} font-size='20' font-weight='bold'>What the LEDs "
                f"mean</text><text x='{x_strip}' y='{y - 4}' {FONT} font-size='11' fill='#555'>"
                f"{STRIP_SECONDS:g} seconds of the LED (dark: off)</text>")
    y += 10
    for title, names in GROUPS:
        y += 8
        body.append(f"<text x='20' y='{y + 12}' {FONT} font-size='14' font-weight='bold'>"
                    f"{escape(title)}</text>")
        y += 20
        for name in names:
            sig = BY_NAME[name]
            body.append(_strip(x_strip, y, sig))
            body.append(f"<text x='{x_name}' y='{y + 14}' font-size='13' "
                        f"font-family='DejaVu Sans Mono, monospace'>{name}</text>")
            body.append(f"<text x='{x_meaning}' y='{y + 9}' {FONT} font-size='12'>"
                        f"{escape(sig.meaning)}</text>")
            body.append(f"<text x='{x_meaning}' y='{y + 23}' {FONT} font-size='11' fill='#555'>"
                        f"{sig.pattern}: {escape(PATTERNS[sig.pattern].description)}</text>")
            y += ROW_H
    y += 20
    board_w = 340
    for i, (title, state) in enumerate(_example_states()):
        body.append(_mini_board(20 + i * (board_w + 40), y, state, title))
    y += 170
    assert {n for _, names in GROUPS for n in names} == {s.name for s in SIGNALS}
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{y}' "
            f"viewBox='0 0 {width} {y}'><rect width='100%' height='100%' fill='white'/>"
            + "".join(body) + "</svg>\n")


def to_png(svg_path: Path, png_path: Path) -> str | None:
    """Convert with the first tool found; returns its name, or None when there is none."""
    width, height = _size(svg_path.read_text())
    for browser in ("chromium", "chromium-browser", "google-chrome"):
        exe = shutil.which(browser)
        if exe:
            with tempfile.TemporaryDirectory() as profile:
                subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                                "--hide-scrollbars", f"--user-data-dir={profile}",
                                f"--screenshot={png_path}", f"--window-size={width},{height}",
                                svg_path.resolve().as_uri()],
                               check=True, capture_output=True, timeout=120)
            return browser
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-o", str(png_path), str(svg_path)], check=True)
        return "rsvg-convert"
    if shutil.which("convert"):
        subprocess.run(["convert", str(svg_path), str(png_path)], check=True)
        return "convert"
    return None


def _size(svg: str) -> tuple[int, int]:
    import re
    m = re.search(r"width='(\d+)' height='(\d+)'", svg)
    return int(m.group(1)), int(m.group(2))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs")
    out.mkdir(parents=True, exist_ok=True)
    svg_path = out / "leds.svg"
    svg_path.write_text(legend_svg(), encoding="utf-8")
    print(f"wrote {svg_path}")
    tool = to_png(svg_path, out / "leds.png")
    print(f"wrote {out / 'leds.png'} with {tool}" if tool else "no SVG converter found: no PNG")
    return 0


if __name__ == "__main__":
    sys.exit(main())
