"""The physical boards' own web views in a real headless Chromium (Playwright) during a game
between two boards: the hosting board's player offers a draw on its page, the joining board's
player declines it on theirs, then resigns there (a second click confirms); both boards store
the result and both pages say so."""

from __future__ import annotations

import pytest

from firmware_py.web.server import WebThread
from firmware_py.web.session_source import SessionSource
from tests.test_remote_ending import stored, two_boards, wait
from tests.test_web_browser import browser, needs_chromium, new_page  # noqa: F401 (fixtures)

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def test_draw_and_resign_buttons_on_the_boards_own_pages(tmp_path, new_page):
    with two_boards(tmp_path) as (game, client, hosting, joining), \
            WebThread(SessionSource(hosting.session), port=0) as host_web, \
            WebThread(SessionSource(joining.session), port=0) as join_web:
        host, join = new_page(host_web.url), new_page(join_web.url)
        expect(host.locator("#far-controls")).to_be_visible()
        expect(host.locator("#far-who")).to_have_text("black")
        expect(join.locator("#far-who")).to_have_text("white")
        expect(join.locator("#btn-accept-draw")).to_be_hidden()

        host.click("#btn-offer-draw")
        expect(host.locator("#far-status")).to_have_text("your draw offer waits for the answer")
        expect(host.locator("#btn-offer-draw")).to_be_disabled()
        expect(join.locator("#far-status")).to_have_text("white offers a draw: confirm accepts")
        expect(join.locator("#btn-offer-draw")).to_be_hidden()
        join.click("#btn-decline-draw")
        expect(join.locator("#btn-accept-draw")).to_be_hidden()
        expect(host.locator("#btn-offer-draw")).to_be_enabled()
        assert game.result is None

        join.click("#btn-resign")  # the first click only asks
        expect(join.locator("#btn-resign")).to_have_text("Click again to resign")
        assert game.result is None and client.state["result"] is None
        join.click("#btn-resign")
        for page in (host, join):
            expect(page.locator("#far-status")).to_have_text("game over: 1-0 (black resigned)")
            expect(page.locator("#btn-resign")).to_be_hidden()
            expect(page.locator("#note")).to_have_text("black resigned: 1-0")
        wait(lambda: stored(hosting) == stored(joining) == ("1-0", 1), "both stored")
        # Starting the next game is the host's: the joining board's page is told so.
        join.click("#btn-new")
        join.click("#btn-new")
        expect(join.locator("#notice")).to_contain_text("the host starts the next game")
