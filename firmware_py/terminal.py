"""The terminal view of a session: the board, what the LEDs say, and what to do.

Used by `dvonn-board play` and the people mode of `dvonn-board sim`. The board is drawn by
`render` with the lit spaces reversed; below it, one line per signal lit (its colour, name,
pattern and spaces), the controller's message, and after a takeback the stacks to rebuild.

>>> from firmware_py.rules import Board
>>> from firmware_py.state import BoardState
>>> text = view_text(BoardState(board=Board.from_plies(["e3"]), mode="idle"))
>>> "dvonn_to_place" in text and "Black to place" in text
True
"""

from __future__ import annotations

import io

from rich.console import Console, Group
from rich.text import Text

from .time_control import format_time
from .colours import BY_NAME, PATTERN_WORDS, SIGNAL_WORDS
from .guidance import signals
from .i18n import N_, _
from .render import board_text, status_text
from .spaces import SPACES
from .state import BoardState


MODE_WORDS = {
    "calibrating": N_("calibrating"), "idle": N_("idle"), "lifted": N_("lifted"),
    "removing": N_("removing"), "asking": N_("asking"), "error": N_("error"),
    "unexplained": N_("unexplained"), "link_lost": N_("link_lost"), "paused": N_("paused"),
    "over": N_("over"),
}
"""The controller's modes (state.MODES) as the terminal's status line names them."""


def leds_text(state: BoardState) -> Text:
    """One line per lit signal: a swatch in its colour, its name, pattern and spaces."""
    by_signal: dict[str, list[int]] = {}
    for space, name in sorted(signals(state).items()):
        by_signal.setdefault(name, []).append(space)
    out = Text()
    for name, spaces in by_signal.items():
        sig = BY_NAME[name]
        out.append("  ●● ", style="rgb({},{},{})".format(*sig.rgb))
        shown = " ".join(SPACES[s] for s in spaces[:12]) + (" ..." if len(spaces) > 12 else "")
        label = _(SIGNAL_WORDS[name]).replace(" ", "_")  # one word, as the name it stands for
        out.append(f"{label} ({_(PATTERN_WORDS[sig.pattern])}): {shown}\n")
    out.rstrip()
    return out


def clock_text(reading) -> Text:
    """The game clock: both times, the running one bold, low time and a flag in red."""
    out = Text(_("clock {control}: ").format(control=reading.control))
    for side, name in ((0, _("White")), (1, _("Black"))):
        style = ("bold red" if side == reading.flagged or (side == reading.running and reading.low)
                 else "bold" if side == reading.running else "")
        mark = "▶ " if side == reading.running else ""
        out.append(f"{mark}{name} {format_time(reading.left[side])}", style=style)
        if side == reading.flagged:
            out.append(" " + _("out of time"), style="bold red")
        out.append("   " if side == 0 else "")
    return out


def view(state: BoardState, rebuild: list[str] = (), note: str = "") -> Group:
    """Board, status, LED lines, message and stacks to rebuild, ready for `Console.print`."""
    lit = signals(state)
    parts = [board_text(state.board, highlight=lit), status_text(state.board),
             Text(_("mode: {mode}").format(mode=_(MODE_WORDS[state.mode]))
                  + (f" · {state.message}" if state.message else ""),
                  style="bold" if state.mode in ("error", "link_lost", "unexplained") else "")]
    if state.clock is not None:
        parts.append(clock_text(state.clock))
    if lit:
        parts.append(leds_text(state))
    if rebuild:
        parts.append(Text(_("Rebuild after the takeback:") + "\n  " + "\n  ".join(rebuild),
                          style="bold yellow"))
    if note:
        parts.append(Text(note, style="dim"))
    return Group(*parts)


def view_text(state: BoardState, rebuild: list[str] = ()) -> str:
    """The view as plain text (tests, logs)."""
    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(view(state, rebuild))
    return console.export_text()
