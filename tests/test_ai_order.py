"""The search's move ordering (ai.ordering.ordered_moves): table move, killers, then moves onto
enemy stacks by height and history, then the others by history."""

import random

from firmware_py.ai.ordering import ordered_moves
from firmware_py.rules import MOVE_PLY, S2P, WHITE, Board, Ply


def code(text: str) -> int:
    ply = Ply.parse(text)
    return S2P[ply.src] << 6 | S2P[ply.dst]


def test_table_move_then_killers_then_taller_enemy_stacks_then_history():
    # White's single pieces on d3 and f3 can land on c3 (DVONN), e3 (Black, 3 high), g3 (Black).
    board = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB", "f3": "W", "g3": "B",
                               "d2": "W"})
    assert {str(p) for p in board.legal_plies()} >= {"d3e3", "f3e3", "f3g3", "d3c3"}
    history = [0] * 4096
    history[code("d3e3")] = 50         # history breaks the tie between the e3 landings
    history[code("d2d3")] = 7          # an own-stack landing: after every capture
    keys, special = ordered_moves(board, history, code("d3c3"), code("f3g3"), None)
    names = [str(MOVE_PLY[k & 4095]) for k in keys]
    assert sorted(names) == sorted(str(p) for p in board.legal_plies())
    assert names[:3] == ["d3c3", "f3g3", "d3e3"]
    assert set(names[3:5]) == {"f3e3", "d2e3"}  # the other landings on the tall stack
    assert names.index("d2d3") > max(names.index(n) for n in names if n[2:] in ("e3", "g3"))
    # table move, killer and the captures lead; the own-stack landings do not
    assert special == sum(1 for n in names if n[2:] in ("c3", "e3", "g3"))


def scored_one_by_one(board, history, tt, k0, k1):
    """The order as the search first built it: the move list, then a score for each move."""
    own = board._w if board.turn == WHITE else board._b
    scored, special = [], 0
    for c in board._current_moves():
        pd = c & 63
        if c == tt:
            s, special = 1 << 30, special + 1
        elif c == k0:
            s, special = 1 << 28, special + 1
        elif c == k1:
            s, special = (1 << 28) - 1, special + 1
        elif not own >> pd & 1:
            s, special = (1 << 27) + (len(board._st[pd]) << 13) + min(history[c], 8191), special + 1
        else:
            s = history[c]
        scored.append(s << 12 | (4095 - c))
    scored.sort(reverse=True)
    return [4095 - (x & 4095) for x in scored], special


def test_the_order_is_the_one_of_scoring_each_generated_move():
    # Random middle games, random history, and killers and table moves legal or not (a killer
    # from another position, a placement's Ply left at that height).
    rng = random.Random(5)
    checked = 0
    for game in range(12):
        board = Board()
        seen = []  # moves of earlier positions: killers that may not be legal here
        while not board.is_over():
            board.push(rng.choice(board.legal_plies()))
            moves = board._current_moves() if board.phase == 2 else []
            if moves:
                history = [rng.choice((0, 0, 3, 40, 9000)) for _ in range(4096)]
                tt = rng.choice(moves + [-1])
                k0 = rng.choice(moves + seen[-5:] + [None, Ply.parse("e3")])
                k1 = rng.choice(moves + seen[-5:] + [None])
                if k1 == k0:
                    k1 = None
                keys, special = ordered_moves(board, history, tt, k0, k1)
                assert ([k & 4095 for k in keys], special) == scored_one_by_one(
                    board, history, tt, k0, k1)
                checked += 1
                seen += moves
    assert checked > 300
