"""What the controller does with each `inference.Decision` about a settled board, and with the
player's answer to a question.

The controller (controller.py) reads a settled snapshot and gets a `Decision`; `Decisions._act`
carries it out, kind by kind:

    kind          what happens
    ------------  ---------------------------------------------------------------------------
    match,        the position (with the plies made, if any) is recorded (`recorder`), the
    commit        calibration learns from placements and the snapshot is the new reference;
                  unless its evidence rests on a sensor not trusted (asked, `questions`) or it
                  is not the ply the computer showed (`script`: an error)
    lifted,       a stack in the hand: shown with its destinations, nothing recorded (on the
    relift        computer's turn, another stack than the one it showed is an error)
    badlift,      an error where the stack may not be lifted or set down (`mismatch`)
    illegal
    ambiguous     rivals fit about as well: asked (never a guess), or the recorded landing
                  stands after a still while; so is a change to the provisional move that the
                  same still board was unsure about (its readings merely firmed up)
    unexplained   nothing fits: held, resynchronised, asked "did you play X?" when the board
                  stands as one ply alone would leave it, or shown as missing and extra
                  spaces after a while, with the player's way out (`mismatch`)

`_resolve(cand)` records the answer to a question (a confirm, or a lift and set-back): the
same recording as a commit, or an error for an illegal landing.

`Decisions` is a mixin of `Controller` (it shares the controller's state). Needs: state,
pending, stats, faults, inference, questions, recorder, reference, mismatch, script and
`_settle_mode`.
"""

from __future__ import annotations

from .i18n import _
from .candidates import AMEND_LAST, AMEND_THEN_NEXT, Decision
from .rules import Board
from .spaces import SPACES


class Decisions:
    """What the controller does with a decision and with an answer (see the module docstring)."""

    def _act(self, d: Decision, snap) -> None:
        st = self.state
        kind = d.kind
        self.faults.suspects = []  # offered again below while the board still disagrees there
        unsure = self.questions.unsure_since
        if kind == "commit" and d.best.amends and unsure is not None:
            # The board, still since, was unsure whether the recorded move had landed as it
            # stands: readings that merely firm up do not change it (a rough board's faint
            # misfits grow with every frame averaged). Asked, the move as recorded among the
            # answers.
            stands = [c for c in d.candidates if c.kind == "match" and not c.amends][:1]
            d = self.last_decision = Decision("ambiguous", d.best, [d.best] + stands,
                                              d.candidates)
            kind = d.kind
        if kind != "ambiguous":
            self.questions.unsure_since = None
        if (kind == "commit" and st.mode == "asking" and self.questions.rivals
                and self.questions.whether
                and d.best.key in {c.key for c in self.questions.rivals}):
            # Asked whether it landed at all: readings that merely firm up while the board
            # stays as it is are no answer (a stack knocked beside a space reads more like a
            # landing the longer it is averaged); the player's answer, or a change, decides.
            return
        if kind in ("match", "commit"):
            best = d.best
            blind = self.faults.blind(best.plies)
            if blind:  # its evidence rests on a sensor not trusted: the player says
                self.questions.ask_blind(st, best, blind)
                return
            off = self.script.off_script(st.board, st.hint, best)
            if off is not None:
                self._flag_off_script(off)
                return
            ref = self.reference
            before, before_stacks = ref.values, ref.stacks
            changed = self.recorder.apply(st.board, best, asked=False)
            if kind == "commit" or best.amends:  # a new last move: open only if provisional
                # (or read before any hand could have let go: a stack slid low over a space
                # may pause there)
                self.recorder.provisional = d.provisional or (
                    snap.time - snap.stable_since < self.inference.hold_s
                    and st.board.move_stack[-1].is_move)
            ref.learn_placements(best, before, before_stacks, snap)
            self.pending = {r: best.stacks[r] for r in best.pending}
            same = best.stacks == ref.stacks  # then keep the object: its model cache
            ref.set(snap, ref.stacks if same else best.stacks)
            self._settle_mode()
            if changed:
                st.message = changed
        elif kind == "lifted":
            # A stack in the hand: shown, but nothing recorded while it is there (its field
            # over the board is not modelled; a ply before it is recorded once it is set down).
            self.mismatch.clear()
            best = d.best
            if (not best.plies and not best.amends
                    and best.src != self.script.expected_src(st.board, st.hint, best.src)):
                self._flag_off_script(None, lifted=best.src)
                return
            self._show_held(best)
        elif kind == "relift":
            self._show_lifted(d.best.src)  # nothing is recorded on the strength of it
        elif kind in ("badlift", "illegal"):
            if kind == "illegal":  # the stack it was set on may have been pushed aside
                self.reference.nudged(d.best.dst)
            self.mismatch.illegal(st, d.best)
        elif kind == "ambiguous":
            stands = self.questions.stands(d, snap)
            if stands is not None:  # the recorded landing, after a still while: it landed
                self.recorder.provisional = False
                self._act(Decision("match", stands, [stands], d.candidates), snap)
                return
            held = self.questions.ambiguous(st, d, snap)
            if held is not None:
                self._show_held(held)
        else:
            verdict = self.mismatch.unexplained(st, d, snap, self.pending)
            if verdict == "held":
                self._show_held(d.best)
            elif verdict == "resync":
                self._take_as_is(d.best, snap)
            elif verdict == "doubt":
                self._doubt(d, snap)
            elif verdict == "unclear":
                self.questions.ask_as_it_stands(
                    st, d.best, self.reference.misfits(self.inference, d.best, snap)[:3])

    def _doubt(self, d: Decision, snap) -> None:
        """The board reads differently where the last move went or could have gone: before
        it may be taken as it stands (which keeps that move), check the move's alternatives.
        One fitting about as well as the move as recorded is asked about (the move is final:
        never changed on readings alone); when none does, the board is shown as it was."""
        stands = d.best
        again = self.reference.explain(self.inference, self.state.board, self.pending, snap,
                                       amendable=AMEND_LAST)
        amends = [c for c in again.candidates if c.kind == "commit" and c.amends
                  and c.chi2 - stands.chi2 < self.inference.margin]
        if amends:
            self.questions.ask(self.state, [stands, amends[0]])  # (replaces an open one)
            if self.state.mode == "asking":
                self.mismatch.clear()  # a question, not a difference to show
                self.last_decision = Decision("ambiguous", stands, [stands, amends[0]],
                                              again.candidates)
                return
        self.mismatch.cleared = snap.stable_since
        if self.mismatch.unexplained(self.state, d, snap, self.pending) == "resync":
            self._take_as_is(d.best, snap)

    def _went_on(self, d: Decision, snap) -> Decision:
        """The last move is still open and the board reads a ply after it: the hand may have
        set the move's stack down elsewhere and gone on at once (the next stack lifted
        before the board was still in between). Those meanings are tried too; when one of
        them fits best it is decided, or asked about when the move as recorded fits about as
        well. Otherwise `d` stands (the move as recorded fits best)."""
        best = d.best
        if (d.kind not in ("commit", "ambiguous") or best is None or best.amends
                or not best.plies):
            return d
        again = self.reference.explain(self.inference, self.state.board, self.pending, snap,
                                       amendable=AMEND_THEN_NEXT)
        if again.kind not in ("commit", "lifted", "ambiguous") or not again.best.amends:
            return d
        if again.kind == "commit" and (self.state.mode == "asking" or best.chi2 - again.best.chi2
                                       < 2 * self.inference.margin):
            # A recorded move changed on readings alone needs clear evidence (a hand that
            # went on at once leaves a board only just still), and never while a question
            # about it is open: asked, the move as recorded among the answers.
            return Decision("ambiguous", again.best, [again.best, best], again.candidates)
        return again

    def _take_as_is(self, cand, snap) -> None:
        """`snap` shows `cand`'s stacks (no ply): it becomes the reference."""
        self.pending = {r: cand.stacks[r] for r in cand.pending}
        self.reference.set(snap, cand.stacks)
        self._settle_mode()

    def _resolve(self, cand, snap=None) -> None:
        """The player answered: `cand` is what happened (`snap` shows exactly its stacks)."""
        self.questions.clear()
        self.recorder.provisional = False
        self.stats["asked"] += 1
        st = self.state
        if cand.kind == "illegal":
            st.clear_marks()
            st.mode = "error"
            st.error = [cand.dst]
            st.message = _("{space}: not a legal destination").format(space=SPACES[cand.dst])
            return
        off = self.script.off_script(st.board, st.hint, cand)
        if off is not None:
            self._flag_off_script(off)
            return
        changed = self.recorder.apply(st.board, cand, asked=True)
        self.pending = {r: cand.stacks[r] for r in cand.pending}
        if snap is not None:
            self.reference.set(snap, cand.stacks)
        else:
            self.reference.rebase(cand.stacks)
        self._settle_mode()
        if changed:
            st.message = changed

    def _flag_off_script(self, ply, lifted: int | None = None) -> None:
        self.mismatch.clear()
        self.script.flag(self.state, ply, lifted)
        self.stats["errors"] += 1

    # -- what the state shows ----------------------------------------------------------------
    def _show_held(self, cand) -> None:
        """Show the stack of a 'lifted' or 'relift' candidate in the hand."""
        self._show_lifted(cand.src, cand.board,
                          remove=sorted(cand.pending) if cand.amends else None)

    def _show_lifted(self, src: int, board: Board | None = None, remove=None) -> None:
        self.mismatch.since = None
        self.state.show_lifted(src, board, sorted(self.pending) if remove is None else remove)
