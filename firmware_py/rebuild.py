"""Rebuilding a position by hand: what to change on the board, one line per space.

After a takeback (on the board, or `games takeback` from another process), or when a board
joins a game under way, the players must change the pieces as they stand into another position.
`rebuild_lines(before, after)` says how, in the words the LEDs cannot: each changed space with
its new stack from the bottom up, or that it is to be left empty. The session shows the lines
(`session.rebuild`) until the board matches the game again; `study` uses them to set up a
position from a record.

>>> from firmware_py.rules import Board
>>> rebuild_lines(Board.from_plies(["e3"]), Board.from_plies(["e3", "f3"]))
['f3: one D']
"""

from __future__ import annotations

from .i18n import _
from .rules import Board
from .spaces import N_SPACES, SPACES


def describe_stack(stack: tuple[str, ...]) -> str:
    """A stack in words: 'empty', 'one W', or 'B D W (bottom to top)'."""
    if not stack:
        return _("empty")
    if len(stack) == 1:
        return _("one {piece}").format(piece=stack[0])
    return _("{pieces} (bottom to top)").format(pieces=" ".join(stack))


def rebuild_lines(before: Board, after: Board) -> list[str]:
    """What to change on the board to go from position `before` to `after`: one line per space.

    >>> rebuild_lines(Board.from_plies(["e3", "f3"]), Board.from_plies(["e3"]))
    ['f3: take it off (leave the space empty)']
    """
    lines = []
    for s in range(N_SPACES):
        old, new = before.stack(s), after.stack(s)
        if old == new:
            continue
        if not new:
            lines.append(_("{space}: take it off (leave the space empty)").format(space=SPACES[s]))
        else:
            lines.append(f"{SPACES[s]}: {describe_stack(new)}")
    return lines
