"""`dvonn-board bench serial`: whole games over the real serial path, in real time.

Per game: the simulated board served on a pseudo-terminal by the scanner firmware's own logic
(`dvonn_sim.pty_scanner`, `--preset` and `--adc` as in `sim --autoplay`), scripted players
following its LEDs (a game record, or random plies from the seed), and the real `dvonn-board
play` as a subprocess on that port with a temporary database (the packaged default profile; for
`--adc 10`, that profile with an MCP3008). The players' confirm presses reach `play` through its
web view. When the game ends or stalls (no ply stored for `--stall` seconds), `play` gets a
SIGINT (Ctrl-C) and must exit within a second; then the game stored in SQLite is compared with
what the players played (`dvonn_sim.serial_game`). With `--compare`, the same game is also
autoplayed (in-process, simulated time) for the figures side by side.

    dvonn-board bench serial [--games N] [--seed S] [--preset default|rough|ideal] [--adc 12|10]
                             [--mistakes RATE] [--record FILE] [--plies N] [--stall S]
                             [--compare] [--json]

A game takes as long as people take to play it (about 4 minutes at the default preset).
"""

from __future__ import annotations

import json
import statistics


def register(bench_subparsers) -> None:
    p = bench_subparsers.add_parser(
        "serial", help="whole games over the serial link to the real `play` (real time)",
        description="Games played on the simulated board served on a pseudo-terminal, read by "
                    "the real `dvonn-board play` over the serial link; the stored game compared "
                    "with what was played, and the time `play` takes to stop on Ctrl-C.")
    p.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    p.add_argument("--seed", type=int, default=1, help="first seed (game i uses seed+i)")
    p.add_argument("--preset", default="default", choices=("default", "rough", "ideal"),
                   help="the simulated board, as `sim --autoplay --preset` (default: default)")
    p.add_argument("--adc", type=int, default=12, choices=(12, 10),
                   help="ADC bits: 12 (the RP2040) or 10 (an MCP3008 behind the serial scanner)")
    p.add_argument("--noise", default="default", metavar="LEVEL",
                   help="sensor noise: clean, default, poor, bad, or mT RMS per raw sample")
    p.add_argument("--mistakes", type=float, default=0.0, metavar="RATE",
                   help="chance per ply of a human mistake (0..1, default 0)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="play this record's game(s) (any format `replay` reads; game i plays "
                        "the file's game i modulo their number); default: random plies")
    p.add_argument("--plies", type=int, default=None, metavar="N",
                   help="stop each game after N plies (default: play it to the end)")
    p.add_argument("--stall", type=float, default=60.0, metavar="SECONDS",
                   help="a game with no ply stored for this long is stalled (default 60)")
    p.add_argument("--compare", action="store_true",
                   help="also autoplay each game (same seed, record, board) and show both")
    p.add_argument("--json", action="store_true", help="one JSON object per game, then a summary")
    p.set_defaults(func=run)


def _scripts(path: str | None, games: int) -> list[list[str] | None] | str:
    """Each game's tokens (None: random plies), or an error message."""
    if path is None:
        return [None] * games
    from ..errors import RecordError
    from ..records import read_file
    try:
        records = read_file(path)
    except (OSError, RecordError) as e:
        return f"--record {path}: {getattr(e, 'strerror', None) or e}"
    if not records:
        return f"--record {path}: no game in the file"
    return [[str(p) for p in records[i % len(records)].plies] for i in range(games)]


def run(args) -> int:
    from dvonn_sim.serial_game import play_serial_game

    if args.games < 1:
        print("dvonn-board bench serial: --games must be at least 1")
        return 2
    if not 0 <= args.mistakes <= 1:
        print(f"dvonn-board bench serial: --mistakes must be 0..1, not {args.mistakes}")
        return 2
    scripts = _scripts(args.record, args.games)
    if isinstance(scripts, str):
        print(f"dvonn-board bench serial: {scripts}")
        return 2
    rows = []
    for i, script in enumerate(scripts):
        seed = args.seed + i
        game = play_serial_game(seed, preset=args.preset, adc_bits=args.adc,
                                mistakes=args.mistakes, script=script, noise=args.noise,
                                max_plies=args.plies, stall_s=args.stall).as_dict()
        if args.compare:
            game["autoplay"] = _autoplay(seed, args, script)
        rows.append(game)
        print(json.dumps(game) if args.json else line(game), flush=True)
    summary = summarise(rows)
    print(json.dumps(summary) if args.json else summary_line(summary))
    return 0


def _autoplay(seed: int, args, script) -> dict:
    """The same game autoplayed, counted as the serial game is: the board's modes entered
    (questions asked, unexplained boards, errors), not the controller's own statistics."""
    from dvonn_sim.autoplay import play_game

    modes: list[str] = []

    def trace(controller, board) -> None:
        if not modes or modes[-1] != controller.state.mode:
            modes.append(controller.state.mode)

    r = play_game(seed=seed, noise=args.noise, script=script, mistakes=args.mistakes,
                  max_plies=args.plies, preset=args.preset, adc_bits=args.adc, trace=trace)
    first = next((i for i, (a, b) in enumerate(zip(r.record, r.truth)) if a != b), None)
    return {"plies": r.plies, "stored": len(r.record), "match": r.match, "wrong": r.wrong,
            "first_wrong": first, "stalled": r.stalled, "asked": modes.count("asking"),
            "unexplained": modes.count("unexplained"), "errors": modes.count("error"),
            "made": r.mistakes}


def line(g: dict) -> str:
    """One game as a line of text."""
    if g["match"]:
        how = "exact"
    elif g["stalled_at"] is not None:
        how = f"stalled at ply {g['stalled_at']} ({g['stall_mode']}: {g['stall_message']})"
    else:
        how = f"differs from ply {g['first_wrong']}"
    stop = "did not stop within 10 s" if g["exit_s"] is None else (
        f"exit {g['exit_code']} {g['exit_s'] * 1000:.0f} ms after Ctrl-C")
    text = (f"seed {g['seed']} {g['preset']} {g['adc_bits']}-bit m{g['mistakes']:g}: "
            f"{g['stored']}/{g['plies']} plies stored, {how}, {g['wrong']} wrong, "
            f"{g['asked']} asked, {g['unexplained']} unexplained, {g['errors']} errors; "
            f"{stop}; {g['wall_s']:.0f} s")
    if g.get("traceback"):
        text += "; TRACEBACK in play's stderr"
    a = g.get("autoplay")
    if a:
        text += (f"\n    autoplay: {a['stored']}/{a['plies']} plies, "
                 f"{'exact' if a['match'] else 'NOT exact'}, {a['wrong']} wrong, "
                 f"{a['asked']} asked, {a['unexplained']} unexplained, {a['errors']} errors"
                 f"{', stalled' if a['stalled'] else ''}")
    return text


def summarise(rows: list[dict]) -> dict:
    exits = [g["exit_s"] for g in rows if g["exit_s"] is not None]
    summary = {
        "games": len(rows), "exact": sum(g["match"] for g in rows),
        "stalled": sum(g["stalled_at"] is not None for g in rows),
        "wrong": sum(g["wrong"] for g in rows), "asked": sum(g["asked"] for g in rows),
        "plies": sum(g["plies"] for g in rows), "stored": sum(g["stored"] for g in rows),
        "exit_s_max": max(exits) if exits else None,
        "exit_s_median": statistics.median(exits) if exits else None,
        "not_stopped": sum(g["exit_s"] is None for g in rows),
        "tracebacks": sum(bool(g.get("traceback")) for g in rows),
    }
    compared = [g["autoplay"] for g in rows if "autoplay" in g]
    if compared:
        summary["autoplay"] = {"exact": sum(a["match"] for a in compared),
                               "wrong": sum(a["wrong"] for a in compared),
                               "asked": sum(a["asked"] for a in compared),
                               "stalled": sum(a["stalled"] for a in compared)}
    return summary


def summary_line(s: dict) -> str:
    text = (f"{s['games']} games: {s['exact']} exact, {s['stalled']} stalled, {s['wrong']} wrong "
            f"plies, {s['asked']} asked, {s['stored']}/{s['plies']} plies stored; Ctrl-C: "
            f"longest {_ms(s['exit_s_max'])}, median {_ms(s['exit_s_median'])}")
    if s["not_stopped"]:
        text += f", {s['not_stopped']} not stopped within 10 s"
    if "autoplay" in s:
        a = s["autoplay"]
        text += (f"\nautoplay, same games: {a['exact']} exact, {a['stalled']} stalled, "
                 f"{a['wrong']} wrong plies, {a['asked']} asked")
    return text


def _ms(seconds) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f} ms"
