"""Engine-level players: callables Board -> Ply, made from a SPEC string.

SPEC is one of:
  random                 a uniformly random legal ply
  greedy                 one ply ahead: the best immediate score difference (ties at random)
  ai[:LEVEL]             the computer opponent (`firmware_py.ai`) at LEVEL (default: DEFAULT_LEVEL)
  ai:LEVEL,nodes=N       ... with a fixed node budget per move instead of the level's clock
                         (a level's depth cap, if it has one, still applies)
  ai:LEVEL,depth=D       ... with a fixed depth per move
  ai:LEVEL,time=S        ... with S seconds per move
  ai:LEVEL,game=S        ... with S seconds for its whole game (shared out by `ai.GameClock`)
  ai:classic[:LEVEL]     the engine as it was before issue 15 (`firmware_py.ai.classic`), a
                         yardstick; takes the same options
  prog:COMMAND           an outside program speaking the CodeCup DVONN protocol, started once
                         per game (`firmware_py.external_player`), e.g. prog:/tmp/prima/player

Every player takes a seed, so a match is reproducible (fully so when no clock is involved).

>>> from firmware_py.rules import Board
>>> player = parse_spec("greedy", seed=3)
>>> board = Board()
>>> board.is_legal(player(board)), player.name
(True, 'greedy')
"""

from __future__ import annotations

import random
from typing import Callable

from . import ai
from .rules import WHITE, Board, Ply

PlayerFn = Callable[[Board], Ply]


class Player:
    """Base class: `player(board) -> Ply` for the player to move; `name` is its SPEC."""

    name = "player"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def __call__(self, board: Board) -> Ply:
        raise NotImplementedError

    def close(self) -> None:
        """The game is over: let go of what the player holds (an outside program ends)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomPlayer(Player):
    """A uniformly random legal ply."""

    name = "random"

    def __call__(self, board: Board) -> Ply:
        return self.rng.choice(_legal(board))


class GreedyPlayer(Player):
    """The ply that leaves the best score difference (own minus opponent's) right after it."""

    name = "greedy"

    def __call__(self, board: Board) -> Ply:
        legal = _legal(board)
        me = board.turn
        best, best_plies = None, []
        for ply in legal:
            board.push(ply)
            w, b = board.score()
            board.pop()
            diff = w - b if me == WHITE else b - w
            if best is None or diff > best:
                best, best_plies = diff, [ply]
            elif diff == best:
                best_plies.append(ply)
        return self.rng.choice(best_plies)


class AIPlayer(Player):
    """The search engine at a level, or with a fixed node / depth / time budget per move, or
    a time budget for the whole game (`game`, seconds). One player plays one game: its search
    table and its clock carry over from ply to ply."""

    def __init__(self, level: int = ai.DEFAULT_LEVEL, seed: int | None = None, *,
                 nodes: int | None = None, depth: int | None = None,
                 seconds: float | None = None, game: float | None = None,
                 name: str | None = None, weights: "ai.Weights | None" = None,
                 setup: "ai.SetupWeights | None" = None, early=ai.EARLY_WEIGHTS):
        super().__init__(seed)
        ai.level_seconds(level)  # validates the level
        self.level, self.nodes, self.depth, self.seconds = level, nodes, depth, seconds
        self.name = name or f"ai:{level}"
        # weights, setup, early: evaluation weights on trial (ai.trial); the defaults otherwise
        self.searcher = ai.Searcher(self.rng, weights=weights or ai.DEFAULT_WEIGHTS,
                                    setup=setup or ai.DEFAULT_SETUP, early=early)
        self.clock = ai.GameClock(game) if game is not None else None
        self.last: ai.SearchResult | None = None

    def __call__(self, board: Board) -> Ply:
        self.last = ai.choose(board, self.level, self.rng, nodes=self.nodes, depth=self.depth,
                              seconds=self.seconds, searcher=self.searcher, clock=self.clock)
        return self.last.ply


class ClassicPlayer(Player):
    """The engine as it was before issue 15 (`ai.classic`), with the same budgets."""

    def __init__(self, level: int = ai.DEFAULT_LEVEL, seed: int | None = None, *,
                 nodes: int | None = None, depth: int | None = None,
                 seconds: float | None = None, name: str | None = None):
        from .ai import classic

        super().__init__(seed)
        self.classic = classic
        self.level, self.nodes, self.depth, self.seconds = level, nodes, depth, seconds
        self.name = name or f"ai:classic:{level}"
        self.searcher = classic.Searcher(self.rng)

    def __call__(self, board: Board) -> Ply:
        return self.classic.choose(board, self.level, self.rng, nodes=self.nodes,
                                   depth=self.depth, seconds=self.seconds,
                                   searcher=self.searcher).ply


def _legal(board: Board) -> list[Ply]:
    legal = board.legal_plies()
    if not legal:
        raise ValueError("the game is over: there is no ply to choose")
    return legal


def is_program(spec: str) -> bool:
    """`spec` names an outside program (prog:COMMAND).

    >>> is_program(" Prog:/tmp/prima/player"), is_program("ai:3")
    (True, False)
    """
    return spec.strip().lower().startswith("prog:")


def parse_spec(spec: str, seed: int | None = None, *,
               reply_timeout: float | None = None) -> Player:
    """A player from its SPEC (see the module docstring); ValueError naming the bad part.
    reply_timeout: seconds a prog: player may take for one reply (its default otherwise).

    >>> parse_spec("ai:2,nodes=3000").nodes
    3000
    >>> parse_spec("ai:9")
    Traceback (most recent call last):
    ...
    ValueError: player 'ai:9': no AI level 9 (levels are 1..5)
    """
    text = spec.strip().lower()
    if is_program(spec):
        from .external_player import REPLY_TIMEOUT_S, ExternalPlayer

        return ExternalPlayer(spec.strip()[len("prog:"):], seed, name=spec.strip(),
                              timeout=reply_timeout or REPLY_TIMEOUT_S)
    if text == "random":
        return RandomPlayer(seed)
    if text == "greedy":
        return GreedyPlayer(seed)
    if text == "ai" or text.startswith("ai:"):
        head, *options = text.split(",")
        level_text = head[3:] or str(ai.DEFAULT_LEVEL)
        classic = level_text.split(":")[0] == "classic"
        if classic:
            level_text = level_text[len("classic:"):] or str(ai.DEFAULT_LEVEL)
        try:
            level = int(level_text)
            ai.level_seconds(level)
        except ValueError:
            raise ValueError(f"player {spec!r}: no AI level {level_text} (levels are "
                             f"{min(ai.LEVEL_TIMES)}..{max(ai.LEVEL_TIMES)})") from None
        budget: dict[str, float] = {}
        for option in options:
            key, sep, value = option.partition("=")
            key = key.strip()
            if not sep or key not in ("nodes", "depth", "time", "game") or (
                    classic and key == "game"):
                raise ValueError(f"player {spec!r}: bad option {option!r} (use nodes=N, "
                                 "depth=D, time=SECONDS" + ("" if classic else
                                                            " or game=SECONDS") + ")")
            try:
                number = float(value) if key in ("time", "game") else int(value)
            except ValueError:
                raise ValueError(f"player {spec!r}: {key} must be a number, "
                                 f"not {value!r}") from None
            if number <= 0:
                raise ValueError(f"player {spec!r}: {key} must be positive")
            budget[key] = number
        if classic:
            return ClassicPlayer(level, seed, nodes=budget.get("nodes"),
                                 depth=budget.get("depth"), seconds=budget.get("time"),
                                 name=spec.strip())
        return AIPlayer(level, seed, nodes=budget.get("nodes"), depth=budget.get("depth"),
                        seconds=budget.get("time"), game=budget.get("game"),
                        name=spec.strip())
    raise ValueError(f"unknown player {spec!r} (use random, greedy, ai:LEVEL, "
                     "ai:LEVEL,nodes=N, ai:LEVEL,game=SECONDS, ai:classic or prog:COMMAND)")
