"""After the game's last ply: the players stay at the board until it shows the game recorded.

A person does not walk away from a board that still asks about the last ply: they answer its
question, clear what it says to remove, set down again a stack it still shows in the hand, and
put back a stack it says is missing, then play the ply again, until the LEDs show the game over
(or the next turn, when the game stops after `max_plies`). `SeeingOut` is that part of
`dvonn_sim.players.Players` (a mixin: it shares the players' state and waiting helpers). After
`patience` seconds of trying, they give up (`unfinished`: the game counts as stalled).
"""

from __future__ import annotations

from firmware_py.rules import Ply
from firmware_py.spaces import SPACES

from .mistakes import PROBLEMS


PATIENCE_S = 60.0
"""How long the players keep answering the board after the last ply before they give up."""
TRIES = 6
"""At most this many times they set a stack down again or play the last ply again."""


class SeeingOut:
    """The end of `Players._game` (see the module docstring). Needs the players' truth, board,
    hand, `_after`, `_acknowledged`, `_misread`, `leds`, `_look_afresh`, `_idle`, `_pause`,
    `_draw`, `_note`, `_complain` and `_watching`."""

    unfinished = False  # the board never showed the game recorded within `PATIENCE_S`

    def _see_out(self, ply: Ply, isolated: list[int]):
        """After the last ply `ply` (which cut off `isolated`) and its `_after`: go on doing
        what the LEDs ask until they show the game over (the next turn after `max_plies`)."""
        if not self._watching() or ply.is_pass:
            return
        end = self.board.now + PATIENCE_S
        tries = 0
        while self.board.now < end:
            view = self.leds()
            if self._acknowledged(view, []):
                return
            left = [s for s in isolated if self.board.stacks[s]]
            if view.shows("ask", "ask_faulty", "remove") or self._misread(view):
                yield from self._after(ply, left)
                continue
            if tries >= TRIES:
                yield self._pause(0.5)
                continue
            again = yield from self._set_down_again(ply, view)
            if again is None:  # nothing a person can do: look again in a moment
                yield self._pause(0.5)
                continue
            tries += 1
            self._note(again)
            yield self._idle()
            self._look_afresh()
            deadline = self.board.now + self.ack_timeout
            yield lambda now: (now >= deadline or self._acknowledged(self.leds(now), [])
                               or self.leds(now).shows(*PROBLEMS))
        self.unfinished = True
        self._complain(f"never showed the game recorded after {ply}: {self.leds()}")

    def _set_down_again(self, ply: Ply, view):
        """What a person does about a stack the LEDs show in the hand, missing or extra although
        it stands as the game says: set it down again. The last move's stack shown still in the
        hand: set down again where it went; its source shown missing (the move not taken): put
        back, and once the board shows the turn again, the move played again. Returns what was
        done (None: nothing a person would do)."""
        real, hand = self.board.stacks, self.hand
        lifted, missing = view.spaces("source"), view.spaces("missing")
        if ply.is_move and not real[ply.src] and real[ply.dst] and ply.src in lifted + missing:
            yield self._pause(self._draw("react"))
            n = len(self.truth_before().stack(ply.src))
            hand.lift(ply.dst, count=n)
            if ply.src in lifted:
                hand.put(ply.dst)
                return f"setting {SPACES[ply.dst]} down again"
            hand.put(ply.src)
            yield self._idle()
            self._look_afresh()
            deadline = self.board.now + self.ack_timeout
            yield lambda now: now >= deadline or self.leds(now).spaces(
                "source", "missing") != [ply.src]
            yield self._pause(self._draw("think"))
            hand.lift(ply.src)
            yield self._idle()
            yield self._pause(self._draw("react") / 3)
            hand.put(ply.dst)
            return f"putting back {SPACES[ply.src]} and playing {ply} again"
        truth = self.truth
        standing = [s for s in lifted + missing + view.spaces("extra")
                    if real[s] and tuple(p.kind for p in real[s]) == truth.stack(s)]
        if not standing:
            return None
        yield self._pause(self._draw("react"))
        hand.lift(standing[0])  # it stands as the game says: set down again where it is
        hand.put(standing[0])
        return f"setting {SPACES[standing[0]]} down again"

    def truth_before(self):
        """The position before the last ply."""
        board = self.truth.copy()
        board.pop()
        return board
