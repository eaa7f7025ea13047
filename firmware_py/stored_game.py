"""The session's game in the store: each ply on disk before anything shows it, takebacks
deleted, takebacks made elsewhere noticed, the game's end marked.

A `Session` plays one game at a time against a `store.Store`. `StoredGame` is its side of
that conversation, so the session's loop can stay about frames, buttons and LEDs:

- `commit(ply)` (from the controller's commit hook): the ply is on disk when it returns. If
  the game was taken back elsewhere (`dvonn-board games takeback`) since the last look, the
  store refuses it (it is numbered for the longer game): the ply is kept off the disk, the
  game is `stale`, and the store is read again before the next frame.
- `undo()` (from the controller's takeback hook): the stored ply is deleted (unless it already
  was, elsewhere); returns what to change on the board (`rebuild.rebuild_lines`).
- `poll(take_back)`: once every `POLL_SECONDS`, notices takebacks made by another process and
  calls `take_back()` (the controller's undo button) until the board holds what the store does.
- `finish`, `follow`, `next_game`: the game's end as the store records it (a resignation, a
  draw, a fallen flag, the board's own end, which a takeback reopens) and the next game.

`plies` is what the store holds for this game, in order.

>>> import os, tempfile
>>> from firmware_py.rules import Ply
>>> from firmware_py.store import Store
>>> store = Store(os.path.join(tempfile.mkdtemp(), "g.sqlite3"))
>>> game = StoredGame(store, store.new_game())
>>> for token in ("e3", "f3"):
...     _ = game.commit(Ply.parse(token))
>>> game.undo()                       # f3 taken back on the board: off the disk, off the board
['f3: take it off (leave the space empty)']
>>> [str(p) for p in store.plies(game.game_id)]
['e3']
>>> store.close()
"""

from __future__ import annotations

import logging
import time
from typing import Callable, Sequence

from .errors import StoreError
from .rebuild import rebuild_lines
from .rules import Board, Ply
from .store import Store

log = logging.getLogger(__name__)


class StoredGame:
    """One session's current game in `store` (see the module docstring).

    game_id, plies: the game and the plies the store holds for it; clock: seconds, for polling
    the store every `POLL_SECONDS`.
    """

    POLL_SECONDS = 1.0  # how often the store is checked for takebacks made by another process

    def __init__(self, store: Store, game_id: int, plies: Sequence[Ply] = (),
                 clock: Callable[[], float] = time.monotonic):
        self.store, self.clock = store, clock
        self._polled = -self.POLL_SECONDS
        self.open(game_id, plies)

    @classmethod
    def resume_or_start(cls, store: Store, tags: dict[str, str], resume: bool = True,
                        clock: Callable[[], float] = time.monotonic):
        """The store's latest unfinished game (with `resume`), else a new one with `tags`; and
        the resumed game's `store.GameInfo` (None: a new game)."""
        unfinished = store.unfinished() if resume else None
        if unfinished is None:
            return cls(store, store.new_game(tags), (), clock), None
        plies = store.plies(unfinished.id)
        log.info("resuming game %d at ply %d", unfinished.id, len(plies))
        return cls(store, unfinished.id, plies, clock), unfinished

    def open(self, game_id: int, plies: Sequence[Ply]) -> None:
        """Follow game `game_id`, whose stored plies are `plies`."""
        self.game_id = game_id
        self.plies = list(plies)
        self.finished = self.store.game(game_id).is_finished
        self._external_undos = 0  # plies the store no longer holds, still to take back here
        self.stale = False  # a ply was refused: the game was taken back elsewhere

    # -- plies: the controller's hooks ----------------------------------------------------------
    def commit(self, ply: Ply) -> int | None:
        """Put `ply` on disk; its number in the store (None: refused, see the module docstring)."""
        n = None
        try:
            n = self.store.add_ply(self.game_id, ply, index=len(self.plies))
        except StoreError:
            if self.store.game(self.game_id).ply_count >= len(self.plies):
                raise  # not a takeback: someone else wrote to this game
            log.warning("game %d was taken back elsewhere: %s is not stored", self.game_id, ply)
            self._polled = -float("inf")  # look at the store before the next frame
            self.stale = True  # until then, nothing is written for this game
        self.plies.append(ply)
        return n

    def undo(self) -> list[str] | None:
        """Delete the last stored ply; what to rebuild (None: no ply to take back)."""
        if not self.plies:
            return None
        if self._external_undos:  # `dvonn-board games takeback` already deleted it
            self._external_undos -= 1
        else:
            self.store.undo_ply(self.game_id)
        before = Board.from_plies(self.plies)
        after = before.copy()
        after.pop()
        self.plies.pop()
        lines = rebuild_lines(before, after)
        log.info("took back %s; rebuild: %s", before.move_stack[-1], "; ".join(lines))
        return lines

    def poll(self, take_back: Callable[[], None]) -> list[str] | None:
        """Notice takebacks made in the database by another process (the `games` command) and
        `take_back()` as often as they need; what to rebuild (None: nothing was taken back)."""
        now = self.clock()
        if now - self._polled < self.POLL_SECONDS:
            return None
        self._polled = now
        stored = self.store.game(self.game_id).ply_count
        before = Board.from_plies(self.plies) if len(self.plies) > stored else None
        while len(self.plies) > stored:
            # The controller takes back as the button would (a forced pass with the move before
            # it); the plies the store no longer holds are not deleted again.
            held = len(self.plies)
            self._external_undos = held - stored
            take_back()
            if len(self.plies) == held:  # the controller would not take back now
                log.warning("game %d was taken back to %d plies elsewhere; the board keeps %d",
                            self.game_id, stored, held)
                break
        self._external_undos = 0
        self.stale = False
        if before is None:
            return None
        return rebuild_lines(before, Board.from_plies(self.plies))  # from the pieces as they stand

    # -- the game's end, and the next game ------------------------------------------------------
    def finish(self, result: str, resigned: int | None = None,
               termination: str | None = None) -> None:
        """The game ended off the board (a resignation, an agreed draw, a fallen flag with its
        `termination`): stored once."""
        if self.finished:
            return
        if termination is not None:
            self.store.set_tags(self.game_id, Result=result, Termination=termination)
            self.store.finish(self.game_id, result)
        else:
            self.store.finish(self.game_id, result, resigned=resigned)
        self.finished = True

    def follow(self, over: bool, ply_count: int) -> None:
        """The board's game is `over` (or, after a takeback, no longer) at `ply_count` plies:
        the store says so too, once the board holds what the store does."""
        if over != self.finished and ply_count == len(self.plies) and not self.stale:
            if over:
                self.store.finish(self.game_id)
            self.finished = over  # a takeback reopens the game (the store did too)

    def next_game(self, tags: dict[str, str], over: bool, plies: Sequence[Ply] = ()) -> None:
        """Leave this game (unfinished ones are marked '*' unless `over`) for a new one with
        `tags`, under way at `plies`."""
        if not self.store.game(self.game_id).is_finished:
            self.store.finish(self.game_id, "*" if not over else None)
        game_id = self.store.new_game(tags)
        for n, ply in enumerate(plies):
            self.store.add_ply(game_id, ply, index=n)
        self.open(game_id, plies)
