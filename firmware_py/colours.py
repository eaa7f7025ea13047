"""The board's LED language: what each colour means (shared by the controller, the simulator's
scripted players, the web view and the docs).

Every meaning has a distinct hue *and* a distinct pattern (steady, slow blink, fast blink), so that
a colour-blind player can read the board by pattern and position alone. The controller renders the
patterns by switching a space between its colour and off; decoders match exact RGB values, and a
blinking space reads as off half of the time.
"""

from __future__ import annotations

from typing import NamedTuple

RGB = tuple[int, int, int]


class Signal(NamedTuple):
    name: str
    rgb: RGB
    pattern: str  # 'steady', 'slow' (1 Hz) or 'fast' (4 Hz)
    meaning: str


SIGNALS = (
    Signal("white_to_play", (255, 255, 255), "steady",
           "White to play: the empty spaces to place on, or White's stacks that may move"),
    Signal("black_to_play", (0, 0, 255), "steady",
           "Black to play: the empty spaces to place on, or Black's stacks that may move"),
    Signal("dvonn_to_place", (255, 0, 160), "slow",
           "a DVONN piece is to be placed on one of these empty spaces"),
    Signal("source", (255, 200, 0), "steady", "the space the lifted stack came from"),
    Signal("destination", (0, 255, 0), "slow", "a legal destination for the lifted stack"),
    Signal("remove", (160, 0, 255), "slow", "remove this stack: the move cut it off"),
    Signal("ask", (0, 255, 255), "fast",
           "which of these did you land on? lift that stack and set it back (or press confirm)"),
    Signal("error", (255, 0, 0), "fast",
           "illegal here: wrong stack lifted, illegal set-down, or the wrong piece placed"),
    Signal("missing", (255, 90, 0), "steady", "a stack belongs here: put it back"),
    Signal("extra", (255, 0, 0), "steady", "this space should be empty: take it off"),
    Signal("computer_from", (255, 200, 0), "fast", "the computer's move: lift this stack"),
    Signal("computer_to", (0, 255, 0), "fast", "the computer's move or placement: put it here"),
    Signal("pass", (255, 255, 255), "fast", "the player to move has no move and passes"),
    Signal("winner", (0, 255, 0), "steady", "game over: the winner's stacks"),
    Signal("draw", (255, 200, 0), "slow", "game over: a draw"),
    Signal("link_lost", (255, 90, 0), "fast", "the scanner link is lost: play paused"),
)
BY_NAME: dict[str, Signal] = {s.name: s for s in SIGNALS}
