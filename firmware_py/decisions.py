"""What the controller does with each `inference.Decision` about a settled board, and with the
player's answer to a question.

The controller (controller.py) reads a settled snapshot and gets a `Decision`; `Decisions.act`
carries it out, kind by kind:

    kind          what happens
    ------------  ---------------------------------------------------------------------------
    match,        the position (with the plies made, if any) is recorded (`recorder`), the
    commit        calibration learns from placements and the snapshot is the new reference;
                  unless its evidence rests on a sensor not trusted (asked, `questions`) or it
                  is not the ply the computer showed (`script`: an error)
    lifted,       a stack in the hand: shown with its destinations, nothing recorded (on the
    relift        computer's turn, another stack than the one it showed is an error); on a
                  board still for longer than a hand holds a stack, the landings that fit
                  are asked about (`Questions.held_long`)
    badlift,      an error where the stack may not be lifted or set down (`mismatch`)
    illegal
    ambiguous     rivals fit about as well: asked (never a guess), or the recorded landing
                  stands after a still while; so is a change to the provisional move that the
                  same still board was unsure about (its readings merely firmed up). A
                  landing whose only rival is its stack still in the hand is taken after a
                  still while, left open until another stack is touched
    unexplained   nothing fits: held, resynchronised, asked "did you play X?" when the board
                  stands as one ply alone would leave it, or shown as missing and extra
                  spaces after a while, with the player's way out (`mismatch`)

Before that, `went_on` tries the meanings in which the last move's stack was set down
elsewhere and the next stack lifted at once. `resolve(cand)` records the answer to a question
(a confirm, or a lift and set-back): the same recording as a commit, or an error for an
illegal landing; an answer given by a lift is first checked against the board read afresh
(`answer_fits`), unless the question was about the board as it stands. A match that reads far
off where the final last move could have gone instead has that move's alternatives checked
first (`_misread_last`).

`Decisions` is a collaborator the controller owns: it keeps the cut-off stacks still on the
board (`pending`) and the decision last acted on (`last`), works through the controller's
other collaborators, and shows what it did on the `BoardState` it is given.
"""

from __future__ import annotations

from dataclasses import replace

from .i18n import _
from .candidates import AMEND_CLEARED, AMEND_LAST, AMEND_THEN_NEXT, Decision
from .carried_on import asked_on_top, changed_before
from .held_elsewhere import held_elsewhere
from .landing_lifted import LandingLifted
from .landing_wait import HELD_KINDS
from .rules import Board
from .set_down_off import SetDownOff, landed_there, pushed_aside
from .spaces import SPACES


class Decisions:
    """What the controller does with a decision and with an answer (see the module docstring).

    pending: space -> the cut-off stack still standing there; last: the decision last acted
    on (`act` may turn it into a question). stats: the controller's counters.
    """

    def __init__(self, inference, reference, faults, questions, recorder, mismatch, script,
                 stats: dict):
        self.inference = inference
        self.reference = reference
        self.faults = faults
        self.questions = questions
        self.recorder = recorder
        self.mismatch = mismatch
        self.script = script
        self.stats = stats
        self.pending: dict[int, tuple] = {}
        self.last: Decision | None = None
        self.set_down_off = SetDownOff()  # illegal set-downs read, the last move open
        self.landing_lifted = LandingLifted()  # the move made final by an error lift there
        # The answered candidate read afresh, and those agreeing with it up to the asked ply
        # that differ after it, within the margin (`answer_fits`, `later_asked`).
        self.afresh: list = []

    def act(self, st, d: Decision, snap) -> None:
        """Carry out `d` about the settled `snap` (the module docstring's table)."""
        kind = d.kind
        for s in pushed_aside(d, snap, self.inference.hold_s):
            self.reference.nudged(s)  # a stack read set down on it, where it may not go
        self.set_down_off.note(snap, d, st.board.ply_count, self.recorder.provisional)
        self.faults.suspects = []  # offered again below while the board still disagrees there
        unsure = self.questions.unsure_since if self.questions.unsure_of_move else None
        stands = d.as_recorded()
        # (A move taken unseen, its stack not seen back in the hand since: as weakly read.)
        unseen = self.recorder.unseen and not self.recorder.carried
        if kind == "commit" and d.best.amends and (
                unsure is not None or unseen or self.recorder.asked_about
                or stands and stands[0].chi2 - d.best.chi2 < 2 * self.inference.margin
                or not self._changed_before(st.board, d.best, snap)):
            # The board, still since, was unsure whether the recorded move had landed as it
            # stands: readings that merely firm up do not change it (a rough board's faint
            # misfits grow with every frame averaged). Nor does a change that the move as
            # recorded explains nearly as well (a stack set back off its place after a lift
            # reads a little like a landing elsewhere), or only against a reference read while
            # its stack may have been in the air: it needs clear evidence. Asked, the
            # move as recorded among the answers. (So too for a move whose landing was asked
            # about and the player went on without answering: the readings that asked have
            # not become an answer; the move as recorded with the next ply is the other one.)
            stands = stands or [c for c in d.candidates if c.kind == "commit"
                                and not c.amends][:1]
            d = self.last = Decision("ambiguous", d.best, [d.best] + stands, d.candidates)
            kind = d.kind
        if kind in ("match", "commit") and self.questions.contradicts(st, d.best):
            self.questions.ambiguous(st, d, snap)  # half answered: the question stays
            return
        if kind == "match" and self._misread_last(st, d.best, snap):
            return
        if kind != "ambiguous":
            self.questions.sure()
        if (kind == "commit" and st.mode == "asking" and self.questions.rivals
                and self.questions.whether
                and d.best.key in {c.key for c in self.questions.rivals}):
            # Asked whether it landed at all: readings merely firming up are no answer (a stack
            # knocked beside it reads more like a landing, averaged longer): an answer decides.
            return
        if (kind in HELD_KINDS and st.mode == "asking" and self.questions.whether
                and snap.stable_since == self.questions.still
                and d.best.src in self.questions.sources()):
            # ... nor, on the still board it was asked on, that the stack asked about is in the
            # hand after all (a stack lying near fits a faint landing better, averaged longer).
            return
        if kind in ("match", "commit"):
            best = d.best
            blind = self.faults.blind(best.plies)
            if blind:  # its evidence rests on a sensor not trusted: the player says
                # (The board is explained: no difference is due to be shown over the question;
                # else the two flipped every 0.35 s for good, 13 mV/mT rough 10-bit seed 5.)
                self.mismatch.clear()
                self.questions.ask_blind(st, best, blind)
                return
            off = self.script.off_script(st.board, st.hint, best)
            if off is not None:
                self._flag_off_script(st, off)
                return
            ref = self.reference
            before, before_stacks = ref.values, ref.stacks
            changed = self.recorder.apply(st.board, best, asked=False)
            if kind == "commit" or best.amends:  # a new last move: open only if provisional
                # (or read before a hand could let go: a stack slid low over a space pauses)
                self.recorder.provisional = d.provisional or (
                    snap.time - snap.stable_since < self.inference.hold_s
                    and st.board.move_stack[-1].is_move)
            ref.learn_placements(best, before, before_stacks, snap)
            self.pending = {r: best.stacks[r] for r in best.pending}
            same = best.stacks == ref.stacks  # then keep the object: its model cache
            ref.set(snap, ref.stacks if same else best.stacks)
            self.settle_mode(st)
            if changed:
                st.message = changed
        elif kind == "lifted":
            # A stack in the hand: shown, but nothing recorded while it is there (its field
            # over the board is not modelled; a ply before it is recorded once it is set down).
            self.mismatch.clear()
            best = d.best
            if (not best.plies and not best.amends
                    and best.src != self.script.expected_src(st.board, st.hint, best.src)):
                self._flag_off_script(st, None, lifted=best.src)
                return
            if not self.questions.held_long(st, d, snap, self._relooked):
                self._show_held(st, best)
        elif kind == "relift":
            if not self.questions.held_long(st, d, snap, self._relooked):
                self._show_lifted(st, d.best.src)  # nothing is recorded on the strength of it
        elif kind in ("badlift", "illegal"):
            self.mismatch.illegal(st, d.best)
        elif kind == "ambiguous":
            self.questions.moved_on(snap)
            stands = self.questions.stands(d, snap)
            if stands is not None:  # the recorded landing, after a still while: it landed
                self.recorder.held_still()
                self.act(st, Decision("match", stands, [stands], d.candidates), snap)
                return
            unseen = self.questions.set_down_unseen(d, snap)
            if unseen is not None:  # landed, or still in the hand: taken, and left open
                self.act(st, Decision("commit", unseen, [unseen], d.candidates,
                                      provisional=True), snap)
                if self.recorder.provisional and st.board.move_stack[-1:] == list(
                        unseen.plies[-1:]):
                    self.recorder.unseen = True
                return
            if d.best.kind == "commit" and d.best.amends:
                self.recorder.in_doubt = True  # read landed elsewhere: see `Recorder.amendable`
            held = self.questions.ambiguous(st, d, snap)
            if held is not None:
                self._show_held(st, held)
            if st.mode == "asking" and any(c.amends for c in self.questions.rivals):
                self.recorder.asked(self.questions.rivals, self.inference.fit_limit)
        else:
            verdict = self.mismatch.unexplained(st, d, snap, self.pending)
            if verdict == "held" and not self._held_unfit(st, d, snap):
                self._show_held(st, d.best)
            elif verdict == "resync":
                self.take_as_is(st, d.best, snap)
            elif verdict == "doubt":
                self._doubt(st, d, snap)
            elif verdict == "unclear":
                self.questions.ask_as_it_stands(st, *self.mismatch.as_it_stands(d, snap))

    def _doubt(self, st, d: Decision, snap) -> None:
        """The board reads differently where the last move went or could have gone: before
        it may be taken as it stands (which keeps that move), check the move's alternatives.
        One fitting about as well as the move as recorded is asked about (the move is final:
        never changed on readings alone); when none does, the board is shown as it was."""
        if self._ask_alternatives(st, d.best, snap):
            return
        if self.mismatch.unexplained(st, d, snap, self.pending) == "resync":
            self.take_as_is(st, d.best, snap)

    def _held_unfit(self, st, d: Decision, snap) -> bool:
        """A board still for `held_s` on which nothing fits, a stack in the hand least badly
        (`Mismatch.unexplained`: 'held'), but one ply alone leaves the board standing as it
        does: asked "did you play it?", the spaces reading off named (True). Else the
        board showed "set it down" for good, the stack already down, and never said where it
        disagreed (N35 magnets, rough 12-bit m0.3 seed 4: f1 set down on g2 by mistake left
        g2 84 sigma off; f1f3 then fitted at chi2 3,000, the game stuck)."""
        asked = st.mode == "asking" and self.questions.as_it_stands
        if snap.time - snap.stable_since < self.questions.held_s and not asked:
            return False  # (once asked, kept while the board settles anew: DVONN 6x2 seed 4)
        landings = [c for c in d.candidates if c.kind == "commit"]
        if not landings or landings[0].chi2 <= self.inference.fit_limit:
            return False
        close = [c for c in landings if c.chi2 - landings[0].chi2 < self.inference.margin]
        landed = Decision("unexplained", landings[0], close, d.candidates)
        if self.mismatch.unclear(landed) is None:
            return False
        self.questions.ask_as_it_stands(st, *self.mismatch.as_it_stands(landed, snap))
        return True

    def _changed_before(self, board: Board, change, snap) -> bool:
        """Whether `change`, a candidate changing the open move, fits better by the margin
        also against the board at rest before the move (`carried_on.changed_before`)."""
        first = change.plies[0] if change.plies else None
        if first is None or not first.is_move:
            return True
        return changed_before(self.inference, self.reference, board, self.pending, snap, first)

    def _misread_last(self, st, stands, snap) -> bool:
        """The board matches well enough (`stands`), but a sensor reads off by more than the
        margin alone where the final last move could have gone instead (`LandingLifted.watched`):
        before the reference takes those readings in, an alternative fitting about as well is
        asked about (True)."""
        if (stands.amends or stands.plies or self.recorder.provisional
                or self.mismatch.cleared == snap.stable_since):
            return False
        others = self.landing_lifted.watched(st.board)
        far = self.reference.misfits(self.inference, stands, snap, self.inference.margin ** 0.5)
        if not others or not set(far) & others:
            return False
        return self._ask_alternatives(st, stands, snap)

    def _ask_alternatives(self, st, stands, snap) -> bool:
        """The final last move in doubt: its alternatives (`AMEND_CLEARED`) scored on `snap`;
        one fitting about as well as `stands` (the move as recorded) is asked about (True;
        `Recorder.asked`). When none does, this still board is `cleared` (not checked again).
        Never about a move the player answered: readings are no answer to overrule theirs, and
        asked again it waits for an answer the player already gave (drift 6 mT a minute, rough
        10-bit m0.3 seed 5: d3e4, e4 shown; as the cut-off stacks were cleared d3c2 fitted,
        "e4 or c2?" was asked again, and c2, lifted to be cleared, read empty at the limit on
        its drifted baseline: its noise across it was c2 set back, "d3e4 changed to d3c2")."""
        if self.recorder.answered_last(st.board):
            self.mismatch.cleared = snap.stable_since
            return False
        again = self.reference.explain(self.inference, st.board, self.pending, snap,
                                       amendable=AMEND_CLEARED)
        amends = [c for c in again.candidates if c.kind == "commit" and c.amends
                  and c.chi2 - stands.chi2 < self.inference.margin]
        if amends:
            self.questions.ask(st, [stands, amends[0]], candidates=again.candidates)
            if st.mode == "asking":
                self.mismatch.clear()  # a question, not a difference to show
                self.recorder.asked(self.questions.rivals, self.inference.fit_limit)
                self.last = Decision("ambiguous", stands, [stands, amends[0]], again.candidates)
                return True
        self.mismatch.cleared = snap.stable_since
        return False

    def went_on(self, st, d: Decision, snap, was_provisional: bool) -> Decision:
        """The hand may have set the last move's stack down elsewhere and gone on at once (the
        next stack lifted before the board was still in between): the meanings in which it
        did are tried (`AMEND_THEN_NEXT`), in five cases. Returns the decision to act on (`d`
        itself when they change nothing).

        - The move is still open and the board reads a ply after it: when one of those
          meanings fits best it is decided, or asked about when the move as recorded fits
          about as well (or best, but its landing is in doubt: `carried_on`).
        - The move is still open and a stack is lifted that may not move after it (its own
          landing, say, the next player's once the move went elsewhere), or read set down
          where it may not go: when the board fits with the move set down elsewhere and that
          stack in the hand, the move stays open until it is set down (as below); otherwise
          as above.
        - Touching another stack has just made the move final (a stack set back near it reads
          like a landing), but nothing fits with the move as recorded, or only a ply on top of
          it, or the next stack read in the hand fits better with the move landed elsewhere:
          when the board fits only with the move landed elsewhere and the next stack perhaps
          still in the hand (`held_elsewhere`), the move stays open until that stack is set
          down (nothing is recorded while a stack is held). A ply on top is otherwise treated
          as on a move still open (above): the hand that paused over one space, the move read
          there, then set it down on another and lifted the next stack at once, leaves a board
          on which the ply on top absorbs that landing; it is the move as recorded that is in
          doubt.
        - The move is still open and nothing at all stands as it leaves the board (its stack,
          taken while it may still have been in the hand, set back on its source as the same
          player's next stack is lifted): with the move taken back, that stack in the hand
          keeps the move open until it is set down, which decides.
        - Touching another stack has made the move final, or it is open, and the board reads
          that stack set down where it may not go, on another of the move's landings: the move
          landed there, that stack in the hand, reads so too, so the move stays open until the
          stack is set down (`_held_over`; no error while it is held).
        """
        rec, best = self.recorder, d.best
        made_final = was_provisional and not rec.provisional
        self.landing_lifted.note(st.board, d, made_final)
        still_open = rec.amendable in (AMEND_LAST, AMEND_CLEARED)
        on_top = ((still_open and d.kind in ("commit", "ambiguous") or made_final
                   and d.kind == "commit") and best is not None
                  and not best.amends and bool(best.plies))
        # (A stack lifted that may not move after the move as recorded: the move's own
        # destination, say, which is the next player's to move once the move went elsewhere.)
        barred = still_open and d.kind in ("badlift", "illegal")
        # (Nothing at all stands as the move as recorded leaves it: its stack set back on its
        # source, say, and the same player's next stack lifted at once.)
        lost = still_open and d.kind == "unexplained" and d.best is None
        if (d.kind == "illegal" and rec.moved_on is not None and d.best is not None
                and d.best.src == rec.moved_on
                and snap.time - snap.stable_since < self.inference.hold_s):
            # Open for that stack's set-down (`_held_over`): while it is held, the move's
            # other landing still reads as that stack set down there (still for longer than
            # a hand holds a stack, it was: the error).
            return self._held_over(st, d, d, snap) or d
        # (The next stack read in the hand with the move as recorded: landed elsewhere?)
        held_on = made_final and d.kind == "lifted" and not best.amends
        if not (on_top or barred or lost or held_on
                or made_final and d.kind not in ("match", "commit", "lifted")):
            return d
        again = self.reference.explain(self.inference, st.board, self.pending, snap,
                                       amendable=AMEND_THEN_NEXT)
        if lost and again.best is not None and again.best.amends:
            rec.carried = True  # its stack seen again (on its source): no longer unseen
            if again.kind == "lifted":
                rec.moved_on = again.best.src  # open until that stack is set down
        if held_on:
            return self._still_held(again, than=best.chi2) or d
        if made_final or barred:
            held = self._still_held(again) or self._held_over(st, d, again, snap)
            if held is not None or made_final and not on_top:
                return held or d
        if on_top and again.kind == "ambiguous" and not again.best.amends:
            # The still board just before read the move's stack set down on another of its
            # landings (`set_down_off`), or it is in doubt (`carried_on`): asked about.
            alt = self.set_down_off.alternative(again, snap, st.board.ply_count,
                                                st.mode == "asking")
            if alt is not None:
                return Decision("ambiguous", best, [best, alt], again.candidates)
            if asked_on_top(again, rec, self.reference, st.board, self.pending, snap):
                return again
        if again.kind not in ("commit", "lifted", "ambiguous") or not again.best.amends:
            return d
        if made_final:
            rec.provisional = True  # in doubt: open again (the next still board reads it so)
        if again.kind == "commit" and best is not None and (
                st.mode == "asking" or best.chi2 - again.best.chi2 < 2 * self.inference.margin):
            # A recorded move changed on readings alone needs clear evidence (a hand that
            # went on at once leaves a board only just still), and never while a question
            # about it is open: asked, the move as recorded among the answers.
            return Decision("ambiguous", again.best, [again.best, best], again.candidates)
        return again

    def _still_held(self, again: Decision, than: float | None = None) -> Decision | None:
        """`held_elsewhere(again, than)`: that, the move open again until its stack is set
        down; else None."""
        best = held_elsewhere(again, than)
        if best is None:
            return None
        self.recorder.provisional = True
        self.recorder.moved_on = best.src
        return Decision("lifted", best, [best], again.candidates)

    def _held_over(self, st, d: Decision, again: Decision, snap) -> Decision | None:
        """The lift that made the move final is of a stack read set down where it may not go
        (`d`), on another of the move's landings, which the move landed there with that stack
        in the hand reads as too (`set_down_off.landed_there`): the move is open again until
        that stack is set down (as `_still_held`); else None."""
        alt = landed_there(st.board, d, again, self.reference, self.inference, snap)
        if alt is None:
            return None
        self.recorder.provisional = True
        self.recorder.moved_on = alt.src
        return Decision("lifted", alt, [alt], again.candidates)

    def _relooked(self, d: Decision, snap) -> Decision:
        """`d` with its landings scored again with what no board tells left open
        (`Inference.second_look`): a stack set down off its centre on a rough board reads a
        fraction of its model, so that no landing fits strictly."""
        ref = self.reference
        landings = [replace(c) for c in d.candidates if c.kind == "commit"]
        looked = self.inference.second_look(landings, snap.values, snap.frames,
                                            ref.predicted(snap.time), ref.frames, ref.stacks,
                                            snap.time - ref.time)
        return Decision(d.kind, d.best, d.rivals,
                        looked + [c for c in d.candidates if c.kind != "commit"])

    def answer_fits(self, st, cand, snap) -> bool:
        """A stack lifted and set back names `cand` as the answer, and the board stands as it
        says; but the hand may have set a stack down meanwhile where nothing was lit (then
        lifted a lit one to show its own last landing). False when the board, read afresh,
        fits another meaning clearly better (by twice the margin) that the question did not
        offer (`Answers.offered`): that is no answer; always True for a question about the
        board as it stands (`Questions.ask_as_it_stands`). The stack lifted to answer is read
        as set back, never exactly where it stood (`reseat`)."""
        self.afresh = []
        amendable = AMEND_THEN_NEXT if cand.amends else self.recorder.amendable
        if self.questions.answer is not None:  # lifted and set back: never where it stood
            self.reference.reseat(self.questions.answer)
        if self.questions.as_it_stands:
            # Asked because it reads differently from the model (those spaces named): the
            # answer takes the board as it stands, as confirm does; read afresh, anything
            # whose ranges cover those misfits (a stack lying near) would fit better.
            return True
        d = self.reference.explain(self.inference, st.board, self.pending, snap,
                                   amendable=amendable)
        mine = next((c for c in d.candidates if c.key == cand.key), None)
        best = d.best
        if self.questions.whether:  # (asked whether it landed at all: the answer says so)
            best = next((c for c in d.candidates if c.kind not in HELD_KINDS), None)
        self.afresh = [] if mine is None else [mine] + self.questions.later_open(
            mine, d.candidates, self.inference.margin)
        return (mine is None or best is None
                or mine.chi2 - best.chi2 < 2 * self.inference.margin
                or self.questions.offered(d.candidates))

    def later_asked(self, st) -> bool:
        """After `answer_fits`: the answer names where the asked ply landed, but a later ply
        still fits landed elsewhere too (`Answers.later_open`): asked about that one, the
        answer kept (`Answers.narrowed`), rather than one taken on a guess. True when asked."""
        return len(self.afresh) > 1 and self.questions.narrowed(st, self.afresh)

    def take_as_is(self, st, cand, snap) -> None:
        """`snap` shows `cand`'s stacks (no ply): it becomes the reference."""
        self.pending = {r: cand.stacks[r] for r in cand.pending}
        self.reference.set(snap, cand.stacks)
        self.settle_mode(st)

    def resolve(self, st, cand, snap=None) -> None:
        """The player answered: `cand` is what happened (`snap` shows exactly its stacks)."""
        self.questions.clear()
        self.recorder.provisional = False
        self.stats["asked"] += 1
        if cand.kind == "illegal":
            st.clear_marks()
            st.mode = "error"
            st.error = [cand.dst]
            st.message = _("{space}: not a legal destination").format(space=SPACES[cand.dst])
            return
        off = self.script.off_script(st.board, st.hint, cand)
        if off is not None:
            self._flag_off_script(st, off)
            return
        changed = self.recorder.apply(st.board, cand, asked=True)
        self.pending = {r: cand.stacks[r] for r in cand.pending}
        if snap is not None:
            self.reference.set(snap, cand.stacks)
        else:
            self.reference.rebase(cand.stacks)
        self.settle_mode(st)
        if changed:
            st.message = changed

    def _flag_off_script(self, st, ply, lifted: int | None = None) -> None:
        self.mismatch.clear()
        self.script.flag(st, ply, lifted)
        self.stats["errors"] += 1

    # -- what the state shows ----------------------------------------------------------------
    def settle_mode(self, st) -> None:
        """The board is as the game says: idle, removing or over (no error, no question)."""
        self.mismatch.clear()
        self.questions.clear()
        st.show_settled(self.pending, self.faults.note())

    def _show_held(self, st, cand) -> None:
        """Show the stack of a 'lifted' or 'relift' candidate in the hand."""
        self._show_lifted(st, cand.src, cand.board,
                          remove=sorted(cand.pending) if cand.amends else None)

    def _show_lifted(self, st, src: int, board: Board | None = None, remove=None) -> None:
        self.mismatch.since = None
        st.show_lifted(src, board, sorted(self.pending) if remove is None else remove)
