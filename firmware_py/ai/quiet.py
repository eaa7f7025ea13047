"""Whether a moving-phase position is quiet: nothing its static value cannot see is at hand.

The evaluation counts the biggest capture each side has, but not what a move does to the links
to the DVONN pieces: a move that cuts stacks off, a DVONN stack moved, or a stack landing on a
DVONN stack can swing the game by far more than any margin. The search's frontier pruning
(`search.py`) judges a node by its static value only when the players it asks about can do
none of these: those are the positions where that value is a fair guess.

>>> from firmware_py.rules import Board, WHITE, BLACK
>>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "B", "f3": "B", "g3": "W"}, WHITE)
>>> quiet(b, (WHITE,)), quiet(b, (BLACK,))   # White's d3 lands on the DVONN piece
(False, False)
"""

from __future__ import annotations

from ..rules import DEST, MAX_MOBILE_HEIGHT, NB, WHITE, Board, linked, safe_to_vacate, surrounded


# Landing on a DVONN stack counts as loud too when REACH: nearly every node then is (about 98 %
# of those tried, early in the moving phase), and the pruning is as good as off.
REACH = False


def quiet(board: Board, players) -> bool:
    """True when none of `players` (WHITE, BLACK) has a move that cuts stacks off, moves a
    DVONN piece or lands on a DVONN stack (whoever is to move)."""
    occ, dv, one, st = board._occ, board._dv, board._one, board._st
    free = occ & ~surrounded(occ)
    for player in players:
        mob = free & (board._w if player == WHITE else board._b)
        while mob:
            low = mob & -mob
            mob ^= low
            p = low.bit_length() - 1
            h = 1 if one & low else len(st[p])
            if h > MAX_MOBILE_HEIGHT:
                continue
            targets = (NB[p] if h == 1 else DEST[p][h]) & occ
            if not targets:
                continue  # no move from here
            if dv & low or (REACH and targets & dv):
                return False
            if not safe_to_vacate(p, occ):
                rest = occ & ~low
                if linked(rest, dv) != rest:
                    return False
    return True
