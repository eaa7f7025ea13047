"""`dvonn-board play [--profile FILE] [--port PORT] [--db FILE]`: a game on the real board.

With `--remote COLOUR` someone far away plays that colour from a browser (or their own board,
`--join LINK`); see `_remote`.

Opens the board the profile describes (scanner, LEDs, buttons), resumes the unfinished game of
the database or starts a new one, and shows the board and what the LEDs say in the terminal
until Ctrl-C (LEDs off, port closed, every committed ply already on disk). A takeback: the undo
button, or `dvonn-board games takeback` from another terminal.
"""

from __future__ import annotations

import logging
import sys
import warnings

from ..errors import DvonnError, HardwareUnavailable, ProfileError, StoreError
from .games import add_db_argument

log = logging.getLogger(__name__)

ORDER = 10


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a game on the real board",
                              description="A game on the real board: the terminal shows the "
                                          "board and the LEDs' meaning; Ctrl-C stops (nothing "
                                          "is lost, the next start resumes the game).")
    p.add_argument("--profile", metavar="FILE", default=None,
                   help="the board profile: a TOML file or a packaged profile's name "
                        "(default: the packaged default)")
    p.add_argument("--port", metavar="PORT", default=None,
                   help="the scanner's serial port (default: the profile's)")
    add_db_argument(p)
    p.add_argument("--calibration", metavar="FILE", default=None,
                   help="a saved calibration (default: calibration.json in the user's data "
                        "directory, written by `dvonn-board diag calibrate`, when present)")
    p.add_argument("--new", action="store_true",
                   help="start a new game even if one is unfinished (that one is kept)")
    add_computer_arguments(p)
    from ._options import (add_clock_argument, add_hints_argument, add_language_argument,
                           add_study_arguments, add_voice_arguments)
    add_clock_argument(p)
    add_hints_argument(p)
    add_language_argument(p)
    add_voice_arguments(p)  # --voice LANG|cues|off, --voice-dir DIR
    add_study_arguments(p)
    from ._remote import add_remote_arguments
    add_remote_arguments(p)  # --remote COLOUR, --remote-at, --join LINK
    p.add_argument("--white", metavar="NAME", default=None, help="White's name for the record")
    p.add_argument("--black", metavar="NAME", default=None, help="Black's name for the record")
    p.add_argument("--event", metavar="TEXT", default=None, help="the record's Event tag")
    p.add_argument("--web", metavar="[HOST:]PORT", default=None,
                   help="also show the board live in a browser (e.g. 8080: this machine only; "
                        "0.0.0.0:8080: the network, acting then needs the printed URL's token)")
    p.set_defaults(func=run)


def add_computer_arguments(parser) -> None:
    parser.add_argument("--ai", metavar="COLOUR", choices=("white", "black"), action="append",
                        default=[], help="the computer plays this colour (may be given twice): "
                                         "the LEDs show its ply, a person carries it out")
    parser.add_argument("--level", type=int, default=3, choices=range(1, 6), metavar="1-5",
                        help="the computer's strength (time per move; default 3)")
    parser.add_argument("--game", type=_positive_seconds, default=None, metavar="SECONDS",
                        help="instead of the level's time per move, this much thinking time "
                             "for the computer's whole game, shared out move by move (like "
                             "the match player ai:LEVEL,game=SECONDS)")


def _positive_seconds(text: str) -> float:
    import argparse

    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return seconds


def thinkers_from(args) -> list:
    """One `ai.Thinker` per colour the computer plays."""
    if not args.ai:
        return []
    from ..ai import Thinker
    from ..rules import BLACK, WHITE
    game = getattr(args, "game", None)
    return [Thinker({"white": WHITE, "black": BLACK}[c], level=args.level, game=game)
            for c in set(args.ai)]


def tags_from(args) -> dict[str, str]:
    tags = {"White": args.white, "Black": args.black, "Event": args.event}
    for colour in getattr(args, "ai", ()):
        tags[colour.capitalize()] = tags[colour.capitalize()] or f"dvonn-board ai level {args.level}"
    return {k: v for k, v in tags.items() if v}


def open_parts(opened):
    """(sensors, leds, buttons, warnings) from what `dvonn_hw.open_board` returns (it unpacks as three
    and may carry `warnings`, e.g. "buttons disabled: no GPIO")."""
    sensors, leds, buttons = opened
    return sensors, leds, buttons, tuple(getattr(opened, "warnings", ()))


def calibration_path(args):
    """--calibration, else the diagnostics' default file (beside the games database)."""
    if args.calibration:
        return args.calibration
    from ..diag.calibrate import default_path
    return default_path()


def keep_first_baselines(session, calibration, path) -> None:
    """With no calibration file at `path` yet, save the baselines this board's first empty board
    gives (read, or confirmed empty: a cheap Hall sensor sits up to 20 mT off mid-scale), so
    that a game resumed after a pulled plug knows which readings are empty spaces. A file the
    player made (`diag calibrate`) is never overwritten."""
    from pathlib import Path
    if path is None or Path(path).exists():
        return

    def save(_session) -> None:
        if calibration.baseline_known:
            unsubscribe()
            try:
                calibration.save(path)
            except OSError as e:  # a read-only card: the game goes on, resuming as before
                log.warning("could not save the board's baselines to %s: %s", path, e)
    unsubscribe = session.subscribe(save)


PROFILE_KINDS = {"white": "W", "black": "B", "dvonn": "D"}


def board_spec(profile):
    """The controller's `BoardSpec` from an `dvonn_hw.profile.Profile`: the magnets' polarity and size
    per piece kind (when the profile describes them; else the reference board's), the sensor
    gain and the ADC. Plain values only: the controller never imports `hw`.

    >>> from dvonn_hw.profile import load_profile
    >>> board_spec(load_profile("default")).polarity
    {'W': 1.0, 'B': -1.0, 'D': 1.0}
    """
    from ..board_build import BoardSpec, Geometry, Magnet
    spec = BoardSpec()
    geometry = spec.geometry
    polarity = dict(spec.polarity)
    if profile.magnets:
        polarity = {PROFILE_KINDS[k]: (1.0 if m.polarity == "north" else -1.0)
                    for k, m in profile.magnets.items()}
        geometry = Geometry(magnets={PROFILE_KINDS[k]: Magnet(m.diameter_mm, m.height_mm)
                                     for k, m in profile.magnets.items()})
    return BoardSpec(polarity=polarity, geometry=geometry, mv_per_mt=profile.sensor.mv_per_mt,
                     vref=profile.adc.vref, adc_max=profile.adc.max)


def make_controller_factory(**options):
    """A `make_controller(board)` for the session, building the inference helper's Controller."""
    from ..controller import Controller

    def make(board):
        return Controller(board=board, **options)
    return make


def run(args) -> int:
    from ._options import use_language
    use_language(args)
    from rich.console import Console
    from rich.live import Live

    from ..session import Session
    from ..store import Store
    from ..terminal import view

    from ._study import Study, StudyError
    try:
        study = Study.from_args(args)
    except StudyError as e:
        print(f"dvonn-board play: {e}", file=sys.stderr)
        return 2
    from ._remote import Remote, RemoteOptionError

    console = Console()
    try:
        remote = Remote.from_args(args)
    except RemoteOptionError as e:
        print(f"dvonn-board play: {e}", file=sys.stderr)
        return 2
    # gpiozero warns once per pin library it cannot load; open_board's own warning says it all.
    warnings.filterwarnings("ignore", module="gpiozero")
    try:
        import dvonn_hw as hw
        from dvonn_hw.profile import load_profile
        profile = load_profile(args.profile)
        spec = board_spec(profile)  # (open_board reads the same file again: cheap)
        opened = hw.open_board(args.profile, port=args.port)
        source, leds, buttons, notes = open_parts(opened)
    except (ProfileError, ValueError) as e:
        remote.stop()
        print(f"dvonn-board play: profile: {e}", file=sys.stderr)
        return 2
    except (HardwareUnavailable, OSError) as e:
        remote.stop()
        print(f"dvonn-board play: the board cannot be opened: {e}", file=sys.stderr)
        return 1
    if not getattr(source, "connected", True):  # a serial scanner whose port is not there
        port = getattr(source, "port_name", args.port)
        if not getattr(opened, "gpio", True):  # and no GPIO: this machine is not a board
            for part in (leds, source, buttons):
                if part is not None:
                    part.close()
            print(f"dvonn-board play: no board here: no scanner on {port} and no GPIO on "
                  "this machine.\n"
                  "  The scanner's port: `dvonn-board diag ports`, then `play --port PORT`.\n"
                  "  Without a board: `dvonn-board sim` plays on the simulated one.",
                  file=sys.stderr)
            return 1
        notes = (*notes, f"waiting for the scanner on {port}: plug it in (`dvonn-board diag "
                         "ports` lists the ports; --port picks one)")
    from ._options import open_voice
    try:
        voice = open_voice(args, profile.voice.volume)
    except (ValueError, DvonnError) as e:
        remote.stop()
        for part in (leds, source, buttons):
            if part is not None:
                part.close()
        print(f"dvonn-board play: --voice {args.voice}: {e}", file=sys.stderr)
        return 2
    try:
        from ..calibration import load_or_nominal
        calibration = load_or_nominal(calibration_path(args), adc_max=source.adc_max)
        # The direct scanner's readings are means with a fraction of a code (`reading_step`).
        make_controller = make_controller_factory(
            calibration=calibration, spec=spec, reading_step=getattr(source, "reading_step", 1.0))
        store = Store(args.db)
        study.prepare(store)  # --from: the record's position, resumed below
        joined = remote.prepare(store, args.new)  # --join: the host's game, resumed below
        resume = not args.new if study.resume is None else study.resume
        session = Session(source, leds, store, make_controller, remote.buttons(buttons),
                          resume=resume if joined is None else joined,
                          tags={**tags_from(args), **study.tags()},
                          computer=(study.computer or thinkers_from(args)) + remote.thinkers,
                          time_control=args.clock, hints=args.hints != "off", voice=voice)
        session.rebuild = study.rebuild or remote.rebuild or session.rebuild  # stacks to set up
        keep_first_baselines(session, calibration, calibration_path(args))
    except (DvonnError, OSError) as e:
        remote.stop()
        for part in (leds, source, buttons):
            if part is not None:
                part.close()
        if voice is not None:
            voice.close()
        print(f"dvonn-board play: {e}", file=sys.stderr)
        return 1
    for warning in notes:
        console.print(f"[yellow]{warning}[/yellow]")
    from ..i18n import _
    note = (_("resumed game {n} in {path} · Ctrl-C stops, nothing is lost") if session.resumed
            else _("new game {n} in {path} · Ctrl-C stops, nothing is lost")).format(
                n=session.game_id, path=store.path)
    try:
        for line in remote.start(session):
            console.print(line, highlight=False, soft_wrap=True)
    except OSError as e:  # most often: the port is taken
        session.close()
        remote.stop()
        print(f"dvonn-board play: --remote-at {args.remote_at}: {e.strerror or e}",
              file=sys.stderr)
        return 1
    web = None
    if args.web:
        from ..web.session_source import start_web
        try:
            web = start_web(session, args.web)
        except (ValueError, OSError) as e:
            session.close()
            print(f"dvonn-board play: --web {args.web}: {e}", file=sys.stderr)
            return 2
        console.print(_("web view: {url}").format(url=web.url))
    with Live(view(session.state, session.rebuild, note), console=console,
              auto_refresh=False) as live:
        def show(s=session):  # the remote side's offers and status under the board
            live.update(view(s.state, s.rebuild, " · ".join(filter(None, (note, remote.note())))),
                        refresh=True)
        session.subscribe(show)
        remote.on_change(show)
        import signal
        # `systemctl stop` (SIGTERM): the same clean stop as Ctrl-C (LEDs off, port and
        # database closed), with the exit status a service stopping on purpose gives.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            session.run()  # until Ctrl-C; closes LEDs, port and database
        except StoreError as e:  # e.g. the file locked by another program for too long
            live.stop()
            print(f"dvonn-board play: {e}\nEvery ply acknowledged before is on disk; "
                  "start `dvonn-board play` again to resume.", file=sys.stderr)
            return 1
        finally:
            remote.stop()
            if web is not None:
                web.stop()
    return 0
