"""The web server at the HTTP/WebSocket level (aiohttp's test client): routes, pushes,
validation of every message, the right to act, and survival of bad input."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from firmware_py.guidance import render
from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from firmware_py.state import BoardState
from firmware_py.web import protocol
from firmware_py.web.server import is_loopback, make_app, parse_address, token_for, url_for
from firmware_py.web.source import ActionRefused, StateSource


class RecordingSource(StateSource):
    """A simulator stand-in that writes down what it was asked (and refuses lifting b2)."""

    simulator = True

    def __init__(self, state):
        super().__init__(state)
        self.done = []

    def act(self, kind, args):
        if kind == "lift" and args["space"] == INDEX["b2"]:
            raise ActionRefused("b2 is empty")
        if kind == "knock":
            raise RuntimeError("the hand slipped")
        self.done.append((kind, args))
        return f"did {kind}"


def game_state() -> BoardState:
    state = BoardState(board=Board.from_plies(["e3", "f3", "g3", "a1"]), mode="idle",
                       message="white to place")
    return state


def run(coro_fn, source, token=None):
    """Run `coro_fn(client)` against a fresh app on a test server."""
    async def main():
        async with TestClient(TestServer(make_app(source, token))) as client:
            return await coro_fn(client)
    return asyncio.run(main())


async def receive(ws, kind: str, timeout: float = 5.0) -> dict:
    """The next message of type `kind` (skipping pushes of other types)."""
    async def next_of_kind():
        while True:
            msg = await ws.receive()
            assert msg.type == WSMsgType.TEXT, msg
            data = json.loads(msg.data)
            if data["type"] == kind:
                return data
    return await asyncio.wait_for(next_of_kind(), timeout)


async def opened(client, query: str = ""):
    ws = await client.ws_connect("/ws" + query)
    hello = await receive(ws, "hello")
    state = await receive(ws, "state")
    return ws, hello, state


def test_page_and_files_are_served_locally():
    async def check(client):
        page = await client.get("/")
        html = await page.text()
        assert page.status == 200 and "/static/app.js" in html and "/static/style.css" in html
        assert "http://" not in html and "https://" not in html  # nothing from elsewhere
        script = await client.get("/static/app.js")
        assert script.status == 200 and "WebSocket" in await script.text()
        css = await client.get("/static/style.css")
        assert css.status == 200
        record = await client.get("/record.txt")
        text = await record.text()
        assert "attachment" in record.headers["Content-Disposition"]
        assert "1. e3 f3" in text and "2. g3 a1" in text
        missing = await client.get("/static/../server.py")
        assert missing.status in (403, 404)
    run(check, StateSource(game_state()))


def test_hello_and_state_describe_the_game():
    async def check(client):
        ws, hello, state = await opened(client)
        assert hello["can_act"] is True and hello["simulator"] is False
        assert len(hello["layout"]["spaces"]) == 49
        assert hello["layout"]["signals"]["destination"]["pattern"] == "slow"
        game = state["game"]
        assert game["stacks"] == {"e3": "D", "f3": "D", "g3": "D", "a1": "B"}
        assert game["turn"] == "white" and game["to_place"] == "W" and game["phase"] == 1
        assert game["moves"] == ["e3", "f3", "g3", "a1"]
        assert game["message"] == "white to place"
        leds = await receive(ws, "leds")
        assert leds["leds"] is None  # a StateSource without LEDs
        await ws.close()
    run(check, StateSource(game_state()))


def test_a_change_is_pushed_to_the_page():
    source = StateSource(game_state())

    async def check(client):
        ws, _, _ = await opened(client)
        state = source.state()
        state.board.push(state.board.legal_plies()[0])
        state.mode, state.error = "error", [INDEX["c3"]]
        state.message = "wrong piece on c3"
        source.update(state, leds=render(state, 0.0))
        pushed = await receive(ws, "state")
        assert pushed["game"]["error"] == ["c3"] and pushed["game"]["mode"] == "error"
        assert len(pushed["game"]["moves"]) == 5
        leds = await receive(ws, "leds")
        assert leds["leds"][INDEX["c3"]] == "#ff0000"  # error: red (fast blink, lit at 0.0)
        await ws.close()
    run(check, source)


def test_requests_reach_the_source_and_refusals_come_back():
    source = RecordingSource(game_state())

    async def check(client):
        ws, hello, _ = await opened(client)
        assert hello["simulator"] is True
        await ws.send_json({"type": "lift", "space": "E3", "id": 1})
        ok = await receive(ws, "ok")
        assert ok == {"type": "ok", "id": 1, "message": "did lift"}
        await ws.send_json({"type": "place", "space": "c3", "id": 2})
        assert (await receive(ws, "ok"))["id"] == 2
        await ws.send_json({"type": "lift", "space": "b2", "id": 3})
        refused = await receive(ws, "error")
        assert refused["id"] == 3 and refused["message"] == "lift: b2 is empty"
        await ws.send_json({"type": "knock", "space": "e3", "id": 4})
        broken = await receive(ws, "error")
        assert "the hand slipped" in broken["message"]
        await ws.send_json({"type": "ping", "id": 5})  # the connection survived all that
        assert (await receive(ws, "ok"))["message"] == "pong"
        await ws.close()
    run(check, source)
    assert source.done == [("lift", {"space": INDEX["e3"], "count": None}),
                           ("place", {"space": INDEX["c3"], "piece": None})]


@pytest.mark.parametrize("text, says", [
    ("not json", "must be a JSON object"),
    ("[1, 2]", "not list"),
    ('{"space": "c3"}', "type: None is not a message type"),
    ('{"type": "fly", "space": "c3"}', "type: 'fly'"),
    ('{"type": "lift"}', "space: a 'lift' message needs it"),
    ('{"type": "lift", "space": "z9"}', "space: 'z9' is not a space"),
    ('{"type": "lift", "space": 12}', "space: 12 is not a space"),
    ('{"type": "lift", "space": "c3", "hand": 2}', "hand: a 'lift' message takes no such key"),
    ('{"type": "place", "space": "c3", "piece": "X"}', "piece: 'X' is not one of W, B, D"),
    ('{"type": "lift", "space": "c3", "count": 0}', "count: 0 is not a number of pieces"),
    ('{"type": "noise", "level": "loud"}', "level: 'loud' is not a noise level"),
    ('{"type": "noise", "level": 99}', "level: 99 is not a noise level"),
    ('{"type": "link", "connected": "yes"}', "connected: 'yes' is not true or false"),
    ('{"type": "ping", "id": "x"}', "id: 'x' is not a whole number"),
    ('{"type": "ping", "id": true}', "id: True is not a whole number"),
    ('{"type": "takeback", "ply": 3}', "ply: a 'takeback' message takes no such key"),
    ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "at most 2048 bytes"),
    ("[" * 30000 + "]" * 30000, "at most 2048 bytes"),
])
def test_malformed_messages_get_an_error_and_the_connection_survives(text, says):
    source = RecordingSource(game_state())

    async def check(client):
        ws, _, _ = await opened(client)
        await ws.send_str(text)
        error = await receive(ws, "error")
        assert says in error["message"]
        await ws.send_json({"type": "ping", "id": 9})
        assert (await receive(ws, "ok"))["id"] == 9
        await ws.close()
    run(check, source)
    assert source.done == []


def test_a_flood_closes_only_that_connection():
    """Past 64 KiB a message is not even read: that page is cut off (1009), the server goes on."""
    async def check(client):
        ws, _, _ = await opened(client)
        await ws.send_str("x" * 100_000)
        msg = await ws.receive()
        while msg.type == WSMsgType.TEXT:
            msg = await ws.receive()
        assert msg.type == WSMsgType.CLOSE and msg.data == 1009
        again, hello, state = await opened(client)
        assert state["game"]["moves"] == ["e3", "f3", "g3", "a1"]
        await again.close()
    run(check, StateSource(game_state()))


def test_binary_messages_are_refused_politely():
    async def check(client):
        ws, _, _ = await opened(client)
        await ws.send_bytes(b"\x00\x01")
        assert "not binary" in (await receive(ws, "error"))["message"]
        await ws.send_json({"type": "ping"})
        assert (await receive(ws, "ok"))["message"] == "pong"
        await ws.close()
    run(check, StateSource(game_state()))


def test_without_the_token_a_page_is_read_only():
    source = RecordingSource(game_state())

    async def check(client):
        ws, hello, _ = await opened(client)
        assert hello["can_act"] is False and "token" in hello["read_only_reason"]
        for kind in ({"type": "lift", "space": "c3"}, {"type": "takeback"},
                     {"type": "new_game"}, {"type": "noise", "level": "bad"}):
            await ws.send_json(kind)
            assert "read-only" in (await receive(ws, "error"))["message"]
        await ws.send_json({"type": "ping"})  # reading still works
        assert (await receive(ws, "ok"))["message"] == "pong"
        await ws.close()
        wrong, hello, _ = await opened(client, "?token=guess")
        assert hello["can_act"] is False
        await wrong.close()
        right, hello, _ = await opened(client, "?token=s3cret")
        assert hello["can_act"] is True
        await right.send_json({"type": "lift", "space": "c3"})
        assert (await receive(right, "ok"))["message"] == "did lift"
        await right.close()
    run(check, source, token="s3cret")
    assert source.done == [("lift", {"space": INDEX["c3"], "count": None})]


def test_a_real_board_has_no_hand():
    async def check(client):
        ws, _, _ = await opened(client)
        await ws.send_json({"type": "lift", "space": "c3"})
        assert "only the simulator" in (await receive(ws, "error"))["message"]
        await ws.send_json({"type": "takeback"})
        assert "cannot take back" in (await receive(ws, "error"))["message"]
        await ws.close()
    run(check, StateSource(game_state()))


def test_another_sites_page_cannot_open_the_channel():
    async def check(client):
        with pytest.raises(Exception) as refused:
            await client.ws_connect("/ws", headers={"Origin": "http://evil.example"})
        assert "403" in str(refused.value)
        ws = await client.ws_connect("/ws", headers={"Origin": f"http://{client.host}:{client.port}"})
        assert (await receive(ws, "hello"))["can_act"] is True
        await ws.close()
    run(check, StateSource(game_state()))


def test_a_rebound_name_cannot_act_on_a_local_board():
    """DNS rebinding: evil.example resolving to 127.0.0.1 gets a read-only page."""
    async def check(client):
        ws = await client.ws_connect("/ws", headers={"Host": "evil.example:8080",
                                                     "Origin": "http://evil.example:8080"})
        assert (await receive(ws, "hello"))["can_act"] is False
        await ws.send_json({"type": "takeback"})
        assert "read-only" in (await receive(ws, "error"))["message"]
        await ws.close()
        local = await client.ws_connect("/ws", headers={"Host": "localhost:8080"})
        assert (await receive(local, "hello"))["can_act"] is True
        await local.close()
    run(check, StateSource(game_state()))


def test_binding_and_tokens():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20")
    assert token_for("127.0.0.1", None) is None
    assert token_for("127.0.0.1", "given") == "given"
    made = token_for("0.0.0.0", None)
    assert made and made != token_for("0.0.0.0", None)
    assert url_for("0.0.0.0", 8080, "t") == "http://127.0.0.1:8080/?token=t"
    assert url_for("::1", 80, None) == "http://[::1]:80/"
    assert parse_address("8080") == ("127.0.0.1", 8080)
    assert parse_address("192.168.1.20:8000") == ("192.168.1.20", 8000)
    assert parse_address("[::]:8000") == ("::", 8000)
    with pytest.raises(ValueError, match="expected \\[HOST:\\]PORT"):
        parse_address("eighty")


def test_protocol_table_is_consistent():
    for kind in protocol.MESSAGES:
        assert protocol.needs_right_to_act(kind) == (kind != "ping")
    assert protocol.parse('{"type": "dead_sensor", "space": null}').args == {"space": None}
    assert protocol.parse('{"type": "noise", "level": 0.5}').args == {"level": 0.5}


def test_the_live_view_of_a_running_session(tmp_path):
    """`play --web`: the page over a real Session (simulated board, SQLite store)."""
    import aiohttp

    from firmware_py.controller import Controller
    from firmware_py.session import Session
    from firmware_py.store import Store
    from firmware_py.web.session_source import start_web
    from dvonn_sim.board import SimBoard

    board = SimBoard(seed=3)
    session = Session(board, board, Store(tmp_path / "games.sqlite3"),
                      lambda b: Controller(board=b))
    for _ in range(60):  # calibrate on the empty board
        session.step()
    web = start_web(session, "0")
    try:
        async def check():
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(web.url.rstrip("/") + "/ws") as ws:
                    hello = await receive(ws, "hello")
                    assert hello["can_act"] is True and hello["simulator"] is False
                    state = await receive(ws, "state")
                    assert state["game"]["mode"] == "idle"
                    assert state["session"] == {"rebuild": [], "game": session.game_id,
                                                "resumed": False, "hints": True, "far": None}
                    await ws.send_json({"type": "lift", "space": "e3"})
                    assert "only the simulator" in (await receive(ws, "error"))["message"]
                    await ws.send_json({"type": "takeback", "id": 2})
                    assert "no ply to take back" in (await receive(ws, "error"))["message"]
        asyncio.run(check())
    finally:
        web.stop()
        session.close()


def test_the_push_latency_benchmark_runs():
    from firmware_py.tools.web_bench import measure

    r = measure(changes=5)
    assert r["changes"] == 5 and 0 < r["mean_ms"] <= r["max_ms"]


@pytest.mark.parametrize("name", ["protocol", "view", "source", "server"])
def test_the_docstring_examples_hold(name):
    import doctest
    import importlib

    module = importlib.import_module(f"firmware_py.web.{name}")
    failed, tried = doctest.testmod(module)
    assert failed == 0 and tried > 0


class BreakableSource(StateSource):
    """A source whose view can be broken, as a bug in the view or the source would."""

    broken = False

    def state(self):
        if self.broken:
            raise RuntimeError("view bug")
        return super().state()


def test_a_failing_view_is_said_loudly_once_and_the_pages_told(caplog):
    import logging

    source = BreakableSource(game_state())

    async def check(client):
        ws, _, _ = await opened(client)
        source.broken = True
        for _ in range(5):  # a change and four polls: still one log and one message
            source.update()
            await asyncio.sleep(0.06)
        error = await receive(ws, "error")
        assert "the board's view failed (RuntimeError: view bug)" in error["message"]
        source.broken = False
        board = source.state().board
        board.push(board.legal_plies()[0])
        source.update()
        state = await receive(ws, "state")
        assert state["game"]["ply"] == 5
        later, _, _ = await opened(client)  # a page opened meanwhile got the state at once
        await later.close()
        await ws.close()

    with caplog.at_level(logging.DEBUG, logger="firmware_py.web.server"):
        run(check, source)
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(loud) == 1 and "view failed" in loud[0].getMessage() and loud[0].exc_info
    assert any("works again" in r.getMessage() for r in caplog.records)


def test_a_page_opened_while_the_view_fails_hears_why(caplog):
    source = BreakableSource(game_state())
    source.broken = True

    async def check(client):
        ws = await client.ws_connect("/ws")
        await receive(ws, "hello")
        assert "view failed" in (await receive(ws, "error"))["message"]
        source.broken = False
        source.update()
        assert (await receive(ws, "state"))["game"]["ply"] == 4
        await ws.close()
    run(check, source)


def test_an_idle_session_is_not_pushed_again(tmp_path):
    """`play --web` on a board where nothing happens: after the state, no more state messages
    (the frame clock moving is not a change the page shows)."""
    import threading

    import aiohttp

    from firmware_py.controller import Controller
    from firmware_py.session import Session
    from firmware_py.store import Store
    from firmware_py.web.session_source import start_web
    from dvonn_sim.board import SimBoard
    from dvonn_sim.clock import RealTimeClock

    board = SimBoard(seed=3, clock=RealTimeClock(speed=4.0))
    session = Session(board, board, Store(tmp_path / "games.sqlite3"),
                      lambda b: Controller(board=b))
    stop = threading.Event()
    loop = threading.Thread(target=session.run, args=(stop,))
    loop.start()
    web = start_web(session, "0")
    try:
        async def count_states() -> int:
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(web.url.rstrip("/") + "/ws") as ws:
                    while (await receive(ws, "state"))["game"]["mode"] != "idle":
                        pass
                    states = 0
                    end = asyncio.get_running_loop().time() + 0.6  # a dozen polls
                    while (left := end - asyncio.get_running_loop().time()) > 0:
                        try:
                            msg = await ws.receive(timeout=left)
                        except asyncio.TimeoutError:
                            break
                        states += json.loads(msg.data)["type"] == "state"
                    return states
        assert asyncio.run(count_states()) == 0
    finally:
        web.stop()
        stop.set()
        loop.join(5)


def test_the_hub_stops_while_changes_keep_arriving():
    """A change arriving from the board's thread just as the server shuts down must not keep
    the hub running (on Python 3.11 wait_for can swallow that cancel: the shutdown hung, and a
    `sim` on a busy port never exited)."""
    import threading
    import time

    from firmware_py.web.server import Hub
    from firmware_py.web.source import StateSource

    result = {}

    async def trials():
        loop = asyncio.get_running_loop()
        for _ in range(60):
            hub = Hub(StateSource(BoardState(board=Board())))
            hub.start()
            done = threading.Event()

            def hammer():
                while not done.is_set():
                    loop.call_soon_threadsafe(hub.wake.set)
                    time.sleep(0.0002)
            thread = threading.Thread(target=hammer, daemon=True)
            thread.start()
            await asyncio.sleep(0.002)
            await asyncio.wait_for(hub.stop(), 2.0)
            done.set()
            thread.join()
        result["ok"] = True

    runner = threading.Thread(target=lambda: asyncio.run(trials()), daemon=True)
    runner.start()
    runner.join(60)
    assert result.get("ok"), "the hub did not stop"
