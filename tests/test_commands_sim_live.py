"""The people mode of `dvonn-board sim`: typed commands to hand actions, and the hand desk."""

import doctest

import pytest

from firmware_py import terminal
from firmware_py.commands import _sim_live
from firmware_py.commands._sim_live import CommandError, HandDesk, parse_command
from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from firmware_py.state import BoardState
from tests.test_guidance import phase2_board


def test_doctests():
    assert doctest.testmod(_sim_live).failed == 0
    assert doctest.testmod(terminal).failed == 0


def test_commands_become_hand_actions():
    placing = BoardState(board=Board.from_plies(["e3", "f3", "g3"]), mode="idle")
    e3, f3 = INDEX["e3"], INDEX["f3"]
    assert parse_command("a1", placing) == [("place", (0, "B"))]
    assert parse_command("A1 w", placing) == [("place", (0, "W"))]
    assert parse_command("place a1 D", placing) == [("place", (0, "D"))]
    assert parse_command("e3:f3", placing) == [("lift", (e3, None)), ("put", (f3,))]
    assert parse_command("lift e3 2", placing) == [("lift", (e3, 2))]
    assert parse_command("remove e3 f3", placing) == [("remove", (e3, None)), ("remove", (f3, None))]
    assert parse_command("slide e3 f3 g3", placing) == [("slide", (e3, f3, (INDEX["g3"],)))]
    assert parse_command("restore", placing) == [("restore", (None,))]
    assert parse_command("wait 1.5", placing) == [("wait", (1.5,))]
    assert parse_command("undo", placing) == [("button", ("undo",))]
    assert parse_command("new", placing) == [("button", ("new_game",))]
    assert parse_command("  ", placing) == []
    removing = BoardState(board=phase2_board(), mode="removing", remove=[1, 2])
    assert parse_command("clear", removing) == [("remove", (1, None)), ("remove", (2, None))]


@pytest.mark.parametrize("text, message", [
    ("x9", "not a command"), ("lift", "needs a space"), ("put z9", "z9"),
    ("a1 Q", "W, B or D"), ("clear", "no stack to remove"), ("jump e3", "not a command"), ("pass", "not a command"),
])
def test_bad_commands_say_what_is_wrong(text, message):
    with pytest.raises(CommandError, match=message):
        parse_command(text, BoardState(board=Board(), mode="idle"))


def test_moves_need_all_pieces_placed():
    with pytest.raises(CommandError, match="all pieces are placed"):
        parse_command("a1", BoardState(board=phase2_board(), mode="idle"))


def test_hand_desk_runs_actions_in_the_reading_thread_and_reports_failures():
    from dvonn_sim.board import SimBoard
    sim = SimBoard(seed=3)
    reports = []
    desk = HandDesk(sim, reports.append)
    desk.submit([("lift", (INDEX["a1"], None))])  # nothing there
    desk.submit([("place", (INDEX["e3"], "D"))])
    frame = desk.read_frame()
    assert frame is not None and reports and "lift" in reports[0]
    sim.run(3.0)
    assert sim.stack("e3") == ("D",)
    desk.close()
    assert sim.closed


def test_people_mode_plays_typed_placements_against_the_real_controller(tmp_path):
    """A whole people session on the simulator (its clock as fast as possible): typed
    placements are recorded, a typed takeback and new game work, the store keeps it all.

    The test types in lockstep with the game: when the game reaches a waited-for state, the
    session's loop holds still until the next line has been handed over (no sleeps, no races).
    """
    import io
    import threading
    from argparse import Namespace

    from rich.console import Console
    from dvonn_sim.clock import SimClock

    from firmware_py.controller import Controller
    from firmware_py.store import Store

    script = ["help", lambda st: st.mode == "idle",  # the empty board is read first
              "e3", "f3", "g3", "zz", lambda st: st.board.ply_count == 3,
              "undo", lambda st: st.board.ply_count == 2 and bool(st.extra),
              "remove g3", lambda st: st.board.ply_count == 2 and st.mode == "idle",
              "show", "quit"]
    waiting = []  # (condition, reached, go on)

    def lines():
        for item in script:
            if callable(item):
                reached, go_on = threading.Event(), threading.Event()
                waiting.append((item, reached, go_on))
                assert reached.wait(30.0), "the game never got there"
                continue
            yield item
            for _, _, go_on in waiting:  # the line is handed over: let the game go on
                go_on.set()

    class Lockstep(Controller):  # the real controller, pausing where the test waits
        def feed(self, frame):
            super().feed(frame)
            for condition, reached, go_on in waiting:
                if not reached.is_set() and condition(self.state):
                    reached.set()
                    go_on.wait(30.0)

    db = tmp_path / "sim.sqlite3"
    out = io.StringIO()
    args = Namespace(db=str(db), seed=2, speed=None, ai=[], level=3, noise="poor")
    status = _sim_live.run_people(args, lambda board: Lockstep(board=board), lines=lines(),
                                  clock=SimClock(), console=Console(file=out, width=100))
    assert status == 0
    text = out.getvalue()
    assert "new game 1" in text and "'zz': not a command" in text and "lift e3 [N]" in text
    assert "g3: take it off" in text  # the stacks to rebuild after the takeback
    with Store(db) as store:
        assert [str(p) for p in store.plies(1)] == ["e3", "f3"]


def test_people_mode_refuses_a_bad_noise_level(tmp_path):
    import io
    from argparse import Namespace

    from rich.console import Console
    out = io.StringIO()
    args = Namespace(db=str(tmp_path / "x.sqlite3"), seed=1, noise="loud")
    assert _sim_live.run_people(args, None, lines=[], console=Console(file=out)) == 2
    assert "loud" in out.getvalue()


def test_sim_takes_the_computer_options():
    from firmware_py.cli import build_parser
    from firmware_py.commands.play import thinkers_from
    args = build_parser().parse_args(["sim", "--terminal", "--ai", "white", "--level", "2"])
    [thinker] = thinkers_from(args)
    assert thinker.colour == 0 and thinker.level == 2


def test_a_second_sim_on_a_busy_port_gives_one_message_and_no_traceback(tmp_path):
    import socket
    import subprocess
    import sys
    with socket.socket() as busy:  # another program (a first `sim`) serves this port
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "firmware_py", "sim", "--web", str(port),
                              "--db", str(tmp_path / "s.sqlite3")],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.startswith(f"dvonn-board sim: cannot serve the page on 127.0.0.1:{port}")
    assert "choose another with --web PORT" in out.stderr
    assert "Task was destroyed" not in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_the_web_sim_with_its_database_locked_too_long_says_so_and_fails(tmp_path, monkeypatch,
                                                                         capsys):
    import argparse
    from firmware_py.commands.play import make_controller_factory
    from firmware_py.errors import StoreError
    from firmware_py.store import Store
    from firmware_py.web.simulator import SimulatorRun, run_web
    from dvonn_sim.compose import simulated_board
    from tests.test_store import Locker
    monkeypatch.setattr(Store, "BUSY_S", 0.05)
    db = tmp_path / "sim.sqlite3"
    Store(db).close()
    # Locked in the middle of a game: the session's thread stops, and says why.
    run = SimulatorRun(make_controller_factory(), db, simulated_board("default", seed=1),
                       port=0).start()
    try:
        with Locker(db, 30):
            run.session.new_game()  # a write: the old game is finished, a new one started
            run._loop.join(10)
        assert not run._loop.is_alive()
        assert isinstance(run.failure, StoreError) and "locked by another process" in str(
            run.failure)
    finally:
        run.stop()
    # Locked from the start: one message and status 1.
    args = argparse.Namespace(web="0", db=str(db), seed=1, speed=1.0, noise="default",
                              token=None)
    with Locker(db, 30):
        assert run_web(args, make_controller_factory(), simulated_board) == 1
    err = capsys.readouterr().err
    assert "locked by another process" in err and "Traceback" not in err


def test_people_mode_stops_with_status_1_when_the_database_stays_locked(tmp_path,
                                                                       monkeypatch):
    import io
    import threading
    from argparse import Namespace

    from rich.console import Console
    from dvonn_sim.clock import SimClock

    from firmware_py.controller import Controller
    from firmware_py.store import Store
    from tests.test_store import Locker
    monkeypatch.setattr(Store, "BUSY_S", 0.05)
    db = tmp_path / "sim.sqlite3"
    Store(db).close()
    said = threading.Event()

    class Screen(io.StringIO):
        def write(self, text):
            if "locked" in text:  # (rich may wrap the line anywhere after it)
                said.set()
            return super().write(text)

    lockers = []

    def lines():  # the session runs; then another program takes the file
        lockers.append(Locker(db, 30))
        yield "new"  # a write: the game is finished and a new one started
        assert said.wait(30.0), "the session never said the database was locked"
        yield "show"

    out = Screen()
    args = Namespace(db=str(db), seed=2, speed=None, ai=[], level=3, noise="clean")
    try:
        status = _sim_live.run_people(args, lambda board: Controller(board=board),
                                      lines=lines(), clock=SimClock(),
                                      console=Console(file=out, width=100))
    finally:
        for locker in lockers:
            locker.__exit__()
    text = out.getvalue()
    assert status == 1 and "new game 1" in text  # it had started
    assert "dvonn-board sim:" in text and "Traceback" not in text
    with Locker(db, 30):  # locked from the start: said at once
        status = _sim_live.run_people(args, None, lines=[], console=Console(file=out))
    assert status == 1
