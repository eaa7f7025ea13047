"""A game session: the loop that wires a board (sensors, LEDs, buttons) to a controller and the
game database.

Each `step()` reads one frame, feeds it to the controller, stores what the controller commits
(on disk *before* the LEDs acknowledge it), and shows the LED guidance when it changed. On start
the session resumes the latest unfinished game of its store: the controller is built from the
restored board and guides the players back if the pieces no longer match. A lost scanner link
pauses play and shows `link_lost` until frames come back; nothing recorded is lost.

Collaborators keep the loop short: `session.stored` (`stored_game.StoredGame`) is the game in
the store (plies on disk first, takebacks made elsewhere, the game's end), `session.link`
(`link_watch.LinkWatch`) the scanner link, `session.aids` (`aids.Aids`) the clock, the hint
and the voice.

Other front ends (the terminal, the web view) use a small API that is safe from any thread:

- `state`: the `BoardState` to show (the controller's; while the link is down, in `link_lost`)
- `subscribe(callback) -> unsubscribe`: `callback(session)` runs in the loop after each change
- `takeback()`, `new_game(tags)`, `confirm()`, `call_soon(fn)`: queued, done by the loop at its
  next step
- `rebuild`: after a takeback, one line per space to put back ("e3: B D W (bottom to top)")
- `game_id`, `store`, `resumed`, `link_lost`, `leds_shown` (the last LedFrame shown)

Run it in the main thread (`run()` returns on Ctrl-C, having closed everything), or in a thread
with `run(stop_event)`; set the event, join the thread, and the session is closed.

>>> # sensors, leds, buttons = hw.open_board("default")
>>> # session = Session(sensors, leds, Store(), lambda board: Controller(board=board), buttons)
>>> # session.run()          # until Ctrl-C: LEDs off, port and database closed
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Callable, Sequence

from . import guidance
from .aids import Aids
from .errors import LinkLost
from .interfaces import BLANK, ButtonSource, LedFrame, LedSink, SensorSource
from .link_watch import LinkWatch
from .rebuild import rebuild_lines
from .rules import Board, Ply
from .state import BoardState
from .store import Store
from .stored_game import StoredGame

log = logging.getLogger(__name__)


class Session:
    """One board, one controller, one game database.

    source, leds, buttons: the board's `SensorSource`, `LedSink` and optional `ButtonSource`.
    store: the game database (closed with the session when `own_store`).
    make_controller(board): builds a controller for a game at `board` (a resumed game's
        position, or a new `Board()`); the session sets its `on_commit` / `on_undo` hooks.
    resume: continue the store's latest unfinished game instead of starting a new one.
    tags: record tags of games this session starts.
    clock: seconds, for blinking while no frames come and for noticing outside takebacks.
    computer: `ai.Thinker`s (one per colour the computer plays): their chosen plies are shown
        as the hint (`state.hint`) for the players to carry out on the board.
    hints: whether a player may ask for the engine's move (`hint()`, confirm while the board
        waits for a move; see `hints.Hints`); False for tournaments (`--hints off`).
    time_control: a `time_control.TimeControl` for the game clock (None or 'none': no clock). The
        clock runs on the frame clock; see `clock.ClockWatch` for what pauses it.
    voice: an `announce.Announcer` that says what happens (None: silent); the `say` button
        (or `say()`) has it say the situation. Closed with the session.
    """

    LINK_RETRY_S = 0.1  # pause between reads while the scanner link is down (at most `timeout`)

    def __init__(self, source: SensorSource, leds: LedSink, store: Store,
                 make_controller: Callable[[Board], object], buttons: ButtonSource | None = None,
                 *, resume: bool = True, tags: dict[str, str] | None = None,
                 own_store: bool = True, clock: Callable[[], float] = time.monotonic,
                 computer: Sequence = (), time_control=None, hints: bool = True, voice=None):
        self.source, self.leds, self.buttons, self.store = source, leds, buttons, store
        self.aids = Aids(computer, hints, time_control, voice)
        self.make_controller = make_controller
        self.tags = dict(tags or {})
        self.own_store = own_store
        self.clock = clock
        if self.time_control is not None:
            self.tags["TimeControl"] = str(self.time_control)
        self.link = LinkWatch(clock)  # the scanner link: lost, why, back; the LEDs' clock
        # While someone far away plays: the far side (remote.game.RemoteGame hosting,
        # remote.client.RemoteClient joined; set by its `attach`). The front ends' undo and
        # confirm go through its `local_button` first, as the board's own buttons do (`press`).
        self.far_away = None
        self.rebuild: list[str] = []
        self.leds_shown: LedFrame | None = None
        self._actions: deque[str | tuple] = deque()
        self._lock = threading.Lock()
        self._subscribers: list[Callable[["Session"], None]] = []
        self._snapshot = None
        self._closed = False
        # The store's side of the game (plies on disk first, outside takebacks, its end).
        self.stored, unfinished = StoredGame.resume_or_start(store, self.tags, resume, clock)
        self.resumed = unfinished is not None
        board = store.board(self.game_id) if self.resumed else Board()
        control = self.aids.stored_control(unfinished.tags, self.game_id) if self.resumed else None
        if control is not None:
            self.aids.resume_clock(control, list(board.move_stack), store.ply_times(self.game_id))
        else:  # a new game's clock; a resumed game without one gets one from here
            if self.resumed and self.time_control is not None:
                store.set_tags(self.game_id, TimeControl=str(self.time_control))
            self.aids.new_clock()
        self._start_controller(board)
        self.aids.listen(self)

    # The computer, hints, clock and voice live in `self.aids` (aids.py); these read them.
    computer = property(lambda self: self.aids.computer, doc="the computer's `ai.Thinker`s")
    hints = property(lambda self: self.aids.hints, doc="the hints asked for (`hints.Hints`)")
    voice = property(lambda self: self.aids.voice, doc="the `announce.Announcer`, or None")
    time_control = property(lambda self: self.aids.time_control, doc="None: no game clock")
    clock_watch = property(lambda self: self.aids.clock_watch, doc="this game's clock, or None")
    link_lost = property(lambda self: self.link.is_lost, doc="whether the scanner link is down")
    link_why = property(lambda self: self.link.why, doc="what to do about a lost link, if anything")
    # The game in the store lives in `self.stored` (stored_game.py).
    game_id = property(lambda self: self.stored.game_id, doc="the current game's id in the store")
    POLL_SECONDS = property(lambda self: self.stored.POLL_SECONDS,
                            doc="how often the store is checked for takebacks made elsewhere")

    # -- the front ends' API ----------------------------------------------------------------------
    @property
    def state(self) -> BoardState:
        """What to show now: the controller's state, or while the link is down a copy saying so."""
        return self.link.show(self.controller.state)

    def subscribe(self, callback: Callable[["Session"], None]) -> Callable[[], None]:
        """Call `callback(session)` after every change of state; returns the unsubscribe function."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)
        return unsubscribe

    def takeback(self) -> None:
        """Take back the last ply (done by the loop at its next step)."""
        self._queue("undo")

    def new_game(self, tags: dict[str, str] | None = None, plies: Sequence[Ply] = ()) -> None:
        """Abandon the current game (kept in the store) and start a new one at the next step;
        with `plies`, one under way elsewhere (a joined board follows the host's): `rebuild`
        then says how to change the pieces as they stand into its position."""
        self._queue(("new_game", dict(tags or self.tags), tuple(plies)))

    def press(self, name: str) -> None:
        """'undo' or 'confirm' pressed on a front end (the web page, the terminal): like the
        board's own buttons, it first answers or makes the far-away player's offer, if any
        (a takeback is then only done once both sides agree)."""
        if self.far_away is not None and not self.far_away.local_button(name):
            return
        {"undo": self.takeback, "confirm": self.confirm}[name]()

    def confirm(self) -> None:
        """The confirm button, from a front end."""
        self._queue("confirm")

    def hint(self) -> None:
        """Show the engine's move for the player to move (again: hide it); nothing recorded."""
        self._queue("hint")

    def say(self) -> None:
        """Have the voice say the situation (the `say` button)."""
        self._queue("say")

    def end_game(self, result: str, message: str, resigned: int | None = None) -> None:
        """The game ended off the board (a resignation, an agreed draw): stored, shown as over
        with `message`, nothing more recorded. Call it in the loop (`call_soon`)."""
        self.stored.finish(result, resigned=resigned)
        if hasattr(self.controller, "end"):
            self.controller.end(message)

    def call_soon(self, fn: Callable[["Session"], None]) -> None:
        """Run `fn(session)` in the loop at its next step (e.g. to finish a game in the store)."""
        self._queue(fn)

    @property
    def queued(self) -> bool:
        """Whether actions wait for the next step (for a harness that pauses the loop)."""
        with self._lock:
            return bool(self._actions)

    def _queue(self, action) -> None:
        with self._lock:
            self._actions.append(action)

    # -- the loop ---------------------------------------------------------------------------------
    def step(self, timeout: float | None = 0.1) -> bool:
        """Do queued actions and button presses, read one frame and feed it; update the LEDs.

        Returns True when a frame was processed (False: none came in time, or the link is down).
        """
        self._poll_store()
        self._do_actions()
        got = False
        try:
            frame = self.source.read_frame(timeout)
        except LinkLost as e:
            if self.link.lost(e) and hasattr(self.controller, "link_lost"):
                self.controller.link_lost()  # decide nothing until frames return
            frame = None
            # The source raises at once while its reconnect back-off runs: don't spin on it.
            time.sleep(self.LINK_RETRY_S if timeout is None else min(timeout, self.LINK_RETRY_S))
        if frame is not None:
            if self.link.frame(frame.time) and hasattr(self.controller, "link_restored"):
                self.controller.link_restored()
            self.controller.feed(frame)
            got = True
        self._tick_clock()
        self._after_change()
        return got

    def run(self, stop: threading.Event | None = None, frames: int | None = None) -> None:
        """Step until `stop` is set, `frames` frames were processed, or Ctrl-C; then close."""
        done = 0
        try:
            while not (stop is not None and stop.is_set()):
                if self.step() and frames is not None:
                    done += 1
                    if done >= frames:
                        break
        finally:
            self.close()

    def now(self) -> float:
        """The clock the LEDs blink by: the frame clock, running on by ours while no frames come."""
        return self.link.now()

    def close(self) -> None:
        """LEDs off, ports closed, database closed (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for closing in (self._leds_off, self.leds.close, self.source.close,
                        self.buttons.close if self.buttons else None,
                        self.voice.close if self.voice else None,
                        self.store.close if self.own_store else None):
            if closing is None:
                continue
            try:
                closing()
            except LinkLost as e:  # nothing to turn off at the other end of a pulled cable
                log.warning("while closing: %s", e)
            except Exception:  # one failing device must not keep the others open
                log.exception("while closing")

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- inside -----------------------------------------------------------------------------------
    def _start_controller(self, board: Board) -> None:
        self.controller = self.make_controller(board)
        self.controller.on_commit = self._on_commit
        self.controller.on_undo = self._on_undo
        # On the computer's turns the controller records only the ply shown (the hint).
        self.controller.computer = frozenset(t.colour for t in self.computer)
        if hasattr(self.controller, "script"):  # who shows the ply, when not the computer
            self.controller.script.names = {t.colour: t.name for t in self.computer
                                            if getattr(t, "name", None)}

    def _on_commit(self, ply: Ply) -> None:
        """The controller's commit hook: the ply is on disk when this returns (unless the game
        was taken back elsewhere: see `StoredGame.commit`), its time on the clock."""
        n = self.stored.commit(ply)
        # (charged even when refused: its takeback refunds)
        charged = self.aids.committed(self.controller, ply, self.now())
        if charged is not None and n is not None:
            self.store.set_ply_time(self.game_id, n, *charged)
        self.rebuild = []

    def _on_undo(self) -> None:
        """The controller's takeback hook: delete the stored ply, say what to rebuild."""
        rebuild = self.stored.undo()
        if rebuild is not None:
            self.aids.taken_back()
            self.rebuild = rebuild

    def _poll_store(self) -> None:
        """Notice takebacks made in the database by another process (the `games` command)."""
        rebuild = self.stored.poll(lambda: self.controller.button("undo"))
        if rebuild is not None:
            self.rebuild = rebuild

    def _do_actions(self) -> None:
        if self.buttons is not None:
            for name in self.buttons.events():
                self._do(name)
        while True:
            with self._lock:
                if not self._actions:
                    break
                action = self._actions.popleft()
            self._do(action)

    def _do(self, action) -> None:
        if callable(action):
            action(self)
        elif isinstance(action, tuple) and action[0] == "new_game":
            self._new_game(*action[1:])
        elif action == "new_game":
            self._new_game(self.tags)
        elif action == "hint" or (action == "confirm" and self.aids.confirm_asks_hint(
                self.controller.state, self.link_lost)):
            self.controller.state.message = self.hints.request(self.controller.state.board)
        elif action == "say":
            if self.voice is not None:
                self.voice.say_situation(self.state)
        elif action in ("undo", "confirm"):
            self.hints.clear()
            self.controller.button(action)
        else:
            log.warning("unknown action %r ignored", action)

    def _new_game(self, tags: dict[str, str], plies: Sequence[Ply] = ()) -> None:
        if self.time_control is not None:
            tags = {**tags, "TimeControl": str(self.time_control)}
        self.stored.next_game(tags, self.controller.state.board.is_over(), plies)
        self.aids.new_clock()
        self.rebuild = []
        self.resumed = False
        if plies:
            before, board = self.controller.state.board, self.store.board(self.game_id)
            self._start_controller(board)
            self.rebuild = rebuild_lines(before, board)
        elif hasattr(self.controller, "new_game"):  # keeps what it learnt about the sensors
            self.controller.new_game()
        else:
            self._start_controller(Board())

    # -- the game clock's flag (aids.py runs the clock) --------------------------------------
    def _tick_clock(self) -> None:
        """Run or stop the clocks for this state; a flag ends the game and is stored."""
        flagged = self.aids.tick(self.controller, self.now())
        if flagged is not None and not self.stored.finished:
            from .clock import flag_message, flag_result
            self.stored.finish(flag_result(flagged), termination="time forfeit")
            log.info("game %d: %s", self.game_id, flag_message(flagged))

    def _after_change(self) -> None:
        self.aids.update_hint(self.controller.state)
        state = self.state
        board = state.board
        if self.rebuild and state.mode in ("idle", "over"):
            self.rebuild = []  # the board matches the game again: nothing left to rebuild
        snapshot = (state.mode, state.lifted, tuple(state.destinations), tuple(state.remove),
                    tuple(state.ask), tuple(state.error), tuple(state.missing),
                    tuple(state.extra), state.hint, state.message, board.ply_count, board.key(),
                    id(board), self.game_id, tuple(self.rebuild), state.clock)
        changed = snapshot != self._snapshot
        if changed:
            self._snapshot = snapshot
            over = board.is_over() or getattr(self.controller, "ended", None) is not None
            self.stored.follow(over, board.ply_count)
            self._lit = guidance.signals(state)
        frame = guidance.frame(self._lit, self.now())
        if frame != self.leds_shown:
            try:
                self.leds.show(frame)
                self.leds_shown = frame
            except LinkLost:  # LEDs on the scanner's link: sent again once it is back
                pass
        if changed:
            with self._lock:
                subscribers = list(self._subscribers)
            for callback in subscribers:
                try:
                    callback(self)
                except Exception:  # a broken viewer must not stop the game
                    log.exception("subscriber failed")

    def _leds_off(self) -> None:
        self.leds.show(BLANK)
