"""Writing Little Golem transcripts, the form `records` reads from www.littlegolem.net:

    Event [Club night] Site [dvonn-board] White [Ann] Black [Bob] 1. e3 f3 2. g3 a1 ... 25. a2b2 b3b2

Header tags as `Key [value]`, then the plies with a number before each of White's, `pass`
and `resign` as words; the forced 49th placement is left out (Little Golem does not write it;
our reader puts it back). A value cannot hold `]` (it would end the tag): it is written as `)`.
The result is not written (Little Golem has none; the game's end tells it).

>>> from firmware_py.records import read_record
>>> game = read_record("e3 f3 g3 a1")
>>> game.tags = {"White": "Ann [club]"}
>>> write_little_golem(game)
'White [Ann (club)] 1. e3 f3 2. g3 a1\\n'
>>> read_record(write_little_golem(game)).plies == game.plies
True
"""

from __future__ import annotations

from .records import GameRecord
from .rules import N_SPACES, WHITE, Board

TAGS = ("Event", "Site", "Date", "Round", "White", "Black")


def write_little_golem(game: GameRecord) -> str:
    """A game as one Little Golem transcript line (see the module docstring)."""
    words = []
    for key in TAGS:
        value = game.tags.get(key)
        if value:
            words.append(f"{key} [{value.replace('[', '(').replace(']', ')')}]")
    board = Board()
    number = 0
    for n, ply in enumerate(game.plies):
        if n == N_SPACES - 1 and ply.is_placement:  # the forced 49th placement
            board._push(ply)
            continue
        if board.turn == WHITE:
            number += 1
            words.append(f"{number}. {ply}")
        else:
            words.append(str(ply))
        board._push(ply)
    if game.resigned is not None:  # numbered like a ply when White resigns
        words.append(f"{number + 1}. resign" if board.turn == WHITE else "resign")
    return " ".join(words) + "\n"
