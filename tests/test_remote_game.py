"""The host's rules for the remote side (numbered plies, stale and illegal plies refused with a
reason, offers that need both sides, resignation), its messages, its tokens, and its server over
the loopback interface: a wrong token, a bad message, a flood that cannot stall the board."""

from __future__ import annotations

import asyncio
import doctest
import json
import threading
import time

import aiohttp
import pytest

from firmware_py.remote import channel, client, ending, follow, game as game_mod, host as host_mod
from firmware_py.remote import line, protocol
from firmware_py.remote.game import Refused, RemoteGame
from firmware_py.remote.host import Bucket, RemoteButtons, RemoteHost, answer, role_for
from firmware_py.rules import BLACK, WHITE, Board, Ply
from firmware_py.state import BoardState


def test_doctests():
    for module in (line, protocol, channel, client, host_mod, game_mod, ending, follow):
        assert doctest.testmod(module).failed == 0, module.__name__


class Recorded:
    """The part of a `Session` the game reads: the recorded position, the game id, and the
    queue the game's requests go to (takeback, finishing the game)."""

    def __init__(self, plies=()):
        self.state = BoardState(board=Board.from_plies(list(plies)))
        self.game_id = 1
        self.queued: list = []

    def subscribe(self, callback):
        self.callback = callback

    def play(self, token):
        self.state.board.push(Ply.parse(token))
        self.callback(self)

    def takeback(self):
        self.queued.append("takeback")

    def call_soon(self, fn):
        self.queued.append(fn)


def hosted(plies=(), colour=BLACK):
    game, session = RemoteGame(colour), Recorded(plies)
    game.attach(session)
    return game, session


def test_a_remote_ply_becomes_the_shown_ply_and_is_done_once_carried_out():
    game, session = hosted(["e3"])
    assert game.view("opponent")["legal"][:2] == ["a1", "b1"]
    assert game.receive("ply", {"n": 1, "ply": "f3"}) == "f3 is shown on the board"
    assert str(game.line.update(session.state.board)) == "f3"       # the LEDs show it
    assert game.view("opponent")["pending"] == "f3"
    assert game.receive("ply", {"n": 1, "ply": "f3"}) == "f3 is already shown on the board"
    with pytest.raises(Refused, match="stale"):
        game.receive("ply", {"n": 1, "ply": "g3"})  # another ply for the same number
    session.play("f3")                              # the local player carried it out
    view = game.view("opponent")
    assert view["moves"] == ["e3", "f3"] and view["pending"] is None and view["legal"] == []
    assert view["status"] == "white to play on the board"
    assert game.receive("ply", {"n": 1, "ply": "f3"}) == "f3 is already recorded"  # resent


@pytest.mark.parametrize("n, ply, reason", [
    (0, "f3", "stale"), (3, "a1", "only 1 plies"), (1, "e3", "e3 is already occupied"),
])
def test_stale_early_and_illegal_plies_are_refused_with_the_reason(n, ply, reason):
    game, _ = hosted(["e3"])
    with pytest.raises(Refused, match=reason):
        game.receive("ply", {"n": n, "ply": ply})
    assert game.line.plies == tuple(game.line.plies[:1])  # nothing added


def test_a_ply_on_the_board_players_turn_is_refused():
    game, _ = hosted(["e3", "f3"])
    with pytest.raises(Refused, match="white's turn"):
        game.receive("ply", {"n": 2, "ply": "a1"})


def test_takeback_needs_both_sides():
    game, session = hosted(["e3", "f3"])
    buttons = RemoteButtons(None, game)
    assert buttons.events() == []
    # The board's player presses undo: an offer to the remote side, not a takeback yet.
    assert game.local_button("undo") is False
    assert game.view("opponent")["offer"] == {"what": "takeback", "by": "white"}
    with pytest.raises(Refused, match="stale"):
        game.receive("accept", {"what": "takeback", "n": 1})
    assert game.receive("accept", {"what": "takeback", "n": 2}).startswith("takeback of f3")
    assert session.queued == ["takeback"]
    session.state.board.pop()   # the board took it back
    session.callback(session)
    assert game.view("opponent")["line"] == ["e3"] and game.view("opponent")["legal"] != []
    # The remote side asks; the board's undo accepts (the board takes it back itself).
    session.play("f3")
    game.receive("offer", {"what": "takeback", "n": 2})
    assert game.local_button("undo") is True and game.view("opponent")["offer"] is None
    # An offer is void once a ply is played.
    game.receive("offer", {"what": "draw", "n": 2})
    session.play("g3")
    assert game.view("opponent")["offer"] is None


def test_draw_by_agreement_and_resignation_finish_the_game():
    game, session = hosted(["e3", "f3"])
    game.receive("offer", {"what": "draw", "n": 2})
    with pytest.raises(Refused, match="no such offer"):
        game.receive("accept", {"what": "draw", "n": 2})  # one's own offer
    assert game.local_button("confirm") is False           # the board's player accepts
    view = game.view("opponent")
    assert view["result"] == "1/2-1/2" and "draw agreed" in view["status"]
    with pytest.raises(Refused, match="game is over"):
        game.receive("ply", {"n": 2, "ply": "a1"})
    game2, session2 = hosted(["e3"])
    game2.receive("resign", {})
    assert game2.view("spectator")["status"] == "game over: 1-0 (black resigned)"
    assert len(session2.queued) == 1  # the store is told in the board's loop


def test_spectators_only_watch_and_bad_messages_say_what_is_wrong():
    game, _ = hosted(["e3"])
    reply = answer(game, "spectator", '{"type": "ply", "n": 1, "ply": "f3"}')
    assert reply["type"] == "error" and "spectators watch" in reply["message"]
    assert game.view("spectator")["legal"] == []
    for text, says in [('{"type": "ply", "n": 1}', "ply: a 'ply' message needs it"),
                       ('{"type": "ply", "n": -1, "ply": "f3"}', "n: -1 is not a ply number"),
                       ('{"type": "ply", "n": 1, "ply": "z9"}', "ply: 'z9' is not a ply"),
                       ('{"type": "ply", "n": 1, "ply": "f3", "x": 1}', "x: a 'ply' message"),
                       ("[1]", "JSON object"), ("x" * 2000, "at most 1024 bytes")]:
        reply = answer(game, "opponent", text)
        assert reply["type"] == "error" and says in reply["message"], (text, reply)
    assert answer(game, "opponent", '{"type": "ply", "n": 1, "ply": "F3", "id": 4}') == {
        "type": "ok", "id": 4, "message": "f3 is shown on the board"}


def test_tokens_are_per_role_and_unguessable():
    tokens = host_mod.new_tokens()
    assert tokens["opponent"] != tokens["spectator"] and len(tokens["opponent"]) >= 20
    assert role_for(tokens, tokens["spectator"]) == "spectator"
    assert role_for(tokens, tokens["opponent"]) == "opponent"
    assert role_for(tokens, "") is None and role_for(tokens, tokens["opponent"][:-1]) is None


def test_the_bucket_lets_a_steady_sender_through_and_stops_a_flood():
    now = [0.0]
    bucket = Bucket(rate=10, burst=5, clock=lambda: now[0])
    assert sum(bucket.take() for _ in range(100)) == 5
    now[0] += 1.0
    assert sum(bucket.take() for _ in range(100)) == 5  # refilled, at most the burst


# -- the server over loopback ---------------------------------------------------------------------
@pytest.fixture()
def server(tmp_path):
    from dvonn_sim.remote_play import Side
    game = RemoteGame(BLACK)
    side = Side(WHITE, game.line, tmp_path / "host.sqlite3", seed=2,
                buttons_for=lambda board: RemoteButtons(board, game))
    game.attach(side.session)
    stop, steps = threading.Event(), [0]

    def loop():
        while not stop.is_set():
            side.step()
            steps[0] += 1
    thread = threading.Thread(target=loop, daemon=True)
    with RemoteHost(game, port=0) as host:
        thread.start()
        yield host, game, side, steps
        stop.set()
        thread.join(5)
    side.session.close()


def ws_url(host, role):
    return f"ws://127.0.0.1:{host.port}/ws?token={host.tokens[role]}"


def test_a_wrong_token_is_turned_away(server):
    host = server[0]

    async def go():
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{host.port}/play?token=nope") as r:
                assert r.status == 403 and "invitation" in await r.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await http.ws_connect(f"ws://127.0.0.1:{host.port}/ws?token=nope")
            assert e.value.status == 403
            async with http.get(host.link("spectator")) as r:
                assert r.status == 200 and "DVONN" in await r.text()
    asyncio.run(go())


def test_a_flood_from_one_client_does_not_stall_the_board(server):
    host, game, side, steps = server

    async def go():
        async with aiohttp.ClientSession() as http:
            flood = await http.ws_connect(ws_url(host, "spectator"))
            player = await http.ws_connect(ws_url(host, "opponent"))
            before = steps[0]
            sent = 0
            try:
                for _ in range(5000):
                    await flood.send_str('{"type": "ping"}')
                    sent += 1
            except ConnectionError:
                pass
            closed = None
            async for msg in flood:  # replies to the first pings, then the server closes it
                if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break
            closed = flood.close_code
            # Meanwhile the board went on, and the opponent plays as usual.
            deadline = time.monotonic() + 30
            state = None
            while time.monotonic() < deadline:
                msg = json.loads((await player.receive(timeout=30)).data)
                if msg["type"] == "state" and msg["legal"]:
                    state = msg
                    break
            await player.send_str(json.dumps({"type": "ply", "n": state["n"],
                                              "ply": state["legal"][0]}))
            while True:
                msg = json.loads((await player.receive(timeout=10)).data)
                if msg["type"] == "ok":
                    break
            return closed, steps[0] - before, state
    closed, stepped, state = asyncio.run(go())
    assert closed == 1008          # too many messages: the server closed that connection
    assert stepped > 0             # the board's loop kept going during the flood
    assert game.view("opponent")["pending"] == state["legal"][0]


def test_a_wrong_ply_for_the_remote_side_names_who_shows_it(tmp_path):
    """The session tells the controller who shows the ply: the board's message says so."""
    from firmware_py.script import Script
    game = RemoteGame(BLACK)
    script = Script()
    script.computer, script.names = frozenset({BLACK}), {BLACK: game.line.name}
    st = BoardState(board=Board.from_plies(["e3"]))
    st.hint = Ply.parse("f3")
    script.flag(st, Ply.parse("g3"))
    assert st.message == "black (far away) plays f3: take it back" and st.mode == "error"
    st.hint = None
    script.flag(st, Ply.parse("g3"))
    assert st.message == "wait for black (far away) to play: take it back"
    from dvonn_sim.remote_play import Side
    side = Side(WHITE, game.line, tmp_path / "a.sqlite3", seed=1)
    assert side.session.controller.script.names == {BLACK: "black (far away)"}
    side.session.close()


def test_a_state_that_overtakes_the_hello_is_read_after_it():
    c = client.RemoteClient("http://127.0.0.1:1/play?token=abc")
    state = {"type": "state", "line": ["e3", "f3"], "game": 1}
    c._on_message(state)  # no hello yet: kept, not read (it used to fail on the missing line)
    assert c.state is None
    c._on_message({"type": "hello", "role": "opponent", "colour": "black"})
    assert c.colour == BLACK and c.state == state
    assert [str(p) for p in c.line.plies] == ["e3", "f3"]


def test_the_hosting_boards_web_page_takeback_asks_the_far_away_player_first():
    from firmware_py.session import Session

    game, session = hosted(["e3", "f3"])
    Session.press(session, "undo")     # the page's (or the terminal's) takeback
    assert session.queued == []        # nothing taken back yet: it became an offer
    assert game.view("opponent")["offer"]["what"] == "takeback"
