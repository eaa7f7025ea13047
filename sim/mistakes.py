"""How a scripted person carries out a ply with their hand, and the mistakes they make doing it.

`Mistakes` says how often (``rate`` per ply) and which kinds (`MISTAKES`); `PlyMotions` is the
part of `dvonn_sim.players.Players` that moves pieces: a placement or a move through
``board.hand``, with the chosen mistake made on the way and corrected the way a person would
(put back what they lifted, take the wrong piece away, lift the stack off the illegal space),
after noticing it on the LEDs (`_react_to`). The board's controller must cope with all of them.

>>> Mistakes(0.3, ("knock",)).rate
0.3
>>> Mistakes(0.3, ("sneeze",))
Traceback (most recent call last):
...
ValueError: unknown mistake 'sneeze' (one of wrong_lift, opponent_lift, illegal_setdown, wrong_remove, knock, slide_over, fast_answer, wrong_piece)
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.rules import Ply
from firmware_py.spaces import N_SPACES, NEIGHBOURS, SPACES

MISTAKES = ("wrong_lift", "opponent_lift", "illegal_setdown", "wrong_remove", "knock",
            "slide_over", "fast_answer", "wrong_piece")
"""wrong_lift: lift another own stack and put it back; opponent_lift: lift an opponent's stack
and put it back; illegal_setdown: set the stack down on an illegal space, then lift it off and
play the real move; wrong_remove: after an isolating move, lift a stack that stays and put it
back; knock: knock a stack off its space and push it back; slide_over: slide the stack low over
another legal destination on the way to the real one; fast_answer: play before the last ply has
settled (50-120 ms after the set-down, not waiting for the LEDs); wrong_piece: place a piece of
the wrong colour, then take it away and place the right one."""

PROBLEMS = ("error", "missing", "extra", "ask", "ask_faulty", "remove")
TO_PLAY = ("white_to_play", "black_to_play", "dvonn_to_place", "pass")
OVER = ("winner", "draw")


@dataclass(frozen=True)
class Mistakes:
    """rate: chance per ply of one mistake, of one of `kinds` (those possible at that moment)."""

    rate: float = 0.0
    kinds: tuple[str, ...] = MISTAKES

    def __post_init__(self):
        for k in self.kinds:
            if k not in MISTAKES:
                raise ValueError(f"unknown mistake {k!r} (one of {', '.join(MISTAKES)})")
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError(f"mistake rate must be in 0..1, not {self.rate!r}")


class PlyMotions:
    """The hand's side of `Players` (a mixin: it shares the players' state).

    Needs: truth (rules.Board), board and hand, rng, mistakes, computer, and the players'
    waiting helpers (_idle, _pause, _draw, _watching, leds, _note, _mistake).
    """

    def _pick_mistake(self, ply: Ply, settled: bool) -> str | None:
        m = self.mistakes
        if not m.kinds or self.rng.random() >= m.rate:
            return None
        b = self.truth
        possible = []
        for k in m.kinds:
            if k == "wrong_lift" and ply.is_move and len(self._own(b.turn)) > 1:
                possible.append(k)
            elif k == "opponent_lift" and ply.is_move and self._own(1 - b.turn):
                possible.append(k)
            elif k == "illegal_setdown" and ply.is_move:
                possible.append(k)
            elif k == "knock" and any(b.stack(s) for s in range(N_SPACES)):
                possible.append(k)
            elif k == "slide_over" and ply.is_move and len(b.destinations(ply.src)) > 1:
                possible.append(k)
            elif (k == "fast_answer" and settled and b.ply_count > 0
                  and b.turn not in self.computer):  # the computer's ply is waited for
                possible.append(k)
            elif k == "wrong_piece" and ply.is_placement:
                possible.append(k)
        return self.rng.choice(possible) if possible else None

    def _own(self, player: int) -> list[int]:
        return [s for s in range(N_SPACES) if self.truth.owner(s) == player]

    def _place(self, ply: Ply, kind: str | None):
        piece = self.truth.piece_to_place()
        if kind == "wrong_piece":
            wrong = "B" if piece == "W" else "W"
            if self.board.available(wrong):
                self._mistake(kind)
                self.hand.place(ply.dst, wrong)
                yield self._idle()
                yield from self._react_to(("error", "extra"))
                self.hand.lift(ply.dst)
                self.hand.stow()
        self.hand.place(ply.dst, piece)
        yield self._idle()

    def _move(self, ply: Ply, kind: str | None):
        b, hand = self.truth, self.hand
        src, dst = ply
        if kind in ("wrong_lift", "opponent_lift"):
            side = b.turn if kind == "wrong_lift" else 1 - b.turn
            other = self.rng.choice([s for s in self._own(side) if s != src])
            self._mistake(kind)
            hand.lift(other)
            yield self._idle()
            yield from self._react_to(("error",))
            hand.put(other)
            yield self._idle()
        dests = set(b.destinations(src))
        near = [s for s in range(N_SPACES) if s != src and s not in dests
                and (b.stack(s) or any(b.stack(n) for n in NEIGHBOURS[s]))]
        if kind == "illegal_setdown" and near:
            bad = self.rng.choice(near)
            self._mistake(kind)
            n = b.height(src)
            hand.lift(src)
            hand.put(bad)
            yield self._idle()
            yield from self._react_to(("error", "missing", "extra"))
            hand.lift(bad, count=n)
            hand.put(dst)
        elif kind == "slide_over":
            via = self.rng.choice([d for d in b.destinations(src) if d != dst])
            self._mistake(kind)
            self._note(f"sliding over {SPACES[via]}")
            hand.slide(src, dst, via=[via])
        else:
            hand.lift(src)
            yield self._idle()
            yield self._pause(self._draw("react") / 3)  # a glance at the destinations
            hand.put(dst)
        yield self._idle()

    def _knock(self, ply: Ply):
        b = self.truth
        target = ply.dst if ply.is_move else None
        occupied = [s for s in range(N_SPACES) if b.stack(s) and s != target]
        if ply.is_move:
            occupied = [s for s in occupied if s != ply.src] or occupied
        near = [s for s in occupied if any(n in (ply.src, ply.dst) for n in NEIGHBOURS[s])]
        space = self.rng.choice(near or occupied)
        self._mistake("knock")
        self.hand.knock(space)
        yield self._idle()
        yield from self._react_to(("missing", "error", "extra"))
        self.hand.restore(space)
        yield self._idle()
        yield from self._confirm_if_right()

    def _react_to(self, names):
        """Notice a mistake: from the LEDs when the board shows them, else after a moment."""
        if self._watching():
            deadline = self.board.now + 3.0
            yield lambda now: now >= deadline or self.leds(now).shows(*names)
        yield self._pause(self._draw("react"))

    def _wrong_remove(self, left: list[int]):
        b = self.truth  # already after the ply
        stays = [s for s in range(N_SPACES) if b.stack(s) and s not in left]
        near = [s for s in stays if any(n in left for n in NEIGHBOURS[s])] or stays
        if not near:
            return
        space = self.rng.choice(near)
        self._mistake("wrong_remove")
        self.hand.lift(space)
        yield self._idle()
        yield from self._react_to(("missing", "error"))
        self.hand.put(space)
        yield self._idle()

    # -- the player's word ------------------------------------------------------------------
    def _misread(self, view) -> list[int]:
        """The stacks the board flags as reading differently (red, with nothing to put back,
        take off or answer) which are right as they stand: what a person sees when the
        board disagrees about pieces they know are right. Empty when anything else shows."""
        if view.shows("missing", "extra", "ask", "ask_faulty", "remove"):
            return []
        flagged = view.spaces("error")
        b = self.truth
        if flagged and all(b.stack(s) and self.board.stack(s) == b.stack(s) for s in flagged):
            return flagged
        return []

    def _confirm_if_right(self):
        """After putting something right: while the board still flags stacks the player knows
        are right as reading differently, say so (confirm: the board takes them as they
        stand). At most twice; a board that still disagrees is left to the next look."""
        if not self._watching():
            return
        for _ in range(2):
            deadline = self.board.now + self.ack_timeout
            yield lambda now: (now >= deadline or self._acknowledged(self.leds(now), [])
                               or bool(self._misread(self.leds(now))))
            if not self._misread(self.leds()):
                return
            yield self._pause(self._draw("react"))
            self._view = None
            flagged = self._misread(self.leds())
            if not flagged:
                return
            self._note(f"confirming {' '.join(SPACES[s] for s in flagged)} as they stand")
            self.board.press("confirm")
            yield self._pause(0.5)
            self._look_afresh()

