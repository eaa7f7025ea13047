"""What a session adds around the controller for the players: the game clock, the hint, the voice.

The controller knows the pieces; a person at the board also wants to know whose time is running,
what the computer (or the engine, when asked) would play, and to hear what happened. `Aids`
holds those three for one `Session` and answers the session's few questions about them, so the
session's loop stays about frames, the store and the LEDs:

- the clock: `new_clock()` per game (`resume_clock` for a resumed one), `tick(controller, now)`
  each step (returns the colour whose flag fell), `committed` / `taken_back` as plies are
  recorded and taken back (see `clock.ClockWatch` for what pauses it);
- the hint: `update_hint(state)` puts the computer's ply, or the one a player asked for, into
  `state.hint`; `confirm_asks_hint` says when the confirm button asks for one instead;
- the voice: `listen(session)` has the `announce.Announcer` follow the session's changes.

The session keeps the store's side of each (a flag is a finished game, a ply's time is stored).
"""

from __future__ import annotations

import logging
from typing import Sequence

from .hints import Hints, computer_hint
from .i18n import _
from .state import BoardState

log = logging.getLogger(__name__)


class Aids:
    """The clock, hint and voice of one session (see the module docstring).

    computer: `ai.Thinker`s, one per colour the computer plays; hints: whether a player may ask
    for the engine's move; time_control: a `time_control.TimeControl` (None or 'none': no clock);
    voice: an `announce.Announcer` (None: silent).
    """

    def __init__(self, computer: Sequence = (), hints: bool = True, time_control=None,
                 voice=None):
        self.computer = list(computer)
        self.hints = Hints(enabled=hints, computer={t.colour for t in self.computer})
        self.time_control = time_control if time_control is not None and time_control.on else None
        self.clock_watch = None  # the game clock (clock.ClockWatch), per game
        self.voice = voice

    # -- the game clock (clock.py) ---------------------------------------------------------------
    @staticmethod
    def stored_control(tags: dict, game_id: int):
        """A resumed game's time control: its TimeControl tag (else none)."""
        from .time_control import TimeControl
        try:
            control = TimeControl.parse(tags.get("TimeControl", "none"))
        except ValueError as e:
            log.warning("game %d: %s; no clock", game_id, e)
            return None
        return control if control.on else None

    def new_clock(self) -> None:
        """A fresh clock for a new game (none without a time control)."""
        self.clock_watch = None
        if self.time_control is not None:
            from .clock import ClockWatch, GameClock
            self.clock_watch = ClockWatch(GameClock(self.time_control))

    def resume_clock(self, control, plies: list, ply_times) -> None:
        """The clock of a resumed game, as its stored ply times left it."""
        from .clock import ClockWatch, GameClock
        self.clock_watch = ClockWatch(GameClock.restore(control, plies, ply_times))

    def tick(self, controller, now: float):
        """Run or stop the clocks for this state; the colour whose flag fell, if any."""
        if self.clock_watch is None:
            return None
        from .clock import drive
        return drive(self.clock_watch, controller, now)

    def committed(self, controller, ply, now: float):
        """Charge the ply to the mover's clock: (spent, left) to store, or None without a clock."""
        if self.clock_watch is None:
            return None
        from .clock import let_go
        return self.clock_watch.committed(controller.state.board, ply, let_go(controller, now))

    def taken_back(self) -> None:
        """A ply was taken back: its time goes back on the clock."""
        if self.clock_watch is not None:
            self.clock_watch.taken_back()

    # -- the hint (hints.py) ---------------------------------------------------------------------
    def confirm_asks_hint(self, state: BoardState, link_lost: bool) -> bool:
        """Confirm while the board waits for a person's move has nothing to confirm: it asks
        for a hint (with hints off, the line says so)."""
        return state.mode == "idle" and not link_lost and not state.board.is_over()

    def update_hint(self, state: BoardState) -> None:
        """The computer's ply for this position, once it has thought (None meanwhile); on a
        person's turn the hint they asked for."""
        if not (self.computer or self.hints.asked or state.hint is not None):
            return  # no hint to show or take down
        hint = computer_hint(state, self.computer)
        if hint is None and self.hints.asked:
            hint = computer_hint(state, [self.hints])
            if hint is not None and (state.hint != hint or not state.message):
                # (said again when the controller's own line for an idle board is empty)
                state.message = _("hint: {ply} (shown on the LEDs; nothing is recorded)").format(
                    ply=hint)
        if state.hint != hint:
            state.hint = hint

    # -- the voice (announce.py) -----------------------------------------------------------------
    def listen(self, session) -> None:
        """Have the voice follow `session`: it says each change (what is on the board now was
        said before, so it is only observed)."""
        voice = self.voice
        if voice is None:
            return
        voice.computer = frozenset(t.colour for t in self.computer)
        session.subscribe(lambda s: voice.observe(s.state))
        voice.observe(session.state)
