"""The reference: the last settled readings of a physical configuration the game explains.

Every settled snapshot is compared with the reference through the forward model (`inference`),
so a change shows against what the board last read, not against a nominal board. Each time the
board is explained again the snapshot becomes the new reference, and what it teaches goes into
the calibration: the baselines (drift: of empty spaces from their readings, under standing stacks from every
step the game says is drift), the noise, and from placements each sensor's single-piece
response.

People pause before letting go: a landing read from a board that has only just settled may be
a stack still held just above it. Until the board has been still for the inference's `hold_s`,
the readings such a hover could change are loose (`Inference.loose`), and placements read
then are learned again once the board has been still that long. A landing read on a board
already still for that long (a stack held high over a tall stack stirs no reading) may still
come into contact: the stack below may then read as far off as a nudge moves it.

>>> from firmware_py.board_model import BoardModel
>>> from firmware_py.calibration import Calibration
>>> from firmware_py.inference import Inference
>>> model = BoardModel(Calibration.nominal())
>>> ref = Reference(model, faulty={}, inference=Inference(model))
>>> ref.values is None
True
"""

from __future__ import annotations

from .calibration import NEAR
from .drift import Drift
from .board_model import UNREAD_OFFSET_MT
from .faint_stacks import LIFTED_MT, STANDING_MT, standing_limits
from .inference import Z_LIMIT
from .spaces import N_SPACES

DRIFT_STEP_MT = 0.5
"""A step larger than this between two references of an unchanged stack is not drift."""


class Reference:
    """values, frames, stacks, time: the reference snapshot's readings, how many frames they
    average, the stacks standing then (never mutated) and when. faulty: the fault watch's
    spaces (their readings teach nothing)."""

    def __init__(self, model, faulty, inference):
        self.model = model
        self.cal = model.cal
        self.faulty = faulty
        self.inference = inference
        # Placements learned from a board that had only just settled: learned again once it
        # has been still long enough (space -> (kind, readings before, stacks before)).
        self._relearn: dict[int, tuple] = {}
        # Landings on stacks, to learn how well they fit once the board has been still for
        # `hold_s` (space -> (readings before, stacks before, its stack after)).
        self._landings: dict[int, tuple] = {}
        # Landings read on a board already still for `hold_s`: (when, {space: the stack
        # below}) (`_contact_to_come`).
        self._late: tuple | None = None
        self.values: tuple | None = None
        self.frames = 1
        self.stacks: list | None = None
        self.time = 0.0
        # The reference before the stacks last changed (values, frames, stacks, time): the
        # board at rest before a move read while its stack may still have been in the air.
        self.before: tuple | None = None
        # The stacks seen gone from their spaces (`reseat`) while their readings are loose:
        # one set back reads as anything (`set_back.landed_on_set_back`).
        self.set_back: set[int] = set()
        # Each sensor's drift, learned from the baselines followed: the reference is read
        # moved on by it (`explain`, `misfits`).
        self.drift = Drift(self.cal.codes_per_mt)
        # A resumed game's unread spaces (`Calibration.unread`): the baseline first assumed.
        self._prior: dict[int, float] = {}

    def clear(self) -> None:
        """Nothing known: the next settled board is read from scratch."""
        self.values = self.stacks = self.before = None
        self.inference.loose, self._relearn, self._landings = {}, {}, {}
        self.set_back = set()
        self._late = None
        self.inference.standing = {}
        self.drift.reset()
        self.inference.drift_unsure = None

    def set(self, snap, stacks) -> None:
        """`snap` shows `stacks`: it becomes the reference; follow drift and noise. Landings
        read from a board only just settled leave their readings loose (`_hovering`)."""
        if self.stacks is not None and stacks is not self.stacks and self.values is not None:
            self._hovering(self.stacks, stacks, snap)
        if snap.time - snap.stable_since >= self.inference.hold_s:
            self._landed(snap, stacks)
        if self.stacks is not None and stacks is not self.stacks and self.values is not None:
            landed = {}
            for t in range(N_SPACES):  # landings: learned once the board is still (_landed)
                old, new = self.stacks[t], stacks[t]
                if old and len(new) > len(old) and tuple(new[:len(old)]) == tuple(old):
                    self._landings[t] = (self.values, self.stacks, tuple(new))
                    landed[t] = old
            if landed and snap.time - snap.stable_since >= self.inference.hold_s:
                self._late = (snap.time, landed)
        self._contact_to_come(snap)
        self._read_baselines(snap, stacks)
        followed: set[int] = set()
        disturbed: set[int] = set()  # a stack changed within two spaces: no drift to learn
        dt = max(0.0, snap.time - self.time) if self.values is not None else 0.0
        if self.values is not None and self.stacks is not None:
            changed = [t for t in range(N_SPACES) if stacks[t] != self.stacks[t]]
            disturbed = set(changed).union(*(NEAR[t] for t in changed))
            followed = self._follow_drift(snap, stacks, disturbed)
            # What no reading follows (a stack next to a move, one landed on) drifts on at its
            # rate; empty spaces too, before their readings correct it.
            self.drift.advance(self.cal.baseline, snap.time - self.time,
                               set(range(N_SPACES)) - followed)
            self._age_baselines(stacks, followed, dt)
            if stacks is not self.stacks:
                self.before = (self.values, self.frames, self.stacks, self.time)
        self.values = snap.values
        self.frames = snap.frames
        self.stacks = stacks if isinstance(stacks, list) else list(stacks)  # never mutated
        self.inference.standing = standing_limits(self.model, snap.values, stacks)
        self.time = snap.time
        cal = self.cal
        noise = sorted(snap.spread)[N_SPACES // 2]
        unsure = self.drift.unsure  # (a drift not followed moves a baseline that much further)
        for s in range(N_SPACES):  # drift: follow the baselines of empty spaces
            if not stacks[s] and s not in self.faulty:
                cal.track_drift(s, snap.values[s] - self.model.crosstalk_at(s, stacks),
                                reach=unsure[s] * dt)
            cal.noise[s] = 0.8 * cal.noise[s] + 0.2 * max(noise, 0.05)
        # (an unread stack's baseline is an estimate that moves as pieces are learned)
        self.drift.learn(cal.baseline, snap.time, disturbed | cal.unread)
        self.inference.drift_unsure = self.drift.unsure

    def _hovering(self, before_stacks, stacks, snap) -> None:
        """The landings in `stacks` were read from `snap`, a board only just settled: each
        stack may still have been held just above where it landed. If so, the readings at
        contact will have moved on by what the model says the landing does, less what `snap`
        showed (`Inference.loose`: from zero to that, give or take the model's uncertainty),
        until the board has been still for `hold_s`. A reading already where the model puts
        contact (within twice its uncertainty) leaves only that difference open.""" 
        changes = {t: stacks[t] for t in range(N_SPACES) if stacks[t] != before_stacks[t]}
        landed = [t for t, new in changes.items() if new and tuple(
            new[:len(before_stacks[t])]) == tuple(before_stacks[t])]
        loose: dict[int, tuple[float, float, float, float]] = {}
        if landed:
            model = self.model
            d, var = model.delta(changes, self.values, before_stacks)
            model.open_positions = True  # for the second look: where the pieces sit, too
            try:
                _, wide = model.delta(changes, self.values, before_stacks)
            finally:
                model.open_positions = False
            for s in set(landed).union(*(NEAR[t] for t in landed)):
                if s in changes and s not in landed:
                    continue  # lifted or cleared: read at rest
                rest = d.get(s, 0.0) - (snap.values[s] - self.values[s])  # still to come
                v, w = var.get(s, 0.0), wide.get(s, 0.0)
                # Within the model's own uncertainty of contact: read at contact already.
                # Else contact is only as well known as where the landed pieces sit.
                narrow = w if rest * rest > 4 * v else 0.0
                if s in landed:  # contact may still push the stack below aside
                    nudge = (model.landings.rel() * self.cal.unit(s)) ** 2
                    narrow, w = max(narrow, nudge), max(w, nudge)
                loose[s] = (min(0.0, rest), max(0.0, rest), narrow, w)
        self.inference.loose, self.set_back = loose, set()

    def _contact_to_come(self, snap) -> None:
        """A stack carried high over a tall stack moves no reading enough to stir the board, so
        a landing may be read on a board already still for longer than a hand hovers, the
        stack still held just above (`_late`): its contact may yet push the stack below aside.
        So that stack's own reading may move by as much as such a nudge does
        (`Inference.loose`), on this still board for `hold_s` after the landing was read, and
        on the next one until it has been still that long (`_landed`)."""
        if self._late is None:
            return
        read, below = self._late
        if snap.time > read and (snap.stable_since > read
                                 or snap.time - read >= self.inference.hold_s):
            self._late = None
            return
        loose = dict(self.inference.loose)
        for t, stack in below.items():
            loose[t] = _with_nudge(loose, t, self.model.nudge_span(t, stack))
        self.inference.loose = loose

    def reseat(self, space: int) -> None:
        """The stack on `space` is gone from it (in the hand, knocked aside) and may be set
        back: never where it stood (a piece sits up to `Tolerances.placement_mm` off its
        intersection), so its own reading may then differ by as much as that makes
        (`Inference.loose`, until the board has been still for `hold_s`). Its neighbours'
        cross-talk changes by a few hundredths of a mT: left to the model's own spread."""
        if self.values is None or not self.stacks[space]:
            return
        own = self.values[space] - self.cal.baseline[space]  # signed: a weaker reading of a
        low, high = self.model.reseat_range()
        span = [own * low, own * high]  # south-up piece moves up
        # Where it stood may itself have been far off its place (nudged, misaligned): the
        # pieces set back may read anywhere their learned response and positions allow.
        xt = self.model.crosstalk_at(space, self.stacks)
        lo, hi = self.model.reseat_bounds(space, self.stacks[space])
        if lo or hi:
            span += [lo - (own - xt), hi - (own - xt)]
        self.inference.loose = {**self.inference.loose, space: (min(span), max(span), 0.0, 0.0)}
        self.set_back = self.set_back | {space}

    def nudged(self, space: int) -> None:
        """Something was set down on the stack on `space` and taken off again (an illegal
        set-down): the stack below may have been pushed aside, so its own reading may have
        moved by as much as a push does (`BoardModel.pushed_span`), until the next reference.
        (Read so on every still board the stack stays there: allowed once.)"""
        if self.values is None or not self.stacks[space]:
            return
        loose = self.inference.loose
        span = self.model.pushed_span(space, self.stacks[space])
        self.inference.loose = {**loose, space: _with_nudge(loose, space, span)}

    def _landed(self, snap, stacks) -> None:
        """The board has been still for `hold_s`: nothing hovers, the readings are at contact.
        Placements read earlier are learned again from this snapshot."""
        self.inference.loose, self.set_back = {}, set()
        for t, (before, before_stacks, new) in list(self._landings.items()):
            del self._landings[t]
            if tuple(stacks[t]) != new or t in self.faulty:
                continue  # lifted again or built on since
            changes = {o: stacks[o] for o in range(N_SPACES) if stacks[o] != before_stacks[o]}
            d, _ = self.model.delta(changes, before, before_stacks)
            residual = snap.values[t] - before[t] - d.get(t, 0.0)
            self.model.landings.learn(residual / self.cal.unit(t))
        for t, (kind, before, before_stacks) in list(self._relearn.items()):
            del self._relearn[t]
            if tuple(stacks[t]) != (kind,):
                continue  # lifted or built on since: learned from the first reading only
            others = [o for o in range(N_SPACES) if o != t and stacks[o] != before_stacks[o]]
            self.cal.learn_placement(t, kind, before, snap.values, others=others)

    def _follow_drift(self, snap, stacks, near) -> set[int]:
        """Offsets drift (and gains, as the board warms up) under standing stacks too: every
        sensor the game says is unchanged, with no change within two spaces (`near`), has
        moved only by drift since the last reference; its baseline follows, so the stack's
        lift later reads true. A step over `DRIFT_STEP_MT` beyond the sensor's own drift
        (`Drift`) is something else: not followed. Returns the spaces followed."""
        old = self.values
        loose = self.inference.loose
        limit = DRIFT_STEP_MT * self.cal.codes_per_mt
        dt = max(0.0, snap.time - self.time)
        followed = set()
        for s in range(N_SPACES):
            if stacks[s] and s not in near and s not in loose and s not in self.faulty:
                step = snap.values[s] - old[s]
                # (A drift not followed, `Drift.unsure`, may have moved it that much further.)
                if abs(step - self.drift.fast[s] * dt) <= limit + self.drift.unsure[s] * dt:
                    self.cal.baseline[s] += step
                    followed.add(s)
        return followed

    def rebase(self, stacks) -> None:
        """A configuration known without a snapshot of it: predict its readings from the model."""
        if self.values is None:
            return
        self._landings = {}  # predicted readings teach nothing
        changes = {t: stacks[t] for t in range(N_SPACES) if stacks[t] != self.stacks[t]}
        d, _ = self.model.delta(changes, self.values, self.stacks)
        ref = list(self.values)
        for s, v in d.items():
            ref[s] += v
        self.values = tuple(ref)
        self.stacks = list(stacks)

    def start_empty(self, snap) -> None:
        """The empty board at the start: every sensor's baseline, and the first reference."""
        self.cal.set_empty(snap.values, snap.spread)
        self.drift.reset()
        self.set(snap, [()] * N_SPACES)

    def resume(self, snap, stacks, occupied, offsets_unknown: bool = False) -> None:
        """A restored game whose pieces stand as recorded: learn what a fresh game would have
        learned from this position (baselines of the empty spaces, responses of the
        `occupied` spaces' bottom pieces), and take it as the reference. `offsets_unknown`:
        the sensors sit far off their assumed baselines (the player confirmed a board read
        unlike the record): under the stacks the baselines stay `unread`, no response is
        learned there."""
        cal = self.cal
        for s in range(N_SPACES):
            if not stacks[s] and s not in self.faulty:
                cal.baseline[s] = snap.values[s] - self.model.crosstalk_at(s, stacks)
        if offsets_unknown and not cal.baseline_known:
            cal.unread = {s for s in range(N_SPACES) if stacks[s] and s not in self.faulty}
            self._prior = {s: cal.baseline[s] for s in cal.unread}
        for s in set(occupied) - cal.unread:
            if cal.response[s] is None or cal.kind[s] != stacks[s][0]:
                self.relearn(s, snap.values, stacks)
        self._estimate_unread(snap.values, stacks)
        cal.changed()
        self.drift.restart(cal.baseline, snap.time)
        self.set(snap, stacks)

    def _read_baselines(self, snap, stacks) -> None:
        """An unread space (`Calibration.unread`) whose stack has left reads its baseline, and
        what the stack read there teaches its bottom piece's response (the board's pieces'
        strength, for a game resumed before any was placed). The stacks still unread have
        their baselines estimated anew (`_estimate_unread`). So does an emptied space whose
        baseline aged under its stack (`Calibration.aged`)."""
        cal = self.cal
        gone = [s for s in cal.unread if not stacks[s]]
        for s in gone:
            cal.unread.discard(s)
            if s not in self.faulty:
                cal.baseline[s] = snap.values[s] - self.model.crosstalk_at(s, stacks)
                if self.values is not None and self.stacks and self.stacks[s]:
                    self.relearn(s, self.values, self.stacks)
        if gone:
            cal.changed()
        self._estimate_unread(snap.values, stacks)
        # The stack a baseline aged under has left. Aged so far that the space could read as
        # standing (`standing_limits`), its reading is its baseline; less, its drift is
        # followed from here (`Calibration.track_drift`): a reading taken whole carries the
        # model's error at the cleared neighbours (drift 3 rough 12-bit m0.3 seed 3: each
        # emptied space read afresh, a wrong ply).
        worst = (STANDING_MT - LIFTED_MT) * cal.codes_per_mt
        for s in [s for s in cal.aged if not stacks[s]]:
            if cal.aged.pop(s) > worst and s not in self.faulty:
                cal.baseline[s] = snap.values[s] - self.model.crosstalk_at(s, stacks)

    def _age_baselines(self, stacks, followed, dt: float) -> None:
        """A baseline under a stack that no reading followed over `dt` may be off by as much
        as its drift is unsure (`Drift.unsure`: on a board seen drifting, all of it for a
        sensor not measured yet). Added up in `Calibration.aged`: the stack's departure is
        judged against it (`standing_limits`), and the emptied space's reading may become
        its baseline (`_read_baselines`). (Drift 6 mT a minute, rough 10-bit
        m0.3 seed 5: c2's baseline 6 mT off after its stack stood a minute unfollowed; its
        stack cleared, c2 read as standing and the game stopped.)"""
        aged, unsure = self.cal.aged, self.drift.unsure
        for s in range(N_SPACES):
            if stacks[s] and s not in followed and s not in self.faulty and unsure[s] * dt > 0:
                aged[s] = aged.get(s, 0.0) + unsure[s] * dt

    def _estimate_unread(self, values, stacks) -> None:
        """The baseline under each unread stack: its reading less what the model says the
        stack adds, kept within a sensor's offset of where it was first assumed (a piece may
        read far weaker than the datasheet's before any was learned). Occupancy is then judged
        by what the stack adds, not by the sensor's offset."""
        cal, model = self.cal, self.model
        span = UNREAD_OFFSET_MT * cal.codes_per_mt
        for s in cal.unread:
            if not stacks[s]:
                continue
            own = sum(model.piece_own(s, k, lv) for lv, k in enumerate(stacks[s]))
            prior = self._prior.get(s, cal.baseline[s])
            est = values[s] - own - model.crosstalk_at(s, stacks)
            cal.baseline[s] = min(prior + span, max(prior - span, est))

    def wrong_polarity(self, values, stacks, spaces) -> list[int]:
        """The `spaces` whose reading has the opposite sign to their bottom piece's magnet."""
        cal = self.cal
        return [s for s in spaces
                if (values[s] - cal.baseline[s] > 0) != (cal.polarity[stacks[s][0]] > 0)]

    # -- what the inference compares against -------------------------------------------------
    def predicted(self, time: float) -> tuple:
        """The reference readings moved on to `time` by each sensor's drift (`Drift`)."""
        return self.drift.predicted(self.values, time - self.time)

    def explain(self, inference, board, pending, snap, amendable: int):
        return inference.explain(board, pending, snap, self.predicted(snap.time), self.frames,
                                 self.stacks, snap.time - self.time, amendable=amendable)

    def misfits(self, inference, cand, snap, z_limit: float = Z_LIMIT) -> list[int]:
        """The spaces where `cand` fits `snap` worst (beyond `z_limit` standard deviations)."""
        return inference.misfits(cand, snap.values, snap.frames, self.predicted(snap.time),
                                 self.frames, self.stacks, snap.time - self.time, z_limit)

    # -- learning ----------------------------------------------------------------------------
    def learn_placements(self, best, before, before_stacks, snap) -> None:
        """Placements teach the calibration each sensor's single-piece response."""
        placed = [p.dst for p in best.plies if p.is_placement]
        if not placed or before is None:
            return
        cal = self.cal
        for t in placed:
            if before_stacks[t] or len(best.stacks[t]) != 1:
                continue  # not a lone piece on an empty space (the last one, moved on at once)
            others = [o for o in placed if o != t]
            cal.learn_placement(t, best.stacks[t][0], before, snap.values, others=others)
            if t in self.faulty:  # its neighbours' cross-talk is real; its own reading is not
                cal.response[t] = cal.kind[t] = None
                cal.changed()
            else:  # learned again at contact, should it have been read in the air
                self._relearn[t] = (best.stacks[t][0], before, list(before_stacks))

    def relearn(self, s: int, values, stacks) -> None:
        """Learn the bottom piece's response on `s` from readings of `stacks` (a resumed game,
        a piece swapped for another of its kind)."""
        upper = sum(self.model.piece_own(s, k, lv) for lv, k in enumerate(stacks[s]) if lv)
        self.cal.response[s] = (values[s] - self.cal.baseline[s] - upper
                                - self.model.crosstalk_at(s, stacks))
        self.cal.kind[s] = stacks[s][0]


def _with_nudge(loose: dict, space: int, span: float) -> tuple:
    """`loose`'s entry for `space` (`Inference.loose`) widened to allow the reading to move
    by `span` codes either way (a nudge of the stack there)."""
    lo, hi, narrow, wide = loose.get(space, (0.0, 0.0, 0.0, 0.0))
    return (min(lo, -span), max(hi, span), narrow, wide)
