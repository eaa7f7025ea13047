"""The web page and the remote play page in another language, in a real headless Chromium."""

from __future__ import annotations

import re
import urllib.request

import pytest

from firmware_py import i18n
from firmware_py.guidance import render
from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from firmware_py.state import BoardState
from firmware_py.web.server import WebThread
from firmware_py.web.source import StateSource

from .test_remote_page import hosted  # noqa: F401  (a fixture: a board hosting a game)
from .test_web_browser import browser, expect, needs_chromium, new_page, space  # noqa: F401

pytestmark = needs_chromium


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def test_the_page_speaks_french(new_page):
    i18n.use("fr")
    board = Board.from_plies(["e3", "f3", "g3", "a1", "b1", "c3"])
    state = BoardState(board=board)
    state.show_settled({})  # whose turn: the page words it itself
    source = StateSource(state, leds=render(state, 0.0))
    with WebThread(source, port=0) as web:
        html = urllib.request.urlopen(web.url, timeout=5).read().decode()
        assert '<html lang="fr">' in html and "{{" not in html
        page = new_page(web.url)
        # The page's own HTML, its script's words, the board's words and the LED legend.
        expect(page.locator("h1")).to_have_text("Plateau DVONN")
        expect(page.locator("#btn-confirm")).to_have_text("Confirmer")
        expect(page.locator("#btn-confirm")).to_have_attribute(
            "title", "le bouton Confirmer du plateau : répond à une question")
        expect(page.locator("#kind")).to_have_text("plateau réel")
        expect(page.locator("#message")).to_have_text("Blanc place une pièce blanche")
        expect(page.locator("#phase")).to_have_text("1 : placement")
        expect(page.locator("#legend-list")).to_contain_text(
            "DVONN à placer (lent): une pièce DVONN est à placer sur l'une de ces cases vides")
        space(page, "e3").locator(".hit").click()
        expect(page.locator("#tapped")).to_contain_text("e3 : hauteur 1, DVONN au sommet")
        # A message from the board (Python) in French as well.
        state.mode, state.error = "error", [INDEX["c3"]]
        state.message = i18n._("{space}: wrong piece, a black piece is to be placed").format(
            space="c3")
        source.update(state, leds=render(state, 0.0))
        expect(page.locator("#message")).to_have_text(
            "c3 : mauvaise pièce, c'est une pièce noire qu'il faut placer")
        expect(page.locator("#mode")).to_have_text("erreur")


def test_the_page_stays_english_by_default(new_page):
    state = BoardState(board=Board.from_plies(["e3"]))
    state.show_settled({})
    with WebThread(StateSource(state), port=0) as web:
        page = new_page(web.url)
        expect(page.locator("h1")).to_have_text("DVONN board")
        expect(page.locator("#message")).to_have_text("black to place a DVONN piece")
        expect(page.locator("#phase")).to_have_text("1: placing")


def test_the_remote_play_page_speaks_polish(hosted, new_page):
    game, side, server = hosted
    i18n.use("pl")
    page = new_page(server.link("opponent"))
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("#you")).to_have_text("grasz czarnymi")  # Black plays far away
    expect(page.locator("#resign")).to_have_text("Poddaj się")
    expect(page.locator("#link")).to_have_text("połączono")
    expect(page.locator("#status")).to_have_text(
        re.compile("^(twój ruch|białe grają na planszy|ruch białych .*)$"))
    expect(page.locator("#score")).to_have_text(re.compile(r"^białe \d+ · czarne \d+$"))
