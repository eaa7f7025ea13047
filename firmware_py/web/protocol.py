"""What the page may send to the server, checked before anything acts on it.

Every message is one JSON object with a `type` and the fields that type takes, nothing else; an
optional `id` (an integer) comes back in the reply so the page can match it. `parse(text)`
returns a `Request` or raises `BadMessage` with a sentence naming the key or value at fault; the
server sends that sentence back as an error and keeps the connection and the game.

>>> parse('{"type": "lift", "space": "C3", "id": 7}')
Request(kind='lift', args={'space': 21, 'count': None}, id=7)
>>> parse('{"type": "lift", "space": "z9"}')
Traceback (most recent call last):
...
firmware_py.web.protocol.BadMessage: space: 'z9' is not a space of the board (a1..k5)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ..spaces import INDEX

MAX_MESSAGE = 2048  # bytes: the longest honest message is well under 200
NOISE_NAMES = ("clean", "default", "poor", "bad")
PIECE_CODES = ("W", "B", "D")


class BadMessage(ValueError):
    """A message from the page that is not one the server takes; the text says why."""


@dataclass(frozen=True)
class Request:
    kind: str
    args: dict[str, Any]
    id: int | None = None


def _space(value: Any) -> int:
    if not isinstance(value, str) or value.strip().lower() not in INDEX:
        raise BadMessage(f"space: {value!r} is not a space of the board (a1..k5)")
    return INDEX[value.strip().lower()]


def _space_or_none(value: Any) -> int | None:
    return None if value is None else _space(value)


def _piece(value: Any) -> str | None:
    if value is None:
        return None
    if value not in PIECE_CODES:
        raise BadMessage(f"piece: {value!r} is not one of W, B, D (or null: the next piece)")
    return value


def _count(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 49:
        raise BadMessage(f"count: {value!r} is not a number of pieces (1..49, or null: all)")
    return value


def _noise(value: Any) -> str | float:
    if isinstance(value, str) and value in NOISE_NAMES:
        return value
    if (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0.0 <= value <= 5.0):
        return float(value)
    raise BadMessage(f"level: {value!r} is not a noise level ({', '.join(NOISE_NAMES)}, "
                     "or mT RMS from 0 to 5)")


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadMessage(f"{value!r} is not true or false")
    return value


# type -> (needs the right to act, is a simulator control, {field: (required, checker)})
Field = tuple[bool, Callable[[Any], Any]]
MESSAGES: dict[str, tuple[bool, bool, dict[str, Field]]] = {
    # Reading: anyone.
    "ping": (False, False, {}),
    # The game: the board's own buttons, pressed from the page.
    "takeback": (True, False, {}),
    "new_game": (True, False, {}),
    "confirm": (True, False, {}),
    "hint": (True, False, {}),  # the engine's move on the LEDs (hints.py)
    # A game against someone far away (remote.ending): the local player's draw offers and
    # resignation.
    "offer_draw": (True, False, {}),
    "accept_draw": (True, False, {}),
    "decline_draw": (True, False, {}),
    "resign": (True, False, {}),
    # The simulated hand.
    "lift": (True, True, {"space": (True, _space), "count": (False, _count)}),
    "put": (True, True, {"space": (True, _space)}),
    "remove": (True, True, {"space": (True, _space)}),
    "place": (True, True, {"space": (True, _space), "piece": (False, _piece)}),
    "knock": (True, True, {"space": (True, _space)}),
    "restore": (True, True, {"space": (True, _space)}),
    "discard": (True, True, {}),
    # The simulated hardware's faults.
    "noise": (True, True, {"level": (True, _noise)}),
    "dead_sensor": (True, True, {"space": (True, _space_or_none)}),
    "link": (True, True, {"connected": (True, _flag)}),
}


def needs_right_to_act(kind: str) -> bool:
    return MESSAGES[kind][0]


def is_sim_control(kind: str) -> bool:
    return MESSAGES[kind][1]


def parse(text: str | bytes) -> Request:
    """Check one message from the page; BadMessage names what is wrong."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage("a message must be UTF-8 JSON text") from None
    kind, data, ident, fields = check_object(text, MESSAGES, 2,
                                             example='{"type": "lift", "space": "c3"}')
    args = {}
    for key, (required, check) in fields.items():
        if key not in data:
            if required:
                raise BadMessage(f"{key}: a {kind!r} message needs it")
            args[key] = None
            continue
        try:
            args[key] = check(data[key])
        except BadMessage as e:
            text = str(e)
            raise BadMessage(text if text.startswith(f"{key}:") else f"{key}: {text}") from None
    return Request(kind, args, ident)


def check_object(text: str, messages: dict, at: int, *, example: str, limit: int = MAX_MESSAGE,
                 error=BadMessage):
    """The checks every message shares (the page's here, the far-away player's in
    `remote.protocol`): its size, a JSON object, a known type, a whole-number id, no unknown
    key. Returns (type, the object, id, the type's fields: `messages[type][at]`); raises
    `error` naming what is wrong."""
    if len(text) > limit:
        raise error(f"a message may hold at most {limit} bytes, not {len(text)}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise error(f"a message must be a JSON object, e.g. {example}") from None
    if not isinstance(data, dict):
        raise error("a message must be a JSON object, not " + type(data).__name__)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in messages:
        raise error(f"type: {kind!r} is not a message type "
                    f"(one of {', '.join(sorted(messages))})")
    ident = data.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int)
                              or not 0 <= ident < 2**53):
        raise error(f"id: {ident!r} is not a whole number")
    fields = messages[kind][at]
    for key in data:
        if key not in ("type", "id") and key not in fields:
            raise error(f"{key}: a {kind!r} message takes no such key"
                        + (f" (it takes {', '.join(fields)})" if fields else ""))
    return kind, data, ident, fields
