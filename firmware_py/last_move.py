"""The last recorded move's spaces: where its stack came from, where it landed, and the other
spaces it could have landed on (where a hand that paused over one space may have set it down).

>>> last_move_spaces(Board()), elsewhere(Board())  # no move yet
(set(), set())
"""

from __future__ import annotations

from .rules import Board


def last_move_spaces(board: Board) -> set:
    """The last recorded move's source, destination and every other space its stack could
    have landed on (empty when the last ply was not a move)."""
    if not board.move_stack or not board.move_stack[-1].is_move:
        return set()
    before = board.copy()
    ply = before.pop()
    return {ply.src, ply.dst} | set(before.destinations(ply.src))


def elsewhere(board: Board) -> set:
    """The other spaces the last recorded move's stack could have landed on (empty when the
    last ply was not a move)."""
    last = board.move_stack[-1] if board.move_stack else None
    return last_move_spaces(board) - ({last.src, last.dst} if last else set())
