"""Ending a game between two boards from the boards themselves (issue 18): the player at either
physical board offers, accepts or declines a draw and resigns, with the board's buttons (new
game asks "end the game?": confirm offers a draw, new game again resigns, undo plays on) or its
own local web page. Two sessions with simulated boards, one hosting and one joining over the
loopback interface; both stores must end with the same result."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

from firmware_py.remote.client import RemoteClient
from firmware_py.remote import ending
from firmware_py.remote.ending import prompt
from firmware_py.remote.game import RemoteGame
from firmware_py.remote.host import RemoteButtons, RemoteHost
from firmware_py.rules import BLACK, WHITE
from firmware_py.web.session_source import SessionSource
from firmware_py.web.source import ActionRefused
from dvonn_sim.remote_play import Side


def test_the_menu_s_examples_run():
    """Among them: say (or hint) while "end the game?" is asked leaves the question open."""
    import doctest
    failed, attempted = doctest.testmod(ending)
    assert attempted > 0 and failed == 0


def wait(check, what, timeout=30.0):
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, what() if callable(what) else what
        time.sleep(0.01)


@contextmanager
def two_boards(tmp_path, plies=4):
    """A board hosting (White at it, Black far away) and a board joining as Black, both run
    by their loops on threads, after `plies` plies played on both."""
    game = RemoteGame(BLACK)
    hosting = Side(WHITE, game.line, tmp_path / "a.sqlite3", seed=4, max_plies=plies,
                   buttons_for=lambda b: RemoteButtons(b, game))
    game.attach(hosting.session)
    stop = threading.Event()
    with RemoteHost(game, port=0) as server:
        client = RemoteClient(server.link("opponent"))
        assert client.connect() == BLACK
        joining = Side(BLACK, client.line, tmp_path / "b.sqlite3", seed=5, max_plies=plies,
                       buttons_for=lambda b: RemoteButtons(b, client))
        client.attach(joining.session)
        threads = [threading.Thread(target=lambda s=s: [s.step() for _ in iter(stop.is_set,
                                                                                True)])
                   for s in (hosting, joining)]
        for t in threads:
            t.start()
        try:
            wait(lambda: hosting.finished() and len(hosting.players.tokens) == plies
                 and client.state is not None and len(client.state["moves"]) == plies
                 and joining.session.state.board.ply_count == plies, f"{plies} plies")
            yield game, client, hosting, joining
        finally:
            stop.set()
            for t in threads:
                t.join(5)
            client.close()
            hosting.session.close()
            joining.session.close()


def stored(side):
    """(result, resigned) of the side's game in its store."""
    info = side.session.store.game(side.session.game_id)
    return info.result, info.resigned


def test_draw_offered_declined_offered_and_accepted_from_buttons_and_pages(tmp_path):
    with two_boards(tmp_path) as (game, client, hosting, joining):
        host_page, join_page = SessionSource(hosting.session), SessionSource(joining.session)
        # The joining board's player: new game asks, confirm offers the draw.
        joining.board.press("new_game")
        wait(lambda: client.summary()["armed"], "the question")
        assert client.summary()["status"] == prompt()
        joining.board.press("confirm")
        wait(lambda: game.view("opponent")["offer"] == {"what": "draw", "by": "black"},
             "black's draw offer reaches the host")
        far = host_page.session_view()["far"]
        assert far["theirs"] and far["status"] == "black offers a draw: confirm accepts"
        assert host_page.act("decline_draw", {}) == "draw declined"  # the host's local page
        wait(lambda: client.state["offer"] is None, "the decline reaches the joining board")
        # The host's player offers one from the page; the joining player accepts on theirs
        # (its page waits for the host's answer).
        assert host_page.act("offer_draw", {}) == "draw offered: waiting for black's answer"
        wait(lambda: join_page.session_view()["far"]["theirs"], "white's offer is seen")
        assert join_page.session_view()["far"]["status"] == "white offers a draw: confirm accepts"
        assert join_page.act("accept_draw", {}) == "draw agreed"
        wait(lambda: hosting.session.state.mode == "over" and joining.session.state.mode == "over",
             "both boards show the end")
        assert hosting.session.state.message == joining.session.state.message == \
            "draw agreed: 1/2-1/2"
        wait(lambda: stored(hosting) == stored(joining) == ("1/2-1/2", None), "both stored")
        with pytest.raises(ActionRefused, match="game is over"):
            join_page.act("resign", {})
        assert game.view("opponent")["moves"] == [str(p) for p in
                                                  joining.session.store.plies(
                                                      joining.session.game_id)]


@pytest.mark.parametrize("who", ["host", "join"])
def test_resigning_with_the_board_s_buttons_ends_the_game_on_both_boards(tmp_path, who):
    with two_boards(tmp_path) as (game, client, hosting, joining):
        side, far = (hosting, game) if who == "host" else (joining, client)
        side.board.press("new_game")
        wait(lambda: far.summary()["armed"], "the question")
        side.board.press("undo")  # plays on: nothing happens
        wait(lambda: not far.summary()["armed"], "played on")
        assert far.summary()["status"] == "playing on" and game.result is None
        side.board.press("new_game")
        wait(lambda: far.summary()["armed"], "asked again")
        side.board.press("new_game")  # again: resigns
        loser = WHITE if who == "host" else BLACK
        result = "0-1" if loser == WHITE else "1-0"
        wait(lambda: stored(hosting) == stored(joining) == (result, loser),
             lambda: f"both stored: {stored(hosting)} {stored(joining)} {client.state}")
        words = f"{'white' if loser == WHITE else 'black'} resigned: {result}"
        wait(lambda: hosting.session.state.message == joining.session.state.message == words,
             "both boards say so")
        assert game.view("spectator")["status"] == f"game over: {result} ({words.split(':')[0]})"
        # The game is decided: a new game on the joining board's page is the host's to start.
        with pytest.raises(ActionRefused, match="host starts the next game"):
            SessionSource(joining.session).act("new_game", {})


def test_the_local_page_has_nothing_to_resign_without_someone_far_away(tmp_path):
    from firmware_py.controller import Controller
    from firmware_py.session import Session
    from firmware_py.store import Store
    from dvonn_sim.board import SimBoard

    sim = SimBoard(seed=1)
    with Session(sim, sim, Store(tmp_path / "g.sqlite3"),
                 lambda board: Controller(board=board)) as session:
        with pytest.raises(ActionRefused, match="someone far away"):
            SessionSource(session).act("resign", {})
        assert SessionSource(session).session_view()["far"] is None
