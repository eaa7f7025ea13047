"""The web view over a running `Session`, and in the simulator the page's hand on the `SimBoard`.

`SimDesk` stands between a simulated board and the session as the session's `SensorSource`: the
session's loop thread is the only one that touches the simulated board, so the page's hand
actions and fault switches are queued here and done at the start of the next `read_frame`.
While the page has the scanner link unplugged, frames are read and thrown away and `LinkLost`
is raised, exactly what the serial link does when its cable is pulled.

`SessionSource` is the `GameSource` the server shows: the session's state and LEDs, the desk's
table, and every request sent where it belongs (takeback, new game and confirm to the session,
hand and faults to the desk). Nothing here reads the simulator's truth on the controller's
behalf: the truth goes only to the page, which is the person standing at the table.

>>> # board = SimBoard(clock=RealTimeClock()); desk = SimDesk(board)
>>> # session = Session(desk, board, store, make_controller, buttons=board)
>>> # serve(SessionSource(session, desk))     # while a thread runs session.run()
"""

from __future__ import annotations

import dataclasses
import threading
from collections import deque
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable

from ..errors import LinkLost
from ..i18n import N_, _
from ..interfaces import LedFrame, SensorFrame
from ..spaces import N_SPACES, SPACES
from ..state import BoardState
from .source import ActionRefused, GameSource
from .view import stacks_view

PLACING = {"W": N_("placing a white piece on {space}"), "B": N_("placing a black piece on {space}"),
           "D": N_("placing a DVONN piece on {space}")}

NOISE_MT = {"clean": 0.0, "default": 0.1, "poor": 0.3, "bad": 1.0}  # as sim.params.NOISE_LEVELS
# The modes in which the controller's confirm button answers something (a question, a sensor
# suspected faulty); anywhere else a press is refused with a word on the page.
CONFIRM_ANSWERS = ("asking", "error", "unexplained", "calibrating")
# The local player's ways to end a game far away (remote.ending.KINDS).
FAR_AWAY = ("offer_draw", "accept_draw", "decline_draw", "resign")
ANSWER_WITHIN = 3.0  # seconds the page waits for the board's loop to take a request
# A click is a hand that has let go: the page's hand lifts, carries and sets down at once, so
# a placement is recorded as soon as the board has been still for the controller's settle time.
# (Scripted players keep the human timing of `dvonn_sim.params.HandTiming`.)
CLICK_TIMING = {"lift": (0.04, 0.06), "set_down": (0.04, 0.06), "carry_speed": (2500.0, 3500.0),
                "shortest_carry": 0.03}


class SimDesk:
    """A `SimBoard` with the page's hand on it; the session's `SensorSource`.

    board: a `dvonn_sim.board.SimBoard` (only its public hand, fault and truth API is used).
    """

    def __init__(self, board):
        self.board = board
        board.params = dataclasses.replace(
            board.params, timing=dataclasses.replace(board.params.timing, **CLICK_TIMING))
        self.adc_max = board.adc_max
        self.link = True
        self.noise: str | float = "default"
        self.dead: int | None = None
        self.changes = 0  # moves whenever the table changed (for the page)
        self._calls: deque[tuple[Callable[[], Any], Future]] = deque()
        self._lock = threading.Lock()
        self._held = self._idle = self._loose = None
        self._placing = 0  # placements queued since the hand was last idle (for the next piece)
        self._placed_before = 0  # pieces on the table when the hand was last idle
        self.done = 0  # requests done; the page trusts `will_hold` once it has seen its own
        self.will_hold = False  # whether the hand holds a stack once its queued actions are done

    # -- SensorSource -----------------------------------------------------------------------------
    def read_frame(self, timeout: float | None = None) -> SensorFrame | None:
        self._run_calls()
        frame = self.board.read_frame(timeout)
        self._notice_changes()
        if not self.link:
            raise LinkLost("the scanner link is unplugged (simulator)")
        return frame

    def close(self) -> None:
        self.board.close()
        with self._lock:
            calls, self._calls = list(self._calls), deque()
        for _call, future in calls:
            future.set_exception(ActionRefused("the board was shut down"))

    # -- requests from the page (any thread) ------------------------------------------------------
    def call(self, fn: Callable[[], Any], wait: float = ANSWER_WITHIN) -> dict:
        """Run fn on the loop thread at its next frame: {'message': its result, 'done': the
        number of requests done so far}, or its error as ActionRefused."""
        future: Future = Future()
        with self._lock:
            self._calls.append((fn, future))
        try:
            return future.result(wait)
        except FutureTimeout:
            raise ActionRefused("the simulated board is not running") from None
        except ValueError as e:  # sim.hand.HandError and bad fault values
            raise ActionRefused(str(e), {"done": self.done}) from None

    def act(self, kind: str, args: dict[str, Any]) -> str | None:
        hand = self.board.hand
        space = args.get("space")
        if kind == "lift":
            return self.call(lambda: self._then(hand.lift(space, args.get("count")), True))
        if kind == "put":
            return self.call(lambda: self._then(hand.put(space), False))
        if kind == "remove":
            return self.call(lambda: self._then(hand.remove(space), False))
        if kind == "discard":
            return self.call(lambda: self._then(hand.discard(), False))
        if kind == "knock":
            return self.call(lambda: hand.knock(space))
        if kind == "restore":
            return self.call(lambda: hand.restore(space))
        if kind == "place":
            return self.call(lambda: self._place(space, args.get("piece")))
        if kind == "noise":
            return self.call(lambda: self._set_noise(args["level"]))
        if kind == "dead_sensor":
            return self.call(lambda: self._set_dead(space))
        if kind == "link":
            return self.call(lambda: self._set_link(args["connected"]))
        raise ActionRefused(f"the simulator has no {kind!r}")

    def _next_piece(self) -> str:
        """The piece a player takes next in phase 1, counting what is already out of the reserve
        and placements still under way: three DVONN pieces, then black and white in turn."""
        n = self._placed_before + self._placing
        if n >= N_SPACES:
            raise ActionRefused(_("every piece is placed (choose a kind to place one anyway)"))
        return "D" if n < 3 else ("B" if n % 2 else "W")

    def _then(self, said, holding: bool):
        self.will_hold = holding  # the hand queued the action: this is how it will end
        return said

    def _place(self, space: int, piece: str | None) -> str:
        board = self.board
        if board.hand.idle():  # everything queued is done: the table says it all
            self._placed_before = (sum(len(st) for st in board.stacks)
                                   + sum(len(lo.pieces) for lo in board.loose))
            self._placing = 0
        piece = piece or self._next_piece()
        self.board.hand.place(space, piece)
        self._placing += 1
        return _(PLACING[piece]).format(space=SPACES[space])

    # -- the loop thread --------------------------------------------------------------------------
    def _run_calls(self) -> None:
        while True:
            with self._lock:
                if not self._calls:
                    return
                fn, future = self._calls.popleft()
            try:
                result = fn()
            except BaseException as e:
                self.done += 1
                future.set_exception(e)
            else:
                self.done += 1
                future.set_result({"message": result, "done": self.done})
            self._plan()
            self.changes += 1

    def _plan(self) -> None:
        hand = self.board.hand
        if hand.idle():
            self.will_hold = bool(hand.held)

    def _notice_changes(self) -> None:
        hand = self.board.hand
        self._plan()
        now = (hand.holding, hand.idle(), len(self.board.loose))
        if now != (self._held, self._idle, self._loose):
            self._held, self._idle, self._loose = now
            self.changes += 1

    def _set_noise(self, level: str | float) -> str:
        mt = NOISE_MT[level] if isinstance(level, str) else float(level)
        params = dataclasses.replace(self.board.params, noise_mt=mt)
        self.board.params = params
        self.board.sensors.params = params
        self.board.changed()
        self.noise = level
        return _("sensor noise now {noise} mT RMS").format(noise=f"{mt:g}")

    def _set_dead(self, space: int | None) -> str:
        if self.dead is not None:
            self.board.repair(self.dead)
        self.dead = space
        if space is None:
            return _("every sensor works again")
        self.board.fail(space, "dead")
        return _("the sensor under {space} is dead").format(space=SPACES[space])

    def _set_link(self, connected: bool) -> str:
        self.link = connected
        return _("scanner link plugged in") if connected else _("scanner link unplugged")

    # -- the table as the page shows it (read from the web thread) ---------------------------------
    def view(self) -> dict:
        board, hand = self.board, self.board.hand
        return {
            "stacks": stacks_view(board.truth()),
            "loose": [{"home": SPACES[lo.home], "stack": "".join(p.kind for p in lo.pieces)}
                      for lo in list(board.loose)],
            "hand": {"holding": "".join(hand.holding), "idle": hand.idle(),
                     "busy": not hand.idle(), "will_hold": self.will_hold},
            "done": self.done,
            "removed": len(board.removed),
            "faults": {"noise": self.noise, "dead": None if self.dead is None
                       else SPACES[self.dead], "link": self.link},
            "log": [text for _, text in list(hand.log)[-3:]],
        }


class SessionSource(GameSource):
    """A running `Session` (and its `SimDesk` in the simulator) for the web server."""

    def __init__(self, session, desk: SimDesk | None = None):
        self.session = session
        self.desk = desk
        self.simulator = desk is not None

    def state(self) -> BoardState:
        return self.session.state

    def leds(self) -> LedFrame | None:
        return self.session.leds_shown

    def record_text(self) -> str:
        """The stored game, with its tags (players, date, site...)."""
        return self.session.store.export(self.session.game_id)

    def sim_view(self) -> dict | None:
        return None if self.desk is None else self.desk.view()

    def session_view(self) -> dict:
        far = self.session.far_away
        return {"rebuild": list(self.session.rebuild), "game": self.session.game_id,
                "resumed": self.session.resumed, "hints": self.session.hints.enabled,
                "far": far.summary() if far is not None else None}

    def on_change(self, callback: Callable[[], None]) -> None:
        self.session.subscribe(lambda _session: callback())

    def refuse_button(self, kind: str) -> None:
        """Raise ActionRefused, saying why, when the board's button `kind` would do nothing now:
        a press that does nothing must not look like one that went unheard."""
        state = self.session.state
        if kind == "takeback" and not state.board.move_stack:
            raise ActionRefused(_("there is no ply to take back"))
        if kind == "confirm" and state.mode not in CONFIRM_ANSWERS:
            raise ActionRefused(_("nothing to confirm: the board is not asking anything (confirm "
                                  "answers spaces flashing cyan, or says a space flagged red or "
                                  "orange is right as it is)"))

    def refuse_new_game(self) -> None:
        """Raise ActionRefused while a game far away forbids a new one here (it is ended by
        a draw or a resignation; a joined board's next game is the host's)."""
        far = self.session.far_away
        why = far.new_game_refused() if far is not None else None
        if why:
            raise ActionRefused(why)

    def act(self, kind: str, args: dict[str, Any]) -> str | None:
        if kind in ("takeback", "confirm"):
            self.refuse_button(kind)
        if kind == "takeback":
            self.session.press("undo")
            return None
        if kind == "new_game":
            self.refuse_new_game()
            self.session.new_game()
            return _("new game started; the last one is kept in the game store")
        if kind == "confirm":
            self.session.press("confirm")
            return None
        if kind in FAR_AWAY:
            far = self.session.far_away
            if far is None:
                raise ActionRefused(_("draws and resigning are for a game against someone far "
                                      "away (play --remote or --join)"))
            try:
                return far.end(kind)
            except ValueError as e:  # remote.game.Refused: the reason
                raise ActionRefused(str(e)) from None
        if kind == "hint":
            if not self.session.hints.enabled:
                raise ActionRefused(_("hints are off for this game"))
            self.session.hint()
            return None
        if self.desk is None:
            raise ActionRefused(f"a real board has no simulated hand to {kind}")
        return self.desk.act(kind, args)



def start_web(session, address: str = "8080", token: str | None = None):
    """Serve the live view of a running `session` on its own thread: '[HOST:]PORT' (loopback
    unless HOST is given; off loopback acting needs the token printed in `.url`). Returns the
    started `server.WebThread` (call `.stop()` when done)."""
    from .server import WebThread, parse_address

    host, port = parse_address(address)
    return WebThread(SessionSource(session), host=host, port=port, token=token).start()
