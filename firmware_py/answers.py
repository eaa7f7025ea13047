"""How the player's answer to a question is read: a lift and set-back seen on any frame, the
button, or clearing the stacks the asked ply cuts off. An asked stack cleared with what every
answer cuts off (no lift can show it then) is asked back: shown missing, to be put back.

`Answers` is a part of `questions.Questions` (it reads the open question's state: `rivals`,
`index`, `lifted`, `answer`, `known`); `Questions` asks, `Answers` reads what the player did.
"""

from __future__ import annotations

from .i18n import _
from .spaces import N_SPACES, SPACES

SHOWN_AFTER = 2.5
"""An answer is shown by a lift and set-back, the stack straight back on its space: one held
off it for longer than this (in `ask_after_s`) was carried (a stack lifted by mistake while its
player waits for the board, a move begun), and set back it answers nothing."""


class Answers:
    """The answer-reading half of `questions.Questions` (see the module docstring)."""

    def confirmed_snapshot(self, snap, cand):
        """The snapshot to take as the reference when confirm answers `cand`: `snap` itself
        after a question about the board as it stands (`ask_as_it_stands`) or whether a
        stack landed at all (the board still: it stands at contact, read as the model could
        not tell), while it still shows exactly `cand`'s stacks; else None (the reference is
        predicted)."""
        if not (self.as_it_stands or self.whether) or snap is None or cand is None:
            return None
        same = self.inference.occupancy(snap.values) == self.faults.seen(cand.stacks)
        return snap if same else None

    def sources(self) -> set:
        """The spaces the moves asked about were lifted from."""
        return {c.plies[-1].src for c in self.rivals if c.plies and c.plies[-1].is_move}

    def spaces(self) -> list:
        """The asked space of each rival, in order."""
        return [self._space_of(c) for c in self.rivals]

    def confirmed(self, st):
        """The candidate that confirm answers: the first asked space's (a faulty sensor's,
        when one is asked: a lift cannot be seen there)."""
        first = st.ask[0]
        chosen = [c for c, a in zip(self.rivals, self.spaces()) if a == first]
        if self.narrowed(st, chosen):
            return None
        return self._unasked_kept(chosen) if chosen else self.rivals[0]

    def narrowed(self, st, chosen) -> bool:
        """The answer names the later of two plies only, and `chosen` (the rivals it leaves)
        still differ in the earlier one: asked again about that one among them (never
        decided by which of them happened to come first). True when so asked."""
        if len({c.key for c in chosen}) < 2:
            return False
        old = (self.rivals, self.index, self.answer, self.lifted, st.ask, st.message,
               self.known, self.shown)
        self.known = self.known + [(self.index, self._space_of(chosen[0]))]
        self.rivals = []
        self.ask(st, chosen)
        if self.rivals:
            return True
        (self.rivals, self.index, self.answer, self.lifted, st.ask, st.message,
         self.known, self.shown) = old
        return False

    @staticmethod
    def _unasked_kept(chosen):
        """The answer's candidate among `chosen` (the rivals it leaves): when they still differ
        in an earlier ply that no lift can tell apart (`narrowed` could not ask: the earlier
        ply's landings are the later ply's own, or one space only), the one that leaves the
        recorded move as it stands, never one that changes it unasked (rough 12-bit bad m0.3
        seed 211: "j4 or h4?" about i4's landing, answered j4, took j5j4,i4j4 over j5k5 kept
        with i4j4); else the first."""
        return next((c for c in chosen if not c.amends), chosen[0])

    def _space_of(self, cand):
        """`cand`'s asked space: where its asked ply landed, or its last landing."""
        if cand.kind == "illegal" or self.index is None:
            return landing(cand)
        return self._moves(cand)[self.index].dst

    def _moves(self, cand) -> list:
        """`cand`'s moves, from the recorded last move on when a rival changes it."""
        moves = [p for p in cand.plies if not p.is_pass]
        return moves if cand.amends else list(self.before) + moves

    def later_open(self, cand, candidates, margin: float) -> list:
        """The `candidates` (a board read afresh) that agree with the answered `cand` up to
        the asked ply but differ after it, fitting within `margin` of it: the answer named
        where the asked ply landed, not where a later one did (rough 10-bit, N35 magnets at
        7 mm, seed 3: "which did you land on?" about h4f2, f4 moved meanwhile; answered f2,
        the rival kept from before took f4f2, with f4d4 fitting as well: a wrong ply)."""
        if self.index is None or cand.kind != "commit":
            return []
        mine = self._moves(cand)
        asked = mine[:self.index + 1]
        out = []
        for c in candidates:
            if c.kind != "commit" or c.key == cand.key or c.chi2 - cand.chi2 >= margin:
                continue
            moves = self._moves(c)
            if moves[:self.index + 1] == asked and moves != mine:
                out.append(c)
        return out

    def contradicts(self, st, cand) -> bool:
        """Whether `cand` disagrees with what the player has answered so far to the open
        question (`known`): readings are no answer, so it is not taken (asked again)."""
        return st.mode == "asking" and bool(self.known) and not self._agrees(cand)

    def offered(self, candidates) -> bool:
        """Whether the best of `candidates` (a board read afresh, best first) that agrees with
        the answers given so far is one of the open question's own rivals: the readings
        favour an answer the question offered, and the player named another. (A stack
        lifted to answer reads anywhere set back, so the readings lean on the other spaces:
        13 mV/mT, rough 12-bit m0.3 seed 2, "d3, d2 or c1?" about c2's landing, d3 knocked
        before: d2, the truth, was named twice, refused each time for c2d3 fitting better by
        70, then dropped from the question; the game stuck.)"""
        keys = {c.key for c in self.rivals}
        best = next((c for c in candidates if self._agrees(c)), None)
        return best is not None and best.key in keys

    def _agrees(self, cand) -> bool:
        """`cand` agrees with the answers already given to this question (`known`)."""
        moves = self._moves(cand)
        for i, space in self.known:
            if (landing(cand) if i is None else
                    (moves[i].dst if i < len(moves) else None)) != space:
                return False
        return True

    def watch(self, st, raw) -> None:
        """Per frame while asking: see an asked stack lifted and set back, however quickly."""
        cal, limit = self.cal, self.inference.limit
        self._note_lifts(st, lambda a: a not in self.faults
                         and abs(raw[a] - cal.baseline[a]) >= limit(a))

    def shown_there(self, rivals, spaces, ask, later) -> list:
        """Asked about one space alone (`ask`), the earlier ply's landing, whose other meaning
        landed where the later ply did too (`later`, not lit: its player would take the
        question for theirs): the stack lifted and set back there answers "not here, there",
        for that meaning when the readings fit it better than the one asked about (a player
        shows where they landed; rough 10-bit, mistakes 1.0, seeds 36 and 39: "did you land on
        c4?", c5 lifted). Those spaces (a list of at most one)."""
        if len(ask) != 1:
            return []
        lit = min(c.chi2 for c, s in zip(rivals, spaces) if s in ask)
        return sorted({s for c, s in zip(rivals, spaces)
                       if s in later and s not in ask and c.chi2 < lit})[:1]

    def lift_answers(self, st) -> bool:
        """Whether a lift and set-back of the asked space answers the open question. Not one
        about the board as it stands whose new ply lands where the recorded last move did:
        a lift there may show where that move landed (a question about it a moment before,
        answered late), so only confirm answers, as the message says (placed 3 mm off +
        nudges 2 mm, default 12-bit m0.3 seed 3: i4 lifted to show g2i4's landing took "did
        you play k4i4?" for k3k4, a wrong ply)."""
        if not self.as_it_stands or not self.rivals or self.rivals[0].amends:
            return True
        moves = [p for p in self.rivals[0].plies if p.is_move]
        last = st.board.move_stack[-1] if st.board.move_stack else None
        return not (moves and last and last.is_move and last.dst == moves[-1].dst)

    def _note_lifts(self, st, occupied) -> None:
        for a in list(st.ask) + self.shown:
            if a in self.faults:
                continue  # a lift there cannot be seen
            if not occupied(a):
                if a not in self.lifted:
                    self.lifted_at[a] = st.time
                self.lifted.add(a)
            elif a in self.lifted and self.answer is None and self.lift_answers(st):
                if st.time - self.lifted_at.get(a, st.time) > SHOWN_AFTER * self.ask_after_s:
                    self.lifted.discard(a)  # held off its space for long: carried, not shown
                else:
                    self.answer = a  # lifted and set back: the answer

    def check(self, st, occ):
        """On a settled snapshot while asking (`occ`: the spaces it reads a stack on): an asked
        stack lifted and set back again is the answer (one only lifted may be a cut-off stack
        being cleared).

        Returns (candidate, exact): the answered candidate, and whether the board now shows
        exactly its stacks (then the snapshot is its reference); True when the board waits for
        the lifted stack to be set back; None when the board is to be read afresh."""
        self._note_lifts(st, lambda a: a in occ)
        cleared = self._cleared(st, occ)
        if cleared is not None:
            return cleared, False
        if self.answer is None or self.answer not in occ:
            # An asked stack in the hand, the board otherwise as a rival leaves it (its
            # cut-off stacks perhaps being cleared, an asked one among them: the move as
            # recorded and the one asked about may cut off different stacks).
            held = [a for a in list(st.ask) + self.shown if a not in occ and a in self.lifted
                    and any(not self._differs(st, occ | {a}, r) for r in self.rivals)]
            if len(held) > 1:  # the one no rival cuts off
                held = [a for a in held if any(
                    a not in self._to_clear(st.board, r) for r in self.rivals)]
            if len(held) == 1:
                st.message = _("{space}: now set it back").format(space=SPACES[held[0]])
                if held[0] in self._kept_off(st) and all(
                        held[0] in self._to_clear(st.board, r) for r in self.rivals):
                    # Cleared with what every answer cuts off (the player following the
                    # "remove" shown before): no lift can show it now, so it is asked back.
                    st.missing = held[:1]
                    st.message = _("put the stack back on {space}").format(space=SPACES[held[0]])
                return True
            return None  # anything else: read the board afresh
        chosen = [c for c, s in zip(self.rivals, self.spaces()) if s == self.answer]
        if not chosen:
            return None
        if self.narrowed(st, chosen):
            return True  # the next answer decides
        cand = self._unasked_kept(chosen)
        mine = self.faults.seen(cand.stacks)
        if self._differs(st, occ, cand):
            # The board is not as the answer says (beyond whether its cut-off stacks are
            # cleared yet): a stack carried over or onto an asked one dips its reading like a
            # lift, so this is no answer; the board is read afresh.
            self.answer, self.lifted = None, set()
            return None
        return cand, occ == mine

    def _cleared(self, st, occ):
        """Asked about one ply whose landing stack it cuts off itself: the player clearing
        that stack with the others it cuts off (and nothing else changed) answers "yes" (a
        lift and set-back is no way to answer then). So does that stack alone, when it is
        the only one cut off, kept off its space for longer than an answer's lift (default
        12-bit m1.0 seed 22: a3, cleared, was waited for to be set back for ever). The
        candidate, or None."""
        cand = self.rivals[0]
        if cand.kind != "commit" or len({c.key for c in self.rivals}) != 1:
            return None
        cut = self._cut_off(st.board, cand)
        mine = self.faults.seen(cand.stacks)
        gone = mine - occ
        if (any(a in cut and a in gone for a in st.ask)
                and (len(gone) >= 2 or gone <= self._kept_off(st))
                and gone <= cut and not occ - mine):
            return cand
        if st.ask and all(a in cut and not cand.stacks[a] for a in st.ask) and occ == mine:
            return cand  # (asked after it was cleared: the board stands exactly so)
        return None

    def _kept_off(self, st) -> set:
        """The asked spaces lifted and kept off for longer than an answer's lift."""
        return {a for a in self.lifted
                if st.time - self.lifted_at.get(a, st.time) > SHOWN_AFTER * self.ask_after_s}

    def _differs(self, st, occ, cand) -> set:
        """The spaces where the occupancy `occ` is not as `cand` leaves the board, beyond
        whether the stacks it cuts off (also those cut off before it, still standing) are
        cleared yet."""
        return (occ ^ self.faults.seen(cand.stacks)) - self._to_clear(st.board, cand)

    def _to_clear(self, board, cand) -> set:
        """The spaces whose stacks are to be cleared after `cand`: those its plies cut off
        and those cut off before it, still standing (`pending`)."""
        return self._cut_off(board, cand) | set(cand.pending)

    @staticmethod
    def _cut_off(board, cand) -> set:
        """The spaces whose stacks `cand`'s plies cut off (they may or may not be cleared)."""
        moves = [p for p in cand.plies if not p.is_pass]
        sources = {p.src for p in moves if p.is_move}
        return {s for s in range(N_SPACES) if not cand.board.height(s) and s not in sources
                and (board.height(s) or any(p.dst == s for p in moves))}


def landing(cand):
    """The space a rival's answer is lifted from: its last landing, or, for the recorded
    position as it stands (a provisional move left as it is), that move's own landing (the
    recorded move is one of the answers, or a question left it out)."""
    if (cand.kind == "match" and not cand.amends and not cand.plies
            and cand.board.move_stack and cand.board.move_stack[-1].is_move):
        return cand.board.move_stack[-1].dst
    return cand.last_dst
