"""Scripted players asking for hints in autoplay (`sim --autoplay --hints on|off`).

Now and then (`RATE` per person's turn, from the game's seed), when the board waits for a
person's move and the hand is still, that player presses the hint button and waits until the
board answers. The harness (`autoplay.play_game`) hands the press to `firmware_py.hints.Hints`
as the session does, and this checks what the board did:

- hints on: the engine's move is lit in the "suggestion" pattern (a placement: its space
  flashing lime `computer_to`; a move: also the stack to lift double-flashing teal
  `computer_from`) and nothing was recorded while it was asked for and shown; then the player
  presses the button again to hide it (else, with the computer playing the other side, its
  person could take the hint still lit for the computer's move) and it goes out;
- hints off: the board's line says "hints are off for this game" and no suggestion is lit.

If the board stops waiting for a move before the hint is shown (it changed its mind about the
last ply: "k3 lifted", a question), the player stops waiting and plays on: `interrupted`, with
the board's line (a hint is for a board waiting for a move). Anything else is a `failure` (the
command fails on it). The engine thinks in simulated time at
its quickest level: its display is what is tested here, not its strength.
"""

from __future__ import annotations

import random
from typing import Callable

from firmware_py.colours import BY_RGB
from firmware_py.hints import Hints, to_move

RATE = 0.15      # chance that a person asks for a hint on their turn
LEVEL = 1        # the engine's level for hints in autoplay
SHOW_WITHIN = 10.0  # simulated seconds the hint may take to appear (and to go out again)


class SimulatedHints(Hints):
    """`Hints` whose engine is `make_thinker(colour)` (autoplay's simulated-time thinker)."""

    def __init__(self, enabled: bool, computer, make_thinker: Callable[[int], object]):
        super().__init__(enabled=enabled, level=LEVEL, computer=computer)
        self._make = make_thinker

    def _thinker(self, colour: int):
        if colour not in self._thinkers:
            self._thinkers[colour] = self._make(colour)
        return self._thinkers[colour]


class HintAsker:
    """The players' hint requests and the checks of the board's answers.

    enabled: `--hints on` (True) or off; computer: the colours the computer plays (nobody
    asks on its turns); make_thinker(colour): the engine in simulated time."""

    def __init__(self, enabled: bool, seed: int, computer, make_thinker):
        self.hints = SimulatedHints(enabled, computer, make_thinker)
        self.enabled = enabled
        self.computer = frozenset(computer)
        self.rng = random.Random(seed * 7_919 + 17)
        self.asked = self.shown = self.refused = 0
        self.failures: list[str] = []
        self.interrupted: list[str] = []
        self.waiting: dict | None = None  # the request the player waits on
        self._considered = -1  # the ply count last considered for asking

    # -- the player -------------------------------------------------------------------------------
    def consider(self, state, board, truth) -> None:
        """A person whose turn it is, the board waiting for the move and nothing in hand or
        knocked aside (`truth`: the position the players really have): ask now and then (a
        press of the simulated board's hint button)."""
        b = state.board
        hand = board.hand
        if (self.waiting is not None or state.mode != "idle" or b.is_over()
                or b.ply_count == self._considered or truth.ply_count != b.ply_count
                or not hand.idle() or hand.holding or board.loose
                or to_move(b).turn in self.computer or board.button_presses):
            return
        self._considered = b.ply_count
        if self.rng.random() < RATE:
            board.press("hint")
            self.waiting = {"stage": "press", "asked_at": None}

    # -- the board (the harness calls these as the session would) ---------------------------------
    def pressed(self, state, now: float) -> None:
        """The hint button was read: the board's answer goes on its line (as `Session._do`)."""
        state.message = self.hints.request(state.board)
        if self.waiting is not None and self.waiting["stage"] == "hide":
            self.waiting["stage"] = "hidden?"
            return
        self.asked += 1
        self.waiting = {"stage": "shown?", "asked_at": now, "plies": state.board.ply_count,
                        "seen": set()}

    def hint(self, state):
        """The hinted ply to show (None: none asked for this position, or still thinking)."""
        if not self.hints.asked:
            return None
        from firmware_py.hints import computer_hint
        return computer_hint(state, [self.hints])

    def check(self, state, leds, now: float, board) -> None:
        """After each frame's LEDs: is the answer shown as it should be?"""
        w = self.waiting
        if w is None or w["asked_at"] is None or w["stage"] == "hide":
            return
        lit = {s: BY_RGB[rgb].name for s, rgb in enumerate(leds.spaces) if rgb in BY_RGB}
        suggestion = {"computer_to", "computer_from"} & set(lit.values())
        if state.board.ply_count != w["plies"]:
            self._fail(f"ply {w['plies'] + 1}: recorded while a hint was asked for")
        elif w["stage"] == "shown?" and state.mode != "idle" and self.enabled:
            self.interrupted.append(f"ply {w['plies'] + 1}: {state.message}")
            self.waiting = None
        elif w["stage"] == "hidden?":
            if state.hint is None and not suggestion:
                self.waiting = None  # gone out: the player plays on (their own ply)
        elif not self.enabled:
            if state.message != "hints are off for this game" or suggestion:
                self._fail(f"ply {w['plies'] + 1}: hints are off, but the board said "
                           f"{state.message!r} and lit {sorted(suggestion)}")
            else:
                self.refused += 1
                self.waiting = None
        elif state.hint is not None:
            hint = state.hint
            w["seen"].update(k for k, s in (("to", hint.dst), ("from", hint.src))
                             if lit.get(s) == f"computer_{k}")
            if w["seen"] >= ({"to"} if hint.src < 0 else {"to", "from"}):
                self.shown += 1
                board.press("hint")  # seen: hide it again
                w["stage"] = "hide"
        if self.waiting is not None and now - w["asked_at"] > SHOW_WITHIN:
            what = "go out when asked again" if w["stage"] == "hidden?" else "show"
            self._fail(f"ply {w['plies'] + 1}: the hint did not {what} within "
                       f"{SHOW_WITHIN:.0f} s (the board said {state.message!r})")

    def _fail(self, what: str) -> None:
        self.failures.append(what)
        self.waiting = None

    def report(self) -> dict:
        return {"asked": self.asked, "shown": self.shown, "refused": self.refused,
                "interrupted": list(self.interrupted), "failures": list(self.failures)}
