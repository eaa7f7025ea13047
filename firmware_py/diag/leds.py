"""`diag leds`: LED test patterns.

- ``colours``: every colour of the board's language (and pure red, green, blue, white) on every
  space, first with the brightness cap lifted (full: the power supply's worst case), then at the
  profile's cap;
- ``chase``: one space at a time in space order a1, b1, c1 ... i1, a2 ...: the light must run
  along each row from left to right, row 1 first, so a wrong LED map shows at a glance;
- ``--space e3``: light one space (to find it, or to check one LED).

Each step lasts `--step` seconds of the board's clock; stops on Ctrl-C with the LEDs off.
"""

from __future__ import annotations

import contextlib

from ..colours import SIGNALS
from ..interfaces import OFF, LedFrame
from ..spaces import N_SPACES, SPACES, parse_space
from .common import add_arguments, console_for, fail, pace, with_board

PRIMARIES = (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)),
             ("white", (255, 255, 255)))
LIGHT = (255, 255, 255)


def colour_steps() -> list[tuple[str, tuple[int, int, int]]]:
    return list(PRIMARIES) + [(s.name, s.rgb) for s in SIGNALS]


def chase_order() -> list[int]:
    """Space order: a1, b1, ... i1, a2, ... k5 (the order of the LED frame)."""
    return list(range(N_SPACES))


def single(space: int, rgb=LIGHT) -> LedFrame:
    colours = [OFF] * N_SPACES
    colours[space] = rgb
    return LedFrame(tuple(colours))


def every(rgb) -> LedFrame:
    return LedFrame((rgb,) * N_SPACES)


@contextlib.contextmanager
def full_brightness(board):
    """Lift the profile's brightness cap while inside (a sink with a chain encoder only)."""
    sink = board.leds
    encoder = getattr(sink, "encoder", None)
    if encoder is None:
        yield False
        return
    from dvonn_hw.leds import ChainEncoder
    sink.encoder = ChainEncoder(encoder.count, encoder.led_map, encoder.status, encoder.order,
                                brightness=1.0, gamma=encoder.gamma)
    try:
        yield True
    finally:
        sink.encoder = encoder


def add_parser(sub) -> None:
    p = sub.add_parser("leds", help="LED test patterns: colours, chase in space order, one space",
                       description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--pattern", choices=("all", "colours", "chase"), default="all",
                   help="which test (default: colours, then chase)")
    p.add_argument("--space", metavar="SPACE", default=None, help="light only this space")
    p.add_argument("--colour", metavar="NAME", default="white",
                   help="colour for --space: a signal name or red/green/blue/white")
    p.add_argument("--step", type=float, default=0.5, metavar="S",
                   help="seconds per step (default 0.5)")
    p.add_argument("--seconds", type=float, default=None, metavar="S",
                   help="with --space: how long to keep it lit (default: until Ctrl-C)")
    p.add_argument("--repeat", type=int, default=1, metavar="N", help="run the patterns N times")
    p.set_defaults(func=run)


def run(args, board=None) -> int:
    console = console_for(args)
    colours = dict(colour_steps())
    if args.colour not in colours:
        return fail("leds", f"--colour {args.colour!r}: one of {', '.join(colours)}")
    space = None
    if args.space is not None:
        try:
            space = parse_space(args.space)
        except ValueError as e:
            return fail("leds", f"--space: {e}")
    if args.step <= 0:
        return fail("leds", "--step must be > 0")

    def say(text: str) -> None:
        console.print(text, highlight=False)

    def body(board) -> int:
        if space is not None:
            board.show(single(space, colours[args.colour]))
            say(f"{SPACES[space]} lit {args.colour}" +
                ("" if args.seconds is not None else " (Ctrl-C to stop)"))
            pace(board, args.seconds if args.seconds is not None else float("inf"))
            return 0
        for n in range(args.repeat):
            if args.pattern in ("all", "colours"):
                with full_brightness(board) as lifted:
                    for name, rgb in colour_steps():
                        say(f"{name} {rgb}: full brightness" if lifted else
                            f"{name} {rgb}: full (this sink has no brightness cap)")
                        board.show(every(rgb))
                        pace(board, args.step)
                if lifted:
                    for name, rgb in colour_steps():
                        say(f"{name} {rgb}: capped at "
                            f"{board.profile.leds.brightness:.0%}")
                        board.show(every(rgb))
                        pace(board, args.step)
            if args.pattern in ("all", "chase"):
                say("chase in space order: a1, b1, ... i1, then row 2 from a2, ... up to k5")
                for s in chase_order():
                    say(f"  {SPACES[s]}")
                    board.show(single(s))
                    pace(board, args.step)
        board.show(every(OFF))
        return 0

    if board is None and args.backend == "sim" and space is not None and args.seconds is None:
        args.real_time = True  # lit until Ctrl-C: wait on the wall clock, not in a busy loop
    return with_board("leds", args, body, board, person=False)


__all__ = ["run", "add_parser", "chase_order", "colour_steps", "full_brightness"]
