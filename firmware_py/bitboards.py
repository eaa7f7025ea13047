"""Bitboards: the position as a few integers, and the tables that make the rules fast.

`firmware_py.rules.Board` keeps one int per kind of fact (occupied spaces, White's tops, Black's
tops, DVONN pieces, single pieces), with one bit per space, so that "every stack that could move"
or "everything linked to a DVONN piece" is a handful of shifts and masks instead of a loop over
49 spaces. This module holds what those ints mean and what is computed once at import.

The padded grid. Bit p = 12 * row + col (cols 0..10 plus one guard column, rows 0..4), so a
step in direction (dcol, drow) is a shift by dcol + 12 * drow, and anything that wraps past an
edge lands on a guard or off-board bit, which masking with `BOARD` (or an occupancy) removes.
The public spaces 0..48 (see `firmware_py.spaces`) map to padded bits through `S2P` / `P2S`:

>>> from firmware_py.spaces import INDEX, SPACES
>>> e3 = S2P[INDEX["e3"]]
>>> e3, P2S[e3] == INDEX["e3"]
(28, True)
>>> [SPACES[P2S[p]] for p in bits(NB[e3])]  # its six neighbours, through one table
['d2', 'e2', 'd3', 'f3', 'e4', 'f4']

Linking. `linked(occ, dv)` floods from the DVONN pieces through occupied neighbours, all
directions at once; whatever it does not reach is removed after a move:

>>> row = sum(1 << S2P[INDEX[n]] for n in ("c3", "d3", "e3", "g3"))
>>> [SPACES[P2S[p]] for p in bits(linked(row, 1 << S2P[INDEX["c3"]]))]
['c3', 'd3', 'e3']

Most moves cannot cut anything off: when the occupied neighbours of the space a stack leaves
form one unbroken arc, they stay linked to each other (`one_arc`, tabled in `ARC_SAFE`),
and the flood is skipped.

Tables. `DEST[p][h]`: the bits exactly h steps from p in a straight line (where a stack of h
may land); `MOVE_PLY` / `PLACE_PLY`: ready-made `Ply` objects, so that generating moves creates
none (a move is coded as ps << 6 | pd); `ZOBRIST`: random keys per piece, space and depth, so
that a position's hash changes by a few XORs per ply.

Shared with `firmware_py.tools.bench_rules` (its playout) and `firmware_py.ai` (its evaluation);
`firmware_py.rules` re-exports these names.
"""

from __future__ import annotations

from .ply import PIECES, Ply
from .spaces import COORDS, DIRECTIONS, N_SPACES, NEIGHBOUR_RING, NEIGHBOURS, step

W = 12
S2P: tuple[int, ...] = tuple(W * r + c for c, r in COORDS)
P2S: tuple[int, ...] = tuple(S2P.index(p) if p in S2P else -1 for p in range(W * 5))
BOARD = sum(1 << p for p in S2P)
DELTAS = tuple(dc + W * dr for dc, dr in DIRECTIONS)  # circular order, like DIRECTIONS
# NB[p]: bits of the on-board neighbours of p; NB_RING[p]: six neighbour bits (0 off board).
NB_RING: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if n is None else 1 << S2P[n] for n in NEIGHBOUR_RING[P2S[p]]) if P2S[p] >= 0 else ()
    for p in range(W * 5))
NB: tuple[int, ...] = tuple(sum(ring) for ring in NB_RING)
INTERIOR = sum(1 << S2P[s] for s in range(N_SPACES) if len(NEIGHBOURS[s]) == 6)
MAX_MOBILE_HEIGHT = 10  # the longest line has 11 spaces


def _dest_masks(p: int) -> tuple[int, ...]:
    """DEST[p][h]: bits of the spaces exactly h steps from p in a straight line (h = 0..48)."""
    out = [0] * N_SPACES
    if P2S[p] < 0:
        return tuple(out)
    for h in range(1, MAX_MOBILE_HEIGHT + 1):
        for d in range(6):
            n = step(P2S[p], d, h)
            if n is not None:
                out[h] |= 1 << S2P[n]
    return tuple(out)


DEST: tuple[tuple[int, ...], ...] = tuple(_dest_masks(p) for p in range(W * 5))


def one_arc(ring_bits: tuple[int, ...], occ: int) -> bool:
    """True when the occupied bits of a six-entry neighbour ring form at most one unbroken arc.

    Consecutive ring entries are neighbours of each other, so occupied neighbours that form one
    arc stay linked to each other when the centre empties: removing the centre cuts nothing off.
    """
    flags = [bool(b & occ) for b in ring_bits]
    starts = sum(1 for i in range(6) if flags[i] and not flags[i - 1])
    return starts <= 1


# Shifted by 13 - p, the occupancy puts the six neighbours of p at the same six bits for every
# p (RING_AT, in ring order; off-board neighbours are never occupied): one 64-entry table,
# keyed by those bits, says whether the occupied ones form one arc, with no tuple built.
RING_AT = tuple(13 + d for d in DELTAS)
RING_MASK = sum(1 << r for r in RING_AT)
ARC_SAFE: dict[int, bool] = {
    sum(1 << RING_AT[i] for i in range(6) if pattern >> i & 1):
        one_arc(tuple(1 << i for i in range(6)), pattern) for pattern in range(64)}


def safe_to_vacate(p: int, occ: int) -> bool:
    """Emptying p (holding no DVONN piece) cannot cut anything off, given occupancy occ."""
    return ARC_SAFE[occ << 13 >> p & RING_MASK]


def surrounded(occ: int) -> int:
    """Bits of the occupied spaces with all six neighbours on board and occupied."""
    return (occ & (occ >> 1) & (occ << 1) & (occ >> 12) & (occ << 12) & (occ >> 13)
            & (occ << 13))


def linked(occ: int, dv: int) -> int:
    """Bits of the occupied spaces linked (through occupied neighbours) to a DVONN piece."""
    reach = dv
    while True:  # one step in every direction: offsets {0, 1} + {0, 12} + {0, -13}
        grow = reach | (reach << 1)
        grow |= grow << 12
        grow = (grow | (grow >> 13)) & occ
        if grow == reach or grow == occ:
            return grow
        reach = grow


def bits(b: int):
    """The bit positions set in b, lowest first."""
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low



# Move generation. own: the bits of the stacks the player tops; one: the bits of single pieces;
# st: the stacks by padded bit (only their heights are read).

def move_codes(occ: int, own: int, one: int, st) -> list[int]:
    """Sorted codes (ps << 6 | pd) of the moves of the player topping `own`.

    A stack may move unless surrounded on all six sides; a single piece moves one step onto any
    occupied neighbour (all six directions as six shifts of every single piece at once); a stack
    of h moves exactly h steps in a straight line onto an occupied space (`DEST`).
    """
    mob = own & ~surrounded(occ)
    single = mob & one
    out = []
    append = out.append
    if single:
        for d in DELTAS:
            t = (single << d if d > 0 else single >> -d) & occ
            while t:
                low = t & -t
                pd = low.bit_length() - 1
                append((pd - d) << 6 | pd)
                t ^= low
    tall = mob & ~one
    while tall:
        low = tall & -tall
        ps = low.bit_length() - 1
        tall ^= low
        h = len(st[ps])
        if h <= MAX_MOBILE_HEIGHT:
            t = DEST[ps][h] & occ
            base = ps << 6
            while t:
                lt = t & -t
                append(base | (lt.bit_length() - 1))
                t ^= lt
    out.sort()
    return out


def any_move(occ: int, own: int, one: int, st) -> bool:
    """Whether the player topping `own` has a move: `move_codes` stopping at the first."""
    mob = own & ~surrounded(occ)
    single = mob & one
    if single:
        if (((single << 1) | (single >> 1) | (single << 12) | (single >> 12)
             | (single << 13) | (single >> 13)) & occ):
            return True
    for ps in bits(mob & ~one):
        h = len(st[ps])
        if h <= MAX_MOBILE_HEIGHT and DEST[ps][h] & occ:
            return True
    return False


# Ready-made Ply objects, so that generating moves creates none. A move is coded internally as
# ps << 6 | pd (padded bits); padded order is space order, so sorted codes are sorted plies.
PLACE_PLY: tuple[Ply | None, ...] = tuple(Ply(-1, P2S[p]) if P2S[p] >= 0 else None
                                          for p in range(W * 5))
MOVE_PLY: list[Ply | None] = [None] * (64 * 64)
for _ps in S2P:  # the destinations at every height at once: a cheap import
    _any = 0
    for _mask in DEST[_ps][1:MAX_MOBILE_HEIGHT + 1]:
        _any |= _mask
    for _pd in bits(_any):
        MOVE_PLY[_ps << 6 | _pd] = Ply(P2S[_ps], P2S[_pd])
del _ps, _pd, _any, _mask


def _zobrist_table(seed: int) -> dict[str, list[int]]:
    import random
    rnd = random.Random(seed)
    return {c: [rnd.getrandbits(64) for _ in range(W * 5 * N_SPACES)] for c in PIECES}


ZOBRIST = _zobrist_table(0xD7011)  # ZOBRIST[piece][p * 49 + depth]
Z_TURN = 0x9E3779B97F4A7C15
Z_PHASE2 = 0xC2B2AE3D27D4EB4F
N_PLACEMENTS = N_SPACES
