"""The 49 spaces of the DVONN board: names, indices, neighbours and straight lines.

Letters a-k name the "\\" diagonals, numbers 1-5 the rows (the standard of Little Golem,
Boardspace and CodeCup)::

        c5  d5  e5  f5  g5  h5  i5  j5  k5
      b4  c4  d4  e4  f4  g4  h4  i4  j4  k4
    a3  b3  c3  d3  e3  f3  g3  h3  i3  j3  k3
      a2  b2  c2  d2  e2  f2  g2  h2  i2  j2
        a1  b1  c1  d1  e1  f1  g1  h1  i1

A space is an index 0..48, in row order from a1: a1=0 ... i1=8, a2=9 ... k5=48.
This order is also the order of the 49 readings in a sensor frame and of an LED frame.

>>> INDEX["e3"], SPACES[23]
(23, 'e3')
>>> sorted(SPACES[i] for i in NEIGHBOURS[INDEX["a1"]])
['a2', 'b1', 'b2']
"""

from __future__ import annotations

N_SPACES = 49

# (first column, last column) of each row, columns counted from a = 0.
ROW_SPANS = ((0, 8), (0, 9), (0, 10), (1, 10), (2, 10))

# The six directions as (dcol, drow), in circular order around a space: consecutive
# directions are neighbours of each other, which the "one unbroken arc" test relies on.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))

COORDS: tuple[tuple[int, int], ...] = tuple(
    (col, row) for row, (first, last) in enumerate(ROW_SPANS) for col in range(first, last + 1)
)
SPACES: tuple[str, ...] = tuple(f"{chr(ord('a') + c)}{r + 1}" for c, r in COORDS)
INDEX: dict[str, int] = {name: i for i, name in enumerate(SPACES)}
_AT: dict[tuple[int, int], int] = {cr: i for i, cr in enumerate(COORDS)}


def at(col: int, row: int) -> int | None:
    """The space at (col, row), or None off the board."""
    return _AT.get((col, row))


def step(space: int, direction: int, distance: int = 1) -> int | None:
    """The space `distance` steps from `space` in DIRECTIONS[direction], or None off the board."""
    col, row = COORDS[space]
    dc, dr = DIRECTIONS[direction]
    return _AT.get((col + dc * distance, row + dr * distance))


# NEIGHBOURS[i]: the occupied-or-not neighbours of i on the board, in circular order.
# NEIGHBOUR_RING[i]: six entries in DIRECTIONS order, None where the board ends.
NEIGHBOUR_RING: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(step(i, d) for d in range(6)) for i in range(N_SPACES)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in ring if n is not None) for ring in NEIGHBOUR_RING
)


def parse_space(token: str) -> int:
    """The index of a space name in any case ('e3', 'E3'); ValueError if there is no such space."""
    try:
        return INDEX[token.strip().lower()]
    except KeyError:
        raise ValueError(f"no space named {token!r} (spaces are a1..k5)") from None


def distance(a: int, b: int) -> int:
    """Steps between two spaces on the hex grid (ignoring what stands between them)."""
    (ca, ra), (cb, rb) = COORDS[a], COORDS[b]
    dc, dr = cb - ca, rb - ra
    return max(abs(dc), abs(dr)) if dc * dr > 0 else abs(dc) + abs(dr)
