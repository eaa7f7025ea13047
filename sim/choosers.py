"""Where the scripted players' plies come from: a game record, or random legal plies.

A chooser is any callable ``rules.Board -> Ply | None`` (None: stop playing); it is given a copy
of the position the players really reached. A computer opponent is one too.

>>> from firmware_py.rules import Board
>>> choose = record_chooser(["e3", "f3|b", "resign"])
>>> board = Board()
>>> str(choose(board)); board.push(Ply.parse("e3")); str(choose(board)), choose(board)
'e3'
('f3', None)
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

from firmware_py.errors import RecordError
from firmware_py.rules import PASS, Board, Ply

Chooser = Callable[[Board], "Ply | None"]


def record_chooser(tokens: Iterable) -> Chooser:
    """Plies from a game record: tokens 'e3', 'e3f3', 'e3-f3', 'e3:f3', 'pass', 'resign' (ends
    the game); a '|w' or '|b' suffix (who played it) is ignored. Forced passes and a forced last
    placement left out of the record are filled in."""
    items = list(tokens)
    pos = [0]

    def choose(board: Board):
        legal = board.legal_plies()
        if pos[0] >= len(items):
            return None
        token = items[pos[0]]
        if isinstance(token, Ply):
            ply = token
        elif str(token).split("|")[0].strip().lower() == "resign":
            return None
        else:
            try:
                ply = Ply.parse(str(token).split("|")[0])
            except ValueError as e:
                raise RecordError(str(e), ply=pos[0] + 1, token=str(token)) from None
        if legal == [PASS] and ply != PASS:
            return PASS  # a forced pass the record leaves out
        if board.phase == 1 and ply.is_move and len(legal) == 1:
            return legal[0]  # the forced 49th placement
        if not board.is_legal(ply):
            raise RecordError(f"ply {pos[0] + 1}: {token!r} is not legal here", ply=pos[0] + 1,
                              token=str(token))
        pos[0] += 1
        return ply

    return choose


def random_chooser(seed: int = 0) -> Chooser:
    rnd = random.Random(seed)

    def choose(board: Board):
        legal = board.legal_plies()
        return rnd.choice(legal) if legal else None

    return choose
