"""The controller: sensor frames and buttons in, a recorded game and a `BoardState` out.

Per frame it only feeds the settle detector (one pass over 49 readings) and checks a timer. When
the board has been still for `settle_s` it asks `inference` what the settled snapshot shows and
acts on the answer:

- the recorded position (perhaps with cut-off stacks taken off): idle / removing; the snapshot
  becomes the new reference (this is how sensor drift is followed);
- plies made: committed on the frame the board settles, each to `on_commit(ply)` (persistence)
  *before* the state shows it. A landing that a stack held a millimetre above its destination
  would explain as well (a tall destination: the field cannot tell) is committed too, but stays
  provisional until the board has been still for `ask_after_s` (1 s; longer on a noisy board: a
  hand does not hold a stack that still for that long). Meanwhile, if its stack is lifted off
  again (the hand was only pausing there) and set down on another destination, or back on its
  source, the move is changed (`on_undo()`, then `on_commit`) or taken back. A stack only held
  just above, where the field can tell, is shown as lifted;
- a stack in the hand: `lifted` with its destinations; a stack that may not move: `error` at once;
- a stack set down where it may not go, or the wrong piece placed: `error` there until corrected;
- several candidates fit about as well: `asking` (never a guess). The player answers by lifting
  the stack they landed on and setting it back, or by pressing confirm (which takes `ask[0]`,
  the likeliest);
- nothing fits: after `unexplained_s` of stillness, `unexplained` with the spaces `missing` and
  `extra` until the board matches again.

A faulty sensor (at an ADC rail, a reading that never moves, one so noisy the board never
settles, found at the start or during the game; or one the player confirms is wrong: a piece
read on an empty space at the start, one space that keeps disagreeing later) is named in the
message and played around: its space's occupancy comes from the game, its reading is never
evidence, and a ply that places on, moves from or lands on it is confirmed by the player.

When the computer plays a colour (`computer`), on its turns only the ply it shows (`state.hint`)
is recorded; another ply, or a lift of another stack, is an error there until put back.

Takebacks are explicit only (`button('undo')`, or a provisional move changed as above);
positions from the history seen on the board are never taken as a takeback. A controller built
on a restored board (`Controller(board=...)`) starts by checking the pieces against it and
guides the players back when they differ.

>>> c = Controller()
>>> c.state.mode
'calibrating'
"""

from __future__ import annotations

from typing import Callable

from .board_model import BoardModel, BoardSpec, Geometry
from .calibration import NEAR, Calibration
from .inference import OCCUPIED_MT, Decision, Inference
from .interfaces import SensorFrame
from .rules import PASS, Board, Ply
from .settle import Settler, mean_noise, tolerance_for
from .spaces import N_SPACES, SPACES
from .state import BoardState

PIECE_NAMES = {"W": "white", "B": "black", "D": "DVONN"}
MAX_FROZEN = 1
"""More sensors than this frozen on one code at once: a quiet board (a coarse ADC), not stuck
sensors (a working sensor on a 12-bit ADC never repeats one code for long)."""
DITHER_CODES = 0.6
"""Readings whose typical spread is at least this (codes) dither by noise, not by rounding: a
sensor with noise of half a code or less may sit between two code edges and repeat one code
(its rounded readings then spread by up to 0.5 codes), one with more does not for long."""
HOVER_TOP_MM = 4.0
"""A hand pausing before it lets go holds a stack up to this far above where it lands."""
STUCK_S = 2.0
"""A reading that has not changed by one code for this long, while the others show noise, is
stuck (with 0.3 codes of noise or more, a working sensor repeats one code for this long with a
chance far below one in a million)."""


def _names(spaces) -> str:
    return ", ".join(SPACES[s] for s in spaces)


class Controller:
    """Turns frames into a recorded game (see the module docstring).

    board: a restored game to continue (default: a new game from the empty board).
    calibration: a saved `Calibration` (default: nominal figures; the empty board and the
        placements calibrate the rest).
    settle_s: how long the board must be still before a snapshot counts (0.15-0.3 s).
    unexplained_s: how long a position that matches nothing stays before the difference is shown.
    spec: the board's build from its profile (`BoardSpec`: magnet polarity per piece kind,
        magnet geometry, sensor gain, ADC); default the reference board. It sets the polarity
        of the calibration (also of a saved one: polarity is the build's, not the sensors') and
        the geometry and ADC unless these are given.
    ask_after_s: how long "landed, or held just above?" may stay open: a hand does not hold a
        stack still for this long, so after it a landing is final (and landings that still
        cannot be told apart are asked about). Up to three times longer on a noisy board, where
        a slowly moving hand cannot be told from a still one.
    """

    def __init__(self, board: Board | None = None, calibration: Calibration | None = None, *,
                 settle_s: float = 0.2, unexplained_s: float = 3.0, ask_after_s: float = 1.0,
                 geometry: Geometry | None = None, margin: float = 25.0,
                 fit_limit: float = 250.0, adc_max: int | None = None,
                 spec: BoardSpec | None = None):
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
        self.settler = Settler(settle_s, tolerance=2.5 * self.cal.codes_per_mt, refresh_s=0.35)
        self.state = BoardState(board=board if board is not None else Board())
        self.unexplained_s = unexplained_s
        self.ask_after_s = ask_after_s
        self.on_commit: Callable[[Ply], None] | None = None
        self.on_undo: Callable[[], None] | None = None
        # The reference: the last settled readings of a known physical configuration.
        self.ref: tuple | None = None
        self.ref_frames = 1
        self.ref_stacks: list | None = None
        self.ref_time = 0.0
        self.pending: dict[int, tuple] = {}  # cut-off stacks still on the board
        self.last_decision: Decision | None = None
        self._rivals: list = []          # the candidates being asked about
        self._answer: int | None = None  # the ask space the player lifted and set back
        self._ask_lifted: set[int] = set()  # ask spaces seen empty since the question
        self._unexplained_since: float | None = None
        self._unexplained_marks: tuple[list, list] = ([], [])
        self._mode_before_link: str | None = None
        self._rebuilding = False  # after a takeback, until the board shows the position again
        self._settled = None  # (stable since, plies, pending) of the board last explained
        self.stats = {"auto": 0, "asked": 0, "resyncs": 0, "snapshots": 0, "errors": 0,
                      "amended": 0}
        self._last_auto = False  # the last recorded move was recognised without asking
        # The last move was recorded while its stack could still be in the hand, just above
        # its destination: until the board has been still for `ask_after_s`, lifting it off
        # again and setting it down elsewhere changes it (a hand that had only paused there).
        self._provisional = False
        # The colours (rules.WHITE / BLACK) the computer plays: on their turns only the ply it
        # shows (`state.hint`, set by the session) is recorded; anything else is an error.
        self.computer: frozenset = frozenset()
        self.faulty: dict[int, str] = {}  # space -> why its sensor is not trusted
        # Spaces whose sensors may be faulty, if the player confirms: read like pieces on the
        # empty board at the start, or the one space where the board differs from the game.
        self._suspects: list[int] = []
        self._frozen: dict[int, tuple] = {}  # space -> (reading, since): not moving at all
        self._unsure_since: float | None = None  # "landed, or in the hand?" open since
        self._suspect_since: float | None = None
        # Placements learned from a board that had only just settled: learned again once it
        # has been still long enough (space -> (kind, readings before, stacks before)).
        self._relearn: dict[int, tuple] = {}
        self.adc_max = adc_max

    # -- inputs ------------------------------------------------------------------------------
    def feed(self, frame: SensorFrame) -> None:
        """Take one sensor frame (cheap unless the board has just settled)."""
        st = self.state
        st.time = frame.time
        if st.mode == "link_lost":
            self.link_restored()
        if st.mode == "asking" and self.settler.moving:
            self._watch_answer(frame.raw)
        snap = self.settler.feed(frame.time, frame.raw)
        if self.settler.noisy is not None:
            self._noisy_sensor(self.settler.noisy, frame.raw)
        if snap is not None:
            self._on_snapshot(snap)
        elif (self._unexplained_since is not None and st.mode != "unexplained"
              and frame.time - self._unexplained_since >= self.unexplained_s
              and not self.settler.moving):
            self._show_unexplained()

    def button(self, name: str) -> None:
        """A button press: 'confirm', 'undo' or 'new_game'."""
        if name == "confirm":
            if self.state.mode == "asking" and self._rivals:
                # confirm answers the first asked space (a faulty sensor's, when one is asked:
                # a lift there cannot be seen)
                first = self.state.ask[0]
                chosen = [c for c, a in zip(self._rivals, self._ask_spaces()) if a == first]
                self._resolve(chosen[0] if chosen else self._rivals[0])
            elif self.state.mode == "calibrating" and self._suspects:
                # "The space is empty": its sensor is faulty; play on without it.
                self.mark_faulty(self._suspects, "reads like a piece on an empty board")
                self._suspects = []
                if self.settler.snapshot is not None:
                    self._start(self.settler.snapshot)
            elif self.state.mode in ("unexplained", "error") and self._suspects:
                # "The space is right as it is": its sensor is faulty; play on without it.
                self.mark_faulty(self._suspects, "disagreed with the board (player confirmed)")
                self._suspects = []
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
            self.state.message = "scanner link lost: play paused"

    def link_restored(self) -> None:
        """Frames are back: wait for a settled snapshot and check the board again."""
        if self.state.mode == "link_lost":
            self.state.mode = self._mode_before_link or "idle"
            self.state.message = ""
            old = self.settler
            self.settler = Settler(old.settle_s, old.tolerance, old.refresh_s)
            self.settler.noise = old.noise
            self.settler.ignore = old.ignore

    def takeback(self) -> None:
        """Take back the last ply (and the forced passes after it); the players rebuild."""
        board = self.state.board
        if board.ply_count == 0:
            return
        while True:
            ply = board.pop()
            if self.on_undo:
                self.on_undo()
            if not ply.is_pass or board.ply_count == 0:
                break
        self.pending = {}
        self._clear_unexplained()
        self._rivals, self._answer = [], None
        self._provisional = False
        self._rebuilding = True
        self.state.clear_marks()
        self.state.mode = "paused"
        self.state.message = "take back: put the pieces back as the LEDs show"
        self._mark_differences(self.settler.snapshot)
        self.stats["resyncs"] += 1

    def mark_faulty(self, spaces, why: str) -> None:
        """Stop trusting the sensors of `spaces`: their occupancy comes from the game, their
        readings are never evidence (moves that depend on them are asked, not guessed)."""
        for s in spaces:
            self.faulty.setdefault(s, why)
        self.inference.unreliable = frozenset(self.faulty)

    def _fault_note(self) -> str:
        if not self.faulty:
            return ""
        return (f"sensor {_names(sorted(self.faulty))} looks faulty: played from the game alone; "
                "check it with `dvonn-board diag selftest`")

    def new_game(self) -> None:
        """Start again from the empty board (the empty board is read again first)."""
        self.state = BoardState(board=Board())
        self.pending = {}
        self.ref = self.ref_stacks = None
        self._rebuilding = False
        self._provisional = False
        self._rivals, self._answer = [], None
        self.inference.loose, self._relearn = {}, {}
        self._clear_unexplained()

    # -- snapshots ---------------------------------------------------------------------------
    def _on_snapshot(self, snap) -> None:
        self.stats["snapshots"] += 1
        noise = mean_noise(snap.spread)
        if self.ref is None:
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
        if st.mode == "link_lost":
            return
        if st.mode == "asking" and self._check_answer(snap):
            return
        if self._find_faults(snap, STUCK_S):
            self._settled = None  # read the board again without the failed sensor
        still_long = snap.time - snap.stable_since >= self.inference.hold_s
        if self._settled == (snap.stable_since, st.board.ply_count, len(self.pending)):
            # The same still board, already explained: only refine the reference (drift).
            self._set_ref(snap, self.ref_stacks)
            if still_long:
                self._provisional = False  # no hand holds a stack that still: it landed
            return
        d = self.inference.explain(st.board, self.pending, snap, self.ref, self.ref_frames,
                                   self.ref_stacks, snap.time - self.ref_time,
                                   amendable=self._provisional)
        self.last_decision = d
        if d.kind == "match" and not d.best.amends and still_long:
            self._provisional = False
        if self._rebuilding and d.kind != "match":
            # After a takeback only the position taken back to counts: the pieces still
            # standing as they were must not be read as the ply played again.
            st.clear_marks()
            st.mode = "paused"
            self._mark_differences(snap)
            if not st.missing and not st.extra and d.best is not None:
                st.error = self.inference.misfits(d.best, snap.values, snap.frames, self.ref,
                                                  self.ref_frames, self.ref_stacks,
                                                  snap.time - self.ref_time)[:3]
            return
        self._rebuilding = False
        self._act(d, snap)
        self._settled = ((snap.stable_since, st.board.ply_count, len(self.pending))
                         if d.kind in ("match", "commit") and st.mode in ("idle", "removing",
                                                                          "over") else None)

    def _start(self, snap) -> None:
        """The first settled snapshot: calibrate on an empty board, or check a restored game."""
        st = self.state
        board = st.board
        cal = self.cal
        if board.ply_count == 0:
            self._find_faults(snap)
            occ = self.inference.occupancy(snap.values)
            if occ:
                self._ask_clear(sorted(occ), snap)
                return
            self._suspects, self._suspect_since = [], None
            cal.set_empty(snap.values, snap.spread)
            self._set_ref(snap, [()] * N_SPACES)
            self._settle_mode()
            return
        stacks = board.stacks()
        self._find_faults(snap)
        occ = self.inference.occupancy(snap.values)
        expected = {s for s in range(N_SPACES) if stacks[s] and s not in self.faulty}
        wrong_sign = [s for s in expected & occ
                      if (snap.values[s] - cal.baseline[s] > 0) != (cal.polarity[stacks[s][0]] > 0)]
        if occ != expected or wrong_sign:
            st.mode = "unexplained"
            st.missing = sorted(expected - occ)
            st.extra = sorted((occ - expected) | set(wrong_sign))
            st.message = "set up the game as recorded: " + self._difference_text()
            return
        # Resumed: learn what a fresh game would have learned from this position.
        for s in range(N_SPACES):
            if not stacks[s] and s not in self.faulty:
                cal.baseline[s] = snap.values[s] - self.model.crosstalk_at(s, stacks)
        for s in expected:
            if cal.response[s] is None or cal.kind[s] != stacks[s][0]:
                upper = sum(self.model.piece_own(s, k, lv) for lv, k in enumerate(stacks[s]) if lv)
                cal.response[s] = (snap.values[s] - cal.baseline[s] - upper
                                   - self.model.crosstalk_at(s, stacks))
                cal.kind[s] = stacks[s][0]
        cal.changed()
        self._set_ref(snap, stacks)
        self._settle_mode()

    def _find_faults(self, snap, stuck_s: float = 0.0) -> bool:
        """A sensor at an ADC rail (no output, a broken supply), or whose reading has not moved
        by a single code for `stuck_s` of still board while the others show noise (stuck: at
        once on the empty board at the start, `STUCK_S` during play), has failed: it is named
        and played around from then on. True when one was found."""
        noise = mean_noise(snap.spread)
        found = False
        # A quiet sensor on a coarse ADC (10 bits: 0.2 mT a code) repeats one code too: a
        # frozen reading is evidence only among readings that dither. When more than a few
        # are frozen at once, the board is too quiet to tell (a stuck sensor then shows when a
        # piece set on it is not seen, and the player confirms it).
        frozen = sum(1 for s in range(N_SPACES) if snap.spread[s] < 1e-3 and s not in self.faulty)
        dithering = frozen <= MAX_FROZEN
        if not dithering:
            self._frozen.clear()
        for s in range(N_SPACES):
            if s in self.faulty:
                continue
            v = snap.values[s]
            if v <= 0.5 or v >= self.adc_max - 0.5:
                self.mark_faulty([s], "reads no output (at the ADC's rail)")
                found = True
            elif (dithering and snap.spread[s] < 1e-3 and noise >= DITHER_CODES
                  and snap.frames >= 10):
                value, since = self._frozen.setdefault(s, (v, snap.stable_since))
                if value != v:
                    self._frozen[s] = (v, snap.stable_since)
                elif snap.time - since >= stuck_s:
                    self.mark_faulty([s], "reading never moves (stuck)")
                    found = True
            else:
                self._frozen.pop(s, None)
        if found:
            self.state.message = self._fault_note()
        return found

    def _noisy_sensor(self, s: int, raw) -> None:
        """A sensor so noisy that the board could never settle: stillness is judged without
        it, and it is played around like any faulty sensor."""
        self.settler.noisy = None
        self.settler.ignore[s] = float(raw[s])
        self.mark_faulty([s], "too noisy: the board could not settle")
        self.state.message = self._fault_note()

    def _ask_clear(self, occ: list, snap) -> None:
        """Pieces on the board at the start: clear them. A space that still reads like a piece
        after a while is named as a suspect sensor; confirm says the space is empty."""
        st = self.state
        st.clear_marks()
        st.mode = "calibrating"
        if occ != self._suspects:
            self._suspects, self._suspect_since = occ, snap.stable_since
        if snap.time - self._suspect_since < self.unexplained_s:
            st.extra = occ
            st.message = f"clear the board: pieces on {_names(occ)}"
            return
        st.error = occ
        st.message = (f"sensor {_names(occ)} reads like a piece on an empty board: take the piece "
                      "off, or if the space is empty check it with `dvonn-board diag selftest` "
                      "and press confirm to play on without it")

    def _act(self, d: Decision, snap) -> None:
        st = self.state
        kind = d.kind
        self._suspects = []  # offered again below while the board still disagrees there
        if kind != "ambiguous":
            self._unsure_since = None
        if kind in ("match", "commit"):
            best = d.best
            blind = self._blind_spaces(best.plies)
            if blind:  # its evidence rests on a sensor not trusted: the player says
                self._ask_blind(best, blind)
                return
            off = self._off_script(best)
            if off is not None:
                self._flag_off_script(off)
                return
            before = self.ref
            before_stacks = self.ref_stacks
            changed = self._apply(best, asked=False)
            if kind == "commit" or best.amends:  # a new last move: open only if provisional
                self._provisional = d.provisional
            self._learn(best, before, before_stacks, snap)
            self.pending = {r: best.stacks[r] for r in best.pending}
            same = best.stacks == self.ref_stacks  # then keep the object: its model cache
            # A landing may still be held just above only if a hover fitted about as well.
            self._set_ref(snap, self.ref_stacks if same else best.stacks,
                          hovering=d.provisional)
            self._settle_mode()
            if changed:
                st.message = changed
        elif kind == "lifted":
            # A stack in the hand: shown, but nothing recorded while it is there (its field
            # over the board is not modelled; a ply before it is recorded once it is set down).
            self._clear_unexplained()
            best = d.best
            if not best.plies and not best.amends and best.src != self._expected_src(best):
                self._flag_off_script(None, lifted=best.src)
                return
            self._show_held(best)
        elif kind == "relift":
            self._show_lifted(d.best.src)  # nothing is recorded on the strength of it
        elif kind == "badlift":
            self._clear_unexplained()
            st.clear_marks()
            st.mode = "error"
            st.error = [d.best.src]
            st.message = f"the stack on {SPACES[d.best.src]} may not move now: put it back"
            self.stats["errors"] += 1
        elif kind == "illegal":
            self._clear_unexplained()
            st.clear_marks()
            st.mode = "error"
            st.lifted = d.best.src
            st.destinations = st.board.destinations(d.best.src)
            st.error = [d.best.dst]
            st.message = (f"the stack from {SPACES[d.best.src]} may not go to "
                          f"{SPACES[d.best.dst]}: take it off again")
            self.stats["errors"] += 1
        elif kind == "ambiguous":
            self._ambiguous(d, snap)
        else:
            self._unexplained(d, snap)

    def _ambiguous(self, d: Decision, snap) -> None:
        rivals = d.rivals
        unsure_landed = any(c.kind in ("lifted", "match", "relift", "badlift") for c in rivals)
        if unsure_landed:
            # A landing too faint to tell from a hand holding the stack: wait a little (a hand
            # moves on), then ask; longer while the stack in the hand fits best (a player
            # deciding where to put it).
            lifted = [c for c in rivals if c.kind in ("lifted", "relift")]
            wait = self.inference.hold_s
            if rivals[0].kind in ("lifted", "relift"):
                wait = max(wait, 2.0 * self.ask_after_s)
            if self._unsure_since is None:
                self._unsure_since = snap.stable_since
            # Timed from the first still moment it was unsure (a still board that only looked
            # creeping for a moment is still the same question).
            if snap.time - self._unsure_since >= wait and self._ask_landings(d):
                return
            if lifted and self.state.mode != "lifted":
                self._show_held(lifted[0])
            return
        self._unsure_since = None
        self._ask(rivals)

    def _blind_spaces(self, plies) -> list[int]:
        """The faulty-sensor spaces that `plies` place on, move from or land on."""
        out = []
        for p in plies:
            for s in (p.src, p.dst):
                if s is not None and s in self.faulty and s not in out:
                    out.append(s)
        return out

    def _ask_blind(self, cand, blind: list[int]) -> None:
        """Ask the player to confirm `cand` (a lift cannot be seen on a faulty sensor)."""
        st = self.state
        if st.mode == "asking" and [c.key for c in self._rivals] == [cand.key]:
            return  # the question stands
        self._rivals, self._ask_index, self._answer, self._ask_lifted = [cand], None, None, set()
        st.clear_marks()
        st.mode = "asking"
        st.ask = list(blind)
        plies = " ".join(str(p) for p in cand.plies if not p.is_pass)
        st.message = (f"did you play {plies}? the sensor of {_names(blind)} is faulty: press "
                      "confirm if so")

    def _ask_landings(self, d: Decision) -> bool:
        """Ask about the landings that fit best ("did you land on it?" is a fair question
        when the stack may still be in the hand); False when no landing fits at all."""
        landings = [c for c in d.candidates if c.kind in ("commit", "illegal")]
        if not landings or landings[0].chi2 > self.inference.fit_limit:
            return False
        top = landings[0].chi2
        rivals, seen = [], set()
        for c in landings:
            if c.chi2 - top < self.inference.margin and c.key not in seen:
                seen.add(c.key)
                rivals.append(c)
        self._ask(rivals, single=True)
        return self.state.mode == "asking"

    def _ask(self, rivals, single: bool = False) -> None:
        st = self.state
        again = st.mode == "asking" and bool(self._rivals)
        if again:  # the question stands: add to it, never drop an answer under way
            keys = {c.key for c in rivals}
            rivals = rivals + [c for c in self._rivals if c.key not in keys]
        # Ask about the last ply on which the rivals differ: the player who made it answers by
        # lifting the stack they landed on (two quick plies in an unknown order: the later).
        moves = [[p for p in c.plies if not p.is_pass] for c in rivals]
        n = min(len(m) for m in moves)
        idx = next((i for i in reversed(range(n)) if len({m[i] for m in moves}) > 1), None)
        if idx is None or any(c.kind == "illegal" for c in rivals):
            spaces = [c.last_dst for c in rivals]
        else:
            spaces = [m[idx].dst for m in moves]
        ask = []
        for s in spaces:
            if s is not None and s not in ask:
                ask.append(s)
        blind = [s for s in ask if s in self.faulty]
        if len(ask) < (1 if single or blind else 2):  # a lift could not tell them apart: wait
            return
        ask = blind[:1] + [s for s in ask if s not in blind[:1]]  # confirm: the blind one
        self._rivals = rivals
        self._ask_index = idx
        if not again:
            self._answer = None
            self._ask_lifted = set()
        st.clear_marks()
        st.mode = "asking"
        st.ask = ask
        st.message = (f"which did you land on: {_names(ask)}? lift it and set it back "
                      "(or press confirm for " + SPACES[ask[0]] + ")")
        if blind:
            st.message = (f"did you land on {SPACES[ask[0]]} (its sensor is faulty)? press "
                          "confirm" + (f"; or lift the one you landed on, {_names(ask[1:])}, "
                                       "and set it back" if ask[1:] else ""))

    def _check_answer(self, snap) -> bool:
        """In `asking`: an asked stack lifted and set back again is the answer (one only
        lifted may be a cut-off stack being cleared). Commits the answered candidate."""
        occ = self.inference.occupancy(snap.values)
        self._note_lifts(lambda a: a in occ)
        st = self.state
        if self._answer is None or self._answer not in occ:
            held = [a for a in st.ask if a not in occ]
            rival_occ = {s for s in range(N_SPACES)
                         if self._rivals[0].stacks[s] and s not in self.faulty}
            if (len(held) == 1 and held[0] in self._ask_lifted
                    and occ == rival_occ - {held[0]}):
                st.message = f"{SPACES[held[0]]}: now set it back"
                return True
            return False  # anything else: read the board afresh
        chosen = [c for c, s in zip(self._rivals, self._ask_spaces()) if s == self._answer]
        if not chosen:
            return False
        cand = chosen[0]
        mine = {s for s in range(N_SPACES) if cand.stacks[s] and s not in self.faulty}
        self._resolve(cand, snap if occ == mine else None)
        return True

    def _watch_answer(self, raw) -> None:
        """Per frame while asking: see an asked stack lifted and set back, however quickly."""
        cal = self.cal
        limit = OCCUPIED_MT * cal.codes_per_mt
        self._note_lifts(lambda a: a not in self.faulty and abs(raw[a] - cal.baseline[a]) >= limit)

    def _note_lifts(self, occupied) -> None:
        for a in self.state.ask:
            if a in self.faulty:
                continue  # a lift there cannot be seen
            if not occupied(a):
                self._ask_lifted.add(a)
            elif a in self._ask_lifted and self._answer is None:
                self._answer = a  # lifted and set back: the answer

    def _ask_spaces(self) -> list:
        out = []
        for c in self._rivals:
            moves = [p for p in c.plies if not p.is_pass]
            if c.kind == "illegal" or self._ask_index is None:
                out.append(c.last_dst)
            else:
                out.append(moves[self._ask_index].dst)
        return out

    def _resolve(self, cand, snap=None) -> None:
        """The player answered: `cand` is what happened."""
        self._rivals, self._answer = [], None
        self._provisional = False
        self.stats["asked"] += 1
        if cand.kind == "illegal":
            self.state.clear_marks()
            self.state.mode = "error"
            self.state.error = [cand.dst]
            self.state.message = f"{SPACES[cand.dst]}: not a legal destination"
            return
        off = self._off_script(cand)
        if off is not None:
            self._flag_off_script(off)
            return
        changed = self._apply(cand, asked=True)
        self.pending = {r: cand.stacks[r] for r in cand.pending}
        if snap is not None:
            self._set_ref(snap, cand.stacks)
        else:
            self._rebase(cand.stacks)
        self._settle_mode()
        if changed:
            self.state.message = changed

    def _unexplained(self, d: Decision, snap) -> None:
        st = self.state
        bad = d.illegal_lift
        if d.best is None and (bad or d.extra) and len(d.lost) <= 1:
            # Something illegal at once: a stack that may not move lifted, a stack set down on
            # an empty space, or the wrong piece placed.
            st.clear_marks()
            st.mode = "error"
            st.error = sorted(set(bad) | set(d.extra))
            lost = [s for s in d.lost if s not in bad]
            if lost:
                st.lifted = lost[0]
                st.destinations = st.board.destinations(lost[0])
            st.message = self._error_text(d)
            self.stats["errors"] += 1
            if (not bad and not d.lost and len(d.extra) == 1
                    and snap.time - snap.stable_since >= self.unexplained_s):
                self._offer_faulty(d.extra[0])  # nothing there that the player can take off?
            return
        if d.best is not None and d.best.kind in ("lifted", "relift"):
            self._show_held(d.best)  # held above the board
            return
        if self._unexplained_since is None:
            self._unexplained_since = snap.stable_since
        self._unexplained_marks = (d.lost, d.extra)
        waited = snap.time - self._unexplained_since
        if d.best is not None and d.best.kind == "match" and waited >= self.unexplained_s:
            # Right stacks on the right spaces, but the field disagrees: show where, and after
            # a while more take the board as it is (a piece swapped for another of its kind).
            if waited >= 2 * self.unexplained_s and self._resync(d.best, snap):
                return
            self._show_unexplained()
            st.error = self.inference.misfits(d.best, snap.values, snap.frames, self.ref,
                                              self.ref_frames, self.ref_stacks,
                                              snap.time - self.ref_time)[:3]
            return
        if st.mode == "unexplained" or waited >= self.unexplained_s:
            self._show_unexplained()

    def _resync(self, cand, snap) -> bool:
        """Adopt `snap` as the reference for `cand` (a match by occupancy) when every stack
        reads with its bottom piece's polarity; relearn the bottom pieces that changed."""
        if cand.amends:
            return False  # never taken as a takeback on the strength of the field alone
        cal = self.cal
        stacks = cand.stacks
        values = snap.values
        for s in range(N_SPACES):
            if stacks[s] and s not in self.faulty and ((values[s] - cal.baseline[s] > 0)
                              != (cal.polarity[stacks[s][0]] > 0)):
                return False
        for s in self.inference.misfits(cand, values, snap.frames, self.ref, self.ref_frames,
                                        self.ref_stacks, snap.time - self.ref_time):
            if stacks[s] and s not in self.faulty:
                upper = sum(self.model.piece_own(s, k, lv) for lv, k in enumerate(stacks[s]) if lv)
                cal.response[s] = (values[s] - cal.baseline[s] - upper
                                   - self.model.crosstalk_at(s, stacks))
                cal.kind[s] = stacks[s][0]
        cal.changed()
        self.stats["resyncs"] += 1
        self.pending = {r: stacks[r] for r in cand.pending}
        self._set_ref(snap, stacks)
        self._settle_mode()
        return True

    def _error_text(self, d: Decision) -> str:
        st = self.state
        board = st.board
        if d.illegal_lift:
            s = d.illegal_lift[0]
            return f"the stack on {SPACES[s]} may not move now: put it back"
        if board.phase == 1 and len(d.extra) == 1:
            want = PIECE_NAMES[board.piece_to_place()]
            return f"{SPACES[d.extra[0]]}: wrong piece, a {want} piece is to be placed"
        return f"nothing may be set down on {_names(d.extra)}: take it off"

    def _show_unexplained(self) -> None:
        st = self.state
        lost, extra = self._unexplained_marks
        if not lost and not extra:
            lost, extra = self._occupancy_difference()
        st.clear_marks()
        if st.mode != "unexplained":
            self.stats["resyncs"] += 1
        st.mode = "unexplained"
        st.missing, st.extra = list(lost), list(extra)
        st.message = "the board does not match the game: " + self._difference_text()
        if len(lost) + len(extra) == 1:
            self._offer_faulty((list(lost) + list(extra))[0])

    def _offer_faulty(self, space: int) -> None:
        """One space off, and the player may see it is right: then its sensor is at fault."""
        self._suspects = [space]
        self.state.message += (f" (if {SPACES[space]} is right as it is, press confirm: its "
                               "sensor is faulty and the game goes on without it)")

    def _occupancy_difference(self, snap=None):
        snap = snap or self.settler.snapshot
        if snap is None:
            return [], []
        occ = self.inference.occupancy(snap.values)
        expected = {s for s in range(N_SPACES) if self.state.board.height(s)} | set(self.pending)
        expected -= set(self.faulty)
        return sorted(expected - occ), sorted(occ - expected)

    def _mark_differences(self, snap) -> None:
        lost, extra = self._occupancy_difference(snap)
        self.state.missing, self.state.extra = lost, extra

    def _difference_text(self) -> str:
        st = self.state
        parts = []
        if st.missing:
            parts.append("put back " + _names(st.missing))
        if st.extra:
            parts.append("take off " + _names(st.extra))
        return "; ".join(parts) or "check the stacks"

    # -- the computer's moves ----------------------------------------------------------------
    def _mover(self, board: Board) -> int:
        """The colour to make the next move (after a forced pass, the other one)."""
        if board.phase == 2 and board.legal_plies() == [PASS]:
            return 1 - board.turn
        return board.turn

    def _off_script(self, cand):
        """The first ply of `cand` made on the computer's turn that is not the one it shows
        (`state.hint`; any ply while it is still thinking), or None when all are as shown."""
        if not self.computer:
            return None
        board = self.state.board.copy()
        if cand.amends:
            board.pop()
        first = True
        for ply in cand.plies:
            if not ply.is_pass:
                if board.turn in self.computer and not (first and ply == self.state.hint):
                    return ply
                first = False
            board._push(ply)
        return None

    def _expected_src(self, cand) -> int | None:
        """The stack that may be lifted in the recorded position: the computer's shown move's
        source on its turn (None while it thinks), else `cand.src` itself."""
        if not self.computer or self._mover(self.state.board) not in self.computer:
            return cand.src
        hint = self.state.hint
        return hint.src if hint is not None and hint.is_move else None

    def _flag_off_script(self, ply, lifted: int | None = None) -> None:
        """A ply (or a lift) on the computer's turn that is not the one it shows: an error
        there until the board is put back."""
        st = self.state
        self._clear_unexplained()
        st.clear_marks()
        st.mode = "error"
        st.error = [lifted if ply is None else ply.dst]
        hint = st.hint
        put = f"put the stack back on {SPACES[lifted]}" if ply is None else "take it back"
        st.message = (f"the computer plays {hint}: {put}" if hint is not None else
                      f"wait for the computer's move: {put}")
        self.stats["errors"] += 1

    # -- changes -----------------------------------------------------------------------------
    def _apply(self, cand, asked: bool) -> str:
        """Record `cand`'s plies; a candidate that `amends` first takes the last move back.
        Returns what changed for the message ('' for a plain commit)."""
        if not cand.amends:
            self._commit(cand.plies, asked)
            return ""
        undone = self.state.board.pop()
        if self.on_undo:
            self.on_undo()
        if self._last_auto:
            self.stats["auto"] -= 1  # counted again as the move it became
        self.stats["amended"] += 1
        self._commit(cand.plies, asked)
        moves = [p for p in cand.plies if not p.is_pass]
        if not moves:
            return f"{undone} taken back: the stack is on {SPACES[undone.src]} again"
        return f"{undone} changed to {moves[0]}"

    def _commit(self, plies, asked: bool) -> None:
        board = self.state.board
        for ply in plies:
            if self.on_commit:
                self.on_commit(ply)  # on disk before anything shows it
            board.push(ply)
            if not ply.is_pass and not asked:
                self.stats["auto"] += 1
            if not ply.is_pass:
                self._last_auto = not asked
        # A forced pass is shown (guidance) and recorded with the next move, so a game given
        # up at that point ends without it.

    def _learn(self, best, before, before_stacks, snap) -> None:
        """Placements teach the calibration each sensor's single-piece response; learned again
        once the board has been still long enough that the piece cannot still be in the air
        (`_landed`)."""
        placed = [p.dst for p in best.plies if p.is_placement]
        if not placed or before is None:
            return
        for t in placed:
            if before_stacks[t] or len(best.stacks[t]) != 1:
                continue  # not a lone piece on an empty space (the last one, moved on at once)
            others = [o for o in placed if o != t]
            self.cal.learn_placement(t, best.stacks[t][0], before, snap.values, others=others)
            if t in self.faulty:  # its neighbours' cross-talk is real; its own reading is not
                self.cal.response[t] = self.cal.kind[t] = None
                self.cal.changed()
            else:
                self._relearn[t] = (best.stacks[t][0], before, list(before_stacks))

    def _hovering(self, before_stacks, stacks, on_stacks: bool = True) -> None:
        """After a landing read from a board that has only just settled: the stack may still
        be held just above it (people pause before letting go), so the readings at contact may
        differ by up to what 4 mm of height makes. Until the board has been still for
        `hold_s`, those sensors' references are that loose (`Inference.loose`). on_stacks:
        also for stacks set on stacks (else only for pieces set on empty spaces, which the
        inference cannot test for hovering)."""
        loose: dict[int, float] = {}
        model = self.model
        for t in range(N_SPACES):
            old, new = before_stacks[t], stacks[t]
            if not new or new == old or new[:len(old)] != old:
                continue  # not pieces set on top (a lift, a takeback, a rebuilt stack)
            keep = len(old)
            if keep and not on_stacks:
                continue
            pieces = new[keep:]
            above, _ = model.floating(t, keep, tuple(pieces), HOVER_TOP_MM)
            own = sum(model.piece_own(t, k, keep + i) for i, k in enumerate(pieces))
            if keep == 0:  # a bottom piece: its own response (learned, or the typical one)
                own = (self.cal.polarity[pieces[0]] * self.cal.typical_unit()
                       * model.axial(pieces[0], 0)
                       + sum(model.piece_own(t, k, i) for i, k in enumerate(pieces) if i))
            loose[t] = loose.get(t, 0.0) + (own - above.get(t, 0.0)) ** 2
            for s_, x in above.items():
                if s_ != t:
                    xt = model.stack_crosstalk(s_, t, new, keep)
                    loose[s_] = loose.get(s_, 0.0) + (xt - x) ** 2
        self.inference.loose = loose

    def _landed(self, snap, stacks) -> None:
        """The board has been still for `hold_s`: nothing is hovering; the readings are at
        contact. Placements read in the air are learned again from this snapshot."""
        self.inference.loose = {}
        for t, (kind, before, before_stacks) in list(self._relearn.items()):
            del self._relearn[t]
            if stacks[t] != (kind,):
                continue  # lifted or built on since: learned from the first reading only
            others = [o for o in range(N_SPACES) if o != t and stacks[o] != before_stacks[o]]
            self.cal.learn_placement(t, kind, before, snap.values, others=others)

    def _set_ref(self, snap, stacks, hovering: bool = True) -> None:
        """Take `snap` as the readings of `stacks` (what the board is now). hovering: a stack
        landed on a stack may still be held just above it (see `_hovering`)."""
        if self.ref_stacks is not None and stacks is not self.ref_stacks:
            self._hovering(self.ref_stacks, stacks, hovering)
        if snap.time - snap.stable_since >= self.inference.hold_s:
            self._landed(snap, stacks)
        if self.ref is not None and self.ref_stacks is not None:
            self._follow_drift(snap, stacks)
        self.ref = snap.values
        self.ref_frames = snap.frames
        self.ref_stacks = stacks if isinstance(stacks, list) else list(stacks)  # never mutated
        self.ref_time = snap.time
        cal = self.cal
        noise = sorted(snap.spread)[N_SPACES // 2]
        for s in range(N_SPACES):  # drift: follow the baselines of empty spaces
            if not stacks[s] and s not in self.faulty:
                cal.track_drift(s, snap.values[s] - self.model.crosstalk_at(s, stacks))
            cal.noise[s] = 0.8 * cal.noise[s] + 0.2 * max(noise, 0.05)

    def _follow_drift(self, snap, stacks) -> None:
        """Offsets drift (and gains, as the board warms up) under standing stacks too: every
        sensor the game says is unchanged, with no change within two spaces, moved only by
        drift since the last reference; its baseline follows, so the stack's lift later
        reads true. (Empty spaces are followed in `_set_ref`.) A step over half a mT is not
        drift: not followed."""
        old, before = self.ref, self.ref_stacks
        changed = [t for t in range(N_SPACES) if stacks[t] != before[t]]
        near = set(changed).union(*(NEAR[t] for t in changed)) if changed else set()
        loose = self.inference.loose
        limit = 0.5 * self.cal.codes_per_mt
        for s in range(N_SPACES):
            if stacks[s] and s not in near and s not in loose and s not in self.faulty:
                step = snap.values[s] - old[s]
                if abs(step) <= limit:
                    self.cal.baseline[s] += step

    def _rebase(self, stacks) -> None:
        """A configuration known without a snapshot of it: predict its readings from the model."""
        if self.ref is None:
            return
        changes = {t: stacks[t] for t in range(N_SPACES) if stacks[t] != self.ref_stacks[t]}
        d, _ = self.model.delta(changes, self.ref, self.ref_stacks)
        ref = list(self.ref)
        for s, v in d.items():
            ref[s] += v
        self.ref = tuple(ref)
        self.ref_stacks = list(stacks)

    def _settle_mode(self) -> None:
        st = self.state
        self._clear_unexplained()
        self._rivals, self._answer = [], None
        st.clear_marks()
        if self.pending:
            st.mode = "removing"
            st.remove = sorted(self.pending)
            st.message = "remove the stacks on " + _names(st.remove)
        elif st.board.is_over():
            st.mode = "over"
            w = st.board.winner()
            st.message = "game over: " + ("a draw" if w == "draw" else
                                          ("white" if w == 0 else "black") + " wins")
        else:
            st.mode = "idle"
            st.message = self._fault_note()

    def _show_held(self, cand) -> None:
        """Show the stack of a 'lifted' or 'relift' candidate in the hand."""
        self._show_lifted(cand.src, cand.board,
                          remove=sorted(cand.pending) if cand.amends else None)

    def _show_lifted(self, src: int, board: Board | None = None, remove=None) -> None:
        """Show the stack from `src` in the hand, with its destinations on `board` (default:
        the recorded position; a candidate's when a ply before the lift is not recorded yet)
        and the cut-off stacks `remove` (default: those of the recorded position)."""
        st = self.state
        self._unexplained_since = None
        st.clear_marks()
        st.mode = "lifted"
        st.lifted = src
        board = board or st.board
        if board.legal_plies() == [PASS]:  # the other player passes and moves again
            board = board.copy()
            board.push(PASS)
        st.destinations = board.destinations(src)
        st.remove = sorted(self.pending) if remove is None else remove
        st.message = f"{SPACES[src]} lifted: set it down on " + (_names(st.destinations) or "?")

    def _clear_unexplained(self) -> None:
        self._unexplained_since = None
        self._unexplained_marks = ([], [])
