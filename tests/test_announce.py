"""What the board says (firmware_py.announce): every event one phrase, rendered to WAV files
and checked (count, length, not silent); the say button on the simulated board; a whole
autoplayed game with voice."""

from __future__ import annotations

import json

import pytest

from firmware_py import announce, i18n
from firmware_py.announce import Announcer, move_phrase, situation
from firmware_py.cli import main
from firmware_py.clock import ClockReading
from firmware_py.rules import Board, Ply
from firmware_py.spaces import INDEX
from firmware_py.state import BoardState
from firmware_py.voice import open_speaker

from .voice_files import need_espeak, phrases


@pytest.fixture(autouse=True)
def english():
    yield
    i18n.use("en")  # --voice LANG makes LANG the language shown: leave English to the others


def test_doctests():
    import doctest
    assert doctest.testmod(announce).failed == 0


def test_a_move_says_who_from_where_to_where_and_onto_what():
    stacks = [()] * 49
    stacks[INDEX["e3"]] = ("B", "W")
    stacks[INDEX["f3"]] = ("W", "B", "D")
    stacks[INDEX["g3"]] = ("B",)
    board = Board.from_stacks(stacks)
    assert move_phrase(board, Ply.parse("e3f3")) == "White, e3 to f3, onto a stack of 3"
    board.turn = 1
    assert move_phrase(board, Ply.parse("g3f3")) == "Black, g3 to f3, onto a stack of 3"
    assert move_phrase(Board(), Ply.parse("e3")) == "White places a DVONN piece on e3"


def test_the_situation_after_a_lift_names_the_stack_and_where_it_may_go():
    stacks = [()] * 49
    stacks[INDEX["e3"]] = ("B", "W")
    stacks[INDEX["d3"]] = ("D",)
    stacks[INDEX["e4"]] = ("B",)
    stacks[INDEX["c3"]] = ("W",)
    board = Board.from_stacks(stacks)
    state = BoardState(board=board)
    state.show_lifted(INDEX["e3"])
    assert situation(state) == "White stack of 2 on e3, may go to c3"
    state.show_lifted(INDEX["c3"])
    assert situation(state) == "White piece on c3, may go to d3"
    idle = BoardState(board=Board.from_plies(["e3", "f3", "g3", "a1"]), mode="idle")
    assert situation(idle) == "White to place a piece; last: a1"
    idle.hint = Ply.parse("b1")  # the computer's placement, for a person to carry out
    assert situation(idle) == "White to place a piece; to play: b1"
    asking = BoardState(board=Board(), mode="asking", message="did you land on e4?")
    assert situation(asking) == "did you land on e4?"


def script_of_events(state: BoardState, announcer: Announcer) -> int:
    """Drive a state through one of each event; returns how many should be said."""
    said = 0
    for token in ["e3", "f3", "g3"]:  # three placements
        state.board.push(Ply.parse(token))
        announcer.observe(state)
        said += 1
    state.mode, state.message, state.error = "error", "d1: wrong piece, a white one is next", [0]
    announcer.observe(state)
    said += 1
    announcer.observe(state)  # nothing new: nothing said
    state.mode, state.message, state.error = "asking", "did you land on f3?", []
    announcer.observe(state)
    said += 1
    state.mode, state.message = "idle", ""
    state.board.pop()  # a takeback
    announcer.observe(state)
    said += 1
    state.mode, state.remove = "removing", [INDEX["a1"], INDEX["b1"]]
    announcer.observe(state)
    said += 1
    state.remove = [INDEX["b1"]]  # one taken off: not said again
    announcer.observe(state)
    state.mode, state.remove = "idle", []
    state.clock = ClockReading(left=(30, 300), running=0, low=True, flagged=None, control="5m")
    announcer.observe(state)
    said += 1
    state.mode, state.message = "over", "White ran out of time: Black wins."
    announcer.observe(state)
    said += 1
    announcer.say_situation(state)
    return said + 1


def test_every_event_gives_exactly_one_sound_file(tmp_path):
    need_espeak()
    state = BoardState(board=Board(), mode="idle")
    announcer = Announcer(open_speaker("en", directory=tmp_path))
    announcer.observe(state)  # the start: nothing said
    expected = script_of_events(state, announcer)
    announcer.close()
    said = phrases(tmp_path)  # each a non-silent WAV with its words
    assert len(said) == expected
    assert said == [
        ("placement", "White places a DVONN piece on e3"),
        ("placement", "Black places a DVONN piece on f3"),
        ("placement", "White places a DVONN piece on g3"),
        ("error", "d1: wrong piece, a white one is next"),
        ("question", "did you land on f3?"),
        ("takeback", "taken back: g3"),
        ("remove", "take off the stacks on a1, b1"),
        ("clock", "White, low on time: 30 seconds left"),
        ("end", "White ran out of time: Black wins."),
        ("situation", "White ran out of time: Black wins."),
    ]


def test_cues_give_one_file_per_event_too(tmp_path):
    state = BoardState(board=Board(), mode="idle")
    announcer = Announcer(open_speaker("cues", directory=tmp_path))
    announcer.observe(state)
    expected = script_of_events(state, announcer)
    announcer.close()
    assert len(phrases(tmp_path)) == expected


def test_the_say_button_on_the_simulated_board(tmp_path):
    from firmware_py.controller import Controller
    from firmware_py.session import Session
    from firmware_py.store import Store
    from dvonn_sim.board import SimBoard
    need_espeak()
    sim = SimBoard(seed=5)
    voice = Announcer(open_speaker("en", directory=tmp_path / "voice"))
    session = Session(sim, sim, Store(tmp_path / "games.sqlite3"),
                      lambda board: Controller(board=board), buttons=sim, voice=voice)

    def run(seconds):
        end = sim.now + seconds
        while sim.now < end:
            session.step()
    run(2.5)  # the empty board is read
    board = Board()
    for token in ["e3", "f3"]:
        sim.hand.place(INDEX[token], board.piece_to_place())
        board.push(Ply.parse(token))
        run(2.5)
    sim.press("say")
    run(0.2)
    session.close()  # closes the voice: what is queued is written
    said = phrases(tmp_path / "voice")
    assert said == [("placement", "White places a DVONN piece on e3"),
                    ("placement", "Black places a DVONN piece on f3"),
                    ("situation", "White to place a DVONN piece; last: f3")]


def test_a_whole_autoplayed_game_announces_every_ply(tmp_path, capsys):
    out = tmp_path / "voice"
    assert main(["sim", "--autoplay", "--seed", "3", "--json", "--voice", "cues",
                 "--voice-dir", str(out)]) == 0
    game = json.loads(capsys.readouterr().out)
    record = game["record"]
    kinds = [kind for kind, _ in phrases(out)]
    moves = [p for p in record if len(p) == 4]
    assert game["match"] and len(moves) > 10
    assert kinds.count("move") == len(moves)
    assert kinds.count("placement") == 49
    assert kinds.count("pass") == record.count("pass")
    assert kinds.count("end") == 1 and kinds[-1] == "end"


def test_an_autoplayed_opening_in_german(tmp_path, capsys):
    need_espeak()
    out = tmp_path / "voice"
    assert main(["sim", "--autoplay", "--seed", "2", "--plies", "51", "--json",
                 "--voice", "de", "--voice-dir", str(out)]) == 0
    game = json.loads(capsys.readouterr().out)
    kinds = [kind for kind, _ in phrases(out)]
    assert kinds.count("placement") == 49
    assert kinds.count("move") == len([p for p in game["record"] if len(p) == 4]) == 2


def test_voice_options_are_checked(tmp_path, capsys):
    assert main(["sim", "--autoplay", "--voice-dir", str(tmp_path)]) == 2
    assert "--voice-dir needs --voice LANG or --voice cues" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["sim", "--autoplay", "--voice", "xx"])
    assert e.value.code == 2
    assert "choose off, cues or a language: en, de, fr, it, nl, es, pl" in capsys.readouterr().err


def test_say_typed_in_the_terminal_is_the_say_button():
    from firmware_py.commands._sim_live import parse_command
    state = BoardState(board=Board(), mode="idle")
    assert parse_command("say", state) == [("button", ("say",))]


def test_a_voice_in_one_language_and_the_board_in_another_is_refused(tmp_path, capsys):
    assert main(["sim", "--autoplay", "--voice", "de", "--lang", "fr",
                 "--voice-dir", str(tmp_path)]) == 2
    assert "--voice de and --lang fr: the board speaks the language it shows" in \
        capsys.readouterr().err


def test_the_voice_speaks_the_language_it_names(tmp_path):
    from firmware_py.commands._options import open_voice
    from argparse import Namespace
    need_espeak()
    voice = open_voice(Namespace(voice="fr", voice_dir=str(tmp_path), lang=None))
    voice.observe(BoardState(board=Board(), mode="idle"))
    state = BoardState(board=Board.from_plies(["e3"]), mode="idle")
    voice.observe(state)
    voice.close()
    assert phrases(tmp_path) == [("placement", "Blanc place une pièce DVONN sur e3")]
