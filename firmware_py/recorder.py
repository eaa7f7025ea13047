"""Writing the game: every ply to the store before anything shows it, and the provisional landing.

A move is committed on the frame the board settles. On a tall destination a stack set down and
one held a millimetre above it read the same, so such a landing is committed *provisionally*:
until the board has been still for `ask_after_s` (a hand does not hold a stack that still), the
hand may lift the stack off again and set it down elsewhere, or back on its source, and the move
is changed (`on_undo()`, then `on_commit`) or taken back (`apply` with a candidate that
`amends`). A landing taken while its stack might still be held higher up (`unseen`) stays open
until another stack is touched, and a move asked about that the readings have ruled out until
the answer (`asked`). After that, only an explicit takeback undoes a ply.

>>> from firmware_py.rules import Board, Ply
>>> log = []
>>> r = Recorder(on_commit=log.append)
>>> board = Board()
>>> r.commit(board, [Ply.parse("e3")], asked=False)
>>> [str(p) for p in log], board.ply_count, r.stats["auto"]
(['e3'], 1, 1)
"""

from __future__ import annotations

import math
from typing import Callable

from .calibration import NEAR
from .candidates import (AMEND_CLEARED, AMEND_CLEARED_THEN_NEXT, AMEND_LAST, AMEND_NONE,
                         AMEND_THEN_NEXT)
from .i18n import _
from .last_move import elsewhere
from .rules import Board, Ply
from .spaces import SPACES


class Recorder:
    """Commits, amends and takes back plies on the recorded board.

    on_commit(ply): called before a ply is pushed (persistence: on disk before the LEDs show
    it); on_undo(): called after a ply is popped. stats: the counters it keeps (`auto`,
    `amended`; the controller adds its own).
    """

    def __init__(self, on_commit: Callable[[Ply], None] | None = None,
                 on_undo: Callable[[], None] | None = None, stats: dict | None = None):
        self.on_commit = on_commit
        self.on_undo = on_undo
        self.stats = stats if stats is not None else {"auto": 0, "amended": 0}
        # The last recorded move was recognised without asking (counted again as the move it
        # becomes when amended).
        self.last_auto = False
        # (ply count, move) of the last move recorded as the player's answer to a question
        # (`answered_last`).
        self.answered: tuple | None = None
        # The last move was recorded while its stack could still be in the hand, just above
        # its destination: until the board has been still for `ask_after_s`, lifting it off
        # again and setting it down elsewhere changes it (a hand that had only paused there).
        self.provisional = False
        self.carried = False  # the provisional move's stack was shown back in the hand

    @property
    def provisional(self) -> bool:
        return self._provisional

    @provisional.setter
    def provisional(self, value: bool) -> None:
        self._provisional = value
        self.carried = False
        self.moved_on = None  # the next player's stack, lifted after the move read changed
        # Taken although its stack might still be in the hand (`Questions.set_down_unseen`):
        # open however long the board stays still, until another stack is touched.
        self.unseen = False
        # Its landing was asked about and not answered: never changed on readings alone, nor
        # made final by another stack lifted (`touched`); `alone`: no ply on top among the
        # answers.
        self.asked_about = self.alone = False
        # A landing elsewhere has fitted best since (in doubt, not decided): `amendable`.
        self.in_doubt = False
        # Its landing asked about once it was final, the move as recorded ruled out by the
        # readings (`asked`): opened again.
        self.reopened = False

    def held_still(self) -> None:
        """The board has stood still for longer than a hand hovers: a landing that may have been
        a hand pausing above it has landed (final), unless it was taken `unseen` (its stack may
        be held higher up: open until another stack is touched)."""
        if not self.unseen:
            self.provisional = False

    def asked(self, rivals, fit_limit: float) -> None:
        """The board asks where the last move landed (`rivals`: the answers, some changing
        it): never changed on readings alone, and open until the answer however the next hand
        goes on (`asked_about`, `touched`; default 12-bit mistakes 1.0 seed 3: h4 slid over j4
        to f2, "f2 or h2?", and the next player's lift of f4 made h4j4 final). A move already
        final that fits the board not at all (beyond `fit_limit`) where a change does is
        opened again (`reopened`: the next hand read with that change, `moved_on`). Asked
        about the move alone (no ply read after it), the next stack lifted is the next
        player's, not waiting for the answer: it too is read with that change (`alone`)."""
        kept = [c.chi2 for c in rivals if not c.amends]
        change = min((c.chi2 for c in rivals if c.amends), default=math.inf)
        if not self.provisional and change <= fit_limit and all(k > fit_limit for k in kept):
            self.provisional = self.in_doubt = self.reopened = True
        # (An answer changing the move holds that one ply; one keeping it, none.)
        self.alone = all(len(c.plies) <= (1 if c.amends else 0) for c in rivals)
        self.asked_about = True

    @property
    def amendable(self) -> int:
        """How far the last move may still change, for the inference's candidates."""
        if not self.provisional:
            return AMEND_NONE
        if self.moved_on is not None:
            # (In doubt, the stack in the hand may be one the move as recorded cuts off.)
            return AMEND_CLEARED_THEN_NEXT if self.in_doubt else AMEND_THEN_NEXT
        # Read as landed elsewhere since: the stacks it cuts off may be that landing's too, so
        # the player clearing them does not make it final (nor let those readings stand).
        return AMEND_CLEARED if self.in_doubt else AMEND_LAST

    def apply(self, board: Board, cand, asked: bool) -> str:
        """Record `cand`'s plies; a candidate that `amends` first takes the last move back.
        Returns what changed for the message ('' for a plain commit)."""
        if not cand.amends:
            self.commit(board, cand.plies, asked)
            return ""
        undone = board.pop()
        if self.on_undo:
            self.on_undo()
        if self.last_auto:
            self.stats["auto"] -= 1  # counted again as the move it became
        self.stats["amended"] += 1
        self.commit(board, cand.plies, asked)
        moves = [p for p in cand.plies if not p.is_pass]
        if not moves:
            return _("{ply} taken back: the stack is on {space} again").format(
                ply=undone, space=SPACES[undone.src])
        return _("{ply} changed to {move}").format(ply=undone, move=moves[0])

    def touched(self, board: Board, space: int, held: int | None = None,
                occupied: frozenset[int] = frozenset()) -> None:
        """The stack on `space` was seen gone from it. Another stack lifted near where the
        provisional move's stack could go (within two spaces of one of its destinations) will
        read, set back, like a landing there: the move is then final, unless its stack was
        shown back in the hand (`held`: its source shown lifted; it is being carried on), or
        a stack shown in the hand after the move read changed (`moved_on`) is not set down
        yet (default 12-bit mistakes 1.0 seed 116: set down as another was lifted), or
        a stack reads on the move's source again (in `occupied`, the spaces read occupied:
        set back there, not landed), or its landing was asked about and not answered
        (`asked_about`: the answer decides, not a lift), or `space` is another of the move's
        landings and its stack may not move now (it may hold the move's stack)."""
        last = board.move_stack[-1] if board.move_stack else None
        if not self.provisional or last is None or not last.is_move:
            self.provisional = False
        elif held == last.src:
            self.carried = True  # seen carried on: open until it is set down again
        elif self.moved_on is not None:
            # A stack read in the hand after the move changed (`Controller`): open until it
            # is set down, whatever else is lifted meanwhile (its set-down not read yet; the
            # next still board reads where it went, with the move changed or not).
            pass
        elif self.in_doubt and space in board.last_removed:
            pass  # a stack it cuts off being cleared: perhaps the other landing's too
        elif self.asked_about:
            # Its landing asked about, not answered: the answer decides, not the next hand
            # going on (the hand may be showing its own landing, the later ply's, not lit).
            # Reopened, or asked about alone (rough 10-bit mistakes 1.0 seed 71: g1 slid over
            # f1 to h2, "f1 or h2?", and the next player moved f1 to g2 without answering), the
            # board is read with that stack lifted or moved since (`AMEND_THEN_NEXT`). (With a
            # ply on top among the answers, a further stack lifted is no next player's.)
            if self.reopened or self.alone:  # (`moved_on` is None here: the branch above)
                self.moved_on = space
        elif last.src in occupied:
            # The move cannot stand as recorded (its source is not empty): open, for what was
            # done instead to be read (`Decisions.went_on`: set back, the next stack lifted).
            pass
        elif space != last.dst and not self.carried:
            others = elsewhere(board)
            if space in others and space not in board.mobile_stacks():
                # A stack that may not move now, on another of the move's landings: no next
                # ply (it is put back), and it may carry the move's own stack, set down there
                # (rough 12-bit, mistakes 1.0, seed 40: d2 slid over c2 to e3, d2c2 read, e3
                # lifted to be cleared): the board it is set back on decides.
                return
            if any(space == d or space in NEAR[d] for d in others | {last.dst}):
                self.provisional = False

    def commit(self, board: Board, plies, asked: bool) -> None:
        for ply in plies:
            if self.on_commit:
                self.on_commit(ply)  # on disk before anything shows it
            board.push(ply)
            if not ply.is_pass and not asked:
                self.stats["auto"] += 1
            if not ply.is_pass:
                self.last_auto = not asked
                self.answered = (board.ply_count, ply) if asked and ply.is_move else None
        # A forced pass is shown (guidance) and recorded with the next move, so a game given
        # up at that point ends without it.

    def answered_last(self, board: Board) -> bool:
        """Whether the last recorded move is one the player answered a question about (a lift
        and set-back, or confirm): readings alone never put it in question again."""
        last = board.move_stack[-1] if board.move_stack else None
        return last is not None and self.answered == (board.ply_count, last)

    def takeback(self, board: Board) -> bool:
        """Take back the last ply (and the forced passes after it). False when there is none."""
        if board.ply_count == 0:
            return False
        while True:
            ply = board.pop()
            if self.on_undo:
                self.on_undo()
            if not ply.is_pass or board.ply_count == 0:
                break
        self.provisional = False
        return True
