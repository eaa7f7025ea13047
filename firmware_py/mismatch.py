"""When the board and the game disagree: what is wrong, where, and the way back.

- Something illegal at once (a stack that may not move lifted, a stack set down on an empty
  space, the wrong piece placed): `error` on those spaces until corrected.
- Nothing fits for `unexplained_s` of stillness: `unexplained`, with the spaces `missing` (a
  stack belongs here) and `extra` (this should be empty) until the board matches again.
- The right stacks on the right spaces but a field that disagrees (a piece swapped for another
  of its kind): shown, and after a while more taken as it is (`resync`), relearning the pieces.
- After a takeback, or a resumed game: the pieces are rebuilt as the LEDs show (`rebuilding`);
  only the position taken back to counts, never the ply played again.

Every disagreement has one way out for the player, besides putting the pieces right:

- the right stacks on the right spaces, some reading differently (a stack set back off its
  place, a sensor drifted): confirm takes the board as it stands (`accept`): those spaces'
  references are learned again, no sensor is marked faulty and nothing is recorded (when
  they include where the last move went or could have gone, `doubt`: the move's alternatives
  are checked first, and one that fits is asked about instead);
- the board standing exactly as one ply would leave it, but reading too differently from the
  model to take it unasked (`unclear`): the player is asked whether they played it;
- one space alone off (a piece seen where none is, or none where one is): its sensor is offered
  as a suspect (`FaultWatch.offer`), and confirm plays on without it.
"""

from __future__ import annotations

from .faults import names
from .i18n import _
from .candidates import Candidate, Decision
from .last_move import elsewhere, last_move_spaces
from .rules import BLACK, WHITE, Board
from .spaces import N_SPACES, NEIGHBOURS, SPACES



class Mismatch:
    """since: when the board first settled unexplained; marks: (lost, extra) of the last
    decision; rebuilding: after a takeback, until the board shows the position again; accept:
    the recorded position as the board stands, which confirm takes (None: not offered)."""

    def __init__(self, inference, reference, faults, unexplained_s: float, stats: dict):
        self.inference = inference
        self.reference = reference
        self.faults = faults
        self.unexplained_s = unexplained_s
        self.stats = stats
        self.since: float | None = None
        self.marks: tuple[list, list] = ([], [])
        self.rebuilding = False
        self.accept: Candidate | None = None
        # The still board (its stable_since) on which the last move was checked against its
        # alternatives and none fitted: it may be taken as it stands (`doubt`).
        self.cleared: float | None = None

    def clear(self) -> None:
        self.since = None
        self.marks = ([], [])
        self.accept = None
        self.cleared = None

    def due(self, time: float, moving: bool) -> bool:
        """The board has stayed unexplained long enough to show it (checked per frame)."""
        return (self.since is not None and not moving
                and time - self.since >= self.unexplained_s)

    def overdue(self, st, d: Decision | None, snap, pending) -> Decision | None:
        """Unexplained for `unexplained_s` between two still boards (`due`, per frame): what
        `unexplained` does on the next one, now. When the last still board (`d`) stands as one
        ply alone (`unclear`), `d` is returned for the caller to ask about (the board
        cleared); else the difference is shown (None). (Shown first, "put back i5" lit for a
        quarter of a second before "did you play i5h5?", a different instruction, which a
        player reading the first acts on: rough 12-bit m1.0 seed 2.)"""
        if d is not None and d.kind == "unexplained" and self.unclear(d) is not None:
            self.clear()
            return d
        self.show(st, snap, pending)
        return None

    def unexplained(self, st, d: Decision, snap, pending):
        """Nothing was decided on `snap`. Shows an error or the difference; returns 'held'
        when the best meaning is a stack in the hand (the caller shows it), 'resync' when the
        board was taken as it is (the caller makes it the reference), 'unclear' when the board
        stands as one ply alone would leave it, too far off the model to take unasked (the
        caller asks the player whether they played `d.best`), 'doubt' when the spaces that read
        differently include where the last move went or could have gone (the caller checks its
        alternatives before the board may be taken as it stands; where it could have gone
        instead, at once), else None."""
        bad = d.illegal_lift
        if (st.mode == "unexplained" and d.best is None and not bad
                and set(d.extra) <= set(st.extra) and set(d.lost) <= set(st.missing)):
            # The difference shown already names these spaces: the same still board read
            # afresh is no new error (shown as one, the difference came back on the next frame:
            # the two texts flipped every 0.35 s for ever, issue 19).
            return None
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
            st.message = error_text(st.board, d)
            self.stats["errors"] += 1
            if (not bad and not d.lost and len(d.extra) == 1
                    and snap.time - snap.stable_since >= self.unexplained_s):
                st.message += self.faults.offer(d.extra[0])  # nothing the player can take off?
            return None
        if d.best is not None and d.best.kind in ("lifted", "relift"):
            return "held"  # held above the board
        if self.since is None:
            self.since = snap.stable_since
        self.marks = (d.lost, d.extra)
        waited = snap.time - self.since
        if (d.best is not None and d.best.kind == "match" and not d.best.amends
                and waited < self.unexplained_s and st.mode != "error"
                and self.cleared != snap.stable_since and set(self.reference.misfits(
                    self.inference, d.best, snap)) & elsewhere(st.board)):
            # Misfits where the last move could have gone instead: checked at once, before
            # the next player's hand comes near (a hand that hovered above one landing for
            # longer than it holds still, the move final, then set the stack down on another).
            return "doubt"
        if d.best is not None and d.best.kind == "match" and (
                waited >= self.unexplained_s or st.mode == "error"):
            # Right stacks on the right spaces, but the field disagrees: show where, and after
            # a while more take the board as it is (a piece swapped for another of its kind);
            # meanwhile the player may say it is right (confirm: `accept`). At once after an
            # error put right (a stack knocked and set back): the error shown is over, and
            # the player, sure the stacks are right, says so now.
            misfits = self.reference.misfits(self.inference, d.best, snap)
            if (not d.best.amends and self.cleared != snap.stable_since
                    and set(misfits) & last_move_spaces(st.board)):
                # Misfits where the last move went, or could have gone: that move may be
                # wrong, and taking the board as it stands would keep it (the caller checks
                # its alternatives first, then `cleared` this still board).
                return "doubt"
            if (waited >= 2 * self.unexplained_s and not self._drifting(misfits)
                    and self.resync(d.best, snap)):
                return "resync"
            self.show(st, snap, pending)
            st.error = misfits[:3]
            if st.error and not d.best.amends:
                self.accept = d.best
                st.message = accept_text(st.error)
            return None
        if ((waited >= self.unexplained_s or st.mode in ("asking", "unexplained"))
                and self.unclear(d) is not None):
            # A question, not a difference to show: kept while the board stands so (the same
            # question is never asked afresh, `Questions.ask_as_it_stands`); at once when a
            # difference is shown (rough 12-bit m1.0 seed 1: "take off b1" for 1.4 s, then
            # "did you play b1?": the first undoes the ply the second asks about).
            self.clear()
            return "unclear"
        if st.mode == "unexplained" or waited >= self.unexplained_s:
            self.show(st, snap, pending)
        return None

    def unclear(self, d: Decision) -> Candidate | None:
        """The one ply (a placement or a move, with forced passes) the board stands exactly as,
        and as nothing else (every candidate within the margin means the same), but reading
        too far from the model to be taken without the player's word: the best candidate.
        When nothing fits and a set-down where the stack may not go fits least badly, the
        best legal landing of that stack instead (the same spaces occupied), clear of every
        other by the margin: the player can say whether they played it, but cannot take off
        a stack that is not there, and "put back" the source undoes a move that may stand
        (rough 12-bit m1.0 seed 2: i5 set down on h1 by mistake pushed h1 off its place, then
        set on h5; i5->h1 fitted least badly, chi2 3900 against 5800, both far off)."""
        best = d.best
        if best is not None and best.kind == "illegal":
            best = next((c for c in d.candidates if c.kind == "commit"
                         and [p.src for p in c.plies if p.is_move][-1:] == [best.src]), None)
            if best is None or any(c.key != best.key and c.chi2 - best.chi2 < self.inference.margin
                                   for c in d.candidates if c.kind == "commit"):
                return None
        elif best is None or any(c.key != best.key for c in d.rivals):
            return None
        if best.kind != "commit" or best.amends:
            return None
        if len([p for p in best.plies if not p.is_pass]) != 1:
            return None
        return best

    def as_it_stands(self, d: Decision, snap) -> tuple[Candidate, list[int]]:
        """The ply to ask about (`unclear`), and where the board reads farthest from it."""
        cand = self.unclear(d)
        return cand, self.reference.misfits(self.inference, cand, snap)[:3]

    def take(self, snap) -> Candidate | None:
        """The player confirmed the board as it stands (`accept`): relearn the spaces that read
        differently, as `resync` does. Returns the candidate taken (the caller makes `snap`
        its reference), None when the board cannot be taken as it is."""
        cand, self.accept = self.accept, None
        if cand is None or snap is None:
            return None
        if self.inference.occupancy(snap.values) != self.faults.seen(cand.stacks):
            return None  # the board changed since it was offered
        return cand if self.resync(cand, snap) else None

    def illegal(self, st, cand) -> None:
        """A stack that may not move in the hand ('badlift'), or set down where it may not go
        ('illegal'): an error there until corrected."""
        self.clear()
        st.clear_marks()
        st.mode = "error"
        if cand.kind == "badlift":
            st.error = [cand.src]
            # (Read with the last move changed, `held_cut_off`: why not, after that move.)
            st.message = not_movable_text(cand.board if cand.amends else st.board, cand.src)
        else:
            st.lifted = cand.src
            st.destinations = st.board.destinations(cand.src)
            st.error = [cand.dst]
            st.message = _("the stack from {source} may not go to {space}: take it off again"
                           ).format(source=SPACES[cand.src], space=SPACES[cand.dst])
        self.stats["errors"] += 1

    def resync(self, cand, snap) -> bool:
        """Take `snap` as showing `cand` (a match by occupancy) when every stack reads with its
        bottom piece's polarity; relearn the bottom pieces that changed."""
        if cand.amends:
            return False  # never taken as a takeback on the strength of the field alone
        stacks = cand.stacks
        trusted = self.faults.seen(stacks)
        if self.reference.wrong_polarity(snap.values, stacks, trusted):
            return False
        for s in self.reference.misfits(self.inference, cand, snap):
            if s in trusted:
                self.reference.relearn(s, snap.values, stacks)
        self.reference.cal.changed()
        self.stats["resyncs"] += 1
        return True

    def _drifting(self, spaces) -> bool:
        """Whether a sensor of `spaces` drifts faster than the board vouches for
        (`Drift.unsure`): its misfit may be a stack moved, read against a stale baseline, so
        the board is not taken as it stands without the player's word (drift 6 mT a minute,
        default 12-bit m0.3 seed 2: d2 lifted for d2g2 still read a stack against a baseline
        6 mT stale, the board taken as it stood, 5 wrong plies)."""
        unsure = self.inference.drift_unsure
        return bool(unsure) and any(unsure[s] > 0 for s in spaces)

    def show(self, st, snap, pending) -> None:
        """`unexplained`: the spaces missing and extra, lit, and in the message."""
        lost, extra = self.marks
        if not lost and not extra:
            lost, extra = self.difference(st.board, snap, pending)
        st.clear_marks()
        if st.mode != "unexplained":
            self.stats["resyncs"] += 1
        st.mode = "unexplained"
        st.missing, st.extra = list(lost), list(extra)
        if not lost and not extra and snap is not None and self.reference.values is not None:
            # Every stack where it belongs, but some read wrong: name and light those.
            st.error = self.reference.misfits(self.inference, self.recorded(st.board, pending),
                                              snap)[:3]
        st.message = _("the board does not match the game: {difference}").format(
            difference=difference_text(st))
        if len(lost) + len(extra) == 1:
            st.message += self.faults.offer((list(lost) + list(extra))[0])

    @staticmethod
    def recorded(board: Board, pending):
        """The recorded position as a candidate (cut-off stacks `pending` still standing)."""
        stacks = board.stacks()
        for s, stack in pending.items():
            stacks[s] = stack
        return Candidate("match", (), board, stacks, frozenset(pending))

    def difference(self, board: Board, snap, pending) -> tuple[list, list]:
        """(missing, extra): the spaces whose occupancy differs from the game's."""
        if snap is None:
            return [], []
        occ = self.inference.occupancy(snap.values)
        expected = {s for s in range(N_SPACES) if board.height(s)} | set(pending)
        expected -= set(self.faults.faulty)
        return sorted(expected - occ), sorted(occ - expected)

    def rebuild(self, st, d: Decision, snap, pending) -> None:
        """After a takeback: paused, with the differences lit (or, when the occupancy is
        right, the spaces whose field disagrees)."""
        st.clear_marks()
        st.mode = "paused"
        st.missing, st.extra = self.difference(st.board, snap, pending)
        if not st.missing and not st.extra and d.best is not None:
            st.error = self.reference.misfits(self.inference, d.best, snap)[:3]


def why_not_movable(board: Board, s: int) -> str:
    """Why the stack on `s` may not move now, in the players' words.

    >>> from firmware_py.rules import Ply
    >>> board = Board(); board.push(Ply.parse("e3"))
    >>> why_not_movable(board, board.stacks().index(("D",)))
    'pieces are still being placed'
    """
    stack = board.stacks()[s]
    if board.phase == 1:
        return _("pieces are still being placed")
    if stack == ("D",):
        return _("a DVONN piece alone never moves")
    top = {"W": WHITE, "B": BLACK}.get(stack[-1])
    if top is None:
        return _("no player controls it")
    if top != board.turn:
        return (_("it is white's and black is to move") if top == WHITE else
                _("it is black's and white is to move"))
    stacks = board.stacks()
    if len(NEIGHBOURS[s]) == 6 and all(stacks[n] for n in NEIGHBOURS[s]):
        return _("it is surrounded on all 6 sides")
    return _("a stack of {height} has no space to land on").format(height=len(stack))


def not_movable_text(board: Board, s: int) -> str:
    return _("the stack on {space} may not move now ({why}): put it back").format(
        space=SPACES[s], why=why_not_movable(board, s))


def error_text(board: Board, d: Decision) -> str:
    """The message for something illegal on the board."""
    if d.illegal_lift:
        return not_movable_text(board, d.illegal_lift[0])
    if board.phase == 1 and len(d.extra) == 1:
        text = {"W": _("{space}: wrong piece, a white piece is to be placed"),
                "B": _("{space}: wrong piece, a black piece is to be placed"),
                "D": _("{space}: wrong piece, a DVONN piece is to be placed")}
        return text[board.piece_to_place()].format(space=SPACES[d.extra[0]])
    return _("nothing may be set down on {spaces}: take it off").format(spaces=names(d.extra))


def accept_text(spaces) -> str:
    """The way out when the right stacks stand on the right spaces but some read differently."""
    return _("{spaces} read differently from the game (set back off its place, a piece missing "
             "from a stack, or one too many?): if the stacks there are right as they stand, press "
             "confirm and the board takes them as they are").format(spaces=names(spaces))


def difference_text(st) -> str:
    """'put back a1; take off c3' from the state's missing and extra spaces (or the spaces
    that read wrong, `error`)."""
    parts = []
    if st.missing:
        parts.append(_("put back {spaces}").format(spaces=names(st.missing)))
    if st.extra:
        parts.append(_("take off {spaces}").format(spaces=names(st.extra)))
    if not parts and st.error:
        parts.append(_("check the stacks on {spaces} (they read differently from the game: a "
                       "piece missing from a stack, or one too many?)").format(
                           spaces=names(st.error)))
    return "; ".join(parts) or _("check the stacks")
