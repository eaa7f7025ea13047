"""The game clock that switches itself: time controls, both players' times, the flag.

A board knows when a move is made, so nobody presses a clock: the mover is charged up to the
moment the hand let go of the piece (the start of the settle window, `Snapshot.stable_since`),
not the moment the board had been still long enough to record it. Then the other player's time
runs from that same moment.

Time controls (`TimeControl.parse`: sudden death `25m`, Fischer increment `10m+5s`, or
`none`), the clock face and the record's PlyTimes tag are written and read in `time_control.py`.

Three parts, one job each:

- `GameClock`   both times, on any clock (seconds): `run`, `stop`, `ply`, `takeback`, `check`;
- `ClockWatch`  drives a GameClock from the controller's `BoardState` (what pauses it, whose
                turn it is, a commit at the let-go moment); used by the session and by autoplay;
- `ClockReading` what the players see: whole seconds, whose clock runs, low time, the flag.

Times live in the frame clock (simulated time in the simulator and its tests), so nothing
here ever sleeps or reads the wall clock.

>>> clock = GameClock(TimeControl.parse("10m+5s"))
>>> clock.run(0, at=0.0)                   # White to move
>>> clock.ply(0, at=12.0)                  # the hand let go at 12 s: White spent 12 s, +5 s
(12.0, 593.0)
>>> clock.run(1, at=20.0)                  # Black's clock ran from 12 s (the let-go) anyway
>>> clock.reading(now=30.0).text()
'White 9:53 · Black 9:42 (running)'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .i18n import N_, _
from .rules import BLACK, PASS, WHITE, Board, Ply
from .time_control import TimeControl, format_time

NAMES = {WHITE: "White", BLACK: "Black"}
SIDE_TEXT = {
    (WHITE, ""): N_("White {time}"), (WHITE, "running"): N_("White {time} (running)"),
    (WHITE, "low"): N_("White {time} (running, low)"),
    (WHITE, "flagged"): N_("White {time} (out of time)"),
    (BLACK, ""): N_("Black {time}"), (BLACK, "running"): N_("Black {time} (running)"),
    (BLACK, "low"): N_("Black {time} (running, low)"),
    (BLACK, "flagged"): N_("Black {time} (out of time)"),
}
"""One side's reading in `ClockReading.text`, by how its clock stands."""
RUNNING_MODES = ("idle", "lifted", "removing", "error")
"""Controller modes in which the mover's time runs. A question (asking), an unexplained board,
a lost link, a takeback being rebuilt (paused), calibrating and the end stop both clocks; an
illegal move (error) is the mover's to correct, on their time."""

_NEXT = "next"  # the clock runs for whoever is to move next, from the let-go moment


@dataclass(frozen=True)
class ClockReading:
    """What the players see (in `BoardState.clock`). Equal readings look the same, so a viewer
    is told about a change at most once a second.

    left: each player's time in whole seconds (rounded up; index WHITE, BLACK); running: whose
    time runs (None: stopped); low: the running player is low on time; flagged: the player
    whose time ran out (None); control: the time control as written ('25m', '10m+5s').
    """

    left: tuple[int, int]
    running: int | None
    low: bool
    flagged: int | None
    control: str

    def text(self) -> str:
        """One line: 'White 9:53 · Black 9:42 (running)'; a flag and low time said so."""
        parts = []
        for side in (WHITE, BLACK):
            how = ("flagged" if side == self.flagged else "low" if side == self.running and self.low
                   else "running" if side == self.running else "")
            parts.append(_(SIDE_TEXT[side, how]).format(time=format_time(self.left[side])))
        return " · ".join(parts)

    def as_dict(self) -> dict:
        """For the web view's protocol."""
        return {"left": list(self.left), "running": self.running, "low": self.low,
                "flagged": self.flagged, "control": self.control, "text": self.text()}


class GameClock:
    """Both players' times on one time line (seconds of any clock).

    control: the TimeControl (on). low_s: below this the running player is warned (default:
    a tenth of the base time, at most a minute).
    `history` keeps (side, spent, left before the ply, let-go time) per ply, for takebacks.
    """

    def __init__(self, control: TimeControl, low_s: float | None = None):
        if not control.on:
            raise ValueError("GameClock needs a time control with a time (not 'none')")
        self.control = control
        self.low_s = min(60.0, control.base_s / 10) if low_s is None else low_s
        self.left = [control.base_s, control.base_s]
        self.spent = [0.0, 0.0]  # each side's time used since its last ply
        self.history: list[tuple[int, float, float, float]] = []
        self._undone: tuple | None = None  # the ply just taken back, while it may be amended
        self.flagged: int | None = None
        self._side: int | str | None = None  # whose time runs: WHITE, BLACK, _NEXT or None
        self._since = 0.0

    # -- what happens ------------------------------------------------------------------------
    def run(self, side: int, at: float) -> None:
        """`side`'s time runs from `at` (already running for it: nothing changes; after a ply,
        from the let-go moment of that ply)."""
        if self.flagged is not None or self._side == side:
            return
        if self._side == _NEXT:
            self._side = side
            return
        self.stop(at)
        self._side, self._since = side, at

    def stop(self, at: float) -> None:
        """Stop both clocks at `at` (charging the running side up to it)."""
        self._charge(at)
        self._side = None

    def ply(self, side: int, at: float, is_pass: bool = False) -> tuple[float, float]:
        """`side` made a ply, the hand letting go at `at`: charge it up to then, add the
        increment (not for a pass), and run the next mover's time from `at`. Returns (time
        spent on the ply, time left after it). A clock stopped (a question was open) stays
        stopped: the spent time is what was charged before it stopped."""
        if self._side == side:
            self._charge(at)
        undone, self._undone = self._undone, None
        if undone is not None and undone[0] == side and self._side is None:
            # A provisional move changed (taken back and made again at once): the mover's
            # time ran on until the hand let go of the new one.
            self.spent[side] = min(undone[2], undone[1] + max(0.0, at - undone[3]))
            self.left[side] = undone[2] - self.spent[side]
            self._side, self._since = _NEXT, max(self._since, at)
        spent = self.spent[side]
        before = self.left[side] + spent
        self.history.append((side, spent, before, at))
        if not is_pass and self.flagged is None:
            self.left[side] += self.control.increment_s
        self.spent[side] = 0.0
        if self._side is not None:
            self._side, self._since = _NEXT, max(self._since, at)
        return spent, self.left[side]

    def takeback(self) -> None:
        """Undo the last ply's clock: its player gets back the time from before it (the
        increment goes too) and the other the time used since. Both clocks stop (a takeback
        is rebuilt with play paused)."""
        self._side = None
        if not self.history:
            return
        side, spent, before, at = self.history.pop()
        other = 1 - side
        self.left[other] += self.spent[other]
        self.left[side] = before
        self.spent = [0.0, 0.0]
        if self.flagged is not None:
            self.flagged = None
        self._undone = (side, spent, before, at)

    def settle(self) -> None:
        """The takeback just made stays one (it was not a provisional move being changed)."""
        self._undone = None

    def check(self, now: float) -> int | None:
        """The side whose time has run out by `now` (charged and flagged), else None."""
        if self.flagged is None and self._side in (WHITE, BLACK):
            if self.left_at(self._side, now) <= 0:
                self._charge(now)
        return self.flagged

    # -- what it shows -----------------------------------------------------------------------
    @property
    def running(self) -> int | None:
        return self._side if self._side in (WHITE, BLACK) else None

    def left_at(self, side: int, now: float) -> float:
        """`side`'s time left at `now` (never below 0)."""
        used = max(0.0, now - self._since) if self._side == side else 0.0
        return max(0.0, self.left[side] - used)

    def reading(self, now: float) -> ClockReading:
        left = tuple(math.ceil(self.left_at(s, now) - 1e-9) for s in (WHITE, BLACK))
        running = self.running
        low = running is not None and self.left_at(running, now) <= self.low_s
        return ClockReading(left=left, running=running, low=low, flagged=self.flagged,
                            control=str(self.control))

    def _charge(self, at: float) -> None:
        side = self._side
        if side in (WHITE, BLACK) and at > self._since:
            used = min(at - self._since, self.left[side])
            self.left[side] -= used
            self.spent[side] += used
            if self.left[side] <= 0:
                self.left[side] = 0.0
                self.flagged = side
                self._side = None
        self._since = max(self._since, at)

    @classmethod
    def restore(cls, control: TimeControl, plies: list[Ply], spent: list[float | None],
                low_s: float | None = None) -> "GameClock":
        """The clock of a resumed game: `spent[n]` seconds for ply n (None: not known, 0)."""
        clock = cls(control, low_s)
        board = Board()
        for n, ply in enumerate(plies):
            side = board.turn
            clock.spent[side] = (spent[n] or 0.0) if n < len(spent) else 0.0
            clock.left[side] -= clock.spent[side]
            clock.ply(side, 0.0, ply.is_pass)
            board._push(ply)
        return clock


def mover(board: Board) -> int:
    """The colour whose time runs: the player to move (after a forced pass, the other one)."""
    if board.phase == 2 and board.legal_plies() == [PASS]:
        return 1 - board.turn
    return board.turn


class ClockWatch:
    """Runs a `GameClock` from what the controller does (the session and autoplay call it).

    `committed(board, ply, let_go)` from the commit hook (board before the ply); `taken_back()`
    from the takeback hook; `tick(state, now, let_go)` after every frame: runs the mover's time
    in `RUNNING_MODES` and stops both otherwise (a question from the moment the hand let go).
    Returns the side newly flagged.
    """

    def __init__(self, clock: GameClock):
        self.clock = clock
        self._mover: tuple | None = None  # (board id, ply count, mover) cached: legal_plies

    def committed(self, board: Board, ply: Ply, let_go: float) -> tuple[float, float]:
        return self.clock.ply(board.turn, let_go, ply.is_pass)

    def taken_back(self) -> None:
        self.clock.takeback()

    def tick(self, state, now: float, let_go: float | None = None) -> int | None:
        clock = self.clock
        clock.settle()  # a move is changed within one frame: after it, a takeback is one
        was = clock.flagged
        if state.mode in RUNNING_MODES and not state.board.is_over():
            clock.run(self._mover_of(state.board), now)
        elif clock._side is not None:
            at = now
            if state.mode == "asking" and let_go is not None:
                at = min(now, max(clock._since, let_go))  # stopped when the hand let go
            clock.stop(at)
        flagged = clock.check(now)
        return flagged if flagged is not None and was is None else None

    def reading(self, now: float) -> ClockReading:
        return self.clock.reading(now)

    def _mover_of(self, board: Board) -> int:
        key = (id(board), board.ply_count)
        if self._mover is None or self._mover[:2] != key:
            self._mover = (*key, mover(board))
        return self._mover[2]


def let_go(controller, default: float) -> float:
    """When the hand let go: the start of the settle window of the board the controller read
    last (`default` before it read any)."""
    snap = controller.settler.snapshot
    return snap.stable_since if snap is not None else default


def drive(watch: ClockWatch, controller, now: float) -> int | None:
    """After a frame: run or stop the clocks for the controller's state, show the reading in
    `state.clock`, and end the game on a flag (`controller.end`). Returns the side newly
    flagged (the caller records the result)."""
    flagged = watch.tick(controller.state, now, let_go(controller, now))
    if flagged is not None:
        controller.end(flag_message(flagged))
    controller.state.clock = watch.reading(now)
    return flagged


def flag_result(flagged: int) -> str:
    """The record's result when `flagged` ran out of time: the other player wins."""
    return "0-1" if flagged == WHITE else "1-0"


def flag_message(flagged: int) -> str:
    """The line shown when `flagged` ran out of time (a whole sentence, ready to translate)."""
    if flagged == WHITE:
        return _("White ran out of time: Black wins.")
    return _("Black ran out of time: White wins.")
