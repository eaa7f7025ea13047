"""Board to board on simulated boards: one side of a game played between two processes.

    python -m dvonn_sim.remote_play host --colour black --db A.sqlite3 --seed 1 [--port P]
        hosts the game (the remote side plays --colour) and prints {"link": ...} first
    python -m dvonn_sim.remote_play join LINK --db B.sqlite3 --seed 2

Each process has its own simulated board, session and game store, and scripted players
(`dvonn_sim.players.Players`): the local colour plays random legal plies, the other colour's plies
are read off the LEDs, like a person carrying out what the board shows. At the end each prints
one JSON line: the record in its store, the plies really played on its board (the truth), and
the wall-clock moments (`time.monotonic`, the same clock in both processes) each ply was
recorded (`committed`) and first lit as the other side's ply (`shown`).

The simulated clock stands still while a board waits for the other side's ply (a board that
waits for the network does nothing anyway), so the simulated people never give up waiting.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time

from firmware_py.controller import Controller
from firmware_py.hints import computer_hint
from firmware_py.remote.client import RemoteClient
from firmware_py.remote.game import COLOURS, RemoteGame
from firmware_py.remote.host import RemoteButtons, RemoteHost
from firmware_py.rules import PLAYER_NAMES
from firmware_py.script import Script
from firmware_py.spaces import INDEX
from firmware_py.session import Session
from firmware_py.store import Store

from .compose import simulated_board
from .players import Players, random_chooser


class Side:
    """One board of a remote game: a simulated board, its session and its scripted players."""

    def __init__(self, local: int, thinker, db, seed: int, noise="default",
                 buttons_for=None, max_plies: int | None = None):
        self.board = simulated_board(noise, seed=seed)
        self.thinker, self.local = thinker, local
        buttons = self.board if buttons_for is None else buttons_for(self.board)
        self.session = Session(self.board, self.board, Store(db),
                               lambda board: Controller(board=board),
                               buttons, resume=False, computer=[thinker])
        self.players = Players(self.board, random_chooser(seed), computer={1 - local},
                               computer_timeout=600.0, max_plies=max_plies, seed=seed)
        self.committed: dict[int, float] = {}
        self.shown: dict[int, float] = {}
        self._script = Script()
        self._rebuilt: tuple = ()
        # Subscribed first: noted before the remote side is told (and after the LEDs are lit).
        self.session.subscribe(self._note)

    def _note(self, session) -> None:
        now = time.monotonic()
        state = session.state
        n = state.board.ply_count
        self.committed.setdefault(n, now)
        if state.hint is not None:
            self.shown.setdefault(n, now)

    def waiting(self) -> bool:
        """The other side is to play and its ply has not come yet."""
        state = self.session.state
        board = state.board
        if self.players.done or board.is_over() or self._script.mover(board) == self.local:
            return False
        if self.board.button_presses or self.session.queued:  # a button, or news from the
            return False                                       # other side (e.g. a resignation)
        if len(self.thinker.plies) < board.ply_count:  # a takeback agreed: the board follows
            return False
        return computer_hint(state, [self.thinker]) is None

    def step(self) -> None:
        if self.waiting():
            time.sleep(0.002)
            return
        self.session.step(0)
        self.players.step()
        self._rebuild()

    def _rebuild(self) -> None:
        """After a takeback, the person takes off what the board says to (`session.rebuild`,
        "e3: take it off ..."), like a person reading the terminal."""
        lines = tuple(self.session.rebuild)
        if not lines or lines == self._rebuilt:
            return
        self._rebuilt = lines
        for line in lines:
            space, what = line.split(": ", 1)
            if what.startswith("take it off"):
                self.board.hand.remove(INDEX[space])

    def finished(self) -> bool:
        state = self.session.state
        return (self.players.done and state.board.ply_count >= self.players.truth.ply_count
                and state.mode in ("idle", "over"))

    def result(self, **extra) -> dict:
        store = self.session.store
        return {"record": [str(p) for p in store.board(self.session.game_id).move_stack],
                "truth": self.players.tokens, "colour": PLAYER_NAMES[self.local],
                "committed": self.committed, "shown": self.shown, **extra}


def host(colour: int, db, seed: int, port: int = 0, timeout: float = 300.0,
         max_plies: int | None = None, out=print, linger=None) -> dict:
    """Host a game on a simulated board; the remote side plays `colour`."""
    game = RemoteGame(colour)
    side = Side(1 - colour, game.line, db, seed,
                buttons_for=lambda board: RemoteButtons(board, game), max_plies=max_plies)
    game.attach(side.session)
    server = RemoteHost(game, port=port).start()
    out(json.dumps({"link": server.link("opponent"), "spectator": server.link("spectator")}))
    end = time.monotonic() + timeout
    try:
        while not server.opponents() and time.monotonic() < end:
            time.sleep(0.01)  # the game starts when the other side has joined
        while time.monotonic() < end and not side.finished():
            side.step()
        result = side.result(role="host")
        if linger is not None:  # keep serving until the joining side has caught up
            while time.monotonic() < end and not linger():
                side.session.step(0.01)
        return result
    finally:
        server.stop()
        side.session.close()


def join(link: str, db, seed: int, timeout: float = 300.0, max_plies: int | None = None) -> dict:
    """Join a hosted game with a simulated board."""
    client = RemoteClient(link)
    colour = client.connect()
    side = Side(colour, client.line, db, seed, max_plies=max_plies,
                buttons_for=lambda board: RemoteButtons(board, client))
    client.attach(side.session)
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            side.step()
            if side.finished() and client.state is not None and client.state["line"] == \
                    [str(p) for p in side.session.state.board.move_stack]:
                break
        return side.result(role="join", connections=client.connections,
                           errors=client.errors)
    finally:
        client.close()
        side.session.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dvonn_sim.remote_play")
    p.add_argument("role", choices=("host", "join"))
    p.add_argument("link", nargs="?")
    p.add_argument("--colour", choices=tuple(COLOURS), default="black",
                   help="host: the colour played from far away")
    p.add_argument("--db", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--plies", type=int, default=None)
    p.add_argument("--timeout", type=float, default=300.0)
    args = p.parse_args(argv)
    if args.role == "host":
        closed = threading.Event()  # the host serves on until its stdin is closed

        def watch():
            sys.stdin.read()
            closed.set()
        threading.Thread(target=watch, daemon=True).start()
        result = host(COLOURS[args.colour], args.db, args.seed, args.port, args.timeout,
                      args.plies, out=lambda text: print(text, flush=True), linger=closed.is_set)
    else:
        result = join(args.link, args.db, args.seed, args.timeout, args.plies)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
