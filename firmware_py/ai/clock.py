"""Thinking time: how much of a whole game's (`ai:LEVEL,game=SECONDS`) each ply gets, and
whether a search's next iteration may start.

Each ply gets the time left divided by the plies the player is expected still to choose, with
placements (searched shallowly) counted as a fraction of a move. The search starts a deeper
iteration only when it expects the iteration's first root move to end within that share (the
soft limit) and is aborted at the hard limit: a few shares, never more than a quarter of what
is left.

>>> from firmware_py.rules import Board
>>> clock = GameClock(60.0)
>>> soft, hard = clock.allot(Board())
>>> 0 < soft < hard <= 15.0
True
>>> clock.spend(1.5); clock.left
58.5

The next iteration starts when its first root move fits, not the whole iteration: 0.1 s into
a 0.5 s move, after iterations of 0.01 and 0.08 s (the last one's first root move 0.03 s), an
iteration of 8 x 0.08 s would not fit, its first move of 8 x 0.03 s would.

>>> next_iteration_fits(0.1, 0.5, [0.01, 0.08], [0.005, 0.03])
True
>>> next_iteration_fits(0.3, 0.5, [0.01, 0.08], [0.005, 0.03])
False
"""

from __future__ import annotations

from ..rules import N_PLACEMENTS, WHITE, Board

PLACEMENT_SHARE = 0.3   # a placement's share of time, against a move's 1
SEARCHED_PLACEMENTS = 4  # the last placements, searched into phase 2, count as moves
MIN_MOVES_LEFT = 4       # moves still to come, at the least (the end often takes longer)


def moves_left(board: Board) -> float:
    """The plies the player to move is expected still to choose, in units of a move."""
    player = board.turn
    if board.ply_count < N_PLACEMENTS:
        mine = (N_PLACEMENTS - board.ply_count + 1) // 2
        searched = min(mine, SEARCHED_PLACEMENTS // 2)
        return PLACEMENT_SHARE * (mine - searched) + searched + 18
    own = board._w if player == WHITE else board._b
    return max(MIN_MOVES_LEFT, 0.8 * own.bit_count())  # about one move per stack it tops


class GameClock:
    """The time left for one player's whole game."""

    def __init__(self, seconds: float):
        if seconds <= 0:
            raise ValueError(f"a game's time must be positive, not {seconds}")
        self.total = self.left = float(seconds)

    def allot(self, board: Board) -> tuple[float, float]:
        """(soft, hard) seconds for the ply to choose now."""
        share = max(0.0, self.left) / moves_left(board)
        if board.ply_count < N_PLACEMENTS - SEARCHED_PLACEMENTS:
            share *= PLACEMENT_SHARE
        hard = min(3.0 * share, 0.25 * self.left)
        return max(0.001, share), max(0.002, hard)

    def spend(self, seconds: float) -> None:
        self.left -= seconds


def next_iteration_fits(elapsed: float, soft: float, times: list[float],
                        firsts: list[float]) -> bool:
    """Whether a search `elapsed` seconds in starts another iteration: when its first root move
    (the previous best, searched with a full window: the costliest root move) is predicted to
    end within `soft` seconds. An iteration the hard limit cuts off still compares the root
    moves it got to with that best (search.py), so its time is not lost; waiting for a whole
    iteration to fit left 60-70 % of the 0.5 s a move unused with 32 or more stacks left
    (docs/engine-strength.md, round 15). times: the completed iterations' seconds; firsts:
    what each spent on its first root move."""
    growth = min(8.0, max(2.0, times[-1] / times[-2])) if len(times) > 1 and \
        times[-2] > 0.002 else 4.0
    return elapsed + growth * firsts[-1] <= soft
