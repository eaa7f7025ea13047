"""The remote play page in a real headless Chromium (Playwright) against a simulated board: a
whole game clicked on the page while scripted people carry out its plies on the board, an
illegal click refused with the host's reason, a reload mid-game that catches up, a spectator
who cannot play."""

from __future__ import annotations

import random
import threading
import time

import pytest

from firmware_py.remote.game import RemoteGame
from firmware_py.remote.host import RemoteButtons, RemoteHost
from firmware_py.rules import BLACK, Board, WHITE
from dvonn_sim.remote_play import Side
from tests.test_web_browser import browser, needs_chromium, new_page  # noqa: F401 (fixtures)

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture()
def hosted(tmp_path):
    """A board hosting a game: White's people at a simulated board, Black far away."""
    game = RemoteGame(BLACK)
    side = Side(WHITE, game.line, tmp_path / "host.sqlite3", seed=3,
                buttons_for=lambda board: RemoteButtons(board, game))
    game.attach(side.session)
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            side.step()
    thread = threading.Thread(target=loop, daemon=True)
    with RemoteHost(game, port=0) as server:
        thread.start()
        yield game, side, server
        stop.set()
        thread.join(5)
    side.session.close()


def wait_for_turn(page):
    page.wait_for_function("() => { const s = window.remote.state;"
                           " return s && (s.legal.length > 0 || s.result); }", timeout=60_000)
    return page.evaluate("window.remote.state")


def click(page, space):
    page.locator(f'g.space[data-space="{space}"]').click()


def test_a_whole_game_clicked_on_the_page_is_played_on_the_board(hosted, new_page):
    game, side, server = hosted
    page = new_page(server.link("opponent"))
    watcher = new_page(server.link("spectator"))
    rng, played, refused, reloaded, dropped = random.Random(1), [], False, False, False
    while True:
        state = wait_for_turn(page)
        if state["result"]:
            break
        if not refused and state["phase"] == 1 and state["stacks"]:
            taken = next(iter(state["stacks"]))
            click(page, taken)  # an occupied space: the host says why not
            expect(page.locator("#notice")).to_contain_text(f"{taken} is already occupied")
            refused = True
        if not reloaded and len(state["moves"]) >= 30:
            page.reload()  # mid-game: the page catches up from the host's record
            state = wait_for_turn(page)
            assert state["moves"] == game.view("opponent")["moves"][:len(state["moves"])]
            reloaded = True
        if reloaded and not dropped and len(state["moves"]) >= 60:
            page.evaluate("window.remote.ws.close()")  # the connection drops; the page reopens it
            dropped = True
        ply = rng.choice(state["legal"])
        if len(ply) == 4:
            click(page, ply[:2])
            expect(page.locator(f'g.space[data-space="{ply[:2]}"]')).to_have_class(
                "space chosen")
            click(page, ply[2:])
        else:
            click(page, ply)
        played.append(ply)
        page.wait_for_function(f"() => window.remote.state.n > {state['n']}"
                               " || window.remote.state.result", timeout=30_000)
    assert refused and reloaded and dropped
    assert page.evaluate("window.remote.opened") == 2  # opened again after the drop
    expect(page.locator("#status")).to_contain_text("game over")
    record = game.view("opponent")["moves"]
    assert Board.from_plies(record).is_over()
    assert [p for p in record[1::2] if p != "pass"][:5] == played[:5]  # Black's plies, as clicked
    assert sorted(set(played)) == sorted(set(played) & set(record))
    assert record == side.players.tokens  # and what the people really played on the board
    expect(page.locator("#moves li")).to_have_count(len(record))
    # The spectator saw it all and could not play.
    expect(watcher.locator("#moves li")).to_have_count(len(record))
    assert watcher.locator("#actions").is_hidden()


def test_offers_on_the_page_need_the_board_players_answer(hosted, new_page):
    """Ask to take back, then offer a draw: nothing happens until the board's player answers
    with the board's buttons (undo accepts the takeback, confirm the draw)."""
    game, side, server = hosted
    page = new_page(server.link("opponent"))
    for _ in range(2):  # two of Black's placements, carried out on the board
        state = wait_for_turn(page)
        click(page, state["legal"][0])
        page.wait_for_function(f"() => window.remote.state.moves.length > {state['n']}",
                               timeout=30_000)
    page.wait_for_function("() => window.remote.state.legal.length > 0", timeout=30_000)
    n = len(game.view("opponent")["moves"])
    page.locator("#takeback").click()
    expect(page.locator("#status")).to_contain_text("you offered a takeback")
    assert len(game.view("opponent")["moves"]) == n
    side.board.press("undo")  # the board's player accepts: the board takes the ply back
    page.wait_for_function(f"() => window.remote.state.moves.length === {n - 1}",
                           timeout=30_000)
    page.wait_for_function("() => !window.remote.state.offer")
    page.locator("#draw").click()  # a draw may be offered on either side's turn
    expect(page.locator("#status")).to_contain_text("you offered a draw")
    side.board.press("confirm")
    expect(page.locator("#status")).to_contain_text("game over: 1/2-1/2 (draw agreed)")
    assert page.locator("#actions").is_hidden()
    for _ in range(500):  # the board's loop writes the result to its store
        if side.session.store.game(side.session.game_id).result == "1/2-1/2":
            break
        time.sleep(0.01)
    assert side.session.store.game(side.session.game_id).result == "1/2-1/2"


def test_resigning_on_the_page_ends_the_game_for_everyone(hosted, new_page):
    game, side, server = hosted
    page = new_page(server.link("opponent"))
    watcher = new_page(server.link("spectator"))
    wait_for_turn(page)
    page.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    page.locator("#resign").click()
    for p in (page, watcher):
        expect(p.locator("#status")).to_have_text("game over: 1-0 (black resigned)")
    click(page, "a1")  # the game is over: nothing more is played
    assert game.view("opponent")["legal"] == [] and game.view("opponent")["pending"] is None


def test_the_board_player_s_draw_offer_and_resignation_reach_the_page(hosted, new_page):
    """The hosting board's player offers a draw on the board's own page: the remote page asks
    its player, who declines; then the board's player resigns with the board's buttons (new
    game, new game again): the remote page and the board's store both say so."""
    from firmware_py.web.session_source import SessionSource

    game, side, server = hosted
    page = new_page(server.link("opponent"))
    wait_for_turn(page)
    assert SessionSource(side.session).act("offer_draw", {}) == \
        "draw offered: waiting for black's answer"
    expect(page.locator("#offer-text")).to_have_text("white asks: a draw")
    page.locator("#decline").click()
    page.wait_for_function("() => !window.remote.state.offer")
    assert game.offer is None and game.result is None
    side.board.press("new_game")  # "end the game?"
    side.board.press("new_game")  # again: resigns
    expect(page.locator("#status")).to_have_text("game over: 0-1 (white resigned)")
    assert page.locator("#actions").is_hidden()
    for _ in range(500):  # the board's loop writes the result to its store
        if side.session.store.game(side.session.game_id).result == "0-1":
            break
        time.sleep(0.01)
    info = side.session.store.game(side.session.game_id)
    assert (info.result, info.resigned) == ("0-1", WHITE)
