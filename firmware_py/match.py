"""Engine matches between two players (no physics): games, results and a summary.

With openings (placement phases read by `read_openings`), each pair of games starts from the
same placement phase with colours swapped, so the moving phase is measured apart from the
placements.

With `placements` (a SPEC), both colours' placements are made by that player and the match's
players take over for the moving phase; a match player that is that SPEC itself plays on (an
outside program can only play a game from its start). This splits the phases against a
`prog:` player too, where openings cannot be used.

A player that forfeits (`external_player.PlayerForfeit`: an outside program's garbled or
illegal reply, or none in time) loses that game; the result says why (`forfeit`).

>>> from firmware_py.match import play_match
>>> results, summary = play_match("greedy", "random", games=2, seed=1)
>>> [r.plies >= 49 for r in results], summary.games
([True, True], 2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .players import parse_spec
from .errors import IllegalPly
from .external_player import PlayerForfeit
from .rules import BLACK, N_PLACEMENTS, PLAYER_NAMES, WHITE, Board, Ply

COLOURS = PLAYER_NAMES  # ('white', 'black')


@dataclass
class GameResult:
    """One finished game. `first` is the player given as --white (it plays Black when swapped)."""

    game: int
    white: str                       # SPEC of the player with White in this game
    black: str
    swapped: bool                    # True: the --black player had White
    winner: str                      # 'white', 'black' or 'draw'
    score: tuple[int, int]           # (white, black)
    plies: int
    seconds: tuple[float, float]     # thinking time (white, black)
    moves: tuple[int, int]           # plies chosen (white, black)
    max_seconds: tuple[float, float] # the longest single ply (white, black)
    record: list[str] = field(default_factory=list)
    opening: int | None = None       # 1-based line number in the openings, if one was used
    forfeit: str | None = None       # why the loser forfeited, if the game ended that way

    @property
    def first_result(self) -> str:
        """'win', 'draw' or 'loss' for the --white player."""
        if self.winner == "draw":
            return "draw"
        first_colour = "black" if self.swapped else "white"
        return "win" if self.winner == first_colour else "loss"

    def to_json(self) -> dict:
        return {
            "game": self.game, "white": self.white, "black": self.black, "swapped": self.swapped,
            "winner": self.winner, "score": {"white": self.score[0], "black": self.score[1]},
            "plies": self.plies,
            "seconds": {c: round(self.seconds[i], 3) for i, c in enumerate(COLOURS)},
            "mean_seconds": {c: round(self.seconds[i] / max(1, self.moves[i]), 4)
                             for i, c in enumerate(COLOURS)},
            "max_seconds": {c: round(self.max_seconds[i], 3) for i, c in enumerate(COLOURS)},
            "record": " ".join(self.record),
            **({} if self.opening is None else {"opening": self.opening}),
            **({} if self.forfeit is None else {"forfeit": self.forfeit}),
        }


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, result: str) -> None:
        name = {"win": "wins", "draw": "draws", "loss": "losses"}[result]
        setattr(self, name, getattr(self, name) + 1)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def to_json(self) -> dict:
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses}


@dataclass
class Summary:
    """Results of the --white player (`first`) and the --black player (`second`)."""

    first: str
    second: str
    games: int = 0
    first_total: Tally = field(default_factory=Tally)
    first_as: dict[str, Tally] = field(default_factory=lambda: {c: Tally() for c in COLOURS})
    second_total: Tally = field(default_factory=Tally)
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # first, second
    moves: list[int] = field(default_factory=lambda: [0, 0])
    max_seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    margin: int = 0  # sum over games of (first's score - second's score)

    def add(self, r: GameResult) -> None:
        self.games += 1
        res = r.first_result
        self.first_total.add(res)
        self.first_as["black" if r.swapped else "white"].add(res)
        self.second_total.add({"win": "loss", "loss": "win", "draw": "draw"}[res])
        fi, si = (BLACK, WHITE) if r.swapped else (WHITE, BLACK)
        for who, colour in ((0, fi), (1, si)):
            self.seconds[who] += r.seconds[colour]
            self.moves[who] += r.moves[colour]
            self.max_seconds[who] = max(self.max_seconds[who], r.max_seconds[colour])
        self.margin += r.score[fi] - r.score[si]

    def score_rate(self) -> float:
        """The --white player's points per game (win 1, draw 1/2)."""
        t = self.first_total
        return (t.wins + 0.5 * t.draws) / self.games if self.games else 0.0

    def to_json(self) -> dict:
        return {
            "summary": True, "games": self.games, "first": self.first, "second": self.second,
            "first_result": self.first_total.to_json(),
            "first_as": {c: t.to_json() for c, t in self.first_as.items()},
            "second_result": self.second_total.to_json(),
            "first_score_rate": round(self.score_rate(), 4),
            "mean_margin": round(self.margin / self.games, 2) if self.games else 0.0,
            "mean_seconds": {"first": round(self.seconds[0] / max(1, self.moves[0]), 4),
                             "second": round(self.seconds[1] / max(1, self.moves[1]), 4)},
            "max_seconds": {"first": round(self.max_seconds[0], 3),
                            "second": round(self.max_seconds[1], 3)},
        }

    def text(self) -> str:
        t, s = self.first_total, self.second_total
        lines = [
            f"{self.games} games: {self.first} {t.wins} wins, {t.draws} draws, {t.losses} losses"
            f" (score {100 * self.score_rate():.1f} %, mean margin "
            f"{self.margin / max(1, self.games):+.1f})",
            f"  {self.first} as white: " + _tally_text(self.first_as["white"])
            + "; as black: " + _tally_text(self.first_as["black"]),
            f"  {self.second}: {s.wins} wins, {s.draws} draws, {s.losses} losses",
            f"  time per ply: {self.first} mean {self.seconds[0] / max(1, self.moves[0]):.3f}s "
            f"max {self.max_seconds[0]:.3f}s; {self.second} mean "
            f"{self.seconds[1] / max(1, self.moves[1]):.3f}s max {self.max_seconds[1]:.3f}s",
        ]
        return "\n".join(lines)


def _tally_text(t: Tally) -> str:
    return f"{t.wins}-{t.draws}-{t.losses}"


def read_openings(path) -> list[tuple[int, list[Ply]]]:
    """Placement phases from a text file: (line number, plies) for each line that holds one.

    A line is a placement phase as ply tokens (`e3 c3 g3 d2 ...`, 49 of them); a longer line
    (a whole game record) counts up to its 49th ply. Blank lines and lines starting with #
    are skipped. ValueError naming the file, line and token for anything else.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "openings.txt"
    >>> _ = f.write_text("# one opening\\ne3 c3 g3 zz\\n")
    >>> read_openings(f)
    Traceback (most recent call last):
    ...
    ValueError: ...openings.txt line 2, token 4 'zz': no space named 'zz' ...
    """
    from pathlib import Path

    path = Path(path)
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot read openings: {e}") from None
    out = []
    for number, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        board = Board()
        for i, token in enumerate(tokens[:N_PLACEMENTS], 1):
            try:
                board.push(Ply.parse(token))
            except (ValueError, IllegalPly) as e:
                raise ValueError(f"{path} line {number}, token {i} {token!r}: {e}") from None
        if board.ply_count < N_PLACEMENTS:
            raise ValueError(f"{path} line {number}: {board.ply_count} placements, a placement "
                             f"phase has {N_PLACEMENTS}")
        out.append((number, list(board.move_stack)))
    if not out:
        raise ValueError(f"{path}: no openings (one placement phase per line)")
    return out


def play_openings(spec: str, count: int, seed: int = 0) -> list[tuple[int, list[Ply]]]:
    """`count` placement phases of SPEC against itself, numbered 1..count: openings for
    play_match that neither side of a match chose (e.g. `ai:classic` for the new engine).

    >>> [(n, len(plies)) for n, plies in play_openings("random", 2)]
    [(1, 49), (2, 49)]
    """
    out = []
    for n in range(1, count + 1):
        s1, s2 = game_seeds(seed, n)
        players = (parse_spec(spec, s1), parse_spec(spec, s2))
        board = Board()
        while board.ply_count < N_PLACEMENTS:
            board.push(players[board.turn](board.copy()))
        out.append((n, list(board.move_stack)))
    return out


def play_game(white, black, max_plies: int = 400, start: list[Ply] = (),
              placers=None) -> tuple[
        Board, list[float], list[int], list[float], tuple[int, str] | None]:
    """Play one game between two callables Board -> Ply, from the plies `start` (an opening);
    placers: (white's, black's) callables for the placement phase instead of the players.
    Returns the final board, the thinking time, plies chosen and longest ply per colour, and
    (colour, why) if that colour forfeited (the game stops there).
    Each player gets a copy of the board, so a buggy player cannot corrupt the game."""
    board = Board.from_plies(start)
    seconds, moves, longest = [0.0, 0.0], [0, 0], [0.0, 0.0]
    players = (white, black)
    while not board.is_over():
        if len(board.move_stack) >= max_plies:
            raise RuntimeError(f"game did not end within {max_plies} plies")
        turn = board.turn
        placing = placers is not None and board.ply_count < N_PLACEMENTS
        t0 = time.perf_counter()
        try:
            ply = (placers if placing else players)[turn](board.copy())
        except PlayerForfeit as e:
            return board, seconds, moves, longest, (turn, str(e))
        dt = time.perf_counter() - t0
        seconds[turn] += dt
        moves[turn] += 1
        longest[turn] = max(longest[turn], dt)
        if not isinstance(ply, Ply):
            raise TypeError(f"{PLAYER_NAMES[turn]} player returned {ply!r}, not a Ply")
        board.push(ply)  # IllegalPly names the ply if a player cheats
    return board, seconds, moves, longest, None


def game_seeds(seed: int, game: int) -> tuple[int, int]:
    """Seeds of the --white and --black players in game `game` (1-based)."""
    return seed * 100_003 + 2 * game, seed * 100_003 + 2 * game + 1


def play_match(first: str, second: str, games: int, seed: int = 0, alternate: bool = True,
               on_game=None, openings: list[tuple[int, list[Ply]]] | None = None,
               make=None, reply_timeout: float | None = None, placements: str | None = None,
               ) -> tuple[list[GameResult], Summary]:
    """Play `games` games between two SPECs; with `alternate`, the --black player takes White
    in the even-numbered games. With `openings` (from read_openings), games 2k-1 and 2k start
    from opening k (in turn, from the first again when they run out). `on_game(result)` is
    called after each game. make(spec, seed): a player for a SPEC that parse_spec does not
    know, or None (ai.trial's engine with weights on trial). reply_timeout: seconds a prog:
    player may take for one reply. placements: a SPEC that makes both colours' placements
    (see the module docstring). Each game's players are closed when it ends."""
    results = []
    summary = Summary(first, second)
    for g in range(1, games + 1):
        s1, s2 = game_seeds(seed, g)
        p1, p2 = ((make and make(spec, seed)) or parse_spec(spec, seed,
                                                            reply_timeout=reply_timeout)
                  for spec, seed in ((first, s1), (second, s2)))
        swapped = alternate and g % 2 == 0
        white, black = (p2, p1) if swapped else (p1, p2)
        line, start = openings[(g - 1) // 2 % len(openings)] if openings else (None, [])
        placers = None
        if placements is not None:
            specs = (second, first) if swapped else (first, second)
            placers = tuple(
                p if spec.strip() == placements.strip() else parse_spec(
                    placements, game_seeds(seed + 1, g)[c], reply_timeout=reply_timeout)
                for c, (p, spec) in enumerate(zip((white, black), specs)))
        try:
            board, seconds, moves, longest, forfeit = play_game(white, black, start=start,
                                                                placers=placers)
        finally:
            for p in {id(p): p for p in (p1, p2, *(placers or ()))}.values():
                getattr(p, "close", lambda: None)()
        win = board.winner() if forfeit is None else 1 - forfeit[0]
        r = GameResult(
            game=g, white=second if swapped else first, black=first if swapped else second,
            swapped=swapped, winner=win if win == "draw" else COLOURS[win],
            score=board.score(), plies=board.ply_count, seconds=tuple(seconds),
            moves=tuple(moves), max_seconds=tuple(longest),
            record=[str(p) for p in board.move_stack], opening=line,
            forfeit=None if forfeit is None else forfeit[1])
        summary.add(r)
        results.append(r)
        if on_game is not None:
            on_game(r)
    return results, summary
