"""Thinking time for a whole game (`ai:LEVEL,game=SECONDS`): how much of it each ply gets.

Each ply gets the time left divided by the plies the player is expected still to choose, with
placements (searched shallowly) counted as a fraction of a move. The search starts a deeper
iteration only when it expects it to end within that share (the soft limit) and is aborted at
the hard limit: a few shares, never more than a quarter of what is left.

>>> from firmware_py.rules import Board
>>> clock = GameClock(60.0)
>>> soft, hard = clock.allot(Board())
>>> 0 < soft < hard <= 15.0
True
>>> clock.spend(1.5); clock.left
58.5
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
