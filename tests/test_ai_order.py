"""The search's move ordering (ai.search.Searcher._order): table move, killers, then moves onto
enemy stacks by height and history, then the others by history."""

import random

from firmware_py.ai.search import Searcher
from firmware_py.rules import S2P, Board, Ply


def code(text: str) -> int:
    ply = Ply.parse(text)
    return S2P[ply.src] << 6 | S2P[ply.dst]


def test_table_move_then_killers_then_taller_enemy_stacks_then_history():
    # White's single pieces on d3 and f3 can land on c3 (DVONN), e3 (Black, 3 high), g3 (Black).
    board = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB", "f3": "W", "g3": "B",
                               "d2": "W"})
    s = Searcher(rng=random.Random(1))
    legal = board._current_moves()
    assert {str(p) for p in board.legal_plies()} >= {"d3e3", "f3e3", "f3g3", "d3c3"}
    s.killers[5] = [code("f3g3"), None]      # a killer landing on an enemy stack
    s.move_history[code("d3e3")] = 50         # history breaks the tie between the e3 landings
    s.move_history[code("d2d3")] = 7          # an own-stack landing: after every capture
    ordered, special = s._order(board, legal, Ply.parse("d3c3"), 5)
    names = [str(p) for p in ordered]
    assert names[:3] == ["d3c3", "f3g3", "d3e3"]
    assert set(names[3:5]) == {"f3e3", "d2e3"}  # the other landings on the tall stack
    assert names.index("d2d3") > max(names.index(n) for n in names if n[2:] in ("e3", "g3"))
    # table move, killer and the captures lead; the own-stack landings do not
    assert special == sum(1 for n in names if n[2:] in ("c3", "e3", "g3"))

