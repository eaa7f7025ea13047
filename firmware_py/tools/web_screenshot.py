"""A picture of the web view for the README, made by the real thing.

`python -m firmware_py.tools.web_screenshot [OUT.png]` (default docs/web.png) starts the simulator with
a game resumed in the middle of phase 2, opens the page in headless Chromium (Debian's
/usr/bin/chromium, driven by Playwright from the test extras), lifts a stack as a person would
(a tap on it, then Lift), waits until its legal destinations are lit, and saves the screenshot.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SEED = 4      # the game shown: random legal plies from this seed
MOVES = 8     # how far into phase 2


def game(seed: int = SEED, moves: int = MOVES):
    """The plies of the pictured game: a random placement phase and `moves` moves."""
    from ..rules import Board

    rnd, board = random.Random(seed), Board()
    while board.phase == 1 or board.ply_count < 49 + moves:
        board.push(rnd.choice(board.legal_plies()))
    return board


def shoot(out: Path, width: int = 1280, height: int = 860, browser=None) -> Path:
    """Save the picture to `out`; `browser`: a Playwright browser already open (else launched)."""
    import contextlib

    from playwright.sync_api import expect, sync_playwright

    from ..controller import Controller
    from ..spaces import SPACES
    from ..store import Store
    from ..web.simulator import SimulatorRun
    from dvonn_sim.compose import simulated_board

    board = game()
    src = next(s for s in board.mobile_stacks() if len(board.destinations(s)) >= 2)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        with Store(db) as store:
            game_id = store.new_game({"Event": "screenshot"})
            for ply in board.move_stack:
                store.add_ply(game_id, ply)
        with contextlib.ExitStack() as stack:
            sim = simulated_board("default", seed=SEED, speed=4.0)
            run = stack.enter_context(SimulatorRun(lambda b: Controller(board=b), db, sim,
                                                   port=0))
            if browser is None:
                p = stack.enter_context(sync_playwright())
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                stack.callback(browser.close)
            page = browser.new_page(viewport={"width": width, "height": height})
            stack.callback(page.close)
            page.add_init_script("localStorage.setItem('dvonn-help-seen', '1')")
            page.goto(run.web.url)
            expect(page.locator("#mode")).to_have_text("idle", timeout=20_000)
            page.locator(f'[data-space="{SPACES[src]}"] .hit').click()  # reads the stack
            page.locator("#btn-lift").click()
            expect(page.locator("#mode")).to_have_text("lifted", timeout=20_000)
            dst = SPACES[board.destinations(src)[0]]
            page.wait_for_function(  # the destinations blink: catch them lit
                f"document.querySelector('[data-space=\"{dst}\"]').dataset.led !== ''",
                timeout=20_000)
            page.mouse.move(0, 0)
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py.tools.web_screenshot",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/web.png", type=Path)
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"screenshot: needs Debian's chromium at {CHROMIUM} (apt-get install chromium)",
              file=sys.stderr)
        return 1
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("screenshot: needs playwright (pip install -e '.[test]')", file=sys.stderr)
        return 1
    print(f"wrote {shoot(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
