"""The game clock on simulated time: time controls, charging up to the let-go moment, pauses,
takebacks, the flag, the record's tags, and the whole path through the session and the
simulated board (the hand lets go, the board settles, the clock switched at the let-go)."""

import doctest
import math

import pytest

from firmware_py import clock as clock_module, time_control
from firmware_py.clock import ClockWatch, GameClock
from firmware_py.time_control import TimeControl, format_time, parse_ply_times, ply_times_tag
from firmware_py.colours import BY_RGB, PATTERNS
from firmware_py.controller import Controller
from firmware_py.guidance import CORNERS, signals
from firmware_py.records import read_record
from firmware_py.rules import BLACK, WHITE, Board, Ply
from firmware_py.session import Session
from firmware_py.state import BoardState
from firmware_py.store import Store
from dvonn_sim.board import SimBoard


@pytest.mark.parametrize("module", [clock_module, time_control])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("text, base, inc", [
    ("25m", 1500, 0), ("10m+5s", 600, 5), ("10+5", 600, 5), ("90s", 90, 0), ("1h", 3600, 0),
    (" 3m + 2 ", 180, 2), ("1.5m", 90, 0)])
def test_time_controls_parse(text, base, inc):
    control = TimeControl.parse(text)
    assert (control.base_s, control.increment_s) == (base, inc)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["none", "off", "NONE"])
def test_no_clock(text):
    assert not TimeControl.parse(text).on and str(TimeControl.parse(text)) == "none"


@pytest.mark.parametrize("text, says", [
    ("fast", "'fast' is not a time"), ("0m", "more than 0"), ("11h", "at most 10h"),
    ("5m+20m", "increment must be at most 10m"), ("5m+x", "the increment 'x'")])
def test_bad_time_controls_say_what_is_wrong(text, says):
    with pytest.raises(ValueError, match="--clock") as e:
        TimeControl.parse(text)
    assert says in str(e.value)


def test_the_mover_is_charged_up_to_the_let_go_and_the_other_runs_from_it():
    c = GameClock(TimeControl.parse("5m"))
    c.run(WHITE, at=10.0)
    assert c.ply(WHITE, at=40.0) == (30.0, 270.0)  # the hand let go at 40 s
    c.run(BLACK, at=40.2)                           # the board settled 0.2 s later
    assert c.left_at(BLACK, 100.0) == 240.0         # Black's time ran from 40 s, not 40.2 s
    assert c.left_at(WHITE, 100.0) == 270.0


def test_fischer_increment_after_each_own_ply_but_not_a_pass():
    c = GameClock(TimeControl.parse("1m+5s"))
    c.run(WHITE, 0.0)
    assert c.ply(WHITE, 10.0) == (10.0, 55.0)
    c.run(BLACK, 10.0)
    assert c.ply(BLACK, 10.0, is_pass=True) == (0.0, 60.0)


def test_a_stop_pauses_both_clocks_and_the_run_goes_on_from_the_resume():
    c = GameClock(TimeControl.parse("1m"))
    c.run(WHITE, 0.0)
    c.stop(5.0)
    assert c.running is None and c.left_at(WHITE, 50.0) == 55.0
    c.run(WHITE, 50.0)
    assert c.ply(WHITE, 52.0) == (7.0, 53.0)  # 5 s before the pause, 2 s after


def test_a_takeback_restores_both_times():
    c = GameClock(TimeControl.parse("1m+1s"))
    c.run(WHITE, 0.0)
    c.ply(WHITE, 10.0)       # White 51
    c.run(BLACK, 10.0)
    c.ply(BLACK, 30.0)       # Black 41
    c.run(WHITE, 30.0)
    c.stop(35.0)             # White thought 5 s, then Black's ply is taken back
    c.takeback()
    c.settle()
    assert c.left == [51.0, 60.0] and c.running is None
    c.takeback()
    c.settle()
    assert c.left == [60.0, 60.0] and c.history == []


def test_a_move_changed_at_once_is_charged_until_the_new_let_go():
    """A provisional move amended: taken back and made again within one frame."""
    c = GameClock(TimeControl.parse("1m"))
    c.run(WHITE, 0.0)
    c.ply(WHITE, 10.0)
    c.run(BLACK, 10.2)
    c.takeback()             # the hand had only paused above a stack ...
    c.ply(WHITE, 11.0)       # ... and set it down elsewhere at 11 s
    assert c.left == [49.0, 60.0] and c.history[-1][:2] == (WHITE, 11.0)
    c.run(BLACK, 11.2)
    assert c.left_at(BLACK, 21.0) == 50.0


def test_running_out_of_time_flags_the_mover():
    c = GameClock(TimeControl.parse("10s"))
    c.run(WHITE, 0.0)
    assert c.check(9.9) is None and c.reading(9.9).low
    assert c.check(10.5) == WHITE and c.left[WHITE] == 0.0 and c.running is None
    r = c.reading(11.0)
    assert r.flagged == WHITE and r.left == (0, 10) and "out of time" in r.text()


def test_restore_from_stored_ply_times():
    plies = [Ply.parse(t) for t in ("e3", "f3", "g3")]
    c = GameClock.restore(TimeControl.parse("1m+2s"), plies, [10.0, None, 5.0])
    assert c.left == [60 - 10 + 2 - 5 + 2, 60 + 2]


def test_format_and_ply_times_tag_round_trip():
    assert format_time(61) == "1:01" and format_time(3661) == "1:01:01"
    assert parse_ply_times(ply_times_tag([1.25, None, 0.0])) == [1.2, None, 0.0]
    with pytest.raises(ValueError, match="entry 2"):
        parse_ply_times("1.0 x")


class FakeState:
    def __init__(self, mode, board):
        self.mode, self.board = mode, board


def test_the_watch_stops_both_clocks_while_asking_from_the_let_go_moment():
    w = ClockWatch(GameClock(TimeControl.parse("1m")))
    board = Board()
    w.tick(FakeState("idle", board), now=0.0)
    w.tick(FakeState("lifted", board), now=3.0)
    # The hand let go at 4 s; the board settled and the question came at 4.2 s.
    w.tick(FakeState("asking", board), now=4.2, let_go=4.0)
    assert w.clock.left_at(WHITE, 30.0) == 56.0
    for mode in ("unexplained", "link_lost", "paused", "calibrating"):
        w.tick(FakeState(mode, board), now=31.0)
        assert w.clock.running is None
    spent, _ = w.committed(board, Ply.parse("e3"), let_go=40.0)  # answered at 40 s
    board.push(Ply.parse("e3"))
    assert spent == 4.0
    w.tick(FakeState("idle", board), now=40.0)
    assert w.clock.running == BLACK


def test_low_time_is_shown_on_the_corners_in_its_own_pattern():
    board = Board.from_plies(["e3"])
    c = GameClock(TimeControl.parse("1m"))
    c.run(BLACK, 0.0)
    state = BoardState(board=board, mode="idle", clock=c.reading(55.0))
    lit = signals(state)
    assert all(lit[s] == "low_time" for s in CORNERS)
    patterns = {BY_RGB[rgb].pattern for rgb in BY_RGB}
    assert [s.name for s in BY_RGB.values() if s.pattern == "triple"] == ["low_time"]
    assert patterns == set(PATTERNS)  # (every pattern says one kind of thing: all are used)
    state.clock = c.reading(10.0)
    assert "low_time" not in signals(state).values()


def test_after_a_flag_the_winner_s_stacks_glow():
    board = Board.from_plies(["e3", "f3", "g3", "a1", "b1"])  # a1 White's, b1 Black's
    c = GameClock(TimeControl.parse("5s"))
    c.run(board.turn, 0.0)
    c.check(6.0)
    lit = signals(BoardState(board=board, mode="over", clock=c.reading(6.0)))
    assert lit == {board.stacks().index(("W",)): "winner"}


# -- through the session, on the simulated board -------------------------------------------------
def clocked_session(db, control):
    sim = SimBoard(seed=5)
    session = Session(sim, sim, Store(db), lambda board: Controller(board=board), buttons=sim,
                      resume=False, time_control=TimeControl.parse(control))
    while session.state.mode != "idle":
        session.step()
    return sim, session


def place(session, sim, space, kind):
    """Place a piece; returns (when the hand let go, when the ply was on disk)."""
    plies = session.state.board.ply_count
    sim.hand.place(space, kind)
    let_go = None
    for _ in range(400):
        session.step()
        if let_go is None and sim.hand.idle():
            let_go = sim.now
        if session.state.board.ply_count > plies:
            return let_go, sim.now
    raise AssertionError("the placement was not recorded")


def test_the_session_charges_up_to_the_hand_letting_go_and_stores_it(tmp_path):
    sim, session = clocked_session(tmp_path / "g.sqlite3", "1m+2s")
    start = sim.now
    let_go, committed = place(session, sim, "e3", "D")
    assert committed - let_go >= 0.2  # the settle window ...
    [spent] = session.store.ply_times(session.game_id)
    assert abs(spent - (let_go - start)) <= 0.02  # ... is not charged to the mover
    for _ in range(100):
        session.step()
    reading = session.state.clock
    assert reading.running == BLACK and reading.left[WHITE] == math.ceil(62 - spent - 1e-9)
    left_black = 60 - (sim.now - let_go)
    assert abs(reading.left[BLACK] - left_black) <= 1
    record = read_record(session.store.export(session.game_id))
    assert record.tags["TimeControl"] == "1m+2s"
    assert parse_ply_times(record.tags["PlyTimes"]) == [round(spent, 1)]
    session.close()


def test_a_takeback_in_the_session_restores_the_times_and_the_record(tmp_path):
    sim, session = clocked_session(tmp_path / "g.sqlite3", "1m")
    place(session, sim, "e3", "D")
    for _ in range(300):  # Black thinks for 3 s, then places
        session.step()
    place(session, sim, "f3", "D")
    assert len(session.store.ply_times(session.game_id)) == 2
    sim.press("undo")
    session.step()
    assert session.state.clock.running is None  # paused while the takeback is rebuilt
    assert session.state.clock.left[BLACK] == 60
    assert session.store.ply_times(session.game_id) == session.store.ply_times(
        session.game_id)[:1]
    sim.hand.remove("f3")
    for _ in range(400):
        session.step()
    assert session.state.mode == "idle" and session.state.clock.running == BLACK
    session.close()


def test_running_out_of_time_ends_and_records_the_game(tmp_path):
    sim, session = clocked_session(tmp_path / "g.sqlite3", "8s")
    place(session, sim, "e3", "D")
    for _ in range(1000):  # Black does nothing for 10 s
        session.step()
    state = session.state
    assert state.mode == "over" and state.message == "Black ran out of time: White wins."
    assert state.clock.flagged == BLACK and state.clock.left[BLACK] == 0
    info = session.store.game(session.game_id)
    assert info.is_finished and info.result == "1-0"
    text = session.store.export(session.game_id)
    assert '[Termination "time forfeit"]' in text and '[Result "1-0"]' in text
    assert read_record(text).tags["Result"] == "1-0"
    # Nobody's turn is lit any more (only a DVONN piece stands); nothing more is recorded.
    assert signals(state) == {}
    sim.press("undo")
    place_tries = session.state.board.ply_count
    for _ in range(50):
        session.step()
    assert session.state.board.ply_count == place_tries == 1
    session.close()


def test_a_resumed_game_keeps_its_clock(tmp_path):
    db = tmp_path / "g.sqlite3"
    sim, session = clocked_session(db, "1m+2s")
    place(session, sim, "e3", "D")
    [spent] = session.store.ply_times(session.game_id)
    session.close()
    sim2 = SimBoard(seed=5)
    sim2.setup(Board.from_plies(["e3"]))
    resumed = Session(sim2, sim2, Store(db), lambda board: Controller(board=board))
    assert resumed.resumed
    for _ in range(60):
        resumed.step()
    assert resumed.state.clock.left[WHITE] == pytest.approx(62 - spent, abs=1)
    resumed.close()


# -- autoplay, the command line, the terminal and the web view -------------------------------
def test_autoplay_runs_the_clock_in_simulated_time_and_flags():
    from dvonn_sim.autoplay import play_game
    r = play_game(seed=3, script=["e3", "f3", "g3", "a1", "b1", "c1"],
                  time_control=TimeControl.parse("1m+1s"))
    assert r.match and len(r.ply_times) == 6 and all(0.5 < s < 10 for s in r.ply_times)
    assert r.clock["control"] == "1m+1s" and r.clock["flagged"] is None
    assert "clock" not in play_game(seed=3, script=["e3"]).as_dict()  # the same JSON as ever
    short = play_game(seed=3, time_control=TimeControl.parse("6s"))
    assert short.clock["flagged"] in (WHITE, BLACK) and short.match
    assert short.plies < 49 and short.record == short.truth


def test_sim_autoplay_clock_from_the_command_line(capsys):
    import json

    from firmware_py.cli import main
    assert main(["sim", "--autoplay", "--seed", "3", "--plies", "4", "--clock", "2m+3s",
                 "--json"]) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["clock"]["control"] == "2m+3s" and len(game["ply_times"]) == 4
    with pytest.raises(SystemExit):
        main(["sim", "--autoplay", "--clock", "soon"])
    assert "argument --clock: the time 'soon' is not a time" in capsys.readouterr().err


def test_the_terminal_and_the_web_view_show_the_clock():
    from firmware_py.terminal import view_text
    from firmware_py.web.view import board_view
    c = GameClock(TimeControl.parse("5m"))
    c.run(WHITE, 0.0)
    state = BoardState(board=Board(), mode="idle", clock=c.reading(61.5))
    assert "clock 5m: ▶ White 3:59   Black 5:00" in view_text(state)
    shown = board_view(state)["clock"]
    assert shown["left"] == [239, 300] and shown["running"] == WHITE and not shown["low"]
    assert board_view(BoardState(board=Board()))["clock"] is None


def test_a_lost_link_stops_both_clocks(tmp_path):
    from tests.test_session_sim import FlakyLink
    sim = SimBoard(seed=5)
    wall = iter(x * 0.01 for x in range(10**7)).__next__  # our clock runs on while no frames
    link = FlakyLink(sim, after=10**9, lost=500)
    session = Session(link, sim, Store(tmp_path / "g.sqlite3"),
                      lambda board: Controller(board=board), buttons=sim, resume=False,
                      clock=wall, time_control=TimeControl.parse("1m"))
    while session.state.mode != "idle":
        session.step()
    place(session, sim, "e3", "D")
    link.after = link.reads  # pulled now, for 500 reads (5 s of our clock)
    session.step(0)
    before = session.state.clock
    assert session.state.mode == "link_lost" and before.running is None
    while link.reads < link.after + link.lost:
        session.step(0)
    assert session.state.clock.left == before.left  # 5 s without frames cost nobody time
    for _ in range(100):
        session.step()
    assert session.state.mode == "idle" and session.state.clock.running == BLACK
    session.close()
