"""`/review.json`: the review of the game on the board (`review`), for the page after a game.

The page asks for it once the game is over and shows the evaluation graph (SVG, drawn by
`review.review_svg`) with the mistakes listed below it. The engine's searches run on a worker
thread, so the page's live channel never waits; a review is kept per move list, so pages
opened later get it at once.

>>> from firmware_py.rules import Board
>>> from firmware_py.state import BoardState
>>> from firmware_py.web.source import GameSource
>>> key = web.AppKey("source", GameSource)
>>> app = web.Application()
>>> add_review_route(app, key)
>>> sorted({r.resource.canonical for r in app.router.routes()})
['/review.json']
"""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web

from ..review import REVIEW_NODES, mistake_text, review, review_svg

REVIEWS = web.AppKey("reviews", dict)
KEEP = 4  # reviews kept (the current game, and a few pages behind)


def add_review_route(app: web.Application, source_key, nodes: int | None = None) -> None:
    """Serve `/review.json` for the game of `app[source_key]` (`nodes` per position; default
    `REVIEW_NODES`)."""
    nodes = REVIEW_NODES if nodes is None else nodes
    app[REVIEWS] = {}
    lock = threading.Lock()

    async def handler(request: web.Request) -> web.Response:
        board = request.app[source_key].state().board
        plies = tuple(board.move_stack)
        cache = request.app[REVIEWS]
        if plies not in cache:
            result = await asyncio.get_running_loop().run_in_executor(
                None, _review, plies, nodes, lock)
            if len(cache) >= KEEP:
                cache.pop(next(iter(cache)))
            cache[plies] = result
        return web.json_response(cache[plies], headers={"Cache-Control": "no-cache"})

    app.router.add_get("/review.json", handler)


def _review(plies, nodes: int, lock: threading.Lock) -> dict:
    with lock:  # one review at a time: a Pi has few cores
        r = review(list(plies), nodes=nodes)
    return {"plies": len(plies), "svg": review_svg(r),
            "mistakes": [mistake_text(e) for e in r.mistakes]}
