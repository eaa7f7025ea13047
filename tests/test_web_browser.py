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
from firmware_py.spaces import INDEX, SPACES
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


def png_pixels(data: bytes) -> list[list[tuple[int, int, int]]]:
    """The rows of RGB pixels of a PNG as Chromium writes it (8-bit RGB or RGBA, no interlace)."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6) and body[12] == 0
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, n = zlib.decompress(idat), 4 if colour == 6 else 3
    stride, rows, prev = width * n, [], bytearray(width * n)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b, c = prev[i], prev[i - n] if i >= n else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * n:x * n + 3]) for x in range(width)])
        prev = line
    return rows


def phase_two_state() -> BoardState:
    from firmware_py.tools.web_screenshot import game

    return BoardState(board=game(), mode="idle")


def test_a_lit_ring_stands_apart_from_a_stack_of_its_colour(new_page):
    """White's 'may move' ring around a white stack: between the disc and the ring runs a dark
    edge, so the ring does not read as a bigger white piece."""
    state = phase_two_state()
    leds = render(state, 0.0)
    white = next(s for s in state.board.mobile_stacks() if state.board.stack(s)[-1] == "W"
                 and leds.spaces[s] == (255, 255, 255))
    with WebThread(StateSource(state, leds=leds), port=0) as web:
        page = new_page(web.url, viewport={"width": 1280, "height": 860})
        name = SPACES[white]
        expect(space(page, name)).to_have_attribute("data-led", "#ffffff")
        box = space(page, name).locator(".hit").bounding_box()  # radius: half a grid step
        cx, cy, step = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"]
        shot = page.screenshot(clip={"x": cx, "y": cy - 1, "width": step * 0.6, "height": 3})
    ray = [sum(rgb) / 3 for rgb in png_pixels(shot)[1]]  # from the centre outwards
    disc = ray.index(next(v for v in ray if v > 200))
    dark = next(i for i in range(disc, len(ray)) if ray[i] < 200)
    assert min(ray[dark:dark + 8]) < 80, ray  # a dark edge right after the white disc ...
    assert max(ray[dark:]) > 200, ray  # ... then the white ring


def test_coordinates_are_readable_on_a_phone_and_clear_of_the_rings(new_page):
    source = ActingSource(phase_two_state())  # a simulator: the box is drawn too
    with WebThread(source, port=0) as web:
        page = new_page(web.url, viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True)
        expect(page.locator("#kind")).to_have_text("simulator")
        found = page.evaluate("""() => {
            const rect = (e) => e.getBoundingClientRect();
            // A ring's reach: its radius and the wider of its stroke and its dark edge.
            const rings = [...document.querySelectorAll('.space .led')].map((c) => {
                const r = c.r.baseVal.value, px = rect(c).width / (2 * r);
                const stroke = Math.max(...[c, c.previousElementSibling].map(
                    (e) => parseFloat(getComputedStyle(e).strokeWidth) || 0));
                return {x: rect(c).left + r * px, y: rect(c).top + r * px,
                        reach: (r + stroke / 2) * px};
            });
            const labels = [...document.querySelectorAll('#board text.label')];
            const tray = rect(document.querySelector('.tray'));
            const words = rect(document.querySelector('.tray-text'));
            return {
                labels: labels.map((e) => e.textContent).sort().join(''),
                smallest: Math.min(...labels.map((e) => rect(e).height)),
                overlaps: labels.filter((e) => rings.some((c) => {
                    const r = rect(e);  // the label's box point nearest the ring's centre
                    const x = Math.max(r.left, Math.min(c.x, r.right));
                    const y = Math.max(r.top, Math.min(c.y, r.bottom));
                    return Math.hypot(x - c.x, y - c.y) < c.reach;
                })).map((e) => e.textContent),
                boxed: words.left >= tray.left && words.right <= tray.right &&
                       words.top >= tray.top && words.bottom <= tray.bottom,
            };
        }""")
    # Every row number at both ends, every column letter below row 1 or above row 5.
    assert found["labels"] == "".join(sorted("1122334455abcdefghicdefghijk"))
    assert found["smallest"] >= 10  # px on a 390 px wide phone
    assert found["overlaps"] == []
    assert found["boxed"]  # "the box: ..." stays inside its box


def test_the_headline_says_whose_turn_with_a_standing_note_under_it(new_page):
    state = midgame_state()
    state.mode, state.error = "idle", []
    state.message = ("sensor e1 looks faulty: played from the game alone; check it with "
                     "`dvonn-board diag selftest`")
    source = StateSource(state)
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#message")).to_have_text("white to place a white piece")
        expect(page.locator("#note")).to_contain_text("sensor e1 looks faulty")
        expect(page.locator("#note code")).to_have_text("dvonn-board diag selftest")
        assert "`" not in page.locator("#note").text_content()
        # While the board waits for something else, its words are the headline.
        state.mode, state.message = "asking", "which did you land on: a3 or b2?"
        source.update(state)
        expect(page.locator("#message")).to_have_text("which did you land on: a3 or b2?")
        expect(page.locator("#note")).to_be_hidden()
        state.mode, state.message = "idle", ""  # the fault cleared: no note
        source.update(state)
        expect(page.locator("#message")).to_have_text("white to place a white piece")
        expect(page.locator("#note")).to_be_hidden()


def test_the_info_line_follows_the_board(new_page):
    from firmware_py.rules import Ply

    state = midgame_state()
    state.mode, state.error, state.message = "idle", [], ""
    source = StateSource(state)
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        space(page, "d2").locator(".hit").click()
        expect(page.locator("#tapped")).to_contain_text("d2: empty")
        page.mouse.move(0, 0)  # off the board: the line shows the tapped space
        state.board.push(Ply.parse("d2"))
        source.update(state)
        expect(page.locator("#tapped")).to_contain_text("d2: height 1, white on top")


def test_after_game_over_a_tap_or_a_drag_never_lifts(new_page):
    import random

    board = Board()
    rnd = random.Random(3)
    while not board.is_over():
        board.push(rnd.choice(board.legal_plies()))
    source = ActingSource(BoardState(board=board, mode="over"))
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        name = next(SPACES[s] for s in range(49) if board.stack(s))
        space(page, name).locator(".hit").click()
        expect(page.locator("#tapped")).to_contain_text(f"{name}: height")
        expect(page.locator("#how")).to_contain_text("The game is over")
        expect(page.locator("#btn-lift")).to_be_hidden()
        a = space(page, name).locator(".hit").bounding_box()
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down()
        page.mouse.move(a["x"] + 3 * a["width"], a["y"], steps=5)
        page.mouse.up()
        page.evaluate("window.dvonn.send({type: 'ping'})")  # answered after anything sent before
        page.wait_for_function("window.dvonn.page.replies.some((m) => m.message === 'pong')")
        assert source.done == []
