"""The joining board's WebSocket to the host: opened from the invitation link, opened again
whenever it drops, on a thread of its own.

`RemoteClient` (client.py) decides what the messages mean; `Channel` only carries them:

- `channel_url(link)`: the invitation link (`http(s)://HOST:PORT/play?token=...`) as the live
  channel's address, or a `JoinError` saying what is wrong with the link;
- `start()` runs the channel on its own event loop (`loop`): each connection counts in
  `connections`, its messages go to `on_message(data)` and `talk(ws)` runs beside them (the
  client's sender); a dropped connection is opened again after a pause that grows (`RETRY_S`);
  a link the host refuses (403) is `fatal` and ends it;
- `send_soon(kind, **fields)` sends from any thread when connected (else nothing);
  `ask(kind, fields)` sends with an id and returns a `Future` that `answer(data)` settles with
  the host's `ok` or `error` for that id;
- `drop()` closes the connection (it is opened again), `close()` ends the channel.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import threading
from concurrent.futures import Future
from typing import Awaitable, Callable
from urllib.parse import urlsplit, urlunsplit

from ..i18n import _
from . import protocol
from .game import Refused

log = logging.getLogger(__name__)
RETRY_S = (0.1, 0.2, 0.5, 1.0, 2.0)  # pauses before reconnecting, then the last one again


class JoinError(Exception):
    """The invitation link cannot be used (the text says why)."""


def channel_url(link: str) -> str:
    """The live channel of an invitation link.

    >>> channel_url("http://127.0.0.1:8090/play?token=abc")
    'ws://127.0.0.1:8090/ws?token=abc'
    >>> channel_url("https://board.example.org/dvonn/play?token=abc")
    'wss://board.example.org/dvonn/ws?token=abc'
    """
    parts = urlsplit(link.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise JoinError(f"{link!r}: expected the invitation link, http(s)://HOST:PORT/play?token=...")
    if "token=" not in parts.query:
        raise JoinError(f"{link!r}: the link has no token (copy the whole invitation link)")
    path = parts.path.rsplit("/", 1)[0] + "/ws"
    return urlunsplit(("wss" if parts.scheme == "https" else "ws", parts.netloc, path,
                       parts.query, ""))


class Channel:
    """The WebSocket to the host at `url` (see the module docstring).

    on_message(data): each message from the host, on the network thread; talk(ws): a coroutine
    run while each connection is open (cancelled when it closes).
    """

    def __init__(self, url: str, on_message: Callable[[dict], None],
                 talk: Callable[[object], Awaitable[None]]):
        self.url, self.on_message, self.talk = url, on_message, talk
        self.connected = threading.Event()  # the host's state came (set by the client)
        self.answered = threading.Event()   # the host said hello, or refused the link
        self.fatal: str | None = None       # why the link cannot be used
        self.connections = 0                # how many times the channel was opened
        self.ws = None
        self._asked: dict[int, Future] = {}  # the host's answers awaited, by message id
        self._ids = itertools.count(1)
        self._closing = False
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="remote-client", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def refuse(self, why: str) -> None:
        """The link cannot be used: `why`, to whoever waits for the host's answer."""
        self.fatal = why
        self.answered.set()

    def send_soon(self, kind: str, **fields) -> None:
        async def send():
            if self.ws is not None and not self.ws.closed:
                await self.ws.send_str(protocol.message(kind, **fields))
        asyncio.run_coroutine_threadsafe(send(), self.loop)

    def ask(self, kind: str, fields: dict) -> Future:
        """Send a message with an id; the Future gets the host's words (or Refused)."""
        answer: Future = Future()
        ident = next(self._ids)
        self._asked[ident] = answer

        async def send():
            if self.ws is None or self.ws.closed:
                self._asked.pop(ident, None)
                answer.set_exception(Refused(_("not connected to the host: try again")))
                return
            await self.ws.send_str(protocol.message(kind, id=ident, **fields))
        asyncio.run_coroutine_threadsafe(send(), self.loop)
        return answer

    def answer(self, data: dict) -> bool:
        """The host's `ok` or `error` settles the question with its id; whether one was asked."""
        answer = self._asked.pop(data.get("id"), None)
        if answer is None:
            return False
        if data.get("type") == "ok":
            answer.set_result(data.get("message", ""))
        else:
            answer.set_exception(Refused(data.get("message", "")))
        return True

    def close(self) -> None:
        self._closing = True
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._stop_soon)
            self._thread.join(5)

    def drop(self) -> None:
        """Close the current connection (it is opened again): for tests of the reconnection."""
        if self.ws is not None:
            asyncio.run_coroutine_threadsafe(self.ws.close(), self.loop)

    # -- the network thread -----------------------------------------------------------------------
    def _stop_soon(self) -> None:
        for task in asyncio.all_tasks(self.loop):
            task.cancel()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        except asyncio.CancelledError:
            pass
        finally:
            self.loop.close()

    async def _main(self) -> None:
        import aiohttp

        failures = 0
        async with aiohttp.ClientSession() as http:
            while not self._closing:
                try:
                    async with http.ws_connect(self.url, heartbeat=5,
                                               timeout=aiohttp.ClientWSTimeout(ws_close=2)) as ws:
                        failures = 0
                        await self._talk(ws)
                except aiohttp.WSServerHandshakeError as e:
                    if e.status == 403:
                        self.refuse("the host refused the link: its token is not valid")
                        return
                    log.info("host refused the connection (%s); retrying", e.status)
                except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as e:
                    log.info("connection to the host lost: %s", e)
                self.ws = None
                self.connected.clear()
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1

    async def _talk(self, ws) -> None:
        import aiohttp

        self.ws = ws
        self.connections += 1
        talking = asyncio.create_task(self.talk(ws))
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                self.on_message(json.loads(msg.data))
        finally:
            talking.cancel()
