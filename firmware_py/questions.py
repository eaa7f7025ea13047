"""Questions to the player: "which did you land on?", never a guess.

When several candidates explain a settled board about as well (`Decision.rivals`), the board
asks: the spaces where the rivals' plies land (`state.ask`) flash cyan. The player answers by
lifting the stack they landed on and setting it back (seen on every frame, however quickly:
`watch`), or by pressing confirm, which takes the first asked space (the likeliest, or the one
whose sensor is faulty: a lift cannot be seen there, so that space is lit apart, `ask_faulty`).

More kinds of question:

- a landing too faint to tell from a hand still holding the stack: asked only after the board
  has been still for longer than a hand holds a stack (`ambiguous`), and only when another
  landing fits about as well; when the one landing's only rival is its stack not set down yet,
  it is taken instead, left open until another stack is touched (`set_down_unseen`);
- a stack still read as not set down (in the hand, held above its source, knocked aside) on a
  board still for longer than anyone holds one: the legal landings that fit (`held_long`);
- a ply whose evidence rests on a faulty sensor: "did you play e3f3?" (`ask_blind`);
- a board standing exactly as one ply would leave it but reading too far from the model to take
  it unasked (`ask_as_it_stands`): "did you play e3f3?"; confirm records it and takes the board
  as it stands for its reference (`confirmed_snapshot`), so what read differently (drift, a
  piece off its place) is learned rather than asked about again.

`Questions` keeps the open question; how the player's answer is read is `answers.Answers`
(a part of it), and the answer is committed by `decisions.Decisions.resolve`.
"""

from __future__ import annotations

from .faults import names
from .i18n import _
from .candidates import Decision
from .answers import Answers, landing
from .landing_wait import HELD_KINDS, LandingWait
from .spaces import SPACES

REACH = 1.5
"""A rival the readings have just ruled out stays in the question this long (in `ask_after_s`):
a player who saw its space lit reacts in up to about a second and lifts the stack a moment
later, and the question must not change under that hand (rough 12-bit bad seed 213: "g2 or
g3?" became "c2, b1, b3, a2 or a1?" 0.4 s before g2 was lifted to answer)."""
LANDINGS = ("commit", "illegal")
NOT_LANDED_KINDS = ("lifted", "match", "relift", "badlift")


class Questions(LandingWait, Answers):
    """The open question, if any.

    rivals: the candidates being asked about (empty: no question); index: the ply on which
    they differ (None: their last destinations); answer: the asked space the player lifted and
    set back; lifted: asked spaces seen empty since the question; unsure_since: when the board
    first settled unsure whether a stack had landed.
    """

    def __init__(self, inference, cal, faults, ask_after_s: float):
        self.inference = inference
        self.cal = cal
        self.faults = faults
        self.ask_after_s = ask_after_s
        self.rivals: list = []
        self.index: int | None = None
        self.answer: int | None = None
        self.lifted: set[int] = set()
        self.lifted_at: dict[int, float] = {}  # when each asked space was first seen lifted
        self.unsure_since: float | None = None
        self.seen = None  # the last snapshot read unsure (`moved_on`)
        # Unsure, a stack not set down fitted best on a board still for `hold_s`: no landing
        # is taken unseen (`set_down_unseen`) until the board is sure again.
        self.doubted = False
        self.unsure_of_move = False  # ... and a rival then changed the recorded move
        self.whether = False  # the question is whether a stack landed at all
        self.still: float | None = None  # ... asked on this still board (its stable_since)
        self.held: tuple | None = None  # (source, since, last snapshot): `held_for`
        self.alone_since: tuple | None = None  # (space, since): `_waited_alone`
        self.as_it_stands = False  # confirm takes the board as it stands (`ask_as_it_stands`)
        self.known: list = []  # (ply index, space): answers given, the question narrowed
        self.before: list = []  # the recorded last move, when a rival changes it (`_moves`)
        self.fading: dict = {}  # rival key -> when the readings first ruled it out (`REACH`)
        self.shown: list[int] = []  # an unlit space whose lift also answers (`shown_there`)

    def clear(self) -> None:
        """No question open."""
        self.rivals, self.answer, self.whether, self.as_it_stands = [], None, False, False
        self.known, self.shown = [], []
        self.fading = {}

    # -- asking ------------------------------------------------------------------------------
    def ambiguous(self, st, d: Decision, snap):
        """Several meanings fit: ask, or wait a little when one of them is "not landed yet".
        Returns a stack-in-the-hand candidate to show meanwhile, or None."""
        rivals = d.rivals
        if st.mode == "asking" and self.known:
            # Half answered (the later ply's landing shown, the earlier one's asked): the
            # question stays, narrowed to what agrees with that answer, until it is answered
            # (the stack shown there was lifted and set back: its reading says nothing now).
            self.ask(st, rivals, candidates=d.candidates)
            return None
        if any(c.kind in NOT_LANDED_KINDS for c in rivals):
            # A landing too faint to tell from a hand holding the stack: wait a little (a hand
            # moves on), then ask; longer while the stack in the hand fits best (a player
            # deciding where to put it).
            lifted = [c for c in rivals if c.kind in HELD_KINDS]
            wait = self.inference.hold_s
            if rivals[0].kind in HELD_KINDS:
                wait = max(wait, 2.0 * self.ask_after_s)
            if self.unsure_since is None:
                self.unsure_since = snap.stable_since
                self.unsure_of_move = False
            # (Unsure about the recorded move, not only about another stack in the hand: the
            # rivals disagree on it. All changing it alike, it is the next stack in doubt.)
            self.unsure_of_move |= len({c.plies[:1] if c.amends else None
                                        for c in rivals}) > 1
            # Timed from the first still moment it was unsure (a still board that only looked
            # creeping for a moment is still the same question).
            aloft = rivals[0].hover is not None and rivals[0].hover[0] == rivals[0].src
            # (Held still above its source fits best: in the hand, not landed: nothing to ask
            # until no hand holds a stack that still for that long, `held_s`.)
            if (snap.time - self.unsure_since >= (self.held_s if aloft else wait)
                    and self._ask_landings(st, d, ("commit",) if aloft else LANDINGS)):
                self.still = snap.stable_since
                return None
            if lifted and st.mode != "lifted":
                return lifted[0]
            return None
        self.unsure_since = None
        # (One meaning alone: a change to the recorded move held back for the player's word,
        # the move as recorded ruled out by the board: "did you land on it?")
        self.ask(st, rivals, single=len({c.key for c in rivals}) == 1, candidates=d.candidates)
        return None

    def held_long(self, st, d: Decision, snap, relook=None) -> bool:
        """The best meaning of a board still for `held_s` is still a stack not set down (in
        the hand, held above its source, knocked aside): it may have been set down where it
        reads fainter than its model (a tall stack, a piece off its centre), and then only the
        player can say. The legal landings that fit (and the recorded move as it stands, when
        its stack is read as lifted again) are asked about, never taken (confirm, or lift
        it and set it back, answers; set down elsewhere, it is read afresh). When none fits
        strictly, `relook(d, snap)` (`d` with its landings scored again, positions left open) is
        asked about: rough 12-bit bad m0.6 seed 9, j2k3 set down off centre read an eighth of
        its model, chi2 408 against 81 for j2 lying aside, and the board showed j2 lifted for
        13 s while the player waited, then went on: stuck. True when asked; False when the
        board has not been still for so long or no landing fits at all."""
        if (d.best is None or d.best.kind not in HELD_KINDS
                or self.held_for(d, snap) < self.held_s):
            return False
        if d.best.amends:  # the recorded move's stack read as lifted again: as it stands too
            d = Decision(d.kind, d.best, list(d.rivals) + d.as_recorded(), d.candidates)
        asked = self._ask_landings(st, d, ("commit",))
        stands = [c for c in d.rivals if c.kind == "match" and landing(c) is not None]
        if not asked and stands:  # no other landing fits: whether it landed as recorded
            self.ask(st, stands, single=True, candidates=d.candidates)
            self.whether = asked = st.mode == "asking"
        if not asked and not stands and relook is not None and not self._fits(d):
            asked = self._ask_landings(st, relook(d, snap), ("commit",))
        if asked:
            self.still = snap.stable_since
        return asked

    def _waited_alone(self, st, space: int) -> float:
        """Seconds the board has waited with `space` the only one left to ask about."""
        if self.alone_since is None or self.alone_since[0] != space:
            self.alone_since = (space, st.time)
        return st.time - self.alone_since[1]

    def _fits(self, d: Decision) -> bool:
        """Whether a landing ('commit') among `d`'s candidates fits at all."""
        return any(c.chi2 <= self.inference.fit_limit
                   for c in d.candidates if c.kind == "commit")

    def _ask_landings(self, st, d: Decision, kinds=LANDINGS) -> bool:
        """Ask about the landings (of `kinds`) that fit best ("did you land on it?" is a fair
        question when the stack may still be in the hand); False when none fits at all."""
        landings = [c for c in d.candidates if c.kind in kinds]
        if not landings or landings[0].chi2 > self.inference.fit_limit:
            return False
        top = landings[0].chi2
        rivals, seen = [], set()
        for c in landings:
            if c.chi2 - top < self.inference.margin and c.key not in seen:
                seen.add(c.key)
                rivals.append(c)
        # The recorded move standing as it is (a provisional landing not changed) is one of
        # the answers: its landing is asked about first (confirm leaves it as it is).
        stands = [c for c in d.rivals if c.kind == "match" and not c.amends
                  and landing(c) is not None]
        self.ask(st, stands[:1] + rivals, single=True, candidates=d.candidates)
        self.whether = st.mode == "asking"
        return self.whether

    def ask(self, st, rivals, single: bool = False, candidates=()) -> None:
        """Ask which of `rivals` happened. A question already open is narrowed to what is
        still possible: of its rivals, those still among the board's `candidates` (read
        afresh) within twice the margin of the best, and those whose space the player has
        begun to answer on (lifted, or lifted and set back), stay with the new ones. (A
        question stays steady while readings waver at the margin, and the spaces of what no
        longer fits are never lit on.)"""
        again = st.mode == "asking" and bool(self.rivals)
        if again:
            under_way = self.lifted | {self.answer}
            top = min((c.chi2 for c in candidates), default=0.0)
            read = {c.key: c for c in candidates}
            still = {k: c for k, c in read.items() if c.chi2 - top < 2 * self.inference.margin}
            keys = {c.key for c in rivals}
            for c, s in zip(self.rivals, self.spaces()):
                if c.key not in keys and (c.key in still or s in under_way
                                          or self._reaching(c, read, rivals, st.time)):
                    keys.add(c.key)
                    rivals = rivals + [read.get(c.key, c)]
        else:
            self.fading = {}
        # Ask about the last ply on which the rivals differ: the player who made it answers by
        # lifting the stack they landed on (two quick plies in an unknown order: the later).
        # (Rivals that change the last recorded move are compared with the others' plies
        # after that move: the same ply number is the same player's.)
        kept = self.before  # (the open question's, should this one not be asked)
        if not self.known:  # (what the player has answered is counted from the same move)
            self.before = (st.board.move_stack[-1:] if any(c.amends for c in rivals) else [])
        if self._about_the_recorded_landing(rivals):
            rivals = rivals + self._all_kept_with(rivals, candidates)
        else:  # (each change of the recorded move read on drifting sensors: with it kept)
            rivals = rivals + self._kept_on_drift(rivals, candidates, st.board)
        if self.known:  # only those that agree with what the player has answered so far
            agreeing = [c for c in rivals if self._agrees(c)]
            if again and not agreeing:
                # Read afresh, nothing agrees with the answer given (the stack shown, lifted
                # and set back, reads anywhere): readings are no answer, the question stands
                # (rough 12-bit bad m0.6 seed 5: "k4 or j4?" after f4 was shown became "k4,
                # j4, f4, g5 or e4?", and f4 shown again kept j3j4 unasked, a wrong ply).
                self.before = kept
                return
            rivals = agreeing or rivals
        moves = [self._moves(c) for c in rivals]
        n = min(len(m) for m in moves)
        idx = next((i for i in reversed(range(n)) if len({m[i] for m in moves}) > 1), None)
        if idx is None or any(c.kind == "illegal" for c in rivals):
            idx = None  # (their last landings: `spaces` reads the answer so too)
            spaces = [landing(c) for c in rivals]
        else:
            spaces = [m[idx].dst for m in moves]
        # A space that every rival's later ply landed on says nothing when lifted (the later
        # ply's player takes the question for theirs): not asked.
        later = set() if idx is None else set.intersection(
            *({m[j].dst for j in range(idx + 1, len(m))} for m in moves))
        ask = []
        for s in spaces:
            if s is not None and s not in ask and s not in later:
                ask.append(s)
        blind = [s for s in ask if s in self.faults]
        # One space left because the other meaning landed where the later ply did: after
        # `held_s` of waiting for the board to decide, asked alone (its lift there answers
        # "not here, there", `shown_there`). Waiting for ever, nothing was asked (rough
        # 12-bit m1.0 seed 83, e3b3 or e3h3 under j3h3, stuck); asked at once, it asked
        # what the board decides itself a moment later (`test_controller_went_on`, seed 61).
        alone = len(ask) == 1 and any(s in later for s in spaces if s is not None)
        if alone and self._waited_alone(st, ask[0]) < self.held_s:
            alone = False
        if len(ask) < (1 if single or blind or alone else 2):  # a lift could not tell: wait
            self.before = kept
            return
        self.alone_since = None
        ask = blind[:1] + [s for s in ask if s not in blind[:1]]  # confirm: the blind one
        self.as_it_stands = False
        self.rivals = rivals
        self.index = idx
        self.shown = self.shown_there(rivals, spaces, ask, later)
        if not again:
            self.answer = None
            self.lifted = set()
        else:  # (an answer under way on a space no longer asked about is none)
            self.lifted &= set(ask + self.shown)
            if self.answer not in ask + self.shown:
                self.answer = None
        st.clear_marks()
        st.mode = "asking"
        st.ask = ask
        st.ask_faulty = blind[:1]  # what confirm answers, lit apart
        st.message = _("which did you land on: {spaces}? lift it and set it back (or press "
                       "confirm for {space})").format(spaces=names(ask), space=SPACES[ask[0]])
        if len(ask) == 1:
            st.message = _("did you land on {space}? press confirm, or lift it and set it back"
                           ).format(space=SPACES[ask[0]])
        if blind and ask[1:]:
            st.message = _("did you land on {space} (its sensor is faulty)? press confirm; or "
                           "lift the one you landed on, {spaces}, and set it back").format(
                               space=SPACES[ask[0]], spaces=names(ask[1:]))
        elif blind:
            st.message = _("did you land on {space} (its sensor is faulty)? press confirm"
                           ).format(space=SPACES[ask[0]])

    def _reaching(self, cand, read: dict, rivals, now: float) -> bool:
        """Whether `cand`, a landing the readings (`read`: the candidates by key) rule out
        now, is still within `REACH` of when they first did (a hand may be on its way to
        answer it). Only another landing of as many plies as the new `rivals`' first: not a
        stack set down where it may not go, nor a meaning the board has moved on from (the
        next stack moved since)."""
        if (cand.kind != "commit" or cand.key not in read or not rivals
                or cand.board.ply_count != rivals[0].board.ply_count):
            return False
        since = self.fading.setdefault(cand.key, now)
        return now - since < REACH * self.ask_after_s

    @staticmethod
    def _about_the_recorded_landing(rivals) -> bool:
        """Whether every one of `rivals` changes the recorded move and all add the same plies
        after it: the question is then about where the recorded move landed, and the move as
        recorded belongs among its answers (`_all_kept_with`). Not when they differ in a later
        ply: that question is about the later landing, where each rival's twin keeping the
        move lands too, so no lift could tell the two apart and the tie went to the move as
        recorded, which the readings had ruled out (poor rough 12-bit m0.3 seed 208: "d2, h4,
        h2 or f4?" about f2's landing, g3h4 read far off, h4 shown and never taken, then
        g3h4 kept: a wrong ply and a stuck game)."""
        return (all(c.amends for c in rivals)
                and len({c.plies[1:] for c in rivals}) == 1)

    def _all_kept_with(self, rivals, candidates) -> list:
        """For each of `rivals`, the recorded move kept with the same later plies
        (`_kept_with`: one each, of its kind), none twice (rough 12-bit bad m0.6 seed
        14: b2c3, landed off centre and read as lifted again, then c1c2; "b3 or a2?" left c3
        unlit, the player showed c2 and b2c2 was recorded; now "b3, a2 or c3?")."""
        keys = {c.key for c in rivals}
        kept = []
        for c in rivals:
            for k in self._kept_with(c, candidates):
                if k.key not in keys:
                    keys.add(k.key)
                    kept.append(k)
        return kept

    @staticmethod
    def _kept_with(cand, candidates) -> list:
        """A meaning asked about (alone, or among others that all change the recorded move
        and add the same plies) that changes the recorded move and adds a ply after it: the
        recorded move kept with that same ply (from `candidates`, of the same kind), as a list
        of at most one. Asked alone, the question would be about the later ply's landing, and
        its answer would change the recorded move unasked (rough 10-bit bad m0 seed 208: "did
        you land on i2?" about j2's landing took h1i2 for h1i1, i2 being the landing of both);
        with it, the question is about where the recorded move landed."""
        if not cand.amends or len([p for p in cand.plies if not p.is_pass]) < 2:
            return []
        return [c for c in candidates if not c.amends and c.kind == cand.kind
                and c.plies == cand.plies[1:]][:1]

    def _kept_on_drift(self, rivals, candidates, board) -> list:
        """Rivals changing the recorded move and adding plies after it, its landing or theirs
        read by a sensor drifting unsure (`Drift.unsure`): the recorded move kept with the same
        later plies, for those not among `rivals`. The readings cannot rule it out, and an
        answer about the later ply would change the move unasked (drift 6 mT a minute, rough
        12-bit m0.3 seed 2: "i3, j2, i2 or b4?" about j3's landing, b3b4 as recorded left out
        at 141 against b3a2 j3i3 at 120: i3 shown, "b3b4 changed to b3a2", a wrong ply)."""
        unsure = self.inference.drift_unsure
        last = board.move_stack[-1] if board.move_stack else None
        if not unsure or last is None or not last.is_move:
            return []
        keys = {c.key for c in rivals}
        kept = []
        for c in rivals:
            if not c.amends or not c.plies or not c.plies[0].is_move:
                continue
            if unsure[last.dst] <= 0 and unsure[c.plies[0].dst] <= 0:
                continue
            for k in self._kept_with(c, candidates):
                if k.key not in keys:
                    keys.add(k.key)
                    kept.append(k)
        return kept

    def ask_blind(self, st, cand, blind: list[int]) -> None:
        """Ask the player to confirm `cand` (a lift cannot be seen on a faulty sensor)."""
        if st.mode == "asking" and [c.key for c in self.rivals] == [cand.key]:
            return  # the question stands
        self.rivals, self.index, self.answer, self.lifted = [cand], None, None, set()
        self.shown = []
        self.as_it_stands = False
        st.clear_marks()
        st.mode = "asking"
        st.ask = list(blind)
        st.ask_faulty = list(blind)
        plies = " ".join(str(p) for p in cand.plies if not p.is_pass)
        st.message = _("did you play {plies}? the sensor of {spaces} is faulty: press confirm "
                       "if so").format(plies=plies, spaces=names(blind))

    def ask_as_it_stands(self, st, cand, misfits: list[int]) -> None:
        """The board stands as `cand`'s one ply would leave it, and as nothing else, but reads
        too far from the model (`misfits`: where most) to take it unasked: ask whether it was
        played, its landing space lit (confirm, or lift it and set it back, answers; only confirm
        when the ply lands where the recorded last move did, `Answers.lift_answers`)."""
        if st.mode == "asking" and [c.key for c in self.rivals] == [cand.key]:
            return  # the question stands: never asked afresh
        self.rivals, self.index, self.answer, self.lifted = [cand], None, None, set()
        self.shown = []
        self.as_it_stands = True
        st.clear_marks()
        st.mode = "asking"
        st.ask = [cand.last_dst]
        st.ask_faulty = [s for s in st.ask if s in self.faults]
        st.error = [s for s in misfits if s != cand.last_dst]
        plies = " ".join(str(p) for p in cand.plies if not p.is_pass)
        if st.error:
            st.message = _("did you play {plies}? the board reads {spaces} differently from "
                           "what it expects: press confirm if so, and it takes the board as it "
                           "stands").format(plies=plies, spaces=names(st.error))
        else:
            st.message = _("did you play {plies}? the board reads it only roughly: press "
                           "confirm if so, and it takes the board as it stands").format(
                               plies=plies)
