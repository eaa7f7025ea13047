"""The host's server for a remote opponent: the play page, its live channel, the invitations.

Routes: `/play` the page (static files beside it; nothing from a CDN, no build step) and `/ws`
the live channel. Both need `?token=`: one token per role (opponent, spectator), made with
`secrets`, compared in constant time (`hmac.compare_digest`). Over `/ws` the host sends `hello`
(role, colour, board layout) and a `state` whenever the game changes: at once, pushed from the
board's loop; the page sends `protocol` messages and gets `ok` or `error` (with the reason).

Safety: the server binds 127.0.0.1 unless told otherwise (see `exposure_note`); every message
is checked by `protocol.parse`; each connection may send `RATE` messages a second (bursts of
`BURST`); past that its messages are dropped unread, and a connection that keeps flooding is
closed. The board's loop runs on its own thread and never waits for the network.
"""

from __future__ import annotations

from ..i18n import render_page
import asyncio
import hmac
import json
import logging
import secrets
import time
from pathlib import Path

from aiohttp import WSMsgType, web

from ..web.server import AppThread, is_loopback, same_origin, url_for
from ..web.view import layout
from . import protocol
from .game import Refused, RemoteGame

STATIC = Path(__file__).with_name("static")
ROLES = ("opponent", "spectator")
RATE, BURST = 20.0, 40  # messages a second per connection, and the burst allowed
FLOOD_LIMIT = 200       # messages dropped before the connection is closed
MAX_PAGES = 32          # connections at once (all roles)
SEND_WITHIN = 2.0       # seconds: a page that does not read its messages is dropped

log = logging.getLogger(__name__)
GAME = web.AppKey("game", RemoteGame)
TOKENS = web.AppKey("tokens", dict)
HUB = web.AppKey("hub", object)


def new_tokens() -> dict[str, str]:
    """An unguessable token per role (128 bits each)."""
    return {role: secrets.token_urlsafe(16) for role in ROLES}


def role_for(tokens: dict[str, str], given: str) -> str | None:
    """The role whose token is `given` (None: no invitation). Every token is compared, in
    constant time, whatever matches."""
    found = None
    for role, token in tokens.items():
        if hmac.compare_digest(given.encode(), token.encode()):
            found = role
    return found


class Bucket:
    """A token bucket: `take()` is True while the sender keeps within `rate` a second."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level, self.at = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False


class Hub:
    """Pushes the game's state to every page when it changes (one task for all)."""

    def __init__(self, game: RemoteGame):
        self.game = game
        self.pages: dict[web.WebSocketResponse, list] = {}  # ws -> [role, last text sent]
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.stopping = False

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.game.on_change(lambda: loop.call_soon_threadsafe(self.wake.set))
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        while not self.stopping:
            await self.wake.wait()
            self.wake.clear()
            if not self.stopping:
                await self.push()

    async def push(self) -> None:
        views = {role: json.dumps(self.game.view(role), separators=(",", ":")) for role in ROLES}
        for ws, page in list(self.pages.items()):
            text = views[page[0]]
            if text != page[1]:
                page[1] = text
                await self.send(ws, text)

    async def send(self, ws: web.WebSocketResponse, text: str) -> None:
        try:
            await asyncio.wait_for(ws.send_str(text), SEND_WITHIN)
        except (ConnectionError, RuntimeError, TimeoutError):
            self.pages.pop(ws, None)
            await ws.close()

    async def stop(self) -> None:
        # The flag as well as the cancel: on Python 3.11 a cancel that meets a finishing
        # wait_for (a send) is swallowed, and the loop would run on (see web.server.Hub).
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


def make_app(game: RemoteGame, tokens: dict[str, str]) -> web.Application:
    app = web.Application()
    app[GAME], app[TOKENS], app[HUB] = game, tokens, Hub(game)
    app.router.add_get("/play", page)
    app.router.add_get("/ws", websocket)
    app.router.add_static("/static", STATIC)

    async def start(app):
        app[HUB].start()

    async def stop(app):
        await app[HUB].stop()

    app.on_startup.append(start)
    app.on_shutdown.append(stop)
    return app


async def page(request: web.Request) -> web.Response:
    if role_for(request.app[TOKENS], request.query.get("token", "")) is None:
        raise web.HTTPForbidden(text="this game needs the invitation link's token")
    page = render_page((STATIC / "remote.html").read_text(encoding="utf-8"))
    return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-cache"})


async def websocket(request: web.Request) -> web.WebSocketResponse:
    role = role_for(request.app[TOKENS], request.query.get("token", ""))
    if role is None:
        raise web.HTTPForbidden(text="this game needs the invitation link's token")
    if not same_origin(request):
        raise web.HTTPForbidden(text="the game's channel is for its own page only")
    hub, game = request.app[HUB], request.app[GAME]
    if len(hub.pages) >= MAX_PAGES:
        raise web.HTTPServiceUnavailable(text="too many pages are open on this game")
    ws = web.WebSocketResponse(heartbeat=10, max_msg_size=4 * protocol.MAX_MESSAGE)
    await ws.prepare(request)
    await ws.send_json({"type": "hello", "role": role,
                        "colour": game.view(role)["colour"], "layout": layout()})
    state = json.dumps(game.view(role), separators=(",", ":"))
    await ws.send_str(state)
    hub.pages[ws] = [role, state]
    bucket, dropped = Bucket(), 0
    try:
        async for msg in ws:
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break
            if not bucket.take():
                dropped += 1
                if dropped >= FLOOD_LIMIT:
                    await ws.close(code=1008, message=b"too many messages")
                    break
                if dropped == 1:
                    await hub.send(ws, json.dumps({"type": "error", "id": None, "message":
                                                   f"too many messages: at most {RATE:.0f} a "
                                                   "second; the rest are dropped"}))
                continue
            dropped = 0
            reply = answer(game, role, msg.data)
            await hub.send(ws, json.dumps(reply))
    finally:
        hub.pages.pop(ws, None)
    return ws


def answer(game: RemoteGame, role: str, text) -> dict:
    """The reply to one message: `ok` with the game's words, or `error` with the reason."""
    try:
        msg = protocol.parse(text)
    except protocol.BadMessage as e:
        return {"type": "error", "id": None, "message": str(e)}
    if protocol.opponent_only(msg.kind) and role != "opponent":
        return {"type": "error", "id": msg.id,
                "message": f"{msg.kind}: spectators watch; only the opponent's link plays"}
    try:
        said = game.receive(msg.kind, msg.args)
    except Refused as e:
        return {"type": "error", "id": msg.id, "message": str(e), "refused": msg.kind}
    return {"type": "ok", "id": msg.id, "message": said}


def exposure_note(host: str, port: int) -> str:
    """What to tell the host about who can reach the game."""
    if is_loopback(host):
        return ("Only this machine can open these links. To invite someone far away, forward "
                f"the port through a tunnel (e.g. `ssh -R 8090:127.0.0.1:{port} you@server`) "
                "or serve it with --remote-at 0.0.0.0:PORT behind a TLS reverse proxy.")
    return (f"Serving the game on {host}:{port}, reachable from the network: anyone with a "
            "link's token can open it, and plain http shows the token to the network. Put it "
            "behind a TLS reverse proxy (e.g. `caddy reverse-proxy --from board.example.org "
            f"--to 127.0.0.1:{port}`) or a tunnel (ssh -R, WireGuard) and give out the https "
            "links.")


class RemoteHost(AppThread):
    """The server on a thread of its own (the main thread runs the board).

    >>> from firmware_py.rules import BLACK
    >>> with RemoteHost(RemoteGame(BLACK), port=0) as host:
    ...     host.link("opponent").startswith("http://127.0.0.1:")
    True
    """

    def __init__(self, game: RemoteGame, host: str = "127.0.0.1", port: int = 8090,
                 tokens: dict[str, str] | None = None):
        self.game = game
        self.tokens = tokens or new_tokens()
        super().__init__(make_app(game, self.tokens), host, port, "remote-host")

    def link(self, role: str) -> str:
        """The invitation link for `role`."""
        return url_for(self.host, self.port, None) + f"play?token={self.tokens[role]}"

    def opponents(self) -> int:
        """How many opponent pages (or joined boards) are connected now."""
        return sum(page[0] == "opponent" for page in list(self.app[HUB].pages.values()))


class RemoteButtons:
    """The board's buttons while someone far away plays: undo and confirm answer (or make) the
    remote side's offers (`game.local_button`: a `RemoteGame` when hosting, a
    `client.RemoteClient` when joined); the rest reach the board as before."""

    def __init__(self, buttons, game):
        self.buttons, self.game = buttons, game

    def events(self) -> list[str]:
        if self.buttons is None:
            return []
        return [name for name in self.buttons.events() if self.game.local_button(name)]

    def close(self) -> None:
        if self.buttons is not None:
            self.buttons.close()

    def __getattr__(self, name):  # e.g. the simulated board's press()
        return getattr(self.buttons, name)
