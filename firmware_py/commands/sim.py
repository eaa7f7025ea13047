"""`dvonn-board sim`: the controller against the simulated board.

    dvonn-board sim                       people play in real time in the browser: prints the
                                          URL of the page, which is the simulated board
    dvonn-board sim --terminal            the same with typed hand actions in the terminal
    dvonn-board sim --remote black        people mode; Black is played far away (prints the
                                          invitation link); --join LINK joins a hosted game
    dvonn-board sim --autoplay --games N --seed S [--script FILE] [--noise LEVEL]
                    [--preset default|rough|ideal] [--adc 12|10] [--mistakes RATE] [--ai COLOUR [--level N]] [--plies N] [--hints on|off] [--json]
                                          whole games in simulated time, scripted players

With --ai white or --ai black (or both), the computer plays that colour, in people mode as in
`play --ai`; in autoplay the LEDs show its ply and that side's scripted player carries out what
they show (its search is node-limited and seeded by the game's seed, so the games are the same
on any machine; its thinking time is simulated). A --script then gives the other side's plies.

With --json, autoplay prints one JSON object per game per line: seed, plies, truth, record,
match, auto, asked, wrong, resyncs, frame_us_mean, frame_us_p99 (the controller's wall time per
frame), decide_ms_max, mistakes (made, by kind), ai (the colours the computer played), level
and more; with --hints on|off, hints: asked, shown, refused, interrupted, failures (the
scripted players sometimes ask for a hint, and the board's answer is checked on the LEDs).
"""

from __future__ import annotations

import json
import sys

ORDER = 30
NOISE_LEVELS = ("clean", "default", "poor", "bad")


def register(subparsers) -> None:
    p = subparsers.add_parser("sim", help="the controller against the simulated board",
                              description="Play on the simulated board in real time, or with "
                                          "--autoplay let scripted players play whole games "
                                          "in simulated time and compare what the controller "
                                          "recorded with what they played.")
    p.add_argument("--autoplay", action="store_true",
                   help="scripted players, simulated time (default: people, real time)")
    p.add_argument("--games", type=int, default=1, help="autoplay: games to play (default 1)")
    p.add_argument("--seed", type=int, default=None,
                   help="first game's seed (game i uses seed+i; default 1, people mode 0)")
    p.add_argument("--script", metavar="FILE", default=None,
                   help="autoplay: play this game record (any format `replay` reads)")
    p.add_argument("--noise", default="default", metavar="LEVEL",
                   help="sensor noise: clean, default, poor, bad, or mT RMS per raw sample")
    p.add_argument("--preset", default="default", choices=("default", "rough", "ideal"),
                   help="autoplay: the simulated board: default (a careful builder's), rough "
                        "(every imperfection at its worst) or ideal (none)")
    p.add_argument("--adc", type=int, default=12, choices=(12, 10),
                   help="autoplay: ADC bits: 12 (the RP2040 scanner) or 10 (an MCP3008)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="board",
                   help="autoplay: change one number of the simulated board beyond the preset "
                        "(a key of a simulator profile, e.g. sensor_gap_mm=7, "
                        "offset_spread_mt=20, magnets.D.br_mt=1200); may be given again")
    p.add_argument("--mistakes", type=float, default=0.0, metavar="RATE",
                   help="autoplay: chance per ply of a human mistake (0..1, default 0)")
    p.add_argument("--plies", type=int, default=None, metavar="N",
                   help="autoplay: stop each game after N plies (default: play it to the end)")
    p.add_argument("--json", action="store_true", help="autoplay: one JSON object per game")
    p.add_argument("--db", metavar="FILE", default=None,
                   help="people mode: the games database (default: sim-games.sqlite3 beside "
                        "the real board's)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="people mode: simulated seconds per real second (default 1)")
    p.add_argument("--terminal", action="store_true",
                   help="people mode: type hand actions in the terminal instead of the web page")
    p.add_argument("--web", metavar="[HOST:]PORT", default="8080",
                   help="people mode: where the page is served (default 8080 on this machine "
                        "only; 0.0.0.0:8080 serves the network, read-only without the token)")
    p.add_argument("--token", default=None,
                   help="people mode: the token a page needs to act (default: made up when "
                        "serving beyond this machine)")
    from .play import add_computer_arguments
    add_computer_arguments(p)  # --ai COLOUR, --level N: people mode and autoplay
    from ._options import (add_clock_argument, add_hints_argument, add_language_argument,
                           add_study_arguments, add_voice_arguments)
    add_clock_argument(p)  # --clock: people mode and autoplay
    add_hints_argument(p)  # --hints: people mode, and autoplay's players asking for hints
    add_language_argument(p)
    add_voice_arguments(p)  # --voice, --voice-dir: people mode and autoplay
    add_study_arguments(p)  # --from FILE [--ply N], --replay FILE: people mode and autoplay
    from ._remote import add_remote_arguments
    add_remote_arguments(p)  # people mode: --remote COLOUR, --remote-at, --join LINK
    p.set_defaults(func=run)


def run(args) -> int:
    from ._options import use_language
    use_language(args)
    if not args.autoplay:
        return run_interactive(args)
    return run_autoplay(args)


def run_interactive(args) -> int:
    """People at the simulated board in real time: the web page (default) or the terminal."""
    from .play import make_controller_factory
    from ._study import Study, StudyError
    try:
        study = Study.from_args(args)
    except StudyError as e:
        print(f"dvonn-board sim: {e}", file=sys.stderr)
        return 2
    args.study = study
    from ..errors import DvonnError
    from ._options import open_voice
    try:
        voice = open_voice(args)
    except (ValueError, DvonnError) as e:
        print(f"dvonn-board sim: --voice {args.voice}: {e}", file=sys.stderr)
        return 2

    if not args.terminal:
        from ..web.simulator import run_web
        from ._remote import Remote, RemoteOptionError
        from .play import thinkers_from
        from dvonn_sim.compose import simulated_board
        try:
            remote = Remote.from_args(args)
        except RemoteOptionError as e:
            print(f"dvonn-board sim: {e}", file=sys.stderr)
            return 2

        def on_start(run):
            session = run.session
            session.buttons = remote.buttons(session.buttons)  # undo/confirm answer offers
            return remote.start(session)
        try:
            return run_web(args, make_controller_factory(), simulated_board,
                           computer=list(study.computer or (thinkers_from(args)
                                                            if hasattr(args, "ai") else ()))
                           + remote.thinkers, on_start=on_start, study=study,
                           time_control=getattr(args, "clock", None),
                           hints=getattr(args, "hints", "on") != "off",
                           prepare=remote.prepare, voice=voice)  # --join: the host's game
        finally:
            remote.stop()
    if getattr(args, "remote", None) or getattr(args, "join", None):
        print("dvonn-board sim: --remote and --join play on the web page (not --terminal)",
              file=sys.stderr)
        return 2
    from ._sim_live import run_people

    return run_people(args, make_controller_factory(), voice=voice)


def load_script(path: str) -> list[str]:
    """The plies of the first game in a record file, as tokens."""
    from ..records import read_file

    games = read_file(path)
    if not games:
        raise ValueError("no game in the file")
    return [str(p) for p in games[0].plies]


def board_changes(lines, preset: str, adc_bits: int) -> dict:
    """`--set KEY=VALUE` lines as changes to the simulated board, checked against it (a
    `ProfileError` names a wrong key or value)."""
    from dvonn_sim.params import Params, adc_board, settings
    changes = settings(lines)
    Params.preset(preset, **adc_board(adc_bits)).changed(changes)
    return changes


def _noise(value: str):
    if value in NOISE_LEVELS:
        return value
    try:
        v = float(value)
    except ValueError:
        raise ValueError(f"--noise {value!r}: one of {', '.join(NOISE_LEVELS)} or a number "
                         "(mT RMS per raw sample)") from None
    if v < 0:
        raise ValueError(f"--noise {value!r}: must not be negative")
    return v


def computer_note(r) -> str:
    """', computer black level 3' (or nothing when people played both sides)."""
    return f", computer {' and '.join(r.ai)} level {r.level}" if r.ai else ""


def hints_note(r) -> str:
    """', hints asked 3, shown 3' (or refused; nothing without --hints), and what failed."""
    if not r.hints:
        return ""
    h = r.hints
    told = (f", shown {h['shown']}" if h["shown"] else f", refused {h['refused']}"
            if h["refused"] else "")
    failed = f", HINT FAILURES {len(h['failures'])}: {h['failures'][0]}" if h["failures"] else ""
    if h["interrupted"]:
        told += f", interrupted {len(h['interrupted'])} ({h['interrupted'][0]})"
    return f", hints asked {h['asked']}{told}{failed}"


def clock_note(r) -> str:
    """', clock 1m+2s: White 0:31, Black 0:12' (or nothing without a clock)."""
    return f", clock {r.clock['control']}: {r.clock['text']}" if r.clock else ""


def run_autoplay(args) -> int:
    from dvonn_sim.autoplay import play_game
    from ..errors import RecordError

    prog = "dvonn-board sim"
    if args.games < 1:
        print(f"{prog}: --games must be at least 1", file=sys.stderr)
        return 2
    if args.plies is not None and args.plies < 1:
        print(f"{prog}: --plies must be at least 1", file=sys.stderr)
        return 2
    if not 0.0 <= args.mistakes <= 1.0:
        print(f"{prog}: --mistakes must be in 0..1, not {args.mistakes}", file=sys.stderr)
        return 2
    if getattr(args, "game", None) is not None:
        print(f"{prog}: --game does not apply to --autoplay (there the level is a node "
              "budget, so that a game repeats on any machine)", file=sys.stderr)
        return 2
    try:
        noise = _noise(args.noise)
        board = board_changes(args.board, args.preset, args.adc)
    except ValueError as e:  # (a ProfileError too: it names the key)
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    from ._study import Study, StudyError
    try:
        study = Study.from_args(args)
    except StudyError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    start = None
    if study.active and not study.replay:  # --from: the players play on from its position
        from ..study import position_at
        start = list(position_at(study.record.plies, study.ply).move_stack)
    replay = None
    if getattr(args, "replay", None):
        if args.script or args.ai:
            print(f"{prog}: --replay shows the record's plies for both sides: no --script, "
                  "no --ai", file=sys.stderr)
            return 2
        try:
            replay = load_script(args.replay)
        except (OSError, UnicodeDecodeError, RecordError, ValueError) as e:
            print(f"{prog}: {args.replay}: {e}", file=sys.stderr)
            return 1
    script = None
    if args.script:
        try:
            script = load_script(args.script)
        except (OSError, UnicodeDecodeError, RecordError, ValueError) as e:
            print(f"{prog}: {args.script}: {e}", file=sys.stderr)
            return 1
    from ..errors import DvonnError
    from ._options import open_voice
    try:
        voice = open_voice(args)  # one speaker for all the games (files numbered on)
    except (ValueError, DvonnError) as e:
        print(f"{prog}: --voice {args.voice}: {e}", file=sys.stderr)
        return 2
    seed0 = 1 if args.seed is None else args.seed
    failed = 0
    results = []
    for i in range(args.games):
        r = play_game(seed=seed0 + i, noise=noise, script=script, mistakes=args.mistakes,
                      ai=args.ai, level=args.level, max_plies=args.plies,
                      time_control=args.clock, replay=replay, start=start,
                      preset=args.preset, adc_bits=args.adc, hints=args.hints, voice=voice,
                      board=board)
        results.append(r)
        failed += (not r.match) or r.wrong > 0 or bool(r.hints and r.hints["failures"])
        if args.json:
            print(json.dumps(r.as_dict()), flush=True)
        else:
            made = sum(r.mistakes.values())
            what = ("" if (r.preset, r.adc_bits, args.board) == ("default", 12, [])
                    else f" ({r.preset} board{''.join(', ' + c for c in args.board)}, "
                         f"{r.adc_bits}-bit ADC)")
            print(f"game {i + 1} seed {r.seed}{what}: {r.plies} plies, "
                  f"{'recorded exactly' if r.match else 'RECORD DIFFERS'}, wrong {r.wrong}, "
                  f"{'STALLED, ' if r.stalled else ''}"
                  f"auto {r.auto}, asked {r.asked}, resyncs {r.resyncs}, mistakes {made}"
                  f"{computer_note(r)}{clock_note(r)}{hints_note(r)}; "
                  f"commit {r.commit_delay_ms_median:.0f} ms "
                  f"after letting go (median); "
                  f"per frame {r.frame_us_mean:.0f} us mean, {r.frame_us_p99:.0f} us p99",
                  flush=True)
            if not r.match:
                at = next((k for k, (a, b) in enumerate(zip(r.truth, r.record)) if a != b),
                          min(len(r.truth), len(r.record)))
                print(f"  played   {' '.join(r.truth[at:at + 6])}\n"
                      f"  recorded {' '.join(r.record[at:at + 6])} (from ply {at + 1})")
    if voice is not None:
        voice.close()  # says (or writes) what is still queued
    if not args.json:
        print(summary(results))
    return 1 if failed else 0


MEANINGS = """  auto: plies recorded from the sensors alone; asked: plies the board asked about (cyan, the
  player lifted the stack again or pressed confirm); wrong: plies recorded other than played
  (must be 0); resyncs: times the board found the pieces not matching the game (a mistake,
  a takeback) and guided them back; mistakes: clumsy hands the players were given; stalled:
  games in which nothing was recorded for two minutes; after settling: from the board being
  still for the settle time (200 ms after the hand let go) to the ply being recorded."""


def summary(results) -> str:
    """All the games in two lines, then what the counts mean.

    >>> from types import SimpleNamespace as R
    >>> print(summary([R(plies=80, match=True, wrong=0, auto=70, asked=2, resyncs=1,
    ...                  mistakes={"knock": 1}), R(plies=70, match=True, wrong=0, auto=66,
    ...                  asked=0, resyncs=0, mistakes={})]).splitlines()[1])
      150 plies: auto 136 (91 %), asked 2, wrong 0, resyncs 1, mistakes 1
    """
    n, plies = len(results), sum(r.plies for r in results)
    exact = sum(r.match for r in results)
    auto = sum(r.auto for r in results)
    share = f" ({auto / plies:.0%})".replace("%", " %") if plies else ""
    return (f"all {n} game{'s' * (n != 1)}: {exact} of {n} recorded exactly\n"
            f"  {plies} plies: auto {auto}{share}, asked {sum(r.asked for r in results)}, "
            f"wrong {sum(r.wrong for r in results)}, "
            f"resyncs {sum(r.resyncs for r in results)}, "
            f"mistakes {sum(sum(r.mistakes.values()) for r in results)}\n"
            f"{_stalls_and_delay(results)}{_hints(results)}{MEANINGS}")


def _hints(results) -> str:
    """'  hints asked 12, shown 12, refused 0, interrupted 0, failures 0' (games run without
    --hints: nothing)."""
    told = [r.hints for r in results if getattr(r, "hints", None)]
    if not told:
        return ""
    def total(key):  # counts, or lists of what happened
        return sum(h[key] if isinstance(h[key], int) else len(h[key]) for h in told)
    keys = ("asked", "shown", "refused", "interrupted", "failures")
    return "  hints " + ", ".join(f"{k} {total(k)}" for k in keys) + "\n"


def _stalls_and_delay(results) -> str:
    """'  stalled 0, recorded 10 ms after settling (median)' (games without these: nothing)."""
    if not all(hasattr(r, "stalled") for r in results):
        return ""
    after = sorted(max(0.0, d - SETTLE_S) for r in results for _, d in r.delays)
    median = f"{after[len(after) // 2] * 1e3:.0f} ms" if after else "-"
    return (f"  stalled {sum(r.stalled for r in results)}, recorded {median} after settling "
            "(median)\n")


SETTLE_S = 0.2  # the controller's default settle time
