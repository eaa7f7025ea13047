"""The page in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright):
the live view, read-only pages, malformed messages, a phone-sized screen.

The simulator played through the page is in test_web_simulator.py (it shares `browser` below).
"""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from firmware_py.guidance import render
from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from firmware_py.state import BoardState
from firmware_py.web.server import WebThread
from firmware_py.web.source import ActionRefused, StateSource

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="browser tests need Debian's chromium at /usr/bin/chromium "
           "(apt-get install -y chromium; .ci/run installs it)")
pytestmark = needs_chromium

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture(scope="module")
def browser():
    # Module scope: Playwright's sync API runs an event loop on this thread while it is open,
    # which other tests' asyncio.run() must not find.
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def new_page(browser):
    """Pages that fail the test on any JavaScript error."""
    pages, errors = [], []

    def make(url: str, **options):
        page = browser.new_page(**options)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        pages.append(page)
        return page
    yield make
    for page in pages:
        page.close()
    assert errors == []


def space(page, name: str):
    return page.locator(f'[data-space="{name}"]')


class ActingSource(StateSource):
    """A simulator stand-in that records what it is asked to do."""

    simulator = True

    def __init__(self, state):
        super().__init__(state)
        self.done = []

    def act(self, kind, args):
        if kind == "lift" and not self.state().board.stack(args["space"]):
            raise ActionRefused("that space is empty")
        self.done.append(kind)
        return None


def midgame_state() -> BoardState:
    board = Board.from_plies(["e3", "f3", "g3", "a1", "b1", "c3"])
    state = BoardState(board=board, mode="error", error=[INDEX["c3"]],
                       message="c3: wrong piece, a black piece is to be placed")
    return state


def test_live_view_draws_the_game(new_page):
    state = midgame_state()
    source = StateSource(state, leds=render(state, 0.0))
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#kind")).to_have_text("live board")
        expect(page.locator("#message")).to_have_text(
            "c3: wrong piece, a black piece is to be placed")
        expect(page.locator("#mode")).to_have_text("error")
        expect(space(page, "e3")).to_have_attribute("data-stack", "D")
        expect(space(page, "a1")).to_have_attribute("data-stack", "B")
        expect(space(page, "c3")).to_have_attribute("data-led", "#ff0000")  # error: red
        expect(page.locator("#moves li")).to_have_text(["e3", "f3", "g3", "a1", "b1", "c3"])
        expect(page.locator("#score-black")).to_have_text("2")
        expect(page.locator("#sim-controls")).to_be_hidden()
        # Tap a space: its whole stack in words.
        space(page, "e3").locator(".hit").click()
        expect(page.locator("#tapped")).to_contain_text("e3: height 1, DVONN on top")
        # A change reaches the page without reloading.
        state.board.pop()
        state.mode, state.error, state.message = "idle", [], ""
        source.update(state, leds=render(state, 0.0))
        expect(page.locator("#moves li")).to_have_count(5)
        expect(page.locator("#message")).to_have_text("black to place a black piece")
        expect(space(page, "c3")).to_have_attribute("data-stack", "")
        # Export: the link serves the record.
        href = page.locator("#export").get_attribute("href")
        text = urllib.request.urlopen(web.url.rstrip("/") + href, timeout=5).read().decode()
        assert "1. e3 f3 2. g3 a1 3. b1" in text


def test_a_page_without_the_token_is_read_only(new_page):
    source = ActingSource(midgame_state())
    with WebThread(source, port=0, token="letmein") as web:
        page = new_page(web.url.split("?")[0])  # the URL without its token
        expect(page.locator("#access")).to_have_text("read-only")
        expect(page.locator("#btn-takeback")).to_be_disabled()
        expect(page.locator("#btn-new")).to_be_disabled()
        # Clicking the board does nothing; a hand-made request is refused by the server.
        space(page, "e3").locator(".hit").click()
        page.evaluate("window.dvonn.send({type: 'takeback'})")
        expect(page.locator("#notice")).to_contain_text("read-only")
        page.evaluate("window.dvonn.send({type: 'lift', space: 'e3'})")
        expect(page.locator("#notice")).to_contain_text("lift: this page is read-only")
        assert source.done == []
        # The same page with the token acts.
        page = new_page(web.url)
        expect(page.locator("#access")).to_have_text("")
        expect(page.locator("#btn-takeback")).to_be_enabled()
        page.locator("#btn-takeback").click()
        space(page, "e3").locator(".hit").click()  # reads
        page.locator("#btn-lift").click()  # lifts (simulator stand-in)
        space(page, "d2").locator(".hit").click()  # puts
        expect(page.locator("#sim-controls")).to_be_visible()
        page.wait_for_function("window.dvonn.page.replies.length >= 3")
        assert source.done == ["takeback", "lift", "put"]


def test_malformed_messages_get_errors_and_the_page_lives_on(new_page):
    source = ActingSource(midgame_state())
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#mode")).to_have_text("error")
        for raw, says in (("{{{", "must be a JSON object"),
                          ('{"type": "lift", "space": "q7"}', "'q7' is not a space"),
                          ('{"type": "teleport"}', "'teleport' is not a message type"),
                          ('{"type": "lift", "space": "b2"}', "lift: that space is empty")):
            page.evaluate("raw => window.dvonn.sendRaw(raw)", raw)
            expect(page.locator("#notice")).to_contain_text(says)
        assert source.done == []
        state = source.state()
        state.mode, state.message = "idle", "still here"
        source.update(state)
        expect(page.locator("#note")).to_have_text("still here")  # under whose turn it is


def test_the_page_fits_a_phone(new_page):
    with WebThread(StateSource(midgame_state()), port=0) as web:
        page = new_page(web.url, viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True)
        expect(space(page, "e3")).to_have_attribute("data-stack", "D")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = page.locator("#board").bounding_box()
        assert box["width"] > 300  # the board takes the width of the screen
        space(page, "a1").locator(".hit").tap()
        expect(page.locator("#tapped")).to_contain_text("a1: height 1, black on top")
