"""The game clock and the review after a game on the page, in a real headless Chromium (see
test_web_browser.py)."""

from __future__ import annotations

import pytest

from firmware_py.clock import GameClock, TimeControl
from firmware_py.guidance import render
from firmware_py.rules import WHITE, Board
from firmware_py.state import BoardState
from firmware_py.web.server import WebThread
from firmware_py.web.source import StateSource
from tests.test_web_browser import CHROMIUM, browser, new_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")
expect = pytest.importorskip("playwright.sync_api").expect


def test_the_page_shows_the_clock_low_time_and_the_flag(new_page):  # noqa: F811
    clock = GameClock(TimeControl.parse("5m"))
    clock.run(WHITE, 0.0)
    state = BoardState(board=Board.from_plies(["e3"]), mode="idle", clock=clock.reading(61.0))
    source = StateSource(state, leds=render(state, 0.0))
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#clock-row")).to_be_visible()
        expect(page.locator("#clock-white")).to_have_text("white 3:59")
        expect(page.locator("#clock-white")).to_have_class("running")
        expect(page.locator("#clock-black")).to_have_text("black 5:00")
        state.clock = clock.reading(280.0)  # 20 s left: low
        source.update(state, leds=render(state, 280.0))
        expect(page.locator("#clock-white")).to_have_class("running low")
        clock.check(301.0)
        state.mode, state.clock = "over", clock.reading(301.0)
        source.update(state, leds=render(state, 301.0))
        expect(page.locator("#clock-white")).to_have_text("white 0:00 (out of time)")
        expect(page.locator("#clock-white")).to_have_class("low")
        expect(page.locator("#winner")).to_have_text("black wins")  # on time


def test_no_clock_no_row(new_page):  # noqa: F811
    state = BoardState(board=Board(), mode="idle")
    with WebThread(StateSource(state), port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#kind")).to_have_text("live board")
        expect(page.locator("#clock-row")).to_be_hidden()


def test_after_the_game_the_page_shows_the_review(new_page, monkeypatch):  # noqa: F811
    from firmware_py.records import read_file
    from firmware_py.web import review_route
    from tests.test_review import EXAMPLE
    monkeypatch.setattr(review_route, "REVIEW_NODES", 300)
    plies = read_file(EXAMPLE)[0].plies
    state = BoardState(board=Board.from_plies(plies[:-1]), mode="idle")
    source = StateSource(state)
    with WebThread(source, port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#kind")).to_have_text("live board")
        expect(page.locator("#review")).to_be_hidden()  # not while the game goes on
        state.board.push(plies[-1])
        state.mode = "over"
        source.update(state)
        expect(page.locator("#review-graph svg")).to_be_visible(timeout=30_000)
        expect(page.locator("#review-graph g.mistake")).not_to_have_count(0)
        expect(page.locator("#review-mistakes li").first).to_contain_text("better was")


def test_the_simulator_page_shows_a_clock_and_a_hint(tmp_path, new_page):  # noqa: F811
    from firmware_py.controller import Controller
    from firmware_py.web.simulator import SimulatorRun
    from dvonn_sim.compose import simulated_board
    run = SimulatorRun(lambda board: Controller(board=board), tmp_path / "sim.sqlite3",
                       simulated_board("default", seed=7, speed=20.0), port=0,
                       time_control=TimeControl.parse("5m")).start()
    try:
        page = new_page(run.web.url, viewport={"width": 1200, "height": 900})
        expect(page.locator("#mode")).to_have_text("idle", timeout=15_000)
        expect(page.locator("#clock-white")).to_have_class("running", timeout=15_000)
        page.locator("#btn-hint").click()  # in phase 1: a heuristic placement, at once
        expect(page.locator("#hint")).to_contain_text("plays", timeout=15_000)
        expect(page.locator("#note")).to_contain_text("nothing is recorded")  # under "white to place"
        assert run.session.state.board.ply_count == 0
    finally:
        run.stop()
