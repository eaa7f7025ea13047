"""The people mode of `dvonn-board sim`: the controller against the simulated board in real time.

A person plays through the simulator's hand by typing what to do; the simulated board turns it
into sensor frames in real time, the controller works out the moves, and the terminal shows the
board with what the LEDs say. The games go to their own database (`sim-games.sqlite3` beside the
default one, or --db), and an unfinished game is resumed with the simulated pieces set up as
recorded. The typed commands are in `HELP` (what `help` prints, in the chosen language).
"""

from __future__ import annotations

import dataclasses
import queue
import sys
import threading

from rich.console import Console

from ..i18n import N_, _
from ..rules import Ply
from ..spaces import SPACES, parse_space
from ..state import BoardState

BUTTONS = {"confirm": "confirm", "undo": "undo", "takeback": "undo", "new": "new_game",
           "hint": "hint", "say": "say"}
HELP = N_("""

    e3                 place the piece the rules expect next on e3     e3 W: a given kind
    e3f3  (e3-f3)      lift the stack on e3 and put it on f3
    lift e3 [N]  put f3  discard   one step at a time (N: only the top N pieces)
    remove e3 [f3..]   take stacks off into the box      clear: every stack the LEDs say to remove
    knock e3  restore [e3]  slide e3 f3 [via..]  wait S   clumsy hands
    confirm  undo  new   the board's buttons             show  help  quit
    hint               the engine's move for the player to move, on the LEDs (again: hide it)""")
"""The typed commands (spaces by name), shown at the start and by `help`."""
SAY_HELP = N_("""
    say                the situation aloud (with --voice): the lifted stack and where it may go""")
"""The `say` button's line under HELP (a message of its own: HELP's translations stand)."""


class CommandError(ValueError):
    """A typed command that cannot be understood: the message says what is wrong."""


def parse_command(text: str, state: BoardState) -> list[tuple[str, tuple]]:
    """The hand actions (method name, arguments) for one typed command.

    Buttons come back as ('button', (name,)). Raises CommandError naming the bad word.

    >>> from firmware_py.rules import Board
    >>> s = BoardState(board=Board(), mode="idle")
    >>> parse_command("e3", s), parse_command("e3-f3", s)
    ([('place', (23, 'D'))], [('lift', (23, None)), ('put', (24,))])
    """
    words = text.strip().split()
    if not words:
        return []
    verb, rest = words[0].lower(), words[1:]
    try:
        if verb in BUTTONS and not rest:
            return [("button", (BUTTONS[verb],))]
        if verb == "lift":
            return [("lift", (parse_space(rest[0]), _count(rest[1:])))]
        if verb == "put":
            return [("put", (parse_space(rest[0]),))]
        if verb == "discard":
            return [("discard", ())]
        if verb == "remove":
            return [("remove", (parse_space(w), None)) for w in _some(rest)]
        if verb == "clear":
            if not state.remove:
                raise CommandError(_("clear: the LEDs show no stack to remove"))
            return [("remove", (s, None)) for s in state.remove]
        if verb == "knock":
            return [("knock", (parse_space(rest[0]),))]
        if verb == "restore":
            return [("restore", (parse_space(rest[0]) if rest else None,))]
        if verb == "slide":
            src, dst, *via = (parse_space(w) for w in _some(rest, 2))
            return [("slide", (src, dst, tuple(via)))]
        if verb == "wait":
            return [("wait", (float(rest[0]),))]
        if verb == "place":
            return _place(rest, state)
        if len(words) <= 2 and verb not in ("pass",):
            try:
                ply = Ply.parse(verb)
            except ValueError:
                raise CommandError(_("{word}: not a command, a space or a move (type help)"
                                     ).format(word=repr(verb))) from None
            if ply.is_placement:
                return _place(words, state)
            if ply.is_move and len(words) == 1:
                return [("lift", (ply.src, None)), ("put", (ply.dst,))]
    except IndexError:
        raise CommandError(_("{word}: needs a space (e.g. {word} e3)").format(word=verb)) from None
    except ValueError as e:
        if isinstance(e, CommandError):
            raise
        raise CommandError(f"{text.strip()!r}: {e}") from None
    raise CommandError(_("{word}: not a command (type help)").format(word=repr(verb)))


def _some(words, n: int = 1):
    if len(words) < n:
        raise IndexError
    return words


def _count(words) -> int | None:
    return int(words[0]) if words else None


def _place(words, state: BoardState) -> list[tuple[str, tuple]]:
    space = parse_space(words[0])
    if len(words) > 1:
        kind = words[1].upper()
        if kind not in ("W", "B", "D"):
            raise CommandError(_("{word}: a piece is W, B or D").format(word=repr(words[1])))
    else:
        kind = state.board.piece_to_place()
        if kind is None:
            raise CommandError(_("{space}: all pieces are placed; a move is e3f3").format(
                space=SPACES[space]))
    return [("place", (space, kind))]


class HandDesk:
    """Runs typed hand actions on the simulated board inside the session's loop thread.

    Wraps the SimBoard as the session's SensorSource: before each frame it does the actions
    typed since (the simulated hand is not thread-safe, the loop is its only user).
    """

    def __init__(self, sim, report):
        self.sim = sim
        self.adc_max = sim.adc_max
        self.report = report
        self.pending: queue.SimpleQueue = queue.SimpleQueue()

    def submit(self, actions) -> None:
        self.pending.put(actions)

    def call(self, fn) -> None:
        """Run fn() in the loop thread before the next frame (e.g. clearing the table)."""
        self.pending.put([(fn, ())])

    def read_frame(self, timeout=None):
        while not self.pending.empty():
            for name, args in self.pending.get():
                try:
                    (name if callable(name) else getattr(self.sim.hand, name))(*args)
                except ValueError as e:  # sim.hand.HandError and bad arguments
                    self.report(_("the hand cannot {action}: {why}").format(action=name, why=e))
                    break
        return self.sim.read_frame(timeout)

    def close(self) -> None:
        self.sim.close()


def run_people(args, make_controller, *, lines=None, clock=None, console=None,
               voice=None) -> int:
    """The interactive real-time game (see the module docstring); returns the exit status.

    args: `db`, `seed`, and optionally `noise` (a level name or mT), `speed` (simulated seconds
    per second), `ai`/`level` (see `play`). lines, clock, console: the typed lines (default: the terminal), the
    simulator's clock (default: real time) and the console, for tests. voice: an
    `announce.Announcer` (None: silent).
    """
    from dvonn_sim.compose import simulated_board

    from ..errors import ProfileError, StoreError
    from ..session import Session
    from ..store import Store, sim_path
    from ..terminal import view, view_text
    from .play import thinkers_from

    console = console or Console()
    db = getattr(args, "db", None) or sim_path()
    noise = getattr(args, "noise", None) or "default"
    try:
        sim = simulated_board(_number_or_name(noise), seed=getattr(args, "seed", None) or 0,
                              speed=getattr(args, "speed", None) or 1.0, clock=clock)
    except (ProfileError, ValueError) as e:
        console.print(f"[red]dvonn-board sim: {e}[/red]")
        return 2
    desk = HandDesk(sim, lambda msg: console.print(f"[red]{msg}[/red]"))
    try:
        store = Store(db)
        study = getattr(args, "study", None)
        if study is not None:
            study.prepare(store)  # --from: the record's position, set up below, resumed
        unfinished = store.unfinished()
        replay = study is not None and study.replay
        if unfinished is not None and not replay:  # the pieces stand where the record says
            sim.setup(store.board(unfinished.id))
        computer = thinkers_from(args) if getattr(args, "ai", None) else []
        if replay:
            computer = study.computer
        session = Session(desk, sim, store, make_controller, buttons=None, resume=not replay,
                          tags={"Site": "dvonn-board simulator",
                                **(study.tags() if replay else {})},
                          computer=computer, time_control=getattr(args, "clock", None),
                          hints=getattr(args, "hints", "on") != "off", voice=voice)
    except StoreError as e:
        console.print(f"[red]dvonn-board sim: {e}[/red]")
        return 1
    console.print((_("games in {path}; resumed game {n}") if session.resumed
                   else _("games in {path}; new game {n}")).format(path=db, n=session.game_id))
    shown = {}

    def show(s) -> None:
        # The clock ticks once a second: print again only when more than its seconds changed.
        text = view_text(dataclasses.replace(s.state, clock=None), s.rebuild)
        if text != shown.get("text"):
            shown["text"] = text
            console.print(view(s.state, s.rebuild))
    session.subscribe(show)
    stop = threading.Event()
    failed = []

    def run_session() -> None:
        try:
            session.run(stop)
        except StoreError as e:  # e.g. the database locked by another program for too long
            failed.append(e)
            console.print(f"[red]dvonn-board sim: {e}[/red]")

    loop = threading.Thread(target=run_session, name="session", daemon=True)
    loop.start()
    console.print(_(HELP) + _(SAY_HELP))
    try:
        for line in (lines if lines is not None else _lines()):
            if not loop.is_alive():
                break  # the session stopped by itself (and said why)
            word = line.strip().lower()
            if word in ("quit", "exit", "q"):
                break
            if word == "help":
                console.print(_(HELP) + _(SAY_HELP))
                continue
            if word == "show":
                console.print(view(session.state, session.rebuild))
                continue
            try:
                actions = parse_command(line, session.state)
            except CommandError as e:
                console.print(f"[red]{e}[/red]")
                continue
            buttons = [a for a in actions if a[0] == "button"]
            for _button, (name,) in buttons:
                {"undo": lambda: session.press("undo"), "confirm": lambda: session.press("confirm"),
                 "hint": session.hint, "say": session.say,
                 "new_game": lambda: _new_game(session, desk)}[name]()
            if len(buttons) < len(actions):
                desk.submit(actions)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        loop.join(timeout=5)
        session.close()
    return 1 if failed else 0


def _number_or_name(noise):
    try:
        return float(noise)
    except (TypeError, ValueError):
        return noise


def _new_game(session, desk: HandDesk) -> None:
    """A new game: the people clear the table (at once, in the loop thread)."""
    sim = desk.sim
    session.new_game()
    desk.call(lambda: (sim.hand.cancel(), sim.setup([()] * len(sim.stacks))))


def _lines():
    while True:
        try:
            line = input("> ") if sys.stdin.isatty() else sys.stdin.readline()
        except EOFError:
            return
        if not line and not sys.stdin.isatty():
            return
        yield line
