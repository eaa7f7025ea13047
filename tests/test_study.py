"""Study: a record's position set up on the board with the LEDs' guidance and played on from
there (`--from FILE [--ply N]`), and a record replayed ply by ply (`--replay FILE`), on the real
controller against the simulated board, in simulated time."""

import doctest
import io
import json
from argparse import Namespace

import pytest

from firmware_py import study as study_module
from firmware_py.cli import main
from firmware_py.commands import _sim_live
from firmware_py.commands._study import Study, StudyError
from firmware_py.controller import Controller
from firmware_py.errors import RecordError
from firmware_py.guidance import signals
from firmware_py.records import read_record
from firmware_py.rules import BLACK, WHITE, Board, Ply
from firmware_py.session import Session
from firmware_py.spaces import INDEX
from firmware_py.store import Store
from firmware_py.study import RecordPlayer, position_at, setup_lines, start_from
from dvonn_sim.board import SimBoard
from tests.test_session_sim import run

RECORD = '[Event "club"]\n[White "Ann"]\n\n1. e3 f3 2. g3 a1 3. b1 c1 4. d1 e1 *\n'


def test_doctests():
    assert doctest.testmod(study_module).failed == 0


def test_position_at_names_a_bad_ply():
    plies = read_record("e3 f3 g3").plies
    assert position_at(plies, 2).ply_count == 2 and position_at(plies, None).ply_count == 3
    with pytest.raises(RecordError, match=r"--ply 7: the record has 3 plies \(0..3\)"):
        position_at(plies, 7)


def test_the_position_is_set_up_with_the_leds_and_play_goes_on(tmp_path):
    db = tmp_path / "g.sqlite3"
    record = read_record(RECORD)
    with Store(db) as store:
        game = start_from(store, record, ply=5)
        assert store.game(game).tags["White"] == "Ann"
    target = Board.from_plies(record.plies[:5])
    sim = SimBoard(seed=5)  # an empty board: the players build the position
    session = Session(sim, sim, Store(db), lambda board: Controller(board=board), buttons=sim)
    session.rebuild = setup_lines(target)
    run(session, sim, 1.0)
    state = session.state
    assert session.resumed and state.mode == "unexplained"
    assert state.missing == sorted(INDEX[s] for s in ("e3", "f3", "g3", "a1", "b1"))
    assert set(signals(state).values()) == {"missing"}  # orange: a stack belongs here
    assert session.rebuild == ["a1: one B", "b1: one W", "e3: one D", "f3: one D", "g3: one D"]
    sim.setup(target)  # the players put the stacks where the LEDs and the lines say
    run(session, sim, 2.0)
    assert session.state.mode == "idle" and session.rebuild == []
    sim.hand.place("h1", target.piece_to_place())  # and play goes on from there
    run(session, sim, 2.5)
    assert [str(p) for p in session.store.plies(session.game_id)] == \
        [str(p) for p in record.plies[:5]] + ["h1"]
    session.close()


def test_a_replay_shows_each_next_ply_and_records_only_that(tmp_path):
    record = read_record(RECORD)
    sim = SimBoard(seed=5)
    session = Session(sim, sim, Store(tmp_path / "g.sqlite3"),
                      lambda board: Controller(board=board), buttons=sim, resume=False,
                      computer=[RecordPlayer(c, record.plies) for c in (WHITE, BLACK)])
    run(session, sim, 1.0)
    board = Board()
    for ply in record.plies[:3]:
        assert session.state.hint == ply
        assert signals(session.state)[ply.dst] == "computer_to"  # shown, waiting
        sim.hand.place(ply.dst, board.piece_to_place())
        board.push(ply)
        run(session, sim, 2.5)
    # A ply other than the record's is flagged until put right.
    sim.hand.place("k5", board.piece_to_place())
    run(session, sim, 2.5)
    assert session.state.mode == "error"
    assert session.state.message == "the record plays a1: take it back"
    sim.hand.remove("k5")
    run(session, sim, 2.5)
    assert session.state.mode == "idle"
    assert session.store.plies(session.game_id) == record.plies[:3]
    session.close()


def test_study_options_say_what_is_wrong(tmp_path):
    good = tmp_path / "g.txt"
    good.write_text(RECORD)
    bad = tmp_path / "bad.txt"
    bad.write_text("e3 f3 q9\n")

    def study(**kw):
        args = dict(from_file=None, replay=None, ply=None, ai=[])
        args.update(kw)
        return Study.from_args(Namespace(**args))

    assert not study().active
    assert study(from_file=str(good), ply=3).resume is True
    assert study(replay=str(good)).resume is False and len(study(replay=str(good)).computer) == 2
    for kw, says in [(dict(from_file=str(good), replay=str(good)), "choose one"),
                     (dict(ply=3), "--ply goes with --from"),
                     (dict(replay=str(good), ai=["white"]), "no --ai"),
                     (dict(from_file=str(good), ply=99), "--ply 99: the record has 8 plies"),
                     (dict(from_file=str(bad)), "'q9'"),
                     (dict(replay=str(tmp_path / "none.txt")), "none.txt")]:
        with pytest.raises(StudyError, match=".") as e:
            study(**kw)
        assert says in str(e.value)


def test_sim_terminal_sets_up_a_from_position(tmp_path):
    from rich.console import Console
    from dvonn_sim.clock import SimClock
    good = tmp_path / "g.txt"
    good.write_text(RECORD)
    db = tmp_path / "sim.sqlite3"
    args = Namespace(db=str(db), seed=2, speed=None, ai=[], level=3, noise="clean",
                     study=Study.from_args(Namespace(from_file=str(good), replay=None, ply=4,
                                                     ai=[])))
    out = io.StringIO()
    assert _sim_live.run_people(args, lambda board: Controller(board=board), lines=["quit"],
                                clock=SimClock(), console=Console(file=out, width=100)) == 0
    assert "resumed game 1" in out.getvalue()
    with Store(db) as store:
        assert [str(p) for p in store.plies(1)] == ["e3", "f3", "g3", "a1"]


def test_sim_autoplay_replays_a_record(tmp_path, capsys):
    good = tmp_path / "g.txt"
    good.write_text(RECORD)
    assert main(["sim", "--autoplay", "--replay", str(good), "--seed", "3"]) == 0
    assert "8 plies, recorded exactly" in capsys.readouterr().out
    assert main(["sim", "--autoplay", "--from", str(good), "--ply", "6", "--plies", "10",
                 "--json", "--seed", "3"]) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["truth"][:6] == ["e3", "f3", "g3", "a1", "b1", "c1"]  # the record's first
    assert game["match"] and game["plies"] == 10 and game["auto"] == 4  # four played on
    assert main(["sim", "--autoplay", "--from", str(good), "--ply", "99"]) == 2
    assert "--ply 99" in capsys.readouterr().err
    assert main(["play", "--from", str(good), "--ply", "50"]) == 2
    assert "--ply 50: the record has 8 plies" in capsys.readouterr().err
    assert Ply.parse("e3") == read_record(RECORD).plies[0]
