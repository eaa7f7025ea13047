"""The web view's server: the page, its files, the game record and one WebSocket per page.

Routes: `/` the page, `/static/...` its script and style (all local: no CDN, no build step),
`/record.txt` the game so far, `/review.json` its review after the game (`review_route`),
`/say.wav` the situation spoken (`say_route`), `/ws`
the live channel. Over `/ws` the server sends `hello` (layout, colour language, whether this
page may act), then `state` whenever what the page shows changes (at most `POLL` seconds late,
at once when the source reports changes) and `leds` whenever the LEDs change; the page sends
requests (see `protocol`) and gets `ok` or `error` back.

Safety: `serve()` binds 127.0.0.1 unless told otherwise. On any other address a token is
required to act (it is made up when not given, and printed in the URL); a page without it is
read-only. Pages from another origin may not open the channel at all. Every request is checked
by `protocol.parse`; a bad one gets an error message and the connection and the game go on.

>>> from firmware_py.rules import Board
>>> from firmware_py.state import BoardState
>>> from firmware_py.web.source import StateSource
>>> app = make_app(StateSource(BoardState(board=Board())))
>>> sorted(r.resource.canonical for r in app.router.routes() if r.method == "GET")
['/', '/record.txt', '/review.json', '/say.wav', '/static', '/ws']
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from . import protocol
from ..i18n import _, render_page
from .source import ActionRefused, GameSource
from .view import board_view, layout, led_view

STATIC = Path(__file__).with_name("static")
POLL = 0.05  # seconds: the longest a change waits before the pages hear of it
SOURCE = web.AppKey("source", GameSource)
TOKEN = web.AppKey("token", object)  # str | None
HUB = web.AppKey("hub", object)

log = logging.getLogger(__name__)


def is_loopback(host: str) -> bool:
    """Whether `host` is only reachable from this machine ('127.0.0.1', '::1', 'localhost')."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def token_for(host: str, token: str | None) -> str | None:
    """The token acting needs: the one given, a fresh one off loopback, else None (none needed)."""
    if token:
        return token
    return None if is_loopback(host) else secrets.token_urlsafe(12)


class Hub:
    """Sends every page what changed: one task for all pages, so a change is read once, and each
    page is sent a message only when it differs from the last one of its kind that page got."""

    def __init__(self, source: GameSource):
        self.source = source
        self.pages: dict[web.WebSocketResponse, dict[str, str]] = {}  # page -> {type: last sent}
        self.wake = asyncio.Event()
        self.seen = None
        self.failing = False  # the view failed and has not worked since (said once)
        self.task: asyncio.Task | None = None
        self.stopping = False

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.source.on_change(lambda: loop.call_soon_threadsafe(self.wake.set))
        self.task = asyncio.create_task(self.run())

    async def stop(self) -> None:
        # The flag as well as the cancel: on Python 3.11, a cancel that lands just as the wake
        # event is set is swallowed by wait_for, and the loop would run on (a hung shutdown).
        self.stopping = True
        self.wake.set()
        if self.task:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
        for ws in list(self.pages):
            await ws.close()

    def state_message(self) -> str:
        return json.dumps({"type": "state", "game": board_view(self.source.state()),
                           "sim": self.source.sim_view(),
                           "session": self.source.session_view()}, separators=(",", ":"))

    def leds_message(self) -> str:
        return json.dumps({"type": "leds", "leds": led_view(self.source.leds())},
                          separators=(",", ":"))

    async def run(self) -> None:
        while not self.stopping:
            try:
                await asyncio.wait_for(self.wake.wait(), POLL)
            except TimeoutError:
                pass
            if self.stopping:
                return
            self.wake.clear()
            if self.pages:
                await self.push()

    async def welcome(self, ws: web.WebSocketResponse) -> None:
        """A new page: send it the state and LEDs now, then whatever changes."""
        self.pages[ws] = {}
        await self.push(only=ws)

    def leave(self, ws: web.WebSocketResponse) -> None:
        self.pages.pop(ws, None)

    async def push(self, only: web.WebSocketResponse | None = None) -> None:
        """Send the pages (or the one page `only`) the state and LEDs where they changed."""
        changes = self.source.changes()
        if only is None and changes is not None and changes == self.seen:
            return
        try:
            texts = {"state": self.state_message(), "leds": self.leds_message()}
        except Exception as e:
            await self.view_failed(e, only)
            return
        if self.failing:
            log.warning("the board's view works again: the pages are up to date")
            self.failing = False
        if only is None:
            self.seen = changes
        for ws in [only] if only is not None else list(self.pages):
            sent = self.pages.get(ws, {})
            for kind, text in texts.items():
                if sent.get(kind) != text:
                    sent[kind] = text
                    await self.send(ws, text)

    async def view_failed(self, error: Exception, only=None) -> None:
        """The state could not be turned into a message: a bug in the view or the source, which
        would freeze every page. Said loudly once (log and pages), then retried at every poll;
        a page that opens meanwhile is told too."""
        if only is not None:
            await self.send(only, view_failed_message(error))
        if self.failing:
            return
        self.failing = True
        log.exception("the board's view failed: the pages show an old state until it works "
                      "(retrying at every change)")
        for ws in list(self.pages):
            if ws is not only:
                await self.send(ws, view_failed_message(error))

    async def send(self, ws: web.WebSocketResponse, text: str) -> None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            self.leave(ws)


def view_failed_message(error: Exception) -> str:
    return json.dumps({"type": "error", "id": None,
                       "message": f"the board's view failed ({type(error).__name__}: {error}): "
                                  "this page may be out of date; the server's log has the details"})


def make_app(source: GameSource, token: str | None = None) -> web.Application:
    """The web application for `source`; with a `token`, acting needs `?token=` on the page."""
    app = web.Application()
    app[SOURCE] = source
    app[TOKEN] = token
    app[HUB] = Hub(source)
    app.router.add_get("/", index)
    app.router.add_get("/record.txt", record)
    app.router.add_get("/ws", websocket)
    from .review_route import add_review_route
    add_review_route(app, SOURCE)  # the review after a game (the engine on a worker thread)
    from .say_route import add_say_route
    add_say_route(app, SOURCE)  # the situation as speech, for the page's Say button
    app.router.add_static("/static", STATIC)

    async def start(app: web.Application) -> None:
        app[HUB].start()

    async def stop(app: web.Application) -> None:
        await app[HUB].stop()

    app.on_startup.append(start)
    app.on_shutdown.append(stop)
    return app


async def index(request: web.Request) -> web.Response:
    page = render_page((STATIC / "index.html").read_text(encoding="utf-8"))
    return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-cache"})


async def record(request: web.Request) -> web.Response:
    text = request.app[SOURCE].record_text()
    return web.Response(text=text, content_type="text/plain", headers={
        "Content-Disposition": 'attachment; filename="dvonn-game.txt"'})


def may_act(request: web.Request) -> bool:
    token = request.app[TOKEN]
    if token is None:
        # Served to this machine only, so acting needs only a local name in the Host header:
        # a page of another site reaching us through DNS rebinding carries its own name there.
        return is_loopback(urlsplit("//" + request.host).hostname or "")
    given = request.query.get("token", "")
    return hmac.compare_digest(given.encode(), token.encode())


def same_origin(request: web.Request) -> bool:
    """Browsers always send Origin on a WebSocket; another site's page must not drive the board."""
    origin = request.headers.get("Origin")
    if origin is None:  # not a browser (a script on a machine that may reach us anyway)
        return True
    return urlsplit(origin).netloc == request.host


async def websocket(request: web.Request) -> web.WebSocketResponse:
    if not same_origin(request):
        raise web.HTTPForbidden(text="the board's live channel is for its own page only")
    source, hub = request.app[SOURCE], request.app[HUB]
    acting = may_act(request)
    # Big enough that an oversized message reaches `protocol.parse` and gets a polite error.
    ws = web.WebSocketResponse(heartbeat=20, max_msg_size=64 * 1024)
    await ws.prepare(request)
    await ws.send_json({"type": "hello", "layout": layout(), "can_act": acting,
                        "simulator": source.simulator,
                        "read_only_reason": None if acting else
                        _("read-only: open the URL with the token printed by the server to act")})
    await hub.welcome(ws)
    try:
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                reply = await answer(source, msg.data, acting)
            elif msg.type == WSMsgType.BINARY:
                reply = {"type": "error", "id": None,
                         "message": "messages are JSON text, not binary"}
            else:
                break
            await ws.send_json(reply)
            if reply["type"] == "ok":
                hub.wake.set()
    finally:
        hub.leave(ws)
    return ws


async def answer(source: GameSource, text: str, acting: bool) -> dict:
    """The reply to one message from a page: `ok` (with the source's words) or `error`."""
    try:
        req = protocol.parse(text)
    except protocol.BadMessage as e:
        return {"type": "error", "id": None, "message": str(e)}
    if protocol.needs_right_to_act(req.kind) and not acting:
        return {"type": "error", "id": req.id,
                "message": f"{req.kind}: this page is read-only (it needs the server's token)"}
    if protocol.is_sim_control(req.kind) and not source.simulator:
        return {"type": "error", "id": req.id,
                "message": f"{req.kind}: only the simulator has a hand to do that"}
    if req.kind == "ping":
        return {"type": "ok", "id": req.id, "message": "pong"}
    try:
        said = await asyncio.get_running_loop().run_in_executor(None, source.act, req.kind,
                                                                req.args)
    except ActionRefused as e:
        return {**e.extra, "type": "error", "id": req.id, "message": f"{req.kind}: {e}"}
    except Exception as e:  # a fault in the source must not end the page or the game
        log.exception("%s failed", req.kind)
        return {"type": "error", "id": req.id,
                "message": f"{req.kind}: failed inside the board software: {e}"}
    if isinstance(said, dict):
        return {**said, "type": "ok", "id": req.id}
    return {"type": "ok", "id": req.id, "message": said}


def parse_address(text: str) -> tuple[str, int]:
    """'8080' -> ('127.0.0.1', 8080); '0.0.0.0:8080', '[::]:8080' -> that host and port.

    >>> parse_address("8080"), parse_address("0.0.0.0:80")
    (('127.0.0.1', 8080), ('0.0.0.0', 80))
    """
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]") if sep else "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r}: expected [HOST:]PORT, e.g. 8080 or 0.0.0.0:8080")
    return host or "127.0.0.1", int(port)


def url_for(host: str, port: int, token: str | None) -> str:
    shown = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def serve(source: GameSource, host: str = "127.0.0.1", port: int = 8080,
          token: str | None = None, announce=print) -> None:
    """Serve the page until interrupted (blocking); prints the URL to open."""
    token = token_for(host, token)
    app = make_app(source, token)
    announce(f"Open {url_for(host, port, token)} in a browser (Ctrl-C to stop).")
    if token and not is_loopback(host):
        announce("Pages opened without the token are read-only.")
    web.run_app(app, host=host, port=port, print=None, handle_signals=True)


class AppThread:
    """An aiohttp application served on a thread of its own (the caller's main thread runs
    the board): `start()` returns once it listens (or raises why it cannot), `stop()` ends it.
    `port` 0 takes a free port; `port` then holds the one taken."""

    def __init__(self, app: web.Application, host: str, port: int, name: str):
        import threading
        self.app, self.host, self.port = app, host, port
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self):
        self._thread.start()
        self._ready.wait()
        if self._error:
            raise self._error
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        runner = web.AppRunner(self.app, handle_signals=False)
        try:
            self.loop.run_until_complete(runner.setup())
            site = web.TCPSite(runner, self.host, self.port)
            self.loop.run_until_complete(site.start())
            self.port = runner.addresses[0][1]
        except BaseException as e:  # e.g. the port is taken: tell the caller of start()
            self._error = e
            try:  # stop what setup started (the hub's task), or it is "destroyed but pending"
                self.loop.run_until_complete(runner.cleanup())
            finally:  # (the loop stays open: the session may still tell it of a change)
                self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(runner.cleanup())
        self.loop.close()

    def stop(self) -> None:
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class WebThread(AppThread):
    """The web view's server on a thread of its own.

    >>> from firmware_py.rules import Board
    >>> from firmware_py.state import BoardState
    >>> from firmware_py.web.source import StateSource
    >>> with WebThread(StateSource(BoardState(board=Board())), port=0) as web:
    ...     web.url.startswith("http://127.0.0.1:")
    True
    """

    def __init__(self, source: GameSource, host: str = "127.0.0.1", port: int = 8080,
                 token: str | None = None):
        self.token = token_for(host, token)
        super().__init__(make_app(source, self.token), host, port, "web")

    @property
    def url(self) -> str:
        return url_for(self.host, self.port, self.token)
