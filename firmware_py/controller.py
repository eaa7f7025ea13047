"""The controller: sensor frames and buttons in, a recorded game and a `BoardState` out.

Per frame it only feeds the settle detector (`settle`) and checks a timer. When the board has
been still for `settle_s`, `inference` says what the settled snapshot shows against the
reference (`reference`), and the controller moves between its modes:

    mode         shows                                   goes to (on a settled board unless said)
    -----------  --------------------------------------  ----------------------------------------
    calibrating  the empty board being read; pieces      idle (read, or confirm: the spaces named
                 to clear (or confirm them empty)         are empty), unexplained (a resumed game
                                                          differs), link_lost (link down)
    idle         whose turn: the board matches the game   lifted, removing, over, asking, error,
                                                          unexplained, paused (takeback), link_lost
    lifted       a stack in the hand, its destinations   idle, removing, over, asking, error,
                                                          unexplained, paused, link_lost
    removing     the stacks a move cut off               idle, lifted, removing, over, asking,
                                                          error, unexplained, paused, link_lost
    asking       "which did you land on?" (questions)    idle, lifted, removing, over, error,
                                                          unexplained, paused, link_lost
    error        an illegal lift, set-down or piece      idle, lifted, removing, over, asking,
                                                          unexplained, paused, link_lost
    unexplained  missing and extra spaces (mismatch)     idle, lifted, removing, over, asking,
                                                          error, paused, link_lost
    paused       a takeback being rebuilt                idle, lifted, removing, over, asking,
                                                          error, unexplained, link_lost
    over         the winner (or who ran out of time: end) idle (a takeback rebuilt), lifted,
                                                          asking, error, unexplained, paused,
                                                          link_lost
    link_lost    no frames: nothing is decided           the mode it left (frames come back)

    New game returns to calibrating from any mode.

Collaborators, one job each:

- `faults.FaultWatch`    sensors not trusted (rails, stuck, noisy, confirmed by the player);
- `questions.Questions`  the open question and its answer (lift and set back, or confirm);
- `recorder.Recorder`    commits to the store first, the provisional landing and its amendment;
- `mismatch.Mismatch`    errors, the unexplained board, rebuilding after a takeback, resync;
- `script.Script`        on the computer's turns, only the ply it shows;
- `reference.Reference`  the last explained snapshot, and what it teaches the calibration;
- `startup.start`        the first settled board: the empty board read, a resumed game checked;
- `decisions.Decisions`  what each kind of decision (and the player's answer) does.

What a settled board means:

- the recorded position (perhaps with cut-off stacks taken off): idle / removing; the snapshot
  becomes the new reference (this is how sensor drift is followed);
- plies made: committed on the frame the board settles, each to `on_commit(ply)` (persistence)
  *before* the state shows it. A landing that a stack held a millimetre above its destination
  would explain as well is committed provisionally (`recorder`);
- a stack in the hand: `lifted` with its destinations; a stack that may not move: `error`;
- several candidates fit about as well: `asking` (never a guess);
- nothing fits: after `unexplained_s` of stillness, `unexplained`.

Takebacks are explicit only (`button('undo')`, or a provisional move changed); positions from
the history seen on the board are never taken as a takeback. A controller built on a restored
board (`Controller(board=...)`) starts by checking the pieces against it and guides the players
back when they differ.

>>> c = Controller()
>>> c.state.mode
'calibrating'
"""

from __future__ import annotations

from .board_model import BoardModel, BoardSpec, Geometry
from .calibration import Calibration
from .carried_on import landed_elsewhere
from .cleared_from_hand import cleared_from_hand
from .decisions import Decisions
from .faults import STUCK_S, FaultWatch
from .held_cut_off import held_cut_off
from .i18n import _
from .inference import Inference
from .let_go import let_go
from .mismatch import Mismatch
from .questions import Questions
from .recorder import Recorder
from .reference import Reference
from .rules import Board
from .script import Script
from .set_back import landed_on_set_back
from .settle import Settler, mean_noise, tolerance_for
from .spaces import N_SPACES
from .startup import confirm_as_recorded, confirm_empty, start
from .state import BoardState
from .unanswered import still_asked
from .unseen_landing import landed_unseen

SETTLED_MODES = ("idle", "removing", "over")
CONFIRM_AFTER_S = 0.5
"""A confirm pressed sooner than this after a question replaced an error or the unexplained
board (where confirm has a meaning of its own) answers what was shown before, not the
question: no one reads a question that fast (rough 12-bit bad m0.6 seed 34: "b1 or d1?"
shown 0.11 s before the player confirmed the error it replaced, which took c1b1 for c1d1,
a wrong ply)."""


class Controller:
    """Turns frames into a recorded game (see the module docstring); what it does with each
    decision about a settled board is its `decisions` (`decisions.Decisions`).

    board: a restored game to continue (default: a new game from the empty board).
    calibration: a saved `Calibration` (default: nominal figures; the empty board and the
        placements calibrate the rest).
    settle_s: how long the board must be still before a snapshot counts (0.15-0.3 s).
    unexplained_s: how long a position that matches nothing stays before the difference is shown.
    spec: the board's build from its profile (`BoardSpec`: magnet polarity per piece kind,
        magnet geometry, sensor gain, ADC); default the reference board. It sets the polarity
        of the calibration (also of a saved one: polarity is the build's, not the sensors') and
        the geometry and ADC unless these are given.
    reading_step: the finest step of a reading, in codes: 1 for whole codes (the serial
        scanner), 1/N for the direct scanner's mean of N raw samples.
    ask_after_s: how long "landed, or held just above?" may stay open: a hand does not hold a
        stack still for this long, so after it a landing is final (and landings that still
        cannot be told apart are asked about). Up to three times longer on a noisy board, where
        a slowly moving hand cannot be told from a still one.
    """

    def __init__(self, board: Board | None = None, calibration: Calibration | None = None, *,
                 settle_s: float = 0.2, unexplained_s: float = 3.0, ask_after_s: float = 1.0,
                 geometry: Geometry | None = None, margin: float = 25.0,
                 fit_limit: float = 250.0, adc_max: int | None = None,
                 spec: BoardSpec | None = None, reading_step: float = 1.0):
        if spec is not None:
            adc_max = spec.adc_max if adc_max is None else adc_max
            geometry = geometry or spec.geometry
        adc_max = 4095 if adc_max is None else adc_max
        if calibration is None:
            calibration = (Calibration.nominal(adc_max=adc_max) if spec is None else
                           Calibration.nominal(adc_max=adc_max, mv_per_mt=spec.mv_per_mt,
                                               supply_v=spec.vref))
        if spec is not None:
            calibration.polarity = dict(spec.polarity)
        self.cal = calibration
        self.model = BoardModel(self.cal, geometry)
        self.inference = Inference(self.model, margin=margin, fit_limit=fit_limit,
                                   hold_s=ask_after_s)
        self.inference.reading_step = reading_step
        self.settler = Settler(settle_s, tolerance=2.5 * self.cal.codes_per_mt, refresh_s=0.35)
        self.state = BoardState(board=board if board is not None else Board())
        self.ask_after_s = ask_after_s
        self.stats = {"auto": 0, "asked": 0, "resyncs": 0, "snapshots": 0, "errors": 0,
                      "amended": 0}
        self.faults = FaultWatch(self.inference, adc_max, reading_step)
        self.reference = Reference(self.model, self.faults.faulty, self.inference)
        self.questions = Questions(self.inference, self.cal, self.faults, ask_after_s)
        self.recorder = Recorder(stats=self.stats)
        self.mismatch = Mismatch(self.inference, self.reference, self.faults, unexplained_s,
                                 self.stats)
        self.script = Script()
        self.decisions = Decisions(self.inference, self.reference, self.faults, self.questions,
                                   self.recorder, self.mismatch, self.script, self.stats)
        self._mode_before_link: str | None = None
        self._settled = None  # (stable since, plies, pending) of the board last explained
        # Standing stacks seen off their space on a frame since the last settled snapshot
        # (`_note_gone`): one set back before the board was still again is reseated too.
        self._gone: set[int] = set()
        # The last settled snapshot (and its occupancy), and the last one before the
        # occupancy last changed.
        self._last_still = self._still_before = None
        # The mode shown on the last frame, since when, and the mode before it.
        self._shown: tuple = (None, 0.0, None)
        self.ended: str | None = None  # the game ended off the board (a flag): why

    # -- what the session and the tests set and read -----------------------------------------
    @property
    def on_commit(self):
        """on_commit(ply): called before each ply is recorded (persistence first)."""
        return self.recorder.on_commit

    @on_commit.setter
    def on_commit(self, hook) -> None:
        self.recorder.on_commit = hook

    @property
    def on_undo(self):
        """on_undo(): called after each ply taken back."""
        return self.recorder.on_undo

    @on_undo.setter
    def on_undo(self, hook) -> None:
        self.recorder.on_undo = hook

    @property
    def computer(self) -> frozenset:
        """The colours (rules.WHITE / BLACK) the computer plays: on their turns only the ply
        it shows (`state.hint`, set by the session) is recorded; anything else is an error."""
        return self.script.computer

    @computer.setter
    def computer(self, colours) -> None:
        self.script.computer = frozenset(colours)

    @property
    def faulty(self) -> dict[int, str]:
        """space -> why its sensor is not trusted."""
        return self.faults.faulty

    # -- inputs ------------------------------------------------------------------------------
    def feed(self, frame) -> None:
        """Take one sensor frame (cheap unless the board has just settled)."""
        st = self.state
        st.time = frame.time
        if st.mode == "link_lost":
            self.link_restored()
        if st.mode == "asking" and self.settler.moving:
            self.questions.watch(st, frame.raw)
        if self.settler.moving:
            self._note_gone(frame.raw)
        snap = self.settler.feed(frame.time, frame.raw)
        if self.settler.noisy is not None:
            self.faults.noisy(self.settler.noisy, frame.raw, self.settler)
            st.message = self.faults.note()
        if snap is not None:
            self._on_snapshot(snap)
        elif (st.mode != "unexplained" and not self.ended
              and self.mismatch.due(frame.time, self.settler.moving)):
            snap = self.settler.snapshot
            d = self.mismatch.overdue(st, self.decisions.last, snap, self.decisions.pending)
            if d is not None:  # the question, not the difference, is the first thing shown
                self.questions.ask_as_it_stands(st, *self.mismatch.as_it_stands(d, snap))
        if st.mode != self._shown[0]:
            self._shown = (st.mode, frame.time, self._shown[0])

    def button(self, name: str) -> None:
        """A button press: 'confirm', 'undo' or 'new_game'."""
        st = self.state
        if name == "confirm":
            if (st.mode == "asking" and self._shown[0] == st.mode
                    and self._shown[2] in ("error", "unexplained")
                    and st.time - self._shown[1] < CONFIRM_AFTER_S):
                pass  # too soon to be this question's answer: meant for what it replaced
            elif st.mode == "asking" and self.questions.rivals:
                cand = self.questions.confirmed(st)  # (None: asked again, narrowed)
                if cand is not None:
                    self.decisions.resolve(
                        st, cand, self.questions.confirmed_snapshot(self.settler.snapshot,
                                                                    cand))
            elif st.mode == "unexplained" and self.mismatch.accept is not None:
                # "The stacks are right as they stand": take the board as it is.
                cand = self.mismatch.take(self.settler.snapshot)
                if cand is not None:
                    self.decisions.take_as_is(st, cand, self.settler.snapshot)
            elif st.mode == "calibrating" and st.board.ply_count == 0 and st.extra:
                # "The spaces named are empty": their readings are their baselines.
                if confirm_empty(st, self.settler.snapshot, self.faults, self.inference,
                                 self.reference):
                    self.decisions.settle_mode(st)
            elif (st.mode == "unexplained" and self.reference.values is None
                  and confirm_as_recorded(st, self.settler.snapshot, self.faults,
                                          self.reference)):
                self.decisions.settle_mode(st)  # a resumed game, no baselines: as recorded
            elif st.mode in ("unexplained", "error") and self.faults.suspects:
                # "The space is right as it is": its sensor is faulty; play on without it.
                self.faults.confirm("disagreed with the board (player confirmed)")
                self._settled = None
                if self.settler.snapshot is not None:
                    self._on_snapshot(self.settler.snapshot)
        elif name == "undo":
            self.takeback()
        elif name == "new_game":
            self.new_game()
        else:
            raise ValueError(f"unknown button {name!r} (confirm, undo or new_game)")

    def link_lost(self) -> None:
        """The scanner link is down: show it, decide nothing until frames come back."""
        if self.state.mode != "link_lost":
            self._mode_before_link = self.state.mode
            self.state.mode = "link_lost"
            self.state.message = _("scanner link lost: play paused")

    def link_restored(self) -> None:
        """Frames are back: wait for a settled snapshot and check the board again."""
        if self.state.mode == "link_lost":
            self.state.mode = self._mode_before_link or "idle"
            self.state.message = ""
            old = self.settler
            self.settler = Settler(old.settle_s, old.tolerance, old.refresh_s)
            self.settler.noise = old.noise
            self.settler.ignore = old.ignore

    def end(self, message: str) -> None:
        """The game ended off the board (a player's time ran out): `over` with `message`;
        nothing more is recorded and, as on a chess clock, the flag is final (no takeback)."""
        self.ended = message
        self.questions.clear()
        self.mismatch.clear()
        self.state.clear_marks()
        self.state.mode = "over"
        self.state.message = message

    def takeback(self) -> None:
        """Take back the last ply (and the forced passes after it); the players rebuild."""
        if self.ended or not self.recorder.takeback(self.state.board):
            return
        self.decisions.pending = {}
        self.mismatch.clear()
        self.questions.clear()
        self.mismatch.rebuilding = True
        st = self.state
        st.clear_marks()
        st.mode = "paused"
        st.message = _("take back: put the pieces back as the LEDs show")
        st.missing, st.extra = self.mismatch.difference(st.board, self.settler.snapshot,
                                                        self.decisions.pending)
        self.stats["resyncs"] += 1

    def mark_faulty(self, spaces, why: str) -> None:
        """Stop trusting the sensors of `spaces` (see `FaultWatch.mark`)."""
        self.faults.mark(spaces, why)

    def new_game(self) -> None:
        """Start again from the empty board (the empty board is read again first)."""
        self.state = BoardState(board=Board())
        self.ended = None
        self.decisions.pending = {}
        self.faults.reset()  # the empty board is checked again: a repaired sensor is trusted
        self.settler.ignore.clear()
        self.reference.clear()
        self._last_still = self._still_before = None
        self.mismatch.rebuilding = False
        self.recorder.provisional = False
        self.questions.clear()
        self.mismatch.clear()

    # -- snapshots ---------------------------------------------------------------------------
    def _note_gone(self, raw) -> None:
        """Per frame while the board moves: the standing stacks that read no stack (lifted,
        knocked aside), however briefly."""
        inf, base = self.inference, self.cal.baseline
        for s in inf.standing.keys() - self._gone - inf.unreliable:
            if abs(raw[s] - base[s]) <= inf.limit(s):  # as `Inference.occupancy` reads it
                self._gone.add(s)

    def _on_snapshot(self, snap) -> None:
        self.stats["snapshots"] += 1
        # The board still before the stacks standing last changed (`unseen_landing`).
        now = (snap, self.inference.occupancy(snap.values))
        last = self._last_still
        if last is not None and last[1] != now[1]:
            self._still_before = last[0]
        self._last_still = now
        noise = mean_noise(snap.spread)
        if self.reference.values is None:
            self._start(snap)
            return
        # Keep the stillness tolerance just above what this board's noise needs.
        self.settler.tolerance = tolerance_for(max(noise, 0.3), 0.25 * self.cal.codes_per_mt)
        self.settler.noise = max(noise, 0.3)
        # On a noisy board a slowly moving hand still looks still: wait longer (up to 3x)
        # before ruling out a stack held just above a stack rather than set on it.
        self.inference.hold_s = self.ask_after_s * min(3.0, max(
            1.0, self.settler.tolerance / (0.5 * self.cal.codes_per_mt)))
        st = self.state
        if st.mode == "link_lost" or self.ended:
            return
        # A stack seen gone from its space (lifted, knocked aside) comes back somewhere new:
        # also one an open question waits to see set back (held off for long, it is no answer,
        # and set back it may read far from before: not another stack's landing there).
        ref = self.reference
        standing = set(i for i in range(N_SPACES) if ref.stacks[i]) - self.inference.unreliable
        occ = self.inference.occupancy(snap.values)
        gone = standing - occ
        for s in gone:
            ref.reseat(s)
        for s in self._gone & standing & occ:
            # Seen gone on a frame and set back before the board was still again: never
            # where it stood either, so its new reading is no landing there (rough 10-bit bad
            # seed 215: i3, lifted by mistake and set back, read as i4i3).
            ref.reseat(s)
        self._gone = set()
        if st.mode == "asking":
            answer = self.questions.check(st, occ)
            if answer is True:
                return
            if answer is not None:
                cand, exact = answer
                if self.decisions.answer_fits(st, cand, snap):
                    if not self.decisions.later_asked(st):
                        self.decisions.resolve(st, cand, snap if exact else None)
                    return
                self.questions.answer, self.questions.lifted = None, set()  # read afresh
        if self.faults.check(snap, STUCK_S) or self._drifting():
            st.message = self.faults.note()
            st.drifting = sorted(self.faults.drifting - self.faults.faulty.keys())  # (named)
            self._settled = None  # read the board again without the failed sensor
        still_long = snap.time - snap.stable_since >= self.inference.hold_s
        decisions = self.decisions
        if self._settled == (snap.stable_since, st.board.ply_count, len(decisions.pending)):
            # The same still board, already explained: only refine the reference (drift).
            self.reference.set(snap, self.reference.stacks)
            if still_long:
                self.recorder.held_still()  # no hand holds a stack that still: it landed
            return
        # (A faulty sensor's space never reads a stack: nothing is seen gone there, and taking
        # it as touched would end every provisional move near it at once.)
        was = self.recorder.provisional
        for s in gone - self.inference.unreliable:
            self.recorder.touched(st.board, s, st.lifted if st.mode == "lifted" else None, occ)
        d = ref.explain(self.inference, st.board, decisions.pending, snap,
                        amendable=self.recorder.amendable)
        d = decisions.went_on(st, d, snap, was)
        d = landed_elsewhere(d, self.recorder, ref, st.board, decisions.pending, snap)
        d = held_cut_off(d, self.recorder, ref, st.board, decisions.pending, snap)
        d = still_asked(d, self.recorder, self.inference.margin)
        d = landed_on_set_back(d, ref.set_back)
        d = landed_unseen(d, self._still_before, snap, self.inference, ref)
        d = cleared_from_hand(d, st.lifted if st.mode == "lifted" else None)
        decisions.last = d
        if d.kind == "match" and not d.best.amends and still_long:
            self.recorder.held_still()
        let_go(d, self.recorder, ref, st.board, decisions.pending, snap)
        if self.mismatch.rebuilding and d.kind != "match":
            # After a takeback only the position taken back to counts: the pieces still
            # standing as they were must not be read as the ply played again.
            self.mismatch.rebuild(st, d, snap, decisions.pending)
            return
        self.mismatch.rebuilding = False
        decisions.act(st, d, snap)  # (which may find it a question after all: `last`)
        self._settled = ((snap.stable_since, st.board.ply_count, len(decisions.pending))
                         if decisions.last.kind in ("match", "commit")
                         and st.mode in SETTLED_MODES else None)

    def _drifting(self) -> bool:
        """Sensors newly measured drifting faster than the board can follow (`Drift.too_fast`)
        are named to the player (`FaultWatch.note`). True when one was."""
        new = set(self.reference.drift.too_fast()) - self.faults.drifting
        self.faults.drifting |= new
        return bool(new)

    def _start(self, snap) -> None:
        """The first settled snapshot (`startup.start`): idle once the board is as the game says."""
        if start(self.state, snap, self.faults, self.inference, self.reference):
            self.decisions.settle_mode(self.state)
