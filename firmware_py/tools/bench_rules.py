"""The random-playout benchmark: uniformly random complete games, as fast as plain CPython allows.

`random_game` plays one game on the rules engine's own bitboards (`firmware_py.bitboards`) but
without what a playout does not need (stack compositions, Zobrist keys, undo records, Ply
objects): random placements, then a uniformly random legal move, or a forced pass, until neither
player can move. tests/test_rules_differential.py checks it ply by ply against the simple
reference engine, so it plays the same rules as `Board`.

>>> import random
>>> result = random_game(random.Random(1))
>>> result.plies > 49 and sum(result.score) <= 49
True
"""

from __future__ import annotations

import random as _random
import time
from typing import NamedTuple

from ..bitboards import ARC_SAFE, BOARD, DEST, NB_RING, RING_MASK, S2P, W

# Emptying a space p cuts nothing off when its occupied neighbours form one unbroken arc (and
# it held no DVONN piece): the rules' 64-entry table, keyed by the occupancy shifted by 13 - p
# (`bitboards.ARC_SAFE`, `RING_MASK`).
assert all(len(ring) == 6 for p, ring in enumerate(NB_RING) if BOARD >> p & 1)

# The play-out indexes its per-space lists by k = p + 1, a bit's bit_length(), which saves a
# subtraction at every lookup. BIT[k]: the bit itself. REACH[k][h]: where a stack of h on it
# lands (DEST, with 0 up to h = 49: such a stack cannot move). AROUND[k]: the space and its
# neighbours, which gain an empty neighbour when it empties.
BIT = tuple(1 << k >> 1 for k in range(W * 5 + 1))
REACH = ((),) + tuple(d + (0,) * (50 - len(d)) for d in DEST)


def _around(p: int) -> int:
    near = 1 << p | 1 << p + 1  # offsets {0, 1} + {0, 12} + {0, -13}, as in the flood fill
    near |= near << 12
    return near | near >> 13


AROUND = (0,) + tuple(_around(p) for p in range(W * 5))
_REACH_OF_ONES = [0] + [REACH[k][1] for k in range(1, W * 5 + 1)]


class GameResult(NamedTuple):
    score: tuple[int, int]  # (white, black)
    plies: int              # placements, moves and passes
    turns: int              # phase-2 turns on which a move was made
    moves_seen: int         # legal moves summed over those turns


def random_game(rnd: _random.Random, trace: list | None = None) -> GameResult:
    """Play one uniformly random game. trace, if given, receives every ply in order: ('place', p),
    ('pass',) or (ps, pd, n_legal) with padded bit positions (bitboards.P2S maps them to spaces)."""
    # Uniform placements in one partial shuffle: 3 DVONN pieces, 23 black, the rest white
    # (random.sample or shuffle call a slower random integer per space).
    pick = list(S2P)
    rand = rnd.random
    b = 0
    for i in range(26):
        j = i + int(rand() * (49 - i))
        p = pick[j]
        pick[j] = pick[i]
        pick[i] = p
        if i >= 3:
            b |= 1 << p
    dv = (1 << pick[0]) | (1 << pick[1]) | (1 << pick[2])
    w = BOARD & ~dv & ~b
    if trace is not None:  # one order that places them so: Black places first after the DVONN
        whites = [p for p in S2P if w >> p & 1]
        trace.extend(("place", p) for p in pick[:3])
        for black, white in zip(pick[3:26], whites):
            trace.extend((("place", black), ("place", white)))
    hs = [1] * (W * 5 + 1)  # heights by k; stale where a space is empty (never read there)
    return _play_out(rnd, hs, _REACH_OF_ONES[:], BOARD, w, b, dv, BOARD, True, 49, False, trace)


def playout(board, rnd: _random.Random, trace: list | None = None) -> GameResult:
    """Finish `board`'s game with uniformly random plies, leaving `board` unchanged.

    For a computer opponent's simulations (Monte Carlo) as much as for benchmarks; turns and
    moves_seen count only the plies played here.

    >>> import random
    >>> from firmware_py.rules import Board
    >>> b = Board.from_stacks({"d3": "D", "e3": "BW", "f3": "B", "g3": "W"})
    >>> result = playout(b, random.Random(0))
    >>> result.plies > 49 and sum(result.score) <= 4 and b.ply_count == 49
    True
    """
    st = board._st
    hs = [0] + [len(s) for s in st]
    occ, w, b, dv, one = board._occ, board._w, board._b, board._dv, board._one
    plies = board.ply_count
    if plies < 49:  # finish the placements in random order, the pieces in the rules' order
        free = [p for p in S2P if not occ >> p & 1]
        rnd.shuffle(free)
        for k, p in enumerate(free, plies):
            bit = 1 << p
            if trace is not None:
                trace.append(("place", p))
            hs[p + 1] = 1
            occ |= bit
            one |= bit
            if k < 3:
                dv |= bit
            elif k % 2:
                b |= bit
            else:
                w |= bit
        plies, white = 49, True
    else:
        white = board.turn == 0
    lands = [0] + [REACH[k][h] for k, h in enumerate(hs[1:], 1)]
    result = _play_out(rnd, hs, lands, occ, w, b, dv, one, white, plies, board._loose, trace)
    return result


def _play_out(rnd, hs, lands, occ, w, b, dv, one, white, plies, loose, trace) -> GameResult:
    """The phase-2 loop on bitboards: random legal moves and forced passes until neither can
    move. hs, lands: each space's height and where it can land (REACH at that height), by k
    (padded bit + 1); loose: some stacks may be unlinked (flood after each move)."""
    rand = rnd.random
    reach_at = REACH
    bit = BIT
    around = AROUND
    safe = ARC_SAFE
    relmask = RING_MASK
    stuck = False
    turns = moves_seen = 0
    # Occupied spaces with an empty or off-board neighbour (the others cannot move): kept up
    # to date as spaces empty, rather than recomputed every turn.
    free = occ & ~(occ & (occ >> 1) & (occ << 1) & (occ >> 12) & (occ << 12) & (occ >> 13)
                   & (occ << 13))
    while True:
        mob = (w if white else b) & free
        single = mob & one
        if single:
            m0 = (single << 1) & occ
            m1 = (single << 13) & occ
            m2 = (single << 12) & occ
            m3 = (single >> 1) & occ
            m4 = (single >> 13) & occ
            m5 = (single >> 12) & occ
            c0 = m0.bit_count()
            c1 = c0 + m1.bit_count()
            c2 = c1 + m2.bit_count()
            c3 = c2 + m3.bit_count()
            c4 = c3 + m4.bit_count()
            singles = total = c4 + m5.bit_count()
        else:
            singles = total = 0
        tall = mob & ~one
        t = tall  # count the tall stacks' moves (any order: highest bit first is cheapest)
        while t:
            k = t.bit_length()
            t ^= bit[k]
            total += (lands[k] & occ).bit_count()
        if not total:
            if stuck:
                break  # neither player can move
            stuck = True
            white = not white
            continue
        if stuck:  # the other player passed
            plies += 1
            stuck = False
            if trace is not None:
                trace.append(("pass",))
        turns += 1
        moves_seen += total
        r = int(rand() * total)
        if r < singles:  # a single piece: the r-th bit of the shifted masks, in order
            if r < c2:
                if r < c0:
                    m, d = m0, 1
                elif r < c1:
                    m, d, r = m1, 13, r - c0
                else:
                    m, d, r = m2, 12, r - c1
            elif r < c3:
                m, d, r = m3, -1, r - c2
            elif r < c4:
                m, d, r = m4, -13, r - c3
            else:
                m, d, r = m5, -12, r - c4
            while r:
                m &= m - 1
                r -= 1
            low = m & -m
            kd = low.bit_length()
            ks = kd - d
        else:  # a tall stack: the second walk, lowest bit first, the order moves are ranked in
            r -= singles
            t = tall
            while True:
                low = t & -t
                t ^= low
                ks = low.bit_length()
                m = lands[ks] & occ
                c = m.bit_count()
                if r < c:
                    break
                r -= c
            while r:
                m &= m - 1
                r -= 1
            low = m & -m
            kd = low.bit_length()
        # make the move
        h = hs[kd] = hs[kd] + hs[ks]
        lands[kd] = reach_at[kd][h]
        srcbit = bit[ks]
        occ ^= srcbit
        free = (free | around[ks]) & occ  # the source's neighbours now have an empty neighbour
        one &= ~(srcbit | low)
        if white:
            w = (w ^ srcbit) | low
            b &= ~low
        else:
            b = (b ^ srcbit) | low
            w &= ~low
        if dv & srcbit:
            dv = (dv ^ srcbit) | low
            check = True
        else:
            check = loose or not safe[((occ << 14) >> ks) & relmask]  # 14 - k = 13 - p
        if check:
            reach = dv
            while True:  # grow by one step: offsets {0, 1} + {0, 12} + {0, -13} = neighbours
                grow = reach | (reach << 1)
                grow |= grow << 12
                grow = (grow | (grow >> 13)) & occ
                if grow == reach or grow == occ:  # stuck, or everything reached already
                    reach = grow
                    break
                reach = grow
            if reach != occ:  # remove everything not linked to a DVONN piece
                cut = occ & ~reach
                near = cut | (cut << 1)
                near |= near << 12
                free = (free | near | (near >> 13)) & reach
                occ = reach
                w &= reach
                b &= reach
                one &= reach
            loose = False
        plies += 1
        if trace is not None:
            trace.append((ks - 1, kd - 1, total))
        white = not white
    ws = bs = 0
    while w:
        low = w & -w
        w ^= low
        ws += hs[low.bit_length()]
    while b:
        low = b & -b
        b ^= low
        bs += hs[low.bit_length()]
    return GameResult((ws, bs), plies, turns, moves_seen)


class BenchResult(NamedTuple):
    games: int
    seconds: float
    plies: int
    turns: int
    moves_seen: int
    white_wins: int
    black_wins: int
    draws: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds

    @property
    def moves_per_turn(self) -> float:
        return self.moves_seen / self.turns if self.turns else 0.0

    def as_dict(self) -> dict:
        return {
            "games": self.games, "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
            "plies_per_second": round(self.plies_per_second, 1),
            "plies_per_game": round(self.plies / self.games, 2),
            "moves_per_turn": round(self.moves_per_turn, 2),
            "white_wins": self.white_wins, "black_wins": self.black_wins, "draws": self.draws,
        }


def board_game(rnd: _random.Random) -> GameResult:
    """The same random game through the public Board API (legal_plies + push), for comparison."""
    from ..rules import Board
    board = Board()
    rand = rnd.random
    turns = seen = 0
    while legal := board.legal_plies():
        if board.phase == 2 and legal[0].is_move:
            turns += 1
            seen += len(legal)
        board._push(legal[int(rand() * len(legal))])
    return GameResult(board.score(), board.ply_count, turns, seen)


def run(games: int = 2000, seed: int = 1, engine: str = "fast") -> BenchResult:
    """Play `games` random games and time them: this process's CPU time, so that other work
    on the machine changes the figure little.

    engine: 'fast' (the playout above) or 'board' (the public Board API).
    """
    rnd = _random.Random(seed)
    plies = turns = seen = ww = bw = dr = 0
    play = random_game if engine == "fast" else board_game
    start = time.process_time()
    for _ in range(games):
        r = play(rnd)
        plies += r.plies
        turns += r.turns
        seen += r.moves_seen
        ws, bs = r.score
        if ws > bs:
            ww += 1
        elif bs > ws:
            bw += 1
        else:
            dr += 1
    seconds = time.process_time() - start
    return BenchResult(games, seconds, plies, turns, seen, ww, bw, dr)
