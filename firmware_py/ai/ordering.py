"""The moving phase's moves at a search node, generated and put in the search's order at once.

`ordered_moves` gives the order `Searcher` searches a node's moves in: the table's move, the two
killers, moves onto enemy stacks (or a lone DVONN piece) by the height landed on, then by
history, the other moves by history; equal scores by move code, lowest first. Each move gets a
sort key, code - (score << 12): ascending keys are that order and `key & 4095` is the code (ps
<< 6 | pd, as `bitboards.move_codes` gives them), so a node that cuts off after two moves never
turns the other fifty into a `Ply`. Generating and scoring in one pass, with the landings on
own and on other stacks apart as bitboards, saves building the move list and testing each move
for being a capture: the search's order is the same as when the list was built first.

>>> from firmware_py.rules import Board, MOVE_PLY
>>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "B", "f3": "W"})
>>> keys, special = ordered_moves(b, [0] * 4096, -1, None, None)
>>> [str(MOVE_PLY[k & 4095]) for k in keys], special
(['d3c3', 'd3e3', 'f3e3'], 3)
"""

from __future__ import annotations

from ..rules import DEST, MAX_MOBILE_HEIGHT, WHITE, Board, surrounded

TABLE_MOVE = 1 << 30
KILLER = 1 << 28            # the second killer: one less
CAPTURE = 1 << 27           # plus the height landed on << 13, plus history (at most 8191)
_STEPS = ((1, 1 << 6), (-1, -1 << 6), (12, 12 << 6), (-12, -12 << 6), (13, 13 << 6),
          (-13, -13 << 6))  # a single piece's six steps d, and d << 6: its code is pd * 65 - that


def _score(board: Board, own: int, history: list[int], c: int) -> int:
    """The score of move c among the rest (not the table move nor a killer)."""
    pd = c & 63
    if own >> pd & 1:
        return history[c]
    return CAPTURE + (len(board._st[pd]) << 13) + min(history[c], 8191)


def ordered_moves(board: Board, history: list[int], tt: int, k0, k1) -> tuple[list[int], int]:
    """(keys, special): the sort keys of the mover's moves, ascending (search order; code =
    key & 4095), and how many lead with the table move, killers and captures. tt: the table
    move's code or -1; k0, k1: the killers' codes or None. No moves: ([], 0)."""
    occ = board._occ
    one = board._one
    st = board._st
    own = board._w if board.turn == WHITE else board._b
    mob = own & ~surrounded(occ)
    keys = []
    append = keys.append
    special = 0
    single = mob & one
    if single:
        other = occ & ~own
        for d, d6 in _STEPS:
            t = (single << d if d > 0 else single >> -d) & occ
            if not t:
                continue
            q = t & own
            while q:
                low = q & -q
                q ^= low
                c = (low.bit_length() - 1) * 65 - d6
                append(c - (history[c] << 12))
            q = t & other
            if q:
                special += q.bit_count()
                while q:
                    low = q & -q
                    q ^= low
                    pd = low.bit_length() - 1
                    c = pd * 65 - d6
                    h = history[c]
                    append(c - ((CAPTURE + (len(st[pd]) << 13) + (h if h < 8191 else 8191))
                                << 12))
    tall = mob & ~one
    while tall:
        low = tall & -tall
        tall ^= low
        ps = low.bit_length() - 1
        h = len(st[ps])
        if h > MAX_MOBILE_HEIGHT:
            continue
        t = DEST[ps][h] & occ
        base = ps << 6
        q = t & own
        while q:
            low = q & -q
            q ^= low
            c = base | (low.bit_length() - 1)
            append(c - (history[c] << 12))
        q = t & ~own
        if q:
            special += q.bit_count()
            while q:
                low = q & -q
                q ^= low
                pd = low.bit_length() - 1
                c = base | pd
                hc = history[c]
                append(c - ((CAPTURE + (len(st[pd]) << 13) + (hc if hc < 8191 else 8191)) << 12))
    # The table move and the killers, where legal here, take their place at the front. A
    # killer may be a placement's Ply (one height serves both phases near their border).
    if type(k0) is not int or k0 == tt:
        k0 = -1
    if type(k1) is not int or k1 == tt:
        k1 = -1
    for c, score in ((tt, TABLE_MOVE), (k0, KILLER), (k1, KILLER - 1)):
        if c < 0:
            continue
        ps = c >> 6
        pd = c & 63
        h = len(st[ps])
        if mob >> ps & 1 and occ >> pd & 1 and h <= MAX_MOBILE_HEIGHT and DEST[ps][h] >> pd & 1:
            keys[keys.index(c - (_score(board, own, history, c) << 12))] = c - (score << 12)
            if own >> pd & 1:
                special += 1
    keys.sort()
    return keys, special
