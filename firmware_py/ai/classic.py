"""The computer opponent as it was before issue 15 (`ai:classic`): a yardstick for the new one.

Kept unchanged so that `python -m firmware_py.tools.bench_ai --only classic` can measure the
engine in `firmware_py.ai` against it. Do not improve it: a stronger yardstick would make old figures incomparable.

Its placement heuristics, then alpha-beta search for the moving phase:

Phase 1 (placing): each empty space is scored for the piece to place (near the DVONN pieces,
on the edge where pieces can move early, not clumped with one's own pieces, next to enemy
pieces to jump on) and the best is taken, with a little seeded noise so games differ. The last
few placements are searched like moves, since the search then reaches into phase 2.

Phase 2 (moving): negamax alpha-beta with principal-variation search, iterative deepening, a
transposition table keyed by `Board.key()`, and move ordering (table move, captures by height,
killer moves, history), and frontier pruning (a node one or two plies above the leaves whose
static value is far outside the window is not expanded). Leaves are scored by `evaluate`:
material on top, the number of stacks on top, mobility (stacks able to move and number of
moves), control of stacks holding a DVONN piece, the biggest capture each side has at hand,
and tempo; the weights are fitted to the outcomes of self-play games. Forced passes cost no
depth; finished games score the real result.

A search stops at whichever limit comes first: time (what levels use; the lowest levels also
have a depth cap), nodes or depth (what tests and fair comparisons use: deterministic given
the seed).

>>> from firmware_py.rules import Board
>>> import random
>>> board = Board.from_plies(["e3", "c3", "g3"])
>>> ply = choose_ply(board, 1, rng=random.Random(0), nodes=500)
>>> board.is_legal(ply)
True
"""

from __future__ import annotations

import random as _random
import time
from dataclasses import dataclass, field

from ..rules import (BLACK, DEST, MAX_MOBILE_HEIGHT, N_PLACEMENTS, PASS, S2P, WHITE, Board,
                    Ply, surrounded)
from ..spaces import N_SPACES, NEIGHBOURS, distance
from . import Thinker as _LiveThinker  # the thread around a search, shared

# Level -> seconds per move on the machine it runs on (a Pi searches fewer nodes in that time).
LEVEL_TIMES = {1: 0.05, 2: 0.2, 3: 0.5, 4: 1.5, 5: 5.0}
DEFAULT_LEVEL = 3
# Level -> a node budget worth the level's time here (about 40k nodes/s on the development
# machine with other work running): for comparing levels by matches independent of load.
LEVEL_NODES = {1: 2_000, 2: 8_000, 3: 20_000, 4: 60_000, 5: 200_000}
# Level -> the deepest iteration it searches. On the first move of phase 2, depths 3 to 7 take
# about 0.7k, 3k, 12k, 100k and 450k nodes (earlier iterations included): time buys whole
# plies only in big steps, and without these caps levels 1..3 would all reach depth 4 or 5
# and not differ (depth 3 beat depth 2 only 24-1-15, depth 1 46-1-13). Levels 3..5 search as
# deep as their time allows (here mostly depth 5, 5 or 6, and 6 or 7).
LEVEL_DEPTHS = {1: 1, 2: 3}

WIN = 100_000          # a won game scores WIN + final margin (from the mover's side)
INF = 10 * WIN
MAX_DEPTH = 64
MAX_HEIGHT = 4 * N_PLACEMENTS  # plies below the root, passes included: more than a game has
TT_LIMIT = 200_000     # entries (~35 MB); cleared when full, so memory stays modest on a Pi
PLACEMENT_SEARCH_EMPTIES = 3  # search (rather than heuristics) once this few spaces are empty
# Futility margins one and two plies above the leaves, in hundredths of a piece (see
# Searcher._negamax).
FRONTIER_MARGINS = (300, 400)

EXACT, LOWER, UPPER = 0, 1, 2


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Weights:
    """Evaluation weights in hundredths of a piece."""

    # Fitted to outcomes: least squares of the final margin on these terms over 10k phase-2
    # positions with at most 34 stacks, from 300 self-play games (1000 nodes a move, 10 %
    # random moves). The number of stacks a player tops predicted the result best of all terms
    # (r 0.48) and was missing. Against the weights before (100, 150, 15, 40, 10, 160, 60, 0,
    # hand-tuned by self-play at 2000 nodes) these scored 19-0-11 at 20k nodes a move, and
    # deeper search began to pay (60k against 20k nodes: see bench_ai).
    material: int = 100        # per piece in the stacks a player tops
    mobile_stack: int = 50     # per stack that can move
    move: int = 65             # per legal move
    dvonn_stack: int = 120     # per stack holding a DVONN piece that a player tops
    tempo: int = 10            # for the side to move
    threat: int = 220          # per piece of the biggest enemy stack the side to move can take
    counter: int = 180         # ... and the same for the opponent's biggest catch, subtracted
    stack: int = 175           # per stack a player tops


DEFAULT_WEIGHTS = Weights()


def evaluate(board: Board, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """A phase-2 position's value for the player to move, in hundredths of a piece.

    >>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB"})
    >>> evaluate(b) > 0   # Black tops more, but White is about to take Black's stack
    True
    """
    return _value(board, weights, features(board, WHITE), features(board, BLACK))


def _value(board: Board, weights: Weights, fw: tuple[int, int, int],
           fb: tuple[int, int, int]) -> int:
    """evaluate() with both players' features at hand (the search needs them anyway)."""
    st = board._st
    w_own, b_own = board._w, board._b
    one = board._one
    mat = (w_own & one).bit_count() - (b_own & one).bit_count()
    tall = w_own & ~one
    while tall:  # inlined bits(): this loop runs at every leaf
        low = tall & -tall
        mat += len(st[low.bit_length() - 1])
        tall ^= low
    tall = b_own & ~one
    while tall:
        low = tall & -tall
        mat -= len(st[low.bit_length() - 1])
        tall ^= low
    dv = board._dv
    dstacks = (dv & w_own).bit_count() - (dv & b_own).bit_count()
    moves_w, stacks_w, catch_w = fw
    moves_b, stacks_b, catch_b = fb
    value = (weights.material * mat + weights.mobile_stack * (stacks_w - stacks_b)
             + weights.move * (moves_w - moves_b) + weights.dvonn_stack * dstacks
             + weights.stack * (w_own.bit_count() - b_own.bit_count()))
    # The leaf's static value ignores the capture the side to move is about to make
    # (the values of odd and even depths swing by several pieces without this).
    if board.turn == WHITE:
        return value + weights.threat * catch_w - weights.counter * catch_b + weights.tempo
    return -value + weights.threat * catch_b - weights.counter * catch_w + weights.tempo


def features(board: Board, player: int) -> tuple[int, int, int]:
    """(moves, mobile stacks, biggest catch) of `player` in one pass over its stacks.

    Moves and mobile stacks as the rules count them, counted without listing them; the catch
    is the height of the tallest enemy-topped stack `player` could move onto (0: none). All
    three are checked against the reference engine in tests/test_rules_differential.py.

    >>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB"})
    >>> features(b, WHITE), len(b.moves_of(WHITE))
    ((2, 1, 3), 2)
    """
    occ = board._occ
    own, enemy = (board._w, board._b) if player == WHITE else (board._b, board._w)
    mob = own & ~surrounded(occ)
    single = mob & board._one
    moves = stacks = targets = 0
    if single:
        n1, n2, n3 = (single << 1) & occ, (single >> 1) & occ, (single << 12) & occ
        n4, n5, n6 = (single >> 12) & occ, (single << 13) & occ, (single >> 13) & occ
        moves = (n1.bit_count() + n2.bit_count() + n3.bit_count() + n4.bit_count()
                 + n5.bit_count() + n6.bit_count())
        stacks = (single & ((occ >> 1) | (occ << 1) | (occ >> 12) | (occ << 12) | (occ >> 13)
                            | (occ << 13))).bit_count()
        targets = (n1 | n2 | n3 | n4 | n5 | n6) & enemy
    tall = mob & ~board._one
    st = board._st
    while tall:
        low = tall & -tall
        ps = low.bit_length() - 1
        tall ^= low
        h = len(st[ps])
        if h <= MAX_MOBILE_HEIGHT:
            t = DEST[ps][h] & occ
            if t:
                moves += t.bit_count()
                stacks += 1
                targets |= t & enemy
    best = 0
    while targets:
        low = targets & -targets
        h = len(st[low.bit_length() - 1])
        if h > best:
            best = h
        targets ^= low
    return moves, stacks, best


def final_value(board: Board) -> int:
    """A finished game's value for the player to move: win or loss, plus the margin."""
    w, b = board.score()
    diff = w - b if board.turn == WHITE else b - w
    return WIN + diff if diff > 0 else -WIN + diff if diff < 0 else 0


# --------------------------------------------------------------------------------------------
# Placement heuristics
# --------------------------------------------------------------------------------------------

_EDGE = tuple(len(NEIGHBOURS[s]) < 6 for s in range(N_SPACES))
_CENTRE = N_SPACES // 2  # e3


def placement_scores(board: Board) -> dict[int, float]:
    """Heuristic value of each empty space for the piece to place now (higher is better)."""
    piece = board.piece_to_place()
    stacks = board.stacks()
    empty = [s for s in range(N_SPACES) if not stacks[s]]
    dvonns = [s for s in range(N_SPACES) if stacks[s] and stacks[s][0] == "D"]
    out: dict[int, float] = {}
    if piece == "D":
        # Spread the DVONN pieces over the middle of the board: keeps many pieces in contact.
        for s in empty:
            v = -0.6 * distance(s, _CENTRE)
            for d in dvonns:
                v -= 3.0 if distance(s, d) < 3 else 0.0
            out[s] = v - (1.0 if _EDGE[s] else 0.0)
        return out
    mine = piece
    theirs = "B" if mine == "W" else "W"
    for s in empty:
        near = min((distance(s, d) for d in dvonns), default=3)
        v = -0.8 * near + (1.5 if near == 1 else 0.0)
        free = len(NEIGHBOURS[s])
        v += 1.2 if free < 6 else 0.0  # edge pieces move first
        for n in NEIGHBOURS[s]:
            top = stacks[n][-1] if stacks[n] else None
            if top == mine:
                v -= 0.6
            elif top == theirs:
                v += 0.4
            elif top is None:
                v += 0.15  # an empty neighbour may stay a way out
        out[s] = v
    return out


def choose_placement(board: Board, rng: _random.Random, noise: float = 0.3) -> Ply:
    scores = placement_scores(board)
    best = max(scores, key=lambda s: (scores[s] + rng.uniform(0.0, noise), -s))
    return Ply(-1, best)


# --------------------------------------------------------------------------------------------
# Search
# --------------------------------------------------------------------------------------------

class _Stop(Exception):
    """Raised inside the search when a limit is reached."""


@dataclass
class SearchResult:
    ply: Ply
    value: int           # for the player to move, hundredths of a piece (|v| > WIN/2: decided)
    depth: int           # deepest iteration completed
    nodes: int
    seconds: float
    pv: list[Ply] = field(default_factory=list)

    def __str__(self) -> str:
        pv = " ".join(str(p) for p in self.pv)
        return (f"{self.ply} value {self.value / 100:+.2f} depth {self.depth} "
                f"nodes {self.nodes} {self.seconds:.2f}s pv {pv}")


class Searcher:
    """An alpha-beta searcher that keeps its transposition table and history between moves.

    >>> import random
    >>> s = Searcher(rng=random.Random(1))
    >>> b = Board.from_stacks({"d3": "D", "e3": "W", "f3": "B", "g3": "W"})
    >>> str(s.search(b, depth=3).ply) in {"e3d3", "g3f3", "e3f3"}
    True
    """

    def __init__(self, rng: _random.Random | None = None, weights: Weights = DEFAULT_WEIGHTS,
                 reductions: bool = False,
                 frontier_margins: tuple[int, ...] = FRONTIER_MARGINS):
        self.rng = rng if rng is not None else _random.Random()
        self.weights = weights
        # Late quiet moves first searched one ply shallower (re-searched if they surprise).
        # Off by default: at 4000 nodes a move it scored 17-2-21 against the full search.
        self.reductions = reductions
        # Frontier pruning at depth 1, 2... (empty: off, the search is then exact; _negamax).
        self.frontier_margins = frontier_margins
        self.tt: dict[int, tuple[int, int, int, Ply | None]] = {}
        self.history: dict[Ply, int] = {}
        self.killers: list[list[Ply | None]] = [[None, None] for _ in range(MAX_HEIGHT)]
        self.nodes = 0
        self._deadline = None
        self._node_limit = None
        self._partial: tuple[Ply, int] | None = None

    # -- public ------------------------------------------------------------------------------
    def search(self, board: Board, *, seconds: float | None = None, nodes: int | None = None,
               depth: int | None = None) -> SearchResult:
        """Search `board` (left unchanged) within the limits; at least depth 1 is completed."""
        legal = board.legal_plies()
        if not legal:
            raise ValueError("the game is over: there is no ply to choose")
        start = time.perf_counter()
        if len(legal) == 1:
            return SearchResult(legal[0], 0, 0, 0, 0.0, [legal[0]])
        board = board.copy()  # the search pushes and pops; never disturb the caller's board
        self.nodes = 0
        self._deadline = None if seconds is None else start + seconds
        self._node_limit = nodes
        self.killers = [[None, None] for _ in range(MAX_HEIGHT)]
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        self.history = {k: v // 8 for k, v in self.history.items()}  # age old history
        root = list(legal)
        self.rng.shuffle(root)  # seeded variety among equal moves
        max_depth = depth if depth is not None else MAX_DEPTH
        best, best_value, done = root[0], 0, 0
        # In phase 1 the first depth that reaches phase 2 is the first that scores anything.
        first = max(1, min(max_depth, N_PLACEMENTS - board.ply_count + 1))
        for d in range(first, max_depth + 1):
            self._partial = None
            try:
                value, ply = self._root(board, root, d, best if done else None)
            except _Stop:
                # Root moves searched to the full depth before the stop were compared with the
                # previous best (searched first): the best of them is the better choice.
                if self._partial is not None:
                    best, best_value = self._partial
                break
            best, best_value, done = ply, value, d
            root.remove(ply)
            root.insert(0, ply)
            if abs(value) > WIN // 2:
                break  # the result is decided; deeper search changes nothing
            if self._deadline is not None and time.perf_counter() > start + 0.5 * seconds:
                break  # the next iteration would not finish in time
        pv = self._pv(board, best)
        return SearchResult(best, best_value, done, self.nodes, time.perf_counter() - start, pv)

    # -- internals ---------------------------------------------------------------------------
    def _root(self, board: Board, root: list[Ply], depth: int, first: Ply | None):
        alpha, beta = -INF, INF
        best = None
        for i, ply in enumerate(root):
            board._push(ply)
            try:
                if i == 0:
                    v = -self._negamax(board, depth - 1, -beta, -alpha, 1)
                else:
                    v = -self._negamax(board, depth - 1, -alpha - 1, -alpha, 1)
                    if v > alpha:
                        v = -self._negamax(board, depth - 1, -beta, -alpha, 1)
            finally:
                board.pop()
            if best is None or v > alpha:
                alpha, best = v, ply
                self._partial = (ply, v)
        self.tt[board.key()] = (depth, EXACT, alpha, best)
        return alpha, best

    def _check_limits(self) -> None:
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _Stop
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _Stop

    def _negamax(self, board: Board, depth: int, alpha: int, beta: int, height: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 or self._node_limit is not None:
            self._check_limits()
        if depth <= 0:
            if board.ply_count < N_PLACEMENTS:
                return 0  # placement leaves are not scored (searched only near phase 2)
            # A leaf: the mobility counts tell a finished game or a forced pass apart, and
            # are part of the evaluation, so no move list is built here.
            fw, fb = features(board, WHITE), features(board, BLACK)
            if (fw if board.turn == WHITE else fb)[0] == 0:
                if fw[0] + fb[0] == 0:
                    return final_value(board)
                board._push(PASS)  # a forced pass costs no depth
                try:
                    return -self._negamax(board, depth, -beta, -alpha, height + 1)
                finally:
                    board.pop()
            return _value(board, self.weights, fw, fb)
        key = board.key()
        entry = self.tt.get(key)  # never holds a position whose mover must pass or has lost
        tt_move = None
        if entry is not None:
            e_depth, flag, value, tt_move = entry
            if e_depth >= depth:
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
        if (depth <= len(self.frontier_margins) and beta == alpha + 1
                and board.ply_count >= N_PLACEMENTS):
            # Frontier pruning: a null-window node one or two plies from the leaves whose
            # static value (which counts the best capture at hand) is a margin beyond the
            # window is decided without trying its moves, or even listing them. At depth 1
            # this made depth 5 about 3x cheaper, at depth 2 depth 6 another 3x (and 20-0-20,
            # margin +1.9, at equal nodes against depth 1 alone).
            fw, fb = features(board, WHITE), features(board, BLACK)
            if (fw if board.turn == WHITE else fb)[0]:  # a forced pass or the end: below
                margin = self.frontier_margins[depth - 1]
                static = _value(board, self.weights, fw, fb)
                if static + margin <= alpha:
                    return static + margin
                if static - margin >= beta:
                    return static - margin
        legal = board.legal_plies()
        if not legal:
            return final_value(board)
        if legal[0] == PASS:
            board._push(PASS)  # a forced pass costs no depth
            try:
                return -self._negamax(board, depth, -beta, -alpha, height + 1)
            finally:
                board.pop()
        alpha0 = alpha
        ordered, n_early = self._order(board, legal, tt_move, height)
        best_value, best_ply = -INF, None
        history = self.history
        reduce_from = max(3, n_early) if self.reductions and depth >= 3 else len(ordered)
        for i, ply in enumerate(ordered):
            board._push(ply)
            try:
                if i == 0:
                    v = -self._negamax(board, depth - 1, -beta, -alpha, height + 1)
                else:
                    if i >= reduce_from:
                        v = -self._negamax(board, depth - 2, -alpha - 1, -alpha, height + 1)
                    else:
                        v = alpha + 1  # not reduced: go straight to the full-depth search
                    if v > alpha:
                        v = -self._negamax(board, depth - 1, -alpha - 1, -alpha, height + 1)
                    if alpha < v < beta:
                        v = -self._negamax(board, depth - 1, -beta, -alpha, height + 1)
            finally:
                board.pop()
            if v > best_value:
                best_value, best_ply = v, ply
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if not self._is_capture(board, ply):
                            k = self.killers[height]
                            if k[0] != ply:
                                k[1], k[0] = k[0], ply
                        history[ply] = history.get(ply, 0) + depth * depth
                        break
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        self.tt[key] = (depth, flag, best_value, best_ply)
        return best_value

    @staticmethod
    def _is_capture(board: Board, ply: Ply) -> bool:
        if ply.src < 0:
            return False
        top = board._st[S2P[ply.dst]]
        return bool(top) and top[-1] != board._st[S2P[ply.src]][-1]

    def _order(self, board: Board, legal: list[Ply], tt_move: Ply | None,
               height: int) -> list[Ply]:
        if legal[0].src < 0:
            return legal, len(legal)  # placements near the end: few, no ordering needed
        st = board._st
        k0, k1 = self.killers[height]
        history = self.history
        mover = "W" if board.turn == WHITE else "B"
        scored = []
        for ply in legal:
            if ply == tt_move:
                s = 1 << 30
            else:
                dst = st[S2P[ply.dst]]
                if dst[-1] != mover:
                    s = (1 << 20) + 1000 * len(dst) - len(st[S2P[ply.src]])
                elif ply == k0:
                    s = 1 << 19
                elif ply == k1:
                    s = (1 << 19) - 1
                else:
                    s = history.get(ply, 0)
            scored.append((s, ply))
        scored.sort(key=lambda t: t[0], reverse=True)
        n_early = sum(1 for t in scored if t[0] >= (1 << 19) - 1)  # table move, captures, killers
        return [p for _, p in scored], n_early

    def _pv(self, board: Board, first: Ply, limit: int = 12) -> list[Ply]:
        pv = [first]
        board._push(first)
        pushed = 1
        seen = {board.key()}
        while len(pv) < limit:
            entry = self.tt.get(board.key())
            if entry is None or entry[3] is None or not board.is_legal(entry[3]):
                break
            board._push(entry[3])
            pushed += 1
            pv.append(entry[3])
            if board.key() in seen:
                break
            seen.add(board.key())
        for _ in range(pushed):
            board.pop()
        return pv


# --------------------------------------------------------------------------------------------
# The one call the rest of the project needs
# --------------------------------------------------------------------------------------------

def level_seconds(level: int) -> float:
    """Seconds per move of a level; ValueError naming the level if there is no such level."""
    try:
        return LEVEL_TIMES[int(level)]
    except (KeyError, ValueError, TypeError):
        raise ValueError(f"no AI level {level!r} (levels are {min(LEVEL_TIMES)}.."
                         f"{max(LEVEL_TIMES)})") from None


def choose(board: Board, level: int = DEFAULT_LEVEL, rng: _random.Random | None = None, *,
           nodes: int | None = None, depth: int | None = None, searcher: Searcher | None = None,
           seconds: float | None = None) -> SearchResult:
    """Choose a ply for the player to move, with the reasons (value, depth, nodes, PV).

    The level sets the time per move and, for the lowest levels, the depth (LEVEL_DEPTHS);
    nodes or depth, when given, replace the time limit (so a seeded search is deterministic).
    Placements use heuristics until the last few.
    """
    rng = rng if rng is not None else _random.Random()
    limit_seconds = seconds if seconds is not None else level_seconds(level)
    if nodes is not None or depth is not None:
        limit_seconds = seconds  # explicit budgets replace the level's clock
    if depth is None:
        depth = LEVEL_DEPTHS.get(int(level))
    empties = N_PLACEMENTS - board.ply_count
    if board.ply_count < N_PLACEMENTS and empties > PLACEMENT_SEARCH_EMPTIES:
        t0 = time.perf_counter()
        ply = choose_placement(board, rng)
        return SearchResult(ply, 0, 0, 0, time.perf_counter() - t0, [ply])
    searcher = searcher if searcher is not None else Searcher(rng)
    return searcher.search(board, seconds=limit_seconds, nodes=nodes, depth=depth)


def choose_ply(board: Board, level: int = DEFAULT_LEVEL, rng: _random.Random | None = None, *,
               nodes: int | None = None, depth: int | None = None) -> Ply:
    """The computer's placement, move or pass for the player to move on `board` (unchanged).

    level 1..5 sets the time per move (LEVEL_TIMES); rng (a random.Random) breaks ties; nodes or
    depth replace the clock for deterministic play. ValueError if the game is over.
    """
    return choose(board, level, rng, nodes=nodes, depth=depth).ply


# --------------------------------------------------------------------------------------------
# Thinking while the board keeps scanning (for `play --ai` / `sim --ai`)
# --------------------------------------------------------------------------------------------

class Thinker(_LiveThinker):
    """The live game's thinker (`firmware_py.ai.Thinker`: on a thread, results only for the
    position asked) with this engine's search; no clock for the whole game (no `game`).

    >>> from firmware_py.rules import BLACK
    >>> thinker = Thinker(BLACK, level=1, seed=1, nodes=200)
    >>> board = Board.from_plies(["e3"])          # Black places the second DVONN piece
    >>> thinker.update(board) is None or True     # started (or, if quick, already done)
    True
    >>> thinker.wait(5.0)
    True
    >>> board.is_legal(thinker.update(board))
    True
    """

    def __init__(self, colour: int, level: int = DEFAULT_LEVEL, seed: int | None = None, *,
                 nodes: int | None = None, depth: int | None = None):
        super().__init__(colour, level, seed, nodes=nodes, depth=depth)

    def _new_searcher(self):
        return Searcher(self.rng)

    def _choose(self, board: Board) -> SearchResult:
        return choose(board, self.level, self.rng, nodes=self.nodes, depth=self.depth,
                      searcher=self.searcher)
