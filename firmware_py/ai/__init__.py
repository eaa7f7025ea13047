"""The computer opponent: `choose_ply(board, level, rng)` and, for live play, `Thinker`.

The DVONN pieces go where they leave every space nearest to one; the other placements are
searched over a placement evaluation (`placement_search.py`) until the last three, which the
search (`search.py`) takes into the moving phase; there it searches over an evaluation built on distance to the DVONN pieces
(`evaluation.py`; `python -m firmware_py.ai.tune` fits its weights to self-play games). A level
is a time per move (`LEVEL_TIMES`), or with `GameClock` a time for the whole game (`clock.py`).
`classic.py` is the engine as it was before, kept as a yardstick (`ai:classic`).

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

from ..rules import N_PLACEMENTS, Board, Ply
from .clock import GameClock
from .evaluation import (DEFAULT_WEIGHTS, EARLY_WEIGHTS, INF, WIN, Weights, evaluate,
                         final_value, side_terms, terms)
from .placement import DEFAULT_PLACEMENT, PlacementWeights, choose_dvonn, place_value
from .placement_search import DEFAULT_SETUP, SetupWeights, search_placement
from .search import SearchResult, Searcher

# Level -> seconds per move on the machine it runs on (a Pi searches fewer nodes in that time).
LEVEL_TIMES = {1: 0.05, 2: 0.2, 3: 0.5, 4: 1.5, 5: 5.0}
DEFAULT_LEVEL = 3
# Level -> a node budget worth the level's time on the development machine with other work
# running: for comparing levels by matches independent of load. They are 1.73x ai.classic's
# (20k for level 3): its speed in the moving phase, where a level's time goes. First 1.57x:
# `bench_ai --only speed` 1.57x and 1.59x (71-74k against 45-47k nodes a CPU second); `bench_ai
# --only pace --budget-scale 0.15` (10 games between them): at 1.45x 46.2 ms a move against
# 50.0 ms, at 1.57x 49.8 against 51.7 ms, 1.63x the nodes at equal time. The placements take
# neither engine its time (5.7 and 2.5 ms a placement). Round 11 (docs/engine-strength.md)
# made the search faster with the same trees: 1.13-1.14x main's speed over whole games, 1.17-1.20x
# on bench_ai's 16 positions; ai.classic, which shares the rules engine's make/unmake, about
# 1.03x: 1.57 * 1.135 / 1.03, so 1.73x.
LEVEL_NODES = {1: 3_460, 2: 13_840, 3: 34_600, 4: 103_800, 5: 346_000}
# Level -> the deepest iteration it searches: time buys whole plies only in big steps, and
# without these caps levels 1..3 would reach the same depth and not differ.
LEVEL_DEPTHS = {1: 1, 2: 3}
# The last placements, this many from phase 2, are searched into phase 2; the others by
# `placement_search`. While those were scored per space: searching the last 5 or 7 scored
# 21-1-16 and 20-0-17 against 3 (3300 nodes a move), no clear gain for the extra time; with
# the weights in force, 5 scored 48-1-11 against ai:classic where 3 scored 51-1-8 (60 games,
# seed 7).
PLACEMENT_SEARCH_EMPTIES = 3
# On a level's time, the placements `placement_search` makes search for this share of the
# move's time (a clock's share for a whole game), not for its 1000 evaluations (about 13 ms,
# depth 2-3): depth 4-7 in 0.4 s. With node or depth budgets (ai.trial, levels 1-2) they keep
# the 1000 evaluations, so seeded play stays the same. Round 16, docs/engine-strength.md.
PLACEMENT_TIME_SHARE = 0.8


def level_seconds(level: int) -> float:
    """Seconds per move of a level; ValueError naming the level if there is no such level."""
    try:
        return LEVEL_TIMES[int(level)]
    except (KeyError, ValueError, TypeError):
        raise ValueError(f"no AI level {level!r} (levels are {min(LEVEL_TIMES)}.."
                         f"{max(LEVEL_TIMES)})") from None


def choose(board: Board, level: int = DEFAULT_LEVEL, rng: _random.Random | None = None, *,
           nodes: int | None = None, depth: int | None = None, searcher: Searcher | None = None,
           seconds: float | None = None, clock: GameClock | None = None) -> SearchResult:
    """Choose a ply for the player to move, with the reasons (value, depth, nodes, PV).

    The level sets the time per move and, for the lowest levels, the depth (LEVEL_DEPTHS);
    nodes or depth, when given, replace the time limit (so a seeded search is deterministic);
    a clock replaces it with the clock's share of the game's time (and is charged the time).
    Pass the same `searcher` for every ply of a game: its table carries over.
    """
    rng = rng if rng is not None else _random.Random()
    start = time.perf_counter()
    limit_seconds = seconds if seconds is not None else level_seconds(level)
    soft = None
    if nodes is not None or depth is not None:
        limit_seconds = seconds  # explicit budgets replace the level's clock
    if clock is not None:
        soft, limit_seconds = clock.allot(board)
    if depth is None:
        depth = LEVEL_DEPTHS.get(int(level))
    by_time = nodes is None and depth is None and limit_seconds is not None
    if board.ply_count < N_PLACEMENTS - PLACEMENT_SEARCH_EMPTIES:  # placed by rule
        if board.ply_count < 3:
            ply = choose_dvonn(board, rng)
        else:
            setup = searcher.setup if searcher is not None else DEFAULT_SETUP
            if by_time:
                ply = search_placement(board, rng, setup, budget=None, seconds=min(
                    limit_seconds, PLACEMENT_TIME_SHARE * (soft or limit_seconds)))
            else:
                ply = search_placement(board, rng, setup, seconds=limit_seconds)
        result = SearchResult(ply, 0, 0, 0, time.perf_counter() - start, [ply])
    else:
        searcher = searcher if searcher is not None else Searcher(rng)
        result = searcher.search(board, seconds=limit_seconds, nodes=nodes, depth=depth,
                                 soft=soft)
    if clock is not None:
        clock.spend(time.perf_counter() - start)
    return result


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

class Thinker:
    """The computer's side of a live game: thinks on a thread so the frame loop never waits.

    Call `update(board)` as often as you like (each frame): when it is `colour`'s turn it starts
    a search on a copy of the board, and returns the chosen ply once ready *for that position*
    (None meanwhile, when it is not the computer's turn, or when the game is over). A result for
    a position that has since changed (a takeback, a new game) is dropped. With `game`
    (seconds), the level's time per move gives way to a clock for the whole game.

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
                 nodes: int | None = None, depth: int | None = None,
                 game: float | None = None):
        import threading

        level_seconds(level)  # validates the level
        self.colour, self.level, self.nodes, self.depth = colour, level, nodes, depth
        self.rng = _random.Random(seed)
        self.searcher = self._new_searcher()
        self.clock = GameClock(game) if game is not None else None  # game: seconds in all
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._for: tuple | None = None      # (ply_count, key) of the position being thought on
        self._result: SearchResult | None = None
        self.last: SearchResult | None = None  # the last finished search (value, depth, pv...)

    @staticmethod
    def _position(board: Board) -> tuple:
        return board.ply_count, board.key()

    def _new_searcher(self):
        return Searcher(self.rng)

    def _choose(self, board: Board) -> SearchResult:
        return choose(board, self.level, self.rng, nodes=self.nodes, depth=self.depth,
                      searcher=self.searcher, clock=self.clock)

    def update(self, board: Board) -> Ply | None:
        import threading

        if board.turn != self.colour or board.is_over():
            return None
        pos = self._position(board)
        with self._lock:
            if self._for == pos and self._result is not None:
                return self._result.ply
            if self._for == pos:
                return None  # still thinking
            if self._thread is not None and self._thread.is_alive():
                return None  # an outdated search is finishing; start this one next call
            self._for, self._result = pos, None
            copy = board.copy()
            self._thread = threading.Thread(target=self._think, args=(copy, pos), daemon=True,
                                            name="dvonn-ai")
            self._thread.start()
        return None

    def _think(self, board: Board, pos: tuple) -> None:
        result = self._choose(board)
        with self._lock:
            if self._for == pos:
                self._result = self.last = result

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current search ends (tests, scripted play); True when it has."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()


__all__ = ["choose", "choose_ply", "EARLY_WEIGHTS", "Thinker", "Searcher", "SearchResult",
           "GameClock", "level_seconds", "LEVEL_TIMES", "LEVEL_NODES", "LEVEL_DEPTHS",
           "DEFAULT_LEVEL",
           "Weights", "DEFAULT_WEIGHTS", "evaluate", "terms", "side_terms", "final_value",
           "PlacementWeights", "DEFAULT_PLACEMENT", "place_value", "choose_dvonn", "WIN", "INF",
           "PLACEMENT_SEARCH_EMPTIES", "SetupWeights", "DEFAULT_SETUP",
           "search_placement"]
