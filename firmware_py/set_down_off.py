"""Where the board read a stack set down where it may not go while the last move was still
open: on the still board just before a ply read on top of that move, such a read on one of the
move's other landings says the hand set the move's stack down there (read as the next stack's,
that one lifted at once), so the move set down there is asked about rather than made final
(`decisions.Decisions.went_on`; rough 10-bit bad noise, mistakes 0.3, seed 217).

Read just after the lift that made the move final (`landed_there`), such a set-down is the next
stack's lift with the move landed there: that stack's space emptied and the landing grown read
like that stack set down on it, and cannot be told from it until the stack is set down (quiet
rough 10-bit board, `tests/test_controller_went_on.py`).

A stack set down where it may not go may push the stack below aside (`pushed_aside`), also one
read as a landing that only a change to the open move allows.

>>> from types import SimpleNamespace as NS
>>> off = SetDownOff()
>>> off.note(NS(stable_since=1.0), NS(kind="illegal", best=NS(dst=12)), 60, provisional=True)
>>> off.before(NS(stable_since=1.0)), off.before(NS(stable_since=2.0))
(set(), {(60, 12)})
"""

from __future__ import annotations

from .last_move import elsewhere
from .rules import Ply


def landed_there(board, d, again, reference, inference, snap):
    """`d`, read just after the lift that made the last move of `board` final: a stack set
    down where it may not go (illegal), on another of that move's landings, fitting best
    (alone, or with rivals about as good: a landing on a stack reads faintly). Among
    `again`'s candidates (the move set down elsewhere, the next stack lifted), the move landed
    there with that stack in the hand, which reads the same; None when `d` is no such read,
    that meaning is not among them, or the move's recorded landing reads far off under it
    (`Reference.misfits` of `snap`: its stack still there. A stack set down on the other
    landing and lifted off again pushed the stack below aside, which is no move)."""
    last = board.move_stack[-1] if board.move_stack else None
    if (d.kind not in ("illegal", "ambiguous") or d.best is None or d.best.kind != "illegal"
            or last is None or not last.is_move):
        return None
    if d.best.dst not in elsewhere(board):
        return None
    there = (Ply(last.src, d.best.dst),)
    alt = next((c for c in again.candidates if c.kind == "lifted" and c.amends
                and c.src == d.best.src and c.plies[:1] == there), None)
    if alt is None or last.dst in reference.misfits(inference, alt, snap):
        return None
    return alt


def pushed_aside(d, snap, hold_s: float) -> list[int]:
    """The space `d` reads a stack set down on where it may not go, when that stack has touched
    the stack there: decided so, or the best of several meanings on a board still for `hold_s`
    (a hand does not hover that long; a stack held low on its way on is read so for a moment).
    That stack may have been pushed aside (`Reference.nudged`): once the one set on it is taken
    off again, its reading is no evidence that a move landed there (rough 10-bit, mistakes 1.0,
    seed 86: j4 set on b2 for 4 s left b2's stack reading 1.1 mT off, which only a1b2 explained;
    asked "b2 or b1?", the answer b1 was refused for it). So too a set-down read best, undecided,
    as a landing that only a change to the open move allows (`_off_unless_changed`)."""
    best = d.best
    still = d.kind == "ambiguous" and snap.time - snap.stable_since >= hold_s
    if best is not None and best.kind == "illegal" and (d.kind == "illegal" or still):
        return [best.dst]
    off = _off_unless_changed(d)
    return [off] if off is not None else []


def _off_unless_changed(d):
    """The space where `d`, undecided, reads best a stack set down that may go there only if
    the open move is changed: a set-down where it may not go as the game stands, read as a
    landing because changing that move would allow it; None otherwise. Read so even on a
    board only just still: such a set-down on a tall stack soon reads as the stack still in
    the hand, its field too faint there, the push it gave left unexplained. (Rough 12-bit,
    mistakes 1.0, seed 22: after h1g1, g1's stack of 2, set on g2 by mistake, fitted best as
    h1i1 with g1g2; lifted off and set on i1, g2's stack read 1.6 mT off, which only that
    meaning's landing on g2 explained: h1i1 and g1g2 were recorded.)"""
    best = d.best
    if (d.kind != "ambiguous" or best is None or best.kind != "commit" or not best.amends
            or len(best.plies) < 2):
        return None  # (the open move changed alone is no set-down: a ply on top of it is)
    last = best.plies[-1]
    if not last.is_move or any(c.kind == "commit" and not c.amends and c.plies[-1:] == (last,)
                               for c in d.candidates):
        return None
    return last.dst


class SetDownOff:
    """The illegal set-downs read (ply count, space) on the still board being read and on the
    one before it; `asked`: the (ply count, key) of the meaning asked about on that evidence."""

    def __init__(self):
        self._still: float | None = None  # the stable_since of the still board being read
        self._here: set[tuple[int, int]] = set()
        self._before: set[tuple[int, int]] = set()
        self.asked: set[tuple[int, tuple]] = set()

    def note(self, snap, d, ply_count: int, provisional: bool) -> None:
        """The decision `d` acted on about `snap`, the last move open if `provisional`."""
        if snap.stable_since != self._still:
            self._still, self._before, self._here = snap.stable_since, self._here, set()
        if d.kind == "illegal" and provisional and d.best is not None:
            self._here.add((ply_count, d.best.dst))

    def before(self, snap) -> set[tuple[int, int]]:
        """What the still board before `snap`'s read (`snap` not yet noted, or noted)."""
        return self._before if snap.stable_since == self._still else self._here

    def alternative(self, again, snap, ply_count: int, asking: bool):
        """Among `again`'s rivals, the move set down on a landing read so just before, or the
        one asked about on that evidence while the question is open (the board settling anew,
        the same meanings fitting as before, is no answer); None when there is none."""
        off, asked = self.before(snap), self.asked if asking else set()
        alt = next((c for c in again.rivals if c.amends and c.plies and (
            (ply_count, c.plies[0].dst) in off or (ply_count, c.key) in asked)), None)
        if alt is not None:
            self.asked = {(ply_count, alt.key)}
        return alt
