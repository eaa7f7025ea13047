"""Alpha-beta search over both phases, with a transposition table kept for the whole game.

Negamax alpha-beta with principal-variation search and iterative deepening. Move ordering: the
table's move, killer moves (any move that cut off at that height: most DVONN moves land on an
enemy stack, so killers kept only for the others were rare), moves onto enemy stacks by their
height then history, the others by history (`ordering.py`, generated and ordered in one pass);
placements by closeness to the DVONN pieces. To complete depth 3 on 32 early moving-phase
positions that takes 94.8k nodes where captures before killers, and no history among them, took
109.8k (-14 %); depth 4 on 8 of them 68.0k against 97.2k (-30 %). Leaves are scored by
`placement.place_value` in phase 1 and `evaluation.value` in phase 2; finished games score the
real result; a forced pass costs no depth. Depth-1 nodes value their children, all leaves, in
their own loop (`_frontier`).

Late move reductions: deeper in the tree, quiet moves (no capture, nothing cut off) that come
late in the order are first searched a ply shallower, and again at full depth only if they beat
the best so far. No frontier (futility) pruning: deciding a node one or two plies above the
leaves by its static value lost more than it saved against PrimaDvonna (README); `ai.classic`
keeps it.

Exact values: the search counts its guesses (static evaluations and the table values
that rest on them). A subtree searched without a guess rests only on finished games, so its
value is the game's true value whatever the depth: it is stored as exact at any depth, and
deepening stops once the root value is exact.

The transposition table (`table.Table`, sized to the machine's memory) holds two bounds per
position and is never cleared, so what was learnt on one move serves the next (solved endings
above all); entries of positions the game has gone past give way first.

A search stops at whichever limit comes first: nodes, depth, or time. With time, an iteration
starts only if its first root move's predicted cost (that move's time in the last iteration
times the growth between the last two, `clock.next_iteration_fits`) fits in the soft limit, and
the hard limit aborts one that overruns.
"""

from __future__ import annotations

import random as _random
import time
from dataclasses import dataclass, field

from ..rules import MOVE_PLY, N_PLACEMENTS, PASS, S2P, WHITE, Board, Ply
from .clock import next_iteration_fits
from .evaluation import DEFAULT_WEIGHTS, EARLY_WEIGHTS, INF, Weights, final_value
from .leaf import Leaf
from .ordering import ordered_moves
from .placement import (DEFAULT_PLACEMENT, PlacementWeights, closeness, jitter_masks,
                        place_value)
from .placement_search import DEFAULT_SETUP, SetupWeights
from .table import EXACT_DEPTH, Table, progress

MAX_DEPTH = 64
MAX_HEIGHT = 4 * N_PLACEMENTS  # plies below the root, passes included: more than a game has
EVAL_CACHE = 50_000            # evaluations kept, from move to move (about 5 MB; README)
_UNKNOWN = object()
# Frontier pruning (futility margins (300, 400) one and two plies above the leaves) was taken
# out after PrimaDvonna matches (README; 60 games, 0.5 s a move) scored 13-1-46 (22.5 %, mean
# margin -10.0) without it against 10-0-50 (16.7 %, -15.2) with it: a static value misses
# moves that cut stacks off. At equal nodes against the search with it (3510 a move, own
# placements, 60 games, seed 7): 28-0-32. Pruning quiet nodes only (commit a42170f, ai.quiet:
# none where a move cuts stacks off or carries a DVONN piece) was within chance against
# ai:classic (87.3 %, 87.8 % and 85.0 % from own placements where none had 86.5 %) and lost against
# PrimaDvonna too: 5-3-52 and 5-1-54 where none had 11-1-48 the same day (README).
# Late move reductions: at depth >= LMR_DEPTH, a quiet move after the first LMR_AFTER (and
# after the table move, captures and killers) is searched one ply shallower first, and again
# at full depth only if it beats alpha. A move that cuts stacks off is not quiet: never
# reduced (against the search reducing it, 3510 nodes a move, own placements, 60 games each:
# 32-3-25 with seed 7, 33-0-27 with seed 8, 55.4 %; against PrimaDvonna, README, no
# measurable change). Against ai:classic from own placements (ai.trial, 100 games, seeds 1
# and 7): none 86-4-10 and 84-3-13, from depth 3 88-2-10 and 85-2-13, from
# depth 2 89-1-10 and 89-2-9 (at 3300 nodes a move against 3000).
LMR_DEPTH = 2
LMR_AFTER = 3


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
    exact: bool = False  # the value is the game's true value (searched to every game's end)

    def __str__(self) -> str:
        pv = " ".join(str(p) for p in self.pv)
        exact = " exact" if self.exact else ""
        return (f"{self.ply} value {self.value / 100:+.2f}{exact} depth {self.depth} "
                f"nodes {self.nodes} {self.seconds:.2f}s pv {pv}")


class Searcher:
    """An alpha-beta searcher that keeps its table and history for a whole game.

    >>> import random
    >>> s = Searcher(rng=random.Random(1))
    >>> b = Board.from_stacks({"d3": "D", "e3": "W", "f3": "B", "g3": "W"})
    >>> str(s.search(b, depth=3).ply) in {"e3d3", "g3f3", "e3f3"}
    True
    """

    def __init__(self, rng: _random.Random | None = None, weights: Weights = DEFAULT_WEIGHTS,
                 placement: PlacementWeights = DEFAULT_PLACEMENT,
                 table_bits: int | None = None, setup: SetupWeights = DEFAULT_SETUP,
                 late_reductions: bool = True, early: Weights | None = EARLY_WEIGHTS):
        self.rng = rng if rng is not None else _random.Random()
        self.weights = weights
        # early: the weights of the first half of the moving phase (evaluation.phase_weights)
        self._leaf = Leaf(weights, early)
        self.placement = placement
        self.setup = setup  # for the placements searched on their own (ai.choose)
        self.jitter = jitter_masks(self.rng) if placement.jitter else (0, 0)
        # Late move reductions (off: plain alpha-beta, as tests need).
        self.lmr_depth = LMR_DEPTH if late_reductions else MAX_DEPTH + 1
        self.table = Table(table_bits)
        # Placements' history by ply, moves' by code (ps << 6 | pd: a list index, no hashing);
        # the killers are plies for placements, codes for moves.
        self.history: dict[Ply, int] = {}
        self.move_history = [0] * 4096
        self.killers: list[list] = [[None, None] for _ in range(MAX_HEIGHT)]
        self.nodes = 0
        self.guesses = 0
        self._evals: dict[int, int | None] = {}  # key -> Leaf value, kept from move to move
        self._deadline = None
        self._node_limit = None
        self._partial: tuple[Ply, int] | None = None
        self._first_seconds = 0.0  # the last iteration's time on its first root move

    # -- public ------------------------------------------------------------------------------
    def search(self, board: Board, *, seconds: float | None = None, nodes: int | None = None,
               depth: int | None = None, soft: float | None = None) -> SearchResult:
        """Search `board` (left unchanged) within the limits; at least depth 1 is completed
        unless `seconds` (the hard limit) runs out first. soft: seconds within which a new
        iteration must be predicted to end for it to start (default: `seconds`)."""
        legal = board.legal_plies()
        if not legal:
            raise ValueError("the game is over: there is no ply to choose")
        start = time.perf_counter()
        if len(legal) == 1:
            return SearchResult(legal[0], 0, 0, 0, 0.0, [legal[0]])
        known = self.table.probe(board._key)
        if known is not None and known[1] == EXACT_DEPTH and known[2] == known[3] and (
                known[4] in legal):  # solved on an earlier move: the true value is known
            return SearchResult(known[4], known[2], 0, 0, time.perf_counter() - start,
                                self._pv(board.copy(), known[4]), True)
        board = board.copy()  # the search pushes and pops; never disturb the caller's board
        self.nodes = 0
        self._deadline = None if seconds is None else start + seconds
        soft = seconds if soft is None else soft
        self._node_limit = nodes
        self.killers = [[None, None] for _ in range(MAX_HEIGHT)]
        self.table.new_search(board)
        self.history = {k: v // 8 for k, v in self.history.items()}  # age old history
        self.move_history = [v >> 3 for v in self.move_history]
        root = list(legal)
        self.rng.shuffle(root)  # seeded variety among equal moves
        max_depth = depth if depth is not None else MAX_DEPTH
        best, best_value, done, exact = root[0], 0, 0, False
        times, firsts = [], []
        for d in range(1, max_depth + 1):
            if times and soft is not None and not next_iteration_fits(
                    time.perf_counter() - start, soft, times, firsts):
                break  # the next iteration is not expected to finish in time (clock.py)
            t0 = time.perf_counter()
            self._partial = None
            guesses = self.guesses
            try:
                value, ply = self._root(board, root, d)
            except _Stop:
                # Root moves searched to the full depth before the stop were compared with the
                # previous best (searched first): the best of them is the better choice.
                if self._partial is not None:
                    best, best_value = self._partial
                break
            times.append(time.perf_counter() - t0)
            firsts.append(self._first_seconds)
            best, best_value, done = ply, value, d
            root.remove(ply)
            root.insert(0, ply)
            if self.guesses == guesses:
                exact = True
                break  # every line was searched to the game's end: deeper changes nothing
        pv = self._pv(board, best)
        return SearchResult(best, best_value, done, self.nodes, time.perf_counter() - start,
                            pv, exact)

    # -- internals ---------------------------------------------------------------------------
    def _root(self, board: Board, root: list[Ply], depth: int):
        alpha, beta = -INF, INF
        best = None
        guesses = self.guesses
        t0 = time.perf_counter()
        for i, ply in enumerate(root):
            if i == 1:
                self._first_seconds = time.perf_counter() - t0
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
        stored = EXACT_DEPTH if self.guesses == guesses else depth
        self.table.store(board._key, stored, alpha, alpha, best, progress(board))
        return alpha, best

    def _check_limits(self) -> None:
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _Stop
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _Stop

    def _negamax(self, board: Board, depth: int, alpha: int, beta: int, height: int) -> int:
        nodes = self.nodes = self.nodes + 1
        if nodes & 63 == 0:  # 64 nodes: under 10 ms on a Pi 4, so a level keeps its time
            self._check_limits()
        elif self._node_limit is not None and nodes >= self._node_limit:
            raise _Stop
        placing = board.ply_count < N_PLACEMENTS
        if depth <= 0:
            if placing:
                self.guesses += 1
                return place_value(board, self.placement, self.jitter)
            # A leaf: the mobility counts tell a finished game or a forced pass apart, and
            # are part of the evaluation, so no move list is built here. A solved position's
            # true value comes from the table.
            # The evaluation is kept (self._evals): one iteration's leaves are the next one's
            # frontier nodes (2-3 % more nodes a second, bench_ai --only speed), and one
            # move's tree overlaps the next one's (about 6 % more over 8 moves of a game at
            # 6000 nodes a move).
            key = board._key
            table = self.table
            entry = table.slots[key & table.mask]
            if entry is not None and entry[0] == key and entry[1] == EXACT_DEPTH and (
                    entry[2] == entry[3]):
                return entry[2]
            evals = self._evals
            static = evals.get(key, _UNKNOWN)
            if static is _UNKNOWN:
                static = self._leaf(board)  # None: the mover must pass, or the game is over
                if len(evals) >= EVAL_CACHE:
                    evals.clear()
                evals[key] = static
            if static is None:
                return self._no_move(board, alpha, beta, height)
            self.guesses += 1
            return static
        key = board._key
        table = self.table
        slots = table.slots
        i = key & table.mask
        entry = slots[i]
        if entry is None or entry[0] != key:
            entry = slots[i + 1]
            if entry is not None and entry[0] != key:
                entry = None
        tt_move = None
        if entry is not None:  # never holds a position whose mover must pass or has lost
            e_depth, lower, upper, tt_move = entry[1], entry[2], entry[3], entry[4]
            if e_depth >= depth:
                hit = (lower if lower >= beta or lower == upper
                       else upper if upper <= alpha else None)
                if hit is not None:
                    if e_depth < EXACT_DEPTH:
                        self.guesses += 1
                    return hit
        guesses = self.guesses
        if placing:
            ordered, special = self._order(board, board.legal_plies(), tt_move, height), 0
        else:  # sort keys of the move codes (ordering.py): code = key & 4095
            k0, k1 = self.killers[height]
            ordered, special = ordered_moves(
                board, self.move_history,
                -1 if tt_move is None else S2P[tt_move.src] << 6 | S2P[tt_move.dst], k0, k1)
            if not ordered:
                if not board.has_moves(1 - board.turn):
                    return final_value(board)
                board._push(PASS)  # a forced pass costs no depth
                try:
                    return -self._negamax(board, depth, -beta, -alpha, height + 1)
                finally:
                    board.pop()
        alpha0 = alpha
        late = max(special, LMR_AFTER) if depth >= self.lmr_depth and not placing else len(ordered)
        if depth == 1 and not placing:
            best_value, best_ply = self._frontier(board, ordered, alpha, beta, height)
        else:
            best_value, best_ply = -INF, None
            for i, ply in enumerate(ordered):
                if placing:
                    board._push(ply)
                else:
                    ply &= 4095
                    board._move(ply)
                try:
                    if i == 0:
                        v = -self._negamax(board, depth - 1, -beta, -alpha, height + 1)
                    else:
                        if i >= late and not board._undo[-1][3]:  # a move that cut stacks off
                            v = -self._negamax(board, depth - 2, -alpha - 1, -alpha, height + 1)
                            if v > alpha:
                                v = -self._negamax(board, depth - 1, -alpha - 1, -alpha,
                                                   height + 1)
                        else:
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
                            k = self.killers[height]
                            if k[0] != ply:
                                k[1], k[0] = k[0], ply
                            if placing:
                                self.history[ply] = self.history.get(ply, 0) + depth * depth
                            else:
                                self.move_history[ply] += depth * depth
                            break
        lower = best_value if best_value > alpha0 else -INF
        upper = best_value if best_value < beta else INF
        stage = board.ply_count if placing else 2 * N_PLACEMENTS - board._occ.bit_count()
        if not placing:
            best_ply = MOVE_PLY[best_ply]
        table.store(key, EXACT_DEPTH if self.guesses == guesses else depth, lower, upper,
                    best_ply, stage)  # stage: table.progress(board), written out
        return best_value

    def _no_move(self, board: Board, alpha: int, beta: int, height: int) -> int:
        """The value of a leaf whose mover cannot move: the game's result, or the opponent's
        leaf value after the forced pass (which costs no depth)."""
        if not board.has_moves(1 - board.turn):
            return final_value(board)
        board._push(PASS)
        try:
            return -self._negamax(board, 0, -beta, -alpha, height + 1)
        finally:
            board.pop()

    def _frontier(self, board: Board, ordered: list[int], alpha: int, beta: int,
                  height: int) -> tuple[int, int]:
        """(best value, best move code) of a moving-phase node at depth 1, over its moves'
        sort keys `ordered`: the loop of `_negamax` with each child, a leaf, valued here as
        `_negamax(board, 0, ...)` would value it (two thirds of the nodes are such leaves: a
        call and a dozen lookups each saved, the same nodes counted, the same values)."""
        table = self.table
        slots, mask = table.slots, table.mask
        evals = self._evals
        leaf = self._leaf
        limit = self._node_limit
        move, pop = board._move, board.pop
        best_value, best_ply = -INF, None
        for i, c in enumerate(ordered):
            c &= 4095
            move(c)
            try:
                nodes = self.nodes = self.nodes + 1
                if nodes & 63 == 0:
                    self._check_limits()
                elif limit is not None and nodes >= limit:
                    raise _Stop
                key = board._key
                entry = slots[key & mask]
                if entry is not None and entry[0] == key and entry[1] == EXACT_DEPTH and (
                        entry[2] == entry[3]):
                    v = -entry[2]
                else:
                    static = evals.get(key, _UNKNOWN)
                    if static is _UNKNOWN:
                        static = leaf(board)
                        if len(evals) >= EVAL_CACHE:
                            evals.clear()
                        evals[key] = static
                    if static is None:
                        v = -self._no_move(board, -beta, -alpha, height + 1)
                    else:
                        self.guesses += 1
                        v = -static
                if i and alpha < v < beta:  # the search's re-search, a node again
                    v = -self._negamax(board, 0, -beta, -alpha, height + 1)
            finally:
                pop()
            if v > best_value:
                best_value, best_ply = v, c
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        k = self.killers[height]
                        if k[0] != c:
                            k[1], k[0] = k[0], c
                        self.move_history[c] += 1
                        break
        return best_value, best_ply

    def _order(self, board: Board, legal: list[Ply], tt_move: Ply | None,
               height: int) -> list[Ply]:
        """The placements best first: the table move, killers, then nearest the DVONN pieces
        and by history (the moves' order is `ordering.ordered_moves`)."""
        k0, k1 = self.killers[height]
        history = self.history
        near = closeness(board._dv)
        scored = []
        for ply in legal:
            s = (1 << 30 if ply == tt_move else 1 << 20 if ply == k0 else
                 (1 << 20) - 1 if ply == k1 else 1000 * near[S2P[ply.dst]]
                 + history.get(ply, 0))
            scored.append((s, ply))
        scored.sort(key=lambda t: t[0], reverse=True)
        return [p for _, p in scored]

    def _pv(self, board: Board, first: Ply, limit: int = 12) -> list[Ply]:
        pv = [first]
        board._push(first)
        pushed = 1
        seen = {board.key()}
        while len(pv) < limit:
            entry = self.table.probe(board.key())
            if entry is None or entry[4] is None or not board.is_legal(entry[4]):
                break
            board._push(entry[4])
            pushed += 1
            pv.append(entry[4])
            if board.key() in seen:
                break
            seen.add(board.key())
        for _ in range(pushed):
            board.pop()
        return pv
