"""What a remote player's page (or a joining board) may send the host, checked before anything
acts on it. One JSON object per message, with a `type`, the fields that type takes and nothing
else, and an optional `id` (a whole number) that comes back in the reply.

Plies carry their number `n`: how many plies the host's record held when the turn began (a
forced pass and the move after it share one number). A ply for another number is stale (or from
the future) and refused with the reason; sending the same ply again is harmless, which is what
lets a side that lost its connection simply send again.

>>> parse('{"type": "ply", "n": 0, "ply": "E3"}')
Message(kind='ply', args={'n': 0, 'ply': 'e3'}, id=None)
>>> parse('{"type": "offer", "what": "coffee"}')
Traceback (most recent call last):
...
firmware_py.remote.protocol.BadMessage: what: 'coffee' is not takeback or draw
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ..rules import Ply
from ..web.protocol import check_object

MAX_MESSAGE = 1024  # bytes: the longest honest message is under 100
MAX_PLIES = 400     # a DVONN game has fewer than 200 plies
OFFERS = ("takeback", "draw")


class BadMessage(ValueError):
    """A message the host does not take; the text names the key or value at fault."""


@dataclass(frozen=True)
class Message:
    kind: str
    args: dict[str, Any]
    id: int | None = None


def _n(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PLIES:
        raise BadMessage(f"n: {value!r} is not a ply number (0..{MAX_PLIES})")
    return value


def _ply(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 8:
        raise BadMessage(f"ply: {value!r} is not a ply (e.g. 'e3' or 'e3f3')")
    try:
        ply = Ply.parse(value)
    except ValueError:
        raise BadMessage(f"ply: {value!r} is not a ply (e.g. 'e3' or 'e3f3')") from None
    if ply.is_pass:
        raise BadMessage("ply: a forced pass is recorded by itself; send the move")
    return str(ply)


def _what(value: Any) -> str:
    if value not in OFFERS:
        raise BadMessage(f"what: {value!r} is not {' or '.join(OFFERS)}")
    return value


Field = tuple[bool, Callable[[Any], Any]]
# type -> (only the opponent may send it, {field: (required, checker)})
MESSAGES: dict[str, tuple[bool, dict[str, Field]]] = {
    "ping": (False, {}),
    "ply": (True, {"n": (True, _n), "ply": (True, _ply)}),
    "offer": (True, {"what": (True, _what), "n": (True, _n)}),
    "accept": (True, {"what": (True, _what), "n": (True, _n)}),
    "decline": (True, {"what": (True, _what)}),
    "resign": (True, {}),
}


def opponent_only(kind: str) -> bool:
    return MESSAGES[kind][0]


def parse(text: str | bytes) -> Message:
    """Check one message; BadMessage says what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage("messages are JSON text, not binary")
    kind, data, ident, fields = check_object(text, MESSAGES, 1, limit=MAX_MESSAGE,
                                             example='{"type": "ply", "n": 0, "ply": "e3"}',
                                             error=BadMessage)
    args = {}
    for key, (required, check) in fields.items():
        if key not in data:
            if required:
                raise BadMessage(f"{key}: a {kind!r} message needs it")
            continue
        args[key] = check(data[key])
    return Message(kind, args, ident)


def message(kind: str, **fields) -> str:
    """A message as the page or a joining board sends it."""
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))
