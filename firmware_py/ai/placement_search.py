"""The placements between the DVONN pieces and the last few: each one searched, not only scored.

Each placement gets a small alpha-beta search (about `EVALUATIONS` leaf evaluations: two or
three placements deep) over its own evaluation, which for each player sums, over its pieces,

  dist    the piece's distance to each DVONN piece, summed (pieces between the DVONN pieces
          are the last to be cut off)
  near    the piece stands next to a DVONN piece
  edge    the piece is on the edge of the board (edge pieces can move first)
  crowd   per missing neighbour when the piece has fewer than two neighbours that are not
          its own pieces (a clump can only stack on itself, and is cut off as one)
  contact the piece stands next to an enemy piece (a capture ready in the first moves)

and takes the difference (the player to place minus the other). A search sees what a score
per space cannot: the space the opponent wants most is worth taking first. The terms are those
of PrimaDvonna (the CodeCup 2011 winner), the code is ours; by default edge and contact weigh
nothing and the rest is PrimaDvonna's placement evaluation times ten (`TUNING`).

>>> from firmware_py.rules import Board
>>> import random
>>> board = Board.from_plies(["e3", "c3", "g3"])
>>> board.is_legal(search_placement(board, random.Random(0)))
True
"""

from __future__ import annotations

import dataclasses
import random as _random
import time
from functools import lru_cache

from ..bitboards import bits
from ..rules import BOARD, P2S, S2P, WHITE, Board, Ply
from ..spaces import N_SPACES, NEIGHBOURS, distance

EVALUATIONS = 1000  # leaf evaluations a placement (PrimaDvonna's figure)
_EDGE = frozenset(S2P[s] for s in range(N_SPACES) if len(NEIGHBOURS[s]) < 6)
_SHIFTS = (1, 12, 13)  # neighbours on the padded board: +-1, +-12, +-13


@dataclasses.dataclass(frozen=True)
class SetupWeights:
    """The placement search's evaluation weights, per piece (see the module docstring)."""

    dist: int = -10
    near: int = 100
    edge: int = 0       # 20 and contact 30 were tuned at 1000 evaluations: see TUNING
    crowd: int = -50
    contact: int = 0
    noise: int = 10     # up to this much seeded noise per space, so that games differ


DEFAULT_SETUP = SetupWeights()
# How the weights were chosen (W-D-L; the seed-1 runs are bench_ai's own-placement games).
TUNING = """PrimaDvonna's (dist, near, edge, crowd), times ten, then contact, by
`python -m firmware_py.ai.trial setup.NAME=VALUE --placements own --games 100 --seed 1` (the
default level against ai:classic from each side's own placements, 3300 against 3000 nodes a
move). The per-space scores these replaced: 80-1-19. Contact 0: 80-0-20; 30: 86-4-10, adopted;
60: 86-0-14; with contact 30, edge 0: 86-0-14; crowd -100: 82-2-16. Near 250 and 3000
evaluations a placement chose the very same placements as the weights in force. Dist -20
against these (`... setup.dist=-20 --against default --placements own --games 200`, seeds 7
and 8): 107-4-89 and 96-7-97, 52.1 % of 400 games, within chance. Round 17: since the
placements search for most of a level's 0.5 s (depth 4-7, round 16), PrimaDvonna's own weights
(near 100, edge 0, contact 0: its evaluation times ten) against PrimaDvonna scored more than
these (docs/engine-strength.md, round 17), so they are the defaults."""


@lru_cache(maxsize=512)
def _worth(dv: int, w: SetupWeights) -> tuple[int, ...]:
    """By padded bit: what a piece there is worth by the terms of its space alone."""
    dvs = [P2S[q] for q in bits(dv)]
    out = [0] * (max(S2P) + 1)
    for s in range(N_SPACES):
        p = S2P[s]
        ds = [distance(s, d) for d in dvs]
        out[p] = (w.dist * sum(ds) + (w.near if min(ds) == 1 else 0)
                  + (w.edge if p in _EDGE else 0))
    return tuple(out)


def _crowded(own: int) -> tuple[int, int]:
    """(pieces of `own` with no neighbour that is not their own, those with exactly one)."""
    free = BOARD & ~own
    one = two = 0
    for k in _SHIFTS:
        for n in ((free << k) & own, (free >> k) & own):
            two |= one & n
            one |= n
    return (own & ~one).bit_count(), (one & ~two).bit_count()


def _contact(own: int, enemy: int) -> int:
    """Pieces of `own` next to a piece of `enemy`."""
    near = 0
    for k in _SHIFTS:
        near |= (enemy << k) | (enemy >> k)
    return (own & near).bit_count()


class _Stop(Exception):
    pass


class _Search:
    def __init__(self, board: Board, w: SetupWeights, rng: _random.Random, budget: int | None,
                 deadline: float | None = None):
        self.w = w
        # a piece's worth by its space alone, with the seeded noise (the same for both sides)
        self.worth = [v + (rng.randrange(w.noise + 1) if w.noise else 0)
                      for v in _worth(board._dv, w)]
        self.budget = budget if budget is not None else 1 << 62  # None: the deadline only
        self.deadline = deadline  # time.perf_counter() by which to stop (a level's time)
        self.evals = 0
        # the order to try the spaces in: the best alone first
        self.order = sorted((p for p in S2P if not board._occ >> p & 1),
                            key=lambda p: -self.worth[p])

    def leaf(self, me: int, them: int, mine: int, theirs: int) -> int:
        self.evals += 1
        if self.evals > self.budget or (self.deadline is not None and self.evals & 63 == 0
                                        and time.perf_counter() > self.deadline):
            raise _Stop
        w = self.w
        c0, c1 = _crowded(me)
        d0, d1 = _crowded(them)
        v = mine - theirs + w.crowd * (2 * c0 + c1 - 2 * d0 - d1)
        if w.contact:
            v += w.contact * (_contact(me, them) - _contact(them, me))
        return v

    def negamax(self, me: int, them: int, mine: int, theirs: int, taken: int, depth: int,
                alpha: int, beta: int) -> int:
        if depth == 0:
            return self.leaf(me, them, mine, theirs)
        best = None
        worth = self.worth
        for p in self.order:
            bit = 1 << p
            if taken & bit:
                continue
            v = -self.negamax(them, me | bit, theirs, mine + worth[p], taken | bit, depth - 1,
                              -beta, -alpha)
            if best is None or v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best if best is not None else self.leaf(me, them, mine, theirs)


def setup_value(board: Board, weights: SetupWeights = DEFAULT_SETUP) -> int:
    """The evaluation (without noise) of a placement-phase position with its three DVONN
    pieces placed, for the player to place."""
    s = _Search(board, dataclasses.replace(weights, noise=0), _random.Random(0), 1)
    own, enemy = (board._w, board._b) if board.turn == WHITE else (board._b, board._w)
    return s.leaf(own, enemy, sum(s.worth[p] for p in bits(own)),
                  sum(s.worth[p] for p in bits(enemy)))


def search_placement(board: Board, rng: _random.Random, weights: SetupWeights = DEFAULT_SETUP,
                     budget: int | None = EVALUATIONS, depth: int | None = None,
                     seconds: float | None = None) -> Ply:
    """The placement the search prefers for the player to place (after the DVONN pieces):
    iterative deepening until `budget` evaluations (None: no limit but `seconds`), `depth` or
    `seconds`, keeping the deepest finished answer.

    >>> import random
    >>> board = Board.from_plies(["e3", "c3", "g3"])
    >>> board.is_legal(search_placement(board, random.Random(0), budget=None, seconds=0.01))
    True
    """
    if budget is None and seconds is None and depth is None:
        raise ValueError("a placement search needs a budget, a depth or seconds")
    deadline = None if seconds is None else time.perf_counter() + seconds
    s = _Search(board, weights, rng, budget, deadline)
    own, enemy = (board._w, board._b) if board.turn == WHITE else (board._b, board._w)
    worth = s.worth
    mine = sum(worth[p] for p in bits(own))
    theirs = sum(worth[p] for p in bits(enemy))
    empties = len(s.order)
    best = s.order[0]
    for d in range(1, min(empties, depth or empties) + 1):
        try:
            alpha, choice = None, None
            root = [best] + [p for p in s.order if p != best]
            for p in root:
                bit = 1 << p
                v = -s.negamax(enemy, own | bit, theirs, mine + worth[p],
                               board._occ | bit, d - 1, -10**9,
                               10**9 if alpha is None else -alpha)
                if alpha is None or v > alpha:
                    alpha, choice = v, p
        except _Stop:
            break
        best = choice
    return Ply(-1, P2S[best])
