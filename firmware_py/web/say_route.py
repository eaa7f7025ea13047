"""`/say.wav`: the situation in words (`announce.situation`), spoken by the speech engine as
a WAV file, for the page's Say button: the board is usable without seeing its LEDs also in the
browser. The words are in the language shown (`i18n`); the engine runs on a worker thread, one
phrase at a time. Without espeak-ng the answer is 503 with how to install it.

>>> from firmware_py.web.source import GameSource
>>> key = web.AppKey("source", GameSource)
>>> app = web.Application()
>>> add_say_route(app, key)
>>> sorted({r.resource.canonical for r in app.router.routes()})
['/say.wav']
"""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web

from .. import i18n
from ..announce import situation
from ..voice import VoiceError, render_speech


def add_say_route(app: web.Application, source_key) -> None:
    """Serve `/say.wav` for the game of `app[source_key]`."""
    lock = threading.Lock()

    async def handler(request: web.Request) -> web.Response:
        text = situation(request.app[source_key].state())
        try:
            wav = await asyncio.get_running_loop().run_in_executor(
                None, _render, text, i18n.language(), lock)
        except VoiceError as e:
            return web.Response(status=503, text=str(e))
        return web.Response(body=wav, content_type="audio/wav",
                            headers={"Cache-Control": "no-store"})

    app.router.add_get("/say.wav", handler)


def _render(text: str, lang: str, lock: threading.Lock) -> bytes:
    with lock:  # one phrase at a time: a Pi has few cores
        return render_speech(text, lang)
