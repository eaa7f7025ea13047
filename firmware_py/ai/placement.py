"""The placement phase (phase 1): where the DVONN pieces go, and how good a half-filled board is.

Most DVONN games are decided here: a piece placed far from the DVONN pieces is cut off early in
phase 2, and pieces clumped together can only stack on each other. The placements after the
DVONN pieces are searched by `placement_search` until the last few, which the search
(`search.py`) searches into phase 2. Its iterations too shallow to reach phase 2 score
their leaves with `place_value`, which for each player counts

  near1..3  its pieces 1, 2 and 3 spaces from each DVONN piece (near two of them: twice)
  far       its pieces 4 or more spaces from every DVONN piece (the first to be cut off)
  clump     pairs of its pieces next to each other
  edge      its pieces on the edge of the board (the only ones that can move at first)
  attack    its edge pieces next to an enemy piece (a capture ready for the first moves)

and takes the difference (the player to place minus the other).

The DVONN pieces (the first three placements) are not searched: each goes where it makes the
summed squared distance from every space to its nearest DVONN piece smallest, so that as many
pieces as possible can be placed near one.

>>> from firmware_py.rules import Board
>>> b = Board.from_plies(["e3", "c3", "h3"])
>>> place_value(b, DEFAULT_PLACEMENT) == 0   # nothing but DVONN pieces yet
True
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from functools import lru_cache

from ..bitboards import bits
from ..rules import BLACK, BOARD, P2S, S2P, WHITE, Board, Ply
from ..spaces import N_SPACES, NEIGHBOURS, distance
from .evaluation import RING

EDGE = sum(1 << S2P[s] for s in range(N_SPACES) if len(NEIGHBOURS[s]) < 6)


@dataclass(frozen=True)
class PlacementWeights:
    """Placement evaluation weights, in hundredths of a piece (see the module docstring)."""

    near1: int = 60
    near2: int = 25
    near3: int = 8
    far: int = -70
    clump: int = -25
    edge: int = 15
    attack: int = 10
    jitter: int = 12    # per piece on a space the searcher's seeded noise favours


DEFAULT_PLACEMENT = PlacementWeights()


@lru_cache(maxsize=4096)
def _far(dv: int) -> int:
    """Padded bits of the spaces 4 or more steps from every DVONN piece (bits of dv)."""
    near = 0
    for q in bits(dv):
        ring = RING[q]
        near |= ring[0] | ring[1] | ring[2] | ring[3]
    return BOARD & ~near


@lru_cache(maxsize=4096)
def closeness(dv: int) -> tuple[int, ...]:
    """By padded bit: how close the space is to the DVONN pieces (for ordering placements)."""
    out = [0] * len(RING)
    for p, ring in enumerate(RING):
        if ring:
            for q in bits(dv):
                out[p] += max(0, 4 - distance(P2S[p], P2S[q]))
    return tuple(out)


def _adjacent(a: int) -> int:
    """Bits next to any bit of a (off-board bits included; mask them)."""
    return (a << 1) | (a >> 1) | (a << 12) | (a >> 12) | (a << 13) | (a >> 13)


def _side(own: int, enemy: int, dv: int, w: PlacementWeights) -> int:
    v = 0
    d = dv
    while d:
        low = d & -d
        d ^= low
        ring = RING[low.bit_length() - 1]
        v += (w.near1 * (own & ring[1]).bit_count() + w.near2 * (own & ring[2]).bit_count()
              + w.near3 * (own & ring[3]).bit_count())
    pairs = ((own & (own >> 1)).bit_count() + (own & (own >> 12)).bit_count()
             + (own & (own >> 13)).bit_count())
    edge = own & EDGE
    return (v + w.far * (own & _far(dv)).bit_count() + w.clump * pairs
            + w.edge * edge.bit_count() + w.attack * (edge & _adjacent(enemy)).bit_count())


def place_value(board: Board, weights: PlacementWeights = DEFAULT_PLACEMENT,
                jitter: tuple[int, int] = (0, 0)) -> int:
    """A phase-1 position's value for the player to place, in hundredths of a piece.

    jitter: (White's, Black's) masks of spaces worth `weights.jitter` more to that player (a
    searcher's seeded noise, so that games differ).
    """
    w_own, b_own, dv = board._w, board._b, board._dv
    v = _side(w_own, b_own, dv, weights) - _side(b_own, w_own, dv, weights)
    if jitter[0] or jitter[1]:
        v += weights.jitter * ((w_own & jitter[0]).bit_count() - (b_own & jitter[1]).bit_count())
    return v if board.turn == WHITE else -v


def place_terms(board: Board) -> tuple[int, ...]:
    """place_value's terms for the player to place, in the order of PlacementWeights' fields
    (jitter left out): each the player's count minus the other's. For `ai.tune`."""
    out = []
    for own, enemy in ((board._w, board._b), (board._b, board._w)):
        dv = board._dv
        near = [0, 0, 0]
        d = dv
        while d:
            low = d & -d
            d ^= low
            ring = RING[low.bit_length() - 1]
            for k in range(3):
                near[k] += (own & ring[k + 1]).bit_count()
        pairs = ((own & (own >> 1)).bit_count() + (own & (own >> 12)).bit_count()
                 + (own & (own >> 13)).bit_count())
        edge = own & EDGE
        out.append((*near, (own & _far(dv)).bit_count(), pairs, edge.bit_count(),
                    (edge & _adjacent(enemy)).bit_count()))
    diff = tuple(a - b for a, b in zip(*out))
    return diff if board.turn == WHITE else tuple(-x for x in diff)


def spread_cost(dv_spaces: list[int]) -> int:
    """Sum over all spaces of the squared distance to the nearest of `dv_spaces`."""
    return sum(min(distance(s, d) for d in dv_spaces) ** 2 for s in range(N_SPACES))


def choose_dvonn(board: Board, rng: _random.Random, slack: float = 0.04) -> Ply:
    """Where the next DVONN piece goes: the smallest spread_cost, at random among the spaces
    within `slack` of it (so that games differ).

    >>> from firmware_py.rules import Board
    >>> import random
    >>> str(choose_dvonn(Board(), random.Random(1), slack=0))   # the middle of the board
    'f3'
    """
    placed = [s for s in range(N_SPACES) if board.stack(s)]
    costs = {s: spread_cost(placed + [s]) for s in range(N_SPACES) if not board.stack(s)}
    best = min(costs.values())
    near_best = sorted(s for s, c in costs.items() if c <= best * (1 + slack))
    return Ply(-1, rng.choice(near_best))


def jitter_masks(rng: _random.Random) -> tuple[int, int]:
    """Seeded noise for place_value: a random half of the spaces for each player."""
    return tuple(sum(1 << p for p in S2P if rng.random() < 0.5) for _ in (WHITE, BLACK))



