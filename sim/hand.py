"""A virtual hand moving pieces on the simulated board, with human timing.

Each call queues an action; actions run one after another on the board's clock and advance as
frames are read (nothing happens between frames). While the hand holds a stack, its magnets are
in the air and the sensors under its path feel them: a stack is lifted in a few hundred ms,
carried 30-60 mm above the board (over other sensors), and set down on top of whatever stands at
the destination. Durations are drawn from `Params.timing` (jittered by the board's seed).

Actions (spaces are indices or names like 'e3'):

    hand.lift(space, count=None)    lift the whole stack (or its top `count` pieces)
    hand.put(space)                 carry what the hand holds to `space` and set it down
    hand.remove(space)              lift a stack and drop it in the box beside the board
    hand.discard()                  drop what the hand holds in the box
    hand.stow()                     put what the hand holds back in the reserve
    hand.place(space, kind)         take a new piece ('W', 'B', 'D') from the reserve, set it down
    hand.knock(space)               knock a stack 8-15 mm off its space (it lies there, loose)
    hand.restore(space=None)        push a knocked stack back onto its space
    hand.slide(src, dst, via=())    move a stack low over the board, hovering over each `via`
    hand.wait(seconds)              do nothing for a while

`hand.idle()` says whether everything queued is done; `hand.holding` what is in the air and
`hand.where()` where. An action that cannot be done (lifting an
empty space...) raises `HandError` at once when the hand is idle; if it only turns out impossible
when its turn comes, it is skipped and noted in `hand.log`.

The hand is three parts: this module says what a person does (each action planned as motion
segments), `hand_paths` how high and fast they move, `hand_timeline` when each action runs on
the board's clock. `Segment` and `Action` are importable from here too.

>>> from dvonn_sim.board import SimBoard
>>> board = SimBoard(seed=2)
>>> board.setup({"e3": "W", "f3": "B"})
>>> board.hand.lift("e3"); board.hand.put("f3")
>>> frame = board.run(3.0)
>>> board.stack("f3"), board.hand.idle()
(('B', 'W'), True)
"""

from __future__ import annotations

import math

import numpy as np

from firmware_py.i18n import _
from firmware_py.spaces import N_SPACES, SPACES, parse_space

from .hand_paths import Paths
from .hand_timeline import Action, Segment, Timeline
from .physics import space_xy
from .pieces import Loose


class HandError(ValueError):
    """A hand action that cannot be done in the board's current state."""


class Hand:
    """One hand over the board (see the module docstring). Created by `SimBoard` as `board.hand`."""

    def __init__(self, board, rng: np.random.Generator):
        self.board = board
        self.rng = rng
        self.held: list = []  # the pieces in the air, bottom up
        self.boxed: dict[int, list] = {}  # space -> the stack removed from it, in the box
        self._xy = space_xy(board.params.space_pitch_mm)
        self.paths = Paths(board, rng, self._xy)  # heights, speeds and routes (hand_paths.py)
        xs, ys = self._xy[:, 0], self._xy[:, 1]
        cx, cy = float(xs.mean()), float(ys.mean())
        high = board.params.sensor_gap_mm + 80.0
        # Off-board places: each player's reserve, the DVONN pieces' corner, the box.
        self.spots = {
            "W": (cx, float(ys.min()) - 90.0, high),
            "B": (cx, float(ys.max()) + 90.0, high),
            "D": (float(xs.min()) - 90.0, cy, high),
            "box": (float(xs.max()) + 100.0, cy, high),
        }
        # What is queued and under way, where the hand is, what it did (hand_timeline.py).
        self.timeline = Timeline(board, self.spots["box"])

    # -- state ----------------------------------------------------------------------------------
    def idle(self) -> bool:
        """Nothing queued and nothing under way."""
        return self.timeline.idle()

    @property
    def pos(self) -> tuple[float, float, float]:
        """Where the hand is (x, y, h mm) once what is under way ends."""
        return self.timeline.pos

    @pos.setter
    def pos(self, value: tuple[float, float, float]) -> None:
        self.timeline.pos = value

    @property
    def log(self) -> list[tuple[float, str]]:
        """(time, what happened): each action started or skipped, for tests and people."""
        return self.timeline.log

    @property
    def holding(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.held)

    def where(self) -> tuple[float, float, float] | None:
        """Where the held stack is now (x, y mm on the board, h mm of its bottom magnet above
        the sensors), or None when the hand holds nothing."""
        if not self.held:
            return None
        x, y, h = self.position(np.array([self.board.now]))
        return float(x[0]), float(y[0]), float(h[0])

    def xy(self, space: int) -> tuple[float, float]:
        return float(self._xy[space, 0]), float(self._xy[space, 1])

    # -- actions --------------------------------------------------------------------------------
    def lift(self, space, count: int | None = None) -> None:
        """Lift the stack on `space` (all of it, or its top `count` pieces) to carry height."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand already holds a stack")
            st = self.board.stacks[s]
            if not st:
                return _("{space} is empty").format(space=SPACES[s])
            if count is not None and not 1 <= count <= len(st):
                return _("cannot lift {count} of the {height} pieces on {space}").format(
                    count=count, height=len(st), space=SPACES[s])
            return None

        def plan(start):
            st = self.board.stacks[s]
            n = len(st) if count is None else count
            x, y = self.xy(s)
            h0 = self.paths.rest_h(len(st) - n)
            t1 = start + self.paths.draw("lift")

            def take():
                self.held = self.board.take_up(s, n)

            return [Segment(start, t1, (x, y, h0), (x, y, self.paths.carry_h()), True, take)]

        self._enqueue(_("lift {space}").format(space=SPACES[s]), check, plan)

    def put(self, space) -> None:
        """Carry the held stack to `space` and set it down there (on top of any stack)."""
        s = _space(space)

        def plan(start):
            x, y = self.xy(s)
            carry = (x, y, max(self.pos[2], self.paths.carry_h()))
            segs = self.paths.travel(start, self.pos, carry)
            t = segs[-1].t1 if segs else start
            top = segs[-1].p1 if segs else self.pos
            rest = (x, y, self.paths.rest_h(len(self.board.stacks[s])))
            chance = self.board.params.hover_chance
            if chance and self.board.stacks[s] and self.rng.uniform() < chance:
                # A person often stops just above the stack landed on before letting go.
                above = (x, y, rest[2] + self.paths.draw("hover_mm"))
                t1 = t + self.paths.draw("set_down")
                t2 = t1 + self.paths.draw("hover")
                return segs + [Segment(t, t1, top, above, True), Segment(t1, t2, above, above),
                               Segment(t2, t2 + 0.06, above, rest, True, None,
                                       lambda: self._drop_on(s))]
            return segs + [Segment(t, t + self.paths.draw("set_down"), top, rest, True, None,
                                   lambda: self._drop_on(s))]

        self._enqueue(_("put {space}").format(space=SPACES[s]), self._needs_held, plan)

    def remove(self, space, count: int | None = None) -> None:
        """Take the stack on `space` off the board (into the box)."""
        self.lift(space, count)
        self.discard(_space(space))

    def discard(self, space: int | None = None) -> None:
        """Drop the held stack into the box beside the board: its pieces leave the game (the
        stack lifted from `space` is kept together there, for `take_back`)."""
        def plan(start):
            segs = self.paths.travel(start, self.pos, self.spots["box"])
            if not segs:
                segs = [Segment(start, start, self.pos, self.pos)]

            def drop():
                self.board.removed.extend(self.held)
                if space is not None:
                    self.boxed[space] = list(self.held)
                self.held = []

            segs[-1].on_end = drop
            return segs

        self._enqueue(_("discard"), self._needs_held, plan)

    def take_back(self, space) -> None:
        """Take the stack removed from `space` out of the box again and set it back there (a
        person the board asks to put it back)."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand already holds a stack")
            pieces = self.boxed.get(s)
            if not pieces or not all(any(p is q for q in self.board.removed) for p in pieces):
                return f"nothing removed from {SPACES[s]} in the box"
            return None

        def plan(start):
            segs = self.paths.travel(start, self.pos, self.spots["box"])
            if not segs:
                segs = [Segment(start, start, self.pos, self.pos)]

            def take():
                pieces = self.boxed.pop(s)
                self.board.removed[:] = [p for p in self.board.removed
                                         if not any(p is q for q in pieces)]
                self.held = pieces

            segs[-1].on_end = take
            return segs

        self._enqueue(f"take {SPACES[s]} out of the box", check, plan)
        self.put(s)

    def stow(self) -> None:
        """Put the held pieces back in the reserve (a piece placed by mistake)."""
        def plan(start):
            segs = self.paths.travel(start, self.pos, self.spots[self.held[0].kind])
            if not segs:
                segs = [Segment(start, start, self.pos, self.pos)]

            def back():
                self.board._return_to_reserve(self.held)
                self.held = []

            segs[-1].on_end = back
            return segs

        self._enqueue(_("stow"), self._needs_held, plan)

    def place(self, space, kind: str) -> None:
        """Take a new `kind` piece from the reserve (beside the board) and set it on `space`."""
        s = _space(space)
        if kind not in self.spots or kind == "box":
            raise HandError(f"no piece kind {kind!r} (W, B or D)")

        def check():
            if self.held:
                return _("the hand already holds a stack")
            if not self.board.available(kind):
                return _("no {kind} piece left in the reserve").format(kind=kind)
            return None

        def plan(start):
            spot = self.spots[kind]

            def take():
                self.held = [self.board.take_from_reserve(kind)]
                self.pos = spot

            return [Segment(start, start, spot, spot, False, take)]

        self._enqueue(_("take {kind}").format(kind=kind), check, plan)
        self.put(s)

    def knock(self, space, direction: float | None = None, distance_mm: float | None = None):
        """Knock the stack on `space` sideways along the surface (default 8-15 mm, any way)."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand holds a stack")
            if not self.board.stacks[s]:
                return _("{space} is empty").format(space=SPACES[s])
            return None

        def plan(start):
            x, y = self.xy(s)
            a = self.rng.uniform(0, 2 * math.pi) if direction is None else direction
            d = self.rng.uniform(8.0, 15.0) if distance_mm is None else distance_mm
            end = (x + d * math.cos(a), y + d * math.sin(a), self.paths.rest_h(0))
            st = self.board.stacks[s]

            def take():
                self.held = self.board.take_up(s, len(st))

            def lie():
                self.board.loose.append(Loose(self.held, end[0], end[1], s))
                self.held = []

            return [Segment(start, start + self.paths.draw("knock"), (x, y, self.paths.rest_h(0)),
                            end, False, take, lie)]

        self._enqueue(_("knock {space}").format(space=SPACES[s]), check, plan)

    def restore(self, space=None) -> None:
        """Push a knocked stack (the one from `space`, or the first) back onto its space."""
        s = None if space is None else _space(space)

        def find():
            for lo in self.board.loose:
                if s is None or lo.home == s:
                    return lo
            return None

        def check():
            if self.held:
                return _("the hand holds a stack")
            if find() is None:
                return (_("no knocked stack") if s is None else
                        _("no knocked stack from {space}").format(space=SPACES[s]))
            return None

        def plan(start):
            lo = find()
            x, y = self.xy(lo.home)
            p0 = (lo.x, lo.y, self.paths.rest_h(0))

            def take():
                self.board.loose.remove(lo)
                self.held = lo.pieces

            t1 = start + 3 * self.paths.draw("knock") + 0.1
            home = (x, y, self.paths.rest_h(len(self.board.stacks[lo.home])))
            return [Segment(start, t1, p0, home, True, take, lambda: self._drop_on(lo.home))]

        self._enqueue(_("restore"), check, plan)

    def slide(self, src, dst, via=(), count: int | None = None) -> None:
        """Move a stack from src to dst low over the board, hovering a moment just above each
        space in `via` (as a person sliding a stack across a space on the way)."""
        s, d = _space(src), _space(dst)
        vias = [_space(v) for v in via]
        self.lift_low(s, count)

        def plan(start):
            segs, t, cur = [], start, self.pos
            for v in vias:
                x, y = self.xy(v)
                h = self.paths.rest_h(len(self.board.stacks[v])) + self.paths.clearance()
                hover = (x, y, h)
                segs += self.paths.travel(t, cur, hover, low=True)
                t = segs[-1].t1 if segs else t
                segs.append(Segment(t, t + self.paths.draw("dwell"), hover, hover))
                t, cur = segs[-1].t1, hover
            x, y = self.xy(d)
            above = (x, y, self.paths.rest_h(len(self.board.stacks[d])) + self.paths.clearance())
            segs += self.paths.travel(t, cur, above, low=True)
            t = segs[-1].t1 if segs else t
            segs.append(Segment(t, t + self.paths.draw("set_down") / 2, above,
                                (x, y, self.paths.rest_h(len(self.board.stacks[d]))), True, None,
                                lambda: self._drop_on(d)))
            return segs

        self._enqueue(_("slide to {space}").format(space=SPACES[d]), self._needs_held, plan)

    def lift_low(self, space, count: int | None = None) -> None:
        """Raise a stack (or its top `count` pieces) just clear of its neighbours (for slides)."""
        s = _space(space)

        def check():
            if self.held:
                return _("the hand already holds a stack")
            if not self.board.stacks[s]:
                return _("{space} is empty").format(space=SPACES[s])
            return None

        def plan(start):
            st = self.board.stacks[s]
            n = len(st) if count is None else max(1, min(count, len(st)))
            x, y = self.xy(s)
            h0 = self.paths.rest_h(len(st) - n)

            def take():
                self.held = self.board.take_up(s, n)

            return [Segment(start, start + self.paths.draw("lift") / 2, (x, y, h0),
                            (x, y, h0 + self.paths.clearance()), True, take)]

        self._enqueue(_("lift {space} low").format(space=SPACES[s]), check, plan)

    def wait(self, seconds: float) -> None:
        """Do nothing (holding whatever is held) for `seconds`."""
        def plan(start):
            return [Segment(start, start + max(0.0, seconds), self.pos, self.pos)]

        self._enqueue(f"wait {seconds:.2f}", lambda: None, plan)

    def cancel(self) -> None:
        """Forget queued actions that have not started (what is under way finishes)."""
        self.timeline.cancel()

    def drop_plan(self) -> None:
        """Forget everything, including the action under way (for `SimBoard.reset`)."""
        self.timeline.drop(self.spots["box"])

    # -- the board's side (see hand_timeline.Timeline) -------------------------------------------
    def advance_to(self, t: float) -> None:
        """Apply every pick-up and set-down due by time t (called by the board per frame batch)."""
        self.timeline.advance_to(t)

    def next_change(self, t: float) -> float:
        """The next moment after t at which something is picked up, set down or starts."""
        return self.timeline.next_change(t)

    def position(self, times: np.ndarray):
        """x, y, h (arrays like times) of the held stack's bottom magnet."""
        return self.timeline.position(times)


    # -- helpers --------------------------------------------------------------------------------
    def _enqueue(self, label, check, plan) -> None:
        if self.idle():
            why = check()
            if why is not None:
                raise HandError(_("cannot {action}: {why}").format(action=label, why=why))
        self.timeline.queue(Action(label, check, plan, self.board.now))
        self.board.changed()

    def _needs_held(self) -> str | None:
        return None if self.held else _("the hand holds nothing")

    def _drop_on(self, space: int) -> None:
        self.board.land(space, self.held)
        self.held = []


def _space(space) -> int:
    if isinstance(space, str):
        return parse_space(space)
    if not (isinstance(space, (int, np.integer)) and 0 <= space < N_SPACES):
        raise HandError(f"no space {space!r} (0..{N_SPACES - 1} or a name like 'e3')")
    return int(space)
