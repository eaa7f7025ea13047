"""Options shared by `play` and `sim`: the game clock, hints and study.

Registering them imports nothing heavy (`--help` stays fast): what they need is imported when
a value is read.
"""

from __future__ import annotations


def clock_argument(text: str):
    """`--clock` for argparse: a `time_control.TimeControl`, or its own sentence on a bad value."""
    import argparse

    from ..time_control import TimeControl
    try:
        return TimeControl.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix(f"--clock {text!r}: ")) from None


def add_clock_argument(parser) -> None:
    parser.add_argument("--clock", type=clock_argument, default=None, metavar="TIME",
                        help="a game clock that switches itself: 25m (sudden death), 10m+5s "
                             "(5 s added per ply), or none (default)")


def add_hints_argument(parser) -> None:
    parser.add_argument("--hints", choices=("on", "off"), default=None,
                        help="may a player ask for the engine's move (the hint button, confirm "
                             "while the board waits for a move, or the page's Hint button)? off "
                             "for tournaments (default on). sim --autoplay: given, the scripted "
                             "players sometimes ask for one, and the board's answer is checked")


def add_study_arguments(parser) -> None:
    parser.add_argument("--from", dest="from_file", metavar="FILE", default=None,
                        help="study: set up this record's position (the LEDs guide you) and "
                             "play on from there")
    parser.add_argument("--ply", type=int, default=None, metavar="N",
                        help="with --from: the position after N plies (default: the end)")
    parser.add_argument("--replay", metavar="FILE", default=None,
                        help="study: replay this record on the board, the LEDs showing each "
                             "next ply and waiting until it is carried out")


def add_language_argument(parser) -> None:
    from ..i18n import LANGUAGES, language_argument
    parser.add_argument("--lang", type=language_argument, default=None, metavar="LANG",
                        help="the language of what the board says: " + ", ".join(LANGUAGES)
                             + " (default: the system's language if it is one of these, "
                               "else English)")


def use_language(args) -> str:
    """Speak the language of `--lang` (or the system's) from now on; returns its code."""
    from ..i18n import use
    return use(getattr(args, "lang", None))


def voice_argument(text: str) -> str:
    """`--voice` for argparse: off, cues or a language code."""
    import argparse

    from ..voice import MODES
    if text not in MODES:
        raise argparse.ArgumentTypeError(f"choose off, cues or a language: "
                                         f"{', '.join(MODES[2:])} (not {text!r})")
    return text


def add_voice_arguments(parser) -> None:
    parser.add_argument("--voice", type=voice_argument, default="off", metavar="LANG",
                        help="say the moves, mistakes, questions and the end aloud through the "
                             "speech engine espeak-ng in this language (en de fr it nl es pl), "
                             "or 'cues' for short tones, or 'off' (default)")
    parser.add_argument("--voice-dir", metavar="DIR", default=None,
                        help="with --voice: write each announcement to a WAV file in DIR "
                             "(NNNN-kind.wav, its words in NNNN-kind.txt) instead of the speaker")


def open_voice(args, volume: float | None = None):
    """The `announce.Announcer` that --voice and --voice-dir ask for (None: off). A language
    voice also makes it the language shown, unless --lang names another (ValueError)."""
    mode = getattr(args, "voice", "off")
    directory = getattr(args, "voice_dir", None)
    if mode == "off":
        if directory is not None:
            raise ValueError("--voice-dir needs --voice LANG or --voice cues")
        return None
    from .. import i18n
    from ..announce import Announcer
    from ..voice import DEFAULT_VOLUME, open_speaker
    if mode in i18n.LANGUAGES:
        shown = getattr(args, "lang", None)
        if shown not in (None, "", "auto", mode):
            raise ValueError(f"--voice {mode} and --lang {shown}: the board speaks the "
                             "language it shows; give one of them")
        i18n.use(mode)
    return Announcer(open_speaker(mode, DEFAULT_VOLUME if volume is None else volume, directory))
