"""A joining board plays the host's game, never one of its own: which local game it resumes.

The host's store is the truth. When a board joins (`play --join LINK`, also after a crash, and
also with `--new`), the latest unfinished game of its own store is resumed only if it is the
host's game (its `Remote` tag names the host's game) and went the same way as far as it goes:
equal to the host's plies, ahead by this board's own ply not sent yet (it is sent), or behind
only by the host's plies (they light up to be carried out, as always). Otherwise (another game,
one that went another way, or `--new`) a new local game holding the host's plies is written and
resumed: the LEDs and the list of stacks guide the player to set up its position, as `--from`
does, and play goes on with the host. The old local game is kept as it was.
"""

from __future__ import annotations

from ..i18n import _
from ..rules import Board, Ply

TAG = "Remote"  # the record tag naming the host's game a local game follows


def follows(local: list[str], line: list[str], colour: int) -> bool:
    """Whether a board (playing `colour`) whose game is `local` can go on with the host's
    `line` by itself.

    >>> follows(["e3"], ["e3", "f3"], 0)        # behind by Black's ply: it lights up for White
    True
    >>> follows([], ["e3", "f3"], 1)            # behind by Black's own f3: its board lost it
    False
    >>> follows(["e3", "f3"], ["e3"], 1)        # ahead by its own f3, not sent yet
    True
    >>> follows(["d3"], ["e3", "f3"], 0)        # another game
    False
    """
    n = min(len(local), len(line))
    if local[:n] != line[:n]:
        return False
    if len(local) >= len(line):
        return len(local) - len(line) <= 2  # a forced pass and its own move, not sent yet
    board = Board.from_plies([Ply.parse(t) for t in local])
    for token in line[len(local):]:
        ply = Ply.parse(token)
        if not ply.is_pass and board.turn == colour:
            return False  # one of its own plies: only a new local game can hold it
        board.push(ply)
    return True


def follow_host(store, line: list[str], colour: int, tag: str, new: bool = False
                ) -> tuple[list[str], str]:
    """Make the store's latest unfinished game the one to resume for the host's game `line`
    (named `tag`; this board plays `colour`). Returns (the stacks to set up, one per line, or
    none; what to tell the player)."""
    from ..study import setup_lines

    unfinished = store.unfinished()
    if unfinished is not None and not new and unfinished.tags.get(TAG) == tag:
        local = [str(p) for p in store.board(unfinished.id).move_stack]
        if follows(local, line, colour):
            return [], _("resuming the host's game at ply {n}").format(n=len(local))
    game = store.new_game({TAG: tag})
    for n, token in enumerate(line):
        store.add_ply(game, Ply.parse(token), index=n)
    board = store.board(game)
    if not line and not new:
        return [], _("joined the host's game at its start")
    why = (_("--new: a joined board plays the host's game, not one of its own") if new
           else _("this board's last game is not the host's") if unfinished is not None
           else _("joined the host's game"))
    return setup_lines(board), _(
        "{why}: following the host's game at ply {n} (set up its position as the LEDs and the "
        "list show; your last game here is kept)").format(why=why, n=len(line))
