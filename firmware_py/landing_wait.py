"""How long a still board waits on a landing in doubt, and what the wait decides.

A piece set on a tall stack adds little to its sensor: about what the same stack still held
just above the board would leave. So when a landing's only doubt is whether the stack is still
in the hand, time decides, from the first still moment the board was unsure
(`unsure_since`):

- the recorded landing stands once the board has been still for longer than a hand hovers
  (`stands`, after `Inference.hold_s`);
- a landing not yet recorded is taken unseen then, left open until another stack is touched
  (`set_down_unseen`), unless the stack not set down fitted best meanwhile (`doubted`: a
  player holding it, deciding) or the landing would read plainly on its own space;
- a stack still read as not set down after `held_s` is asked about (`Questions.held_long`);
- readings too coarse to dither (a quiet 10-bit board) restart the wait when they show the
  stack carried on (`moved_on`).

`LandingWait` is a part of `questions.Questions` (it keeps the state these read).
"""

from __future__ import annotations

from .candidates import Decision

HELD_KINDS = ("lifted", "relift")
HELD_AFTER = 5.0
"""`held_s` in `ask_after_s`: no hand holds a stack still for 5 s."""
GAP_S = 1.0
"""Still moments that read the same stack not set down, apart by less than this, count as one
(`held_for`): on a noisy board one frame off by the stillness tolerance starts the still moment
again every second or two."""
UNSEEN_MT = 1.0
"""A landing taken unseen (`set_down_unseen`) adds at most this on its own space (a piece on a
stack of three or more): one that would read plainly there, and does not, was not set down
there (on a rough board a stack nudged by a landing elsewhere can hide one)."""


class LandingWait:
    """The wait on a landing in doubt (a part of `questions.Questions`, whose `inference`,
    `cal`, `ask_after_s`, `unsure_since`, `doubted` and `seen` it reads and sets)."""

    @property
    def held_s(self) -> float:
        """Longer than a person holds a stack still above the board, or leaves one knocked
        aside unnoticed: a board still for this long with a stack read as not set down is
        asked about (`held_long`)."""
        return HELD_AFTER * self.ask_after_s

    def held_for(self, d: Decision, snap) -> float:
        """How long the board has read `d.best`'s stack as not set down, on still moments
        apart by less than `GAP_S` (rough 12-bit bad m0.6 seed 9: j2k3, set down off centre,
        read as j2 lying aside; the still moment started again four times in 3 s, and the
        board asked only after the player, waiting 6 s, had gone on: stuck), and reading the
        same: the moment the hand held the stack still in the air is not joined to the one
        after it set it down (seeds 17 and 25: asked 5 s after the lift, 0.7 s before the
        board, still since the set-down, read the landing itself)."""
        last = self.held
        since = snap.stable_since
        if (last is not None and last[0] == d.best.src and since - last[2].time < GAP_S
                and not self._changed_since(last[2], snap)):
            since = min(since, last[1])
        self.held = (d.best.src, since, snap)
        return snap.time - since

    def _changed_since(self, seen, snap) -> bool:
        """Whether a reading changed beyond noise from the snapshot `seen` to `snap` (a hand
        set the stack down, or took it on, between two still moments)."""
        inf = self.inference
        return bool(inf.changed(snap.values, snap.frames, seen.values, seen.frames)
                    - inf.unreliable)

    def moved_on(self, snap) -> None:
        """Still unsure: when readings that noise does not dither (`Inference.dithered`) show
        the board changed since it was last read unsure, a hand has carried a stack on, and the
        wait starts again from this still moment. Such readings cannot tell a stack held still
        in the air (a glance above its source) from one set on a tall stack, so the board is
        unsure over every glance; carried on and paused just above where it lands, the stack
        is not one a hand has held still for long. (Otherwise a still board that only looked
        creeping or spiked for a moment is still the same question.)"""
        seen, self.seen = self.seen, snap
        inf = self.inference
        if self.unsure_since is None or seen is None:
            return
        changed = inf.changed(snap.values, snap.frames, seen.values, seen.frames)
        if any(not inf.dithered(s) for s in changed - inf.unreliable):
            self.unsure_since = snap.stable_since

    def stands(self, d: Decision, snap):
        """The only doubt is whether the move just recorded landed or its stack is still held
        above the board: once the board has been still for longer than a hand holds a stack
        (`hold_s`, from the first still moment it was unsure), the landing stands. Returns the
        'match' candidate then (no question: one about the recorded landing would only be
        answered by showing it again), else None."""
        rivals = d.rivals
        best = rivals[0] if rivals else None
        if (best is None or best.kind != "match" or best.amends
                or any(c.kind not in HELD_KINDS or not c.amends for c in rivals[1:])):
            return None
        since = snap.stable_since if self.unsure_since is None else self.unsure_since
        if snap.time - since < self.inference.hold_s:
            return None
        self.unsure_since = None
        return best

    def sure(self) -> None:
        """The board was explained without doubt: no landing is in doubt any more."""
        self.unsure_since = None
        self.doubted = False
        self.alone_since = None  # (`Questions._waited_alone`)

    def set_down_unseen(self, d: Decision, snap):
        """The landing that fits best, when its only rivals are its stack not set down yet
        (in the hand, held above its source, knocked aside): landed on a tall stack, it reads
        as little as a stack held high. Returned once the board has been unsure for longer
        than a hand hovers (`hold_s`), unless meanwhile the stack not set down fitted best on a
        board still for that long (a player holding it, deciding: asked), to be recorded
        provisionally and left open until another stack is touched (a hand still holding it
        sets it down somewhere: back on its source takes the move back, elsewhere is asked
        about, `Recorder.unseen`).
        A move that cuts stacks off is asked about (their removal would be asked for at once),
        and so is one that a stack knocked aside explains nearly as well (`hover_margin`: a
        knock is a mistake, put right by pushing the stack back, not a move to record), and one
        that would read plainly on its own space (more than `UNSEEN_MT`). Else None."""
        if d.unchanged:
            return None  # its landing reads as before the move: no faint landing, asked
        rivals = d.rivals
        best = rivals[0] if rivals else None
        landed = min((c.chi2 for c in rivals if c.kind == "commit"), default=None)
        if (best is not None and best.kind in HELD_KINDS
                and snap.time - snap.stable_since >= self.inference.hold_s
                and (landed is None or landed - best.chi2 >= self.inference.hover_margin)):
            # No hand hovers that long: held, or knocked aside. (Not when a landing fits
            # about as well: readings too coarse to tell a stack held high from one set on
            # a tall stack say neither.)
            self.doubted = True
        ply = best.plies[-1] if best is not None and best.plies else None
        if (best is None or best.kind != "commit" or best.amends or ply is None
                or not ply.is_move or best.pending or best.board.last_removed or any(
                    c.kind != "lifted" or c.amends or c.src != ply.src
                    or c.plies != best.plies[:-1] for c in rivals[1:])):
            return None
        if any(c.free and c.chi2 - best.chi2 < self.inference.hover_margin for c in rivals):
            return None  # a stack knocked aside (a mistake: then pushed back) about as likely
        if abs(self._own(best.board, ply)) > UNSEEN_MT * self.cal.codes_per_mt:
            return None  # it would read plainly: not faint, not there (asked)
        since = snap.stable_since if self.unsure_since is None else self.unsure_since
        if self.doubted or snap.time - since < self.inference.hold_s:
            return None
        return best

    def _own(self, board, ply) -> float:
        """Codes the move `ply`, the last on `board`, adds on its own landing space."""
        before = board.copy()
        before.pop()
        below = before.height(ply.dst)
        model = self.inference.model
        return sum(model.piece_own(ply.dst, kind, below + i)
                   for i, kind in enumerate(before.stack(ply.src)))
