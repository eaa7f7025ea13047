"""The person at a simulated board: reads the diagnostics' LED prompts and acts with the
simulator's hand, so interactive commands (`diag calibrate`, `diag map`) run end to end.

The prompts (`prompts.PLACE`, `prompts.TAKE`) are steady colours of the board's LED language:
"put it here" (a new piece on that space) and "take this off". Like a person, it acts on the
space it *sees* lit, takes a moment to react, and does one thing at a time.

>>> from dvonn_sim.board import SimBoard
>>> from firmware_py.interfaces import LedFrame
>>> from firmware_py.diag.prompts import prompt_frame
>>> board = SimBoard(seed=1); person = SimPerson(board)
>>> board.show(prompt_frame(place=[23]))
>>> for _ in range(300): person.step(board.read_frame())
>>> board.stack("e3")
('W',)
"""

from __future__ import annotations

import numpy as np

from ..spaces import N_SPACES
from .prompts import PLACE, TAKE


class SimPerson:
    """Places a `kind` piece where PLACE is lit, removes stacks where TAKE is lit."""

    def __init__(self, board, kind: str = "W", react: tuple[float, float] = (0.3, 0.9),
                 seed: int = 0):
        self.board = board
        self.kind = kind
        self.react = react
        self.rng = np.random.default_rng([seed, 0xD1A6])
        self.actions: list[tuple[float, str, int]] = []  # (time, 'place' | 'remove', space)

    def step(self, frame=None) -> None:
        """Look at the LEDs once (call after every frame read)."""
        board = self.board
        leds = board.leds
        if leds is None or not board.hand.idle():
            return
        for space in range(N_SPACES):
            colour = leds.spaces[space]
            occupied = bool(board.stacks[space])
            if _near(colour, PLACE) and not occupied:
                action = "place"
            elif _near(colour, TAKE) and occupied:
                action = "remove"
            else:
                continue
            board.hand.wait(float(self.rng.uniform(*self.react)))
            if action == "place":
                self._refill()
                board.hand.place(space, self.kind)
            else:
                board.hand.remove(space)
            self.actions.append((board.now, action, space))
            return

    def _refill(self) -> None:
        """Take the pieces taken off earlier back out of the box: one piece, placed again and
        again, is all a person needs here."""
        board = self.board
        if board.reserve[self.kind]:
            return
        back = [p for p in board.removed if p.kind == self.kind]
        board.removed[:] = [p for p in board.removed if p.kind != self.kind]
        board.reserve[self.kind].extend(sorted(back, key=lambda p: p.number))


def _near(colour, target, tolerance: int = 16) -> bool:
    """Colours as a person tells them apart: LED frames that went through a strip's gamma and
    brightness cap and back come out a few steps off."""
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))
