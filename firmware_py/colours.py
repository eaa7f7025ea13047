"""The board's LED language: what each colour means (shared by the controller, the simulator's
scripted players, the web view and the docs).

Every meaning has its own colour *and* a pattern, so that a colour-blind player can read the board
by pattern and place alone. Patterns come in families with one meaning each:

=========  ===========================================  =====================================
pattern    what the LED does                            what it says
=========  ===========================================  =====================================
steady     on                                           "this one": whose pieces, the source,
                                                        a stack that belongs here, the winner
wink       on, dark for a moment once a second           "this one", told apart from steady:
                                                        Black to play (White is steady), the
                                                        asked space whose sensor is faulty
slow       on half a second, off half a second           "you may go here"
double     two short flashes, then dark                  "take this off"
flash      one short flash a second                      a question or a suggestion
fast       four blinks a second                          "wrong" / "stop"
triple     three short flashes, then dark               "hurry": the mover's time is low
long       on a second, dark a second                   "check this sensor": it drifts
=========  ===========================================  =====================================

Signals that can be lit at the same time never share a pattern (`MODE_SIGNALS` lists what can
appear together, a test checks it), and no two signals share an RGB value, so a decoder that
looks at one frame knows the meaning of every lit space (`BY_RGB`). A blinking space reads as off
for part of its period (see `is_lit`).

>>> BY_NAME["destination"].pattern
'slow'
>>> BY_RGB[BY_NAME["error"].rgb].name
'error'
>>> is_lit("slow", 0.2), is_lit("slow", 0.7)
(True, False)
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .i18n import N_

RGB = tuple[int, int, int]


class Signal(NamedTuple):
    name: str
    rgb: RGB
    pattern: str  # a key of PATTERNS
    meaning: str


class Pattern(NamedTuple):
    """A repeating on/off timing: `on` holds (start, end) seconds within each `period`."""
    period: float
    on: tuple[tuple[float, float], ...]
    description: str


PATTERNS: dict[str, Pattern] = {
    "steady": Pattern(1.0, ((0.0, 1.0),), "on"),
    "wink": Pattern(1.0, ((0.0, 0.8),), "on, dark for a moment once a second"),
    "slow": Pattern(1.0, ((0.0, 0.5),), "on half a second, off half a second"),
    "double": Pattern(1.2, ((0.0, 0.15), (0.3, 0.45)), "two short flashes, then dark"),
    "flash": Pattern(1.0, ((0.0, 0.2),), "one short flash a second"),
    "fast": Pattern(0.25, ((0.0, 0.125),), "four blinks a second"),
    "triple": Pattern(1.5, ((0.0, 0.12), (0.24, 0.36), (0.48, 0.6)),
                      "three short flashes, then dark"),
    "long": Pattern(2.0, ((0.0, 1.0),), "on a second, dark a second"),
}


def is_lit(pattern: str, now: float) -> bool:
    """Whether a space showing `pattern` is on at time `now` (seconds, any clock)."""
    p = PATTERNS[pattern]
    t = math.fmod(now, p.period)
    if t < 0:
        t += p.period
    return any(a <= t < b for a, b in p.on)


SIGNALS = (
    # Whose turn (idle): on the empty spaces to place on, or the stacks that may move.
    Signal("white_to_play", (255, 255, 255), "steady",
           N_("White to play: the empty spaces to place on, or White's stacks that may move")),
    Signal("black_to_play", (0, 0, 255), "wink",
           N_("Black to play: the empty spaces to place on, or Black's stacks that may move")),
    Signal("dvonn_to_place", (255, 0, 160), "slow",
           N_("a DVONN piece is to be placed on one of these empty spaces")),
    # A stack in the hand.
    Signal("source", (255, 200, 0), "steady", N_("the space the lifted stack came from")),
    Signal("destination", (0, 255, 0), "slow", N_("a legal destination for the lifted stack")),
    # After a move.
    Signal("remove", (160, 0, 255), "double", N_("remove this stack: the move cut it off")),
    # Questions and mistakes.
    Signal("ask", (0, 255, 255), "flash",
           N_("which of these did you land on? lift that stack and set it back (or press confirm)")),
    Signal("ask_faulty", (120, 200, 255), "wink",
           N_("asked about too, but its sensor is faulty and sees no lift: press confirm if you "
              "played there")),
    Signal("error", (255, 0, 0), "fast",
           N_("illegal here: wrong stack lifted, illegal set-down, or the wrong piece placed")),
    Signal("missing", (255, 90, 0), "steady", N_("a stack belongs here: put it back")),
    Signal("extra", (255, 110, 150), "double", N_("this space should be empty: take it off")),
    # Suggestions and announcements.
    Signal("computer_from", (0, 150, 150), "double",
           N_("the computer's move (or a hint): lift this stack")),
    Signal("computer_to", (160, 255, 0), "flash",
           N_("the computer's move or placement (or a hint): put it here")),
    Signal("pass", (0, 140, 255), "fast",
           N_("this player has no move and passes (lit on the passing player's stacks)")),
    # The end.
    Signal("winner", (0, 255, 140), "steady", N_("game over: the winner's stacks")),
    Signal("draw", (180, 180, 255), "slow", N_("game over: a draw (every stack)")),
    # The game clock.
    Signal("low_time", (255, 0, 90), "triple",
           N_("the player to move is low on time (lit on the six corners)")),
    # The machine itself.
    # (Lit while the idle board names the sensors, under the turn's marks: what to do comes first.)
    Signal("drifting", (150, 100, 30), "long",
           N_("this space's sensor drifts faster than the board can follow: moves here may be "
              "asked about")),
    Signal("link_lost", (255, 255, 0), "fast",
           N_("the scanner link is lost: play paused (lit on the six corners)")),
    # Orchid, not orange: it shares the board with "missing" (orange) and "extra" (pink).
    Signal("paused", (225, 120, 255), "slow", N_("play paused (lit on the six corners)")),
    Signal("calibrating", (110, 110, 110), "wink",
           N_("calibrating: keep the board empty and still")),
)
BY_NAME: dict[str, Signal] = {s.name: s for s in SIGNALS}

# The signals' and patterns' names as a player reads them in the terminal and the page's legend
# (translated where shown, with `i18n._`).
SIGNAL_WORDS = {
    "white_to_play": N_("white to play"), "black_to_play": N_("black to play"),
    "dvonn_to_place": N_("dvonn to place"), "source": N_("source"),
    "destination": N_("destination"), "remove": N_("remove"), "ask": N_("ask"),
    "ask_faulty": N_("ask, faulty sensor"),
    "error": N_("error"), "missing": N_("missing"), "extra": N_("extra"),
    "computer_from": N_("computer from"), "computer_to": N_("computer to"), "pass": N_("pass"),
    "winner": N_("winner"), "draw": N_("draw"), "low_time": N_("low time"),
    "link_lost": N_("link lost"), "paused": N_("paused"), "calibrating": N_("calibrating"),
    "drifting": N_("drifting sensor"),
}
PATTERN_WORDS = {
    "steady": N_("steady"), "wink": N_("wink"), "slow": N_("slow"), "double": N_("double"),
    "flash": N_("flash"), "fast": N_("fast"), "triple": N_("triple"), "long": N_("long"),
}
BY_RGB: dict[RGB, Signal] = {s.rgb: s for s in SIGNALS}

MODE_SIGNALS: dict[str, tuple[str, ...]] = {
    "idle": ("white_to_play", "black_to_play", "dvonn_to_place", "computer_from", "computer_to",
             "pass", "low_time", "drifting"),
    "lifted": ("source", "destination", "computer_to", "error", "remove", "low_time"),
    "error": ("error", "source", "destination", "remove", "low_time"),
    "removing": ("remove", "error", "low_time"),
    # (missing: an asked stack cleared, put it back)
    "asking": ("ask", "ask_faulty", "error", "remove", "missing"),
    "unexplained": ("missing", "extra", "error"),
    "calibrating": ("calibrating", "missing", "extra"),
    "paused": ("paused", "missing", "extra"),
    "over": ("winner", "draw"),
    "link_lost": ("link_lost",),
}
"""Signals that can share the board in each mode (used by tests and the docs picture)."""
