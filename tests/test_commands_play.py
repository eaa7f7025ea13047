"""`dvonn-board play` through the real entry point, with the board opened by a stand-in
`dvonn_hw.open_board` (scripted frames, recorded LEDs) and the session test's occupancy controller."""

import dvonn_hw as hw
import pytest

from firmware_py.cli import main
from firmware_py.commands import play
from firmware_py.errors import HardwareUnavailable
from firmware_py.interfaces import BLANK
from firmware_py.store import Store
from tests.test_session import (TOKENS, OccupancyController, RecordingLeds, ScriptedSource,
                                placements)


class CtrlC(ScriptedSource):
    """Frames from the script, then the person presses Ctrl-C."""

    def read_frame(self, timeout=None):
        if not self.script:
            raise KeyboardInterrupt
        return super().read_frame(timeout)


@pytest.fixture
def board(monkeypatch):
    parts = {}

    def open_board(profile, port=None):
        assert profile is None and port in (None, "/dev/ttyDVONN")
        parts["source"] = CtrlC([set()] + placements(TOKENS[:3]))
        parts["leds"] = RecordingLeds()
        return parts["source"], parts["leds"], None

    monkeypatch.setattr(hw, "open_board", open_board, raising=False)
    monkeypatch.setattr(play, "make_controller_factory", lambda **kw: OccupancyController)
    return parts


def test_play_records_the_game_and_ctrl_c_turns_everything_off(board, tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    status = main(["play", "--db", str(db), "--port", "/dev/ttyDVONN", "--white", "Ann"])
    assert status == 130  # Ctrl-C
    assert board["leds"].closed and board["leds"].frames[-1] == BLANK and board["source"].closed
    with Store(db) as store:
        game = store.unfinished()
        assert [str(p) for p in store.plies(game.id)] == TOKENS[:3]
        assert game.tags == {"White": "Ann"}
    assert "new game 1" in capsys.readouterr().out
    # The next start resumes it.
    board.clear()
    assert main(["play", "--db", str(db)]) == 130
    assert "resumed game 1" in capsys.readouterr().out


def test_play_says_why_the_board_cannot_be_opened(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(play, "make_controller_factory", lambda **kw: OccupancyController)
    db = str(tmp_path / "g.sqlite3")
    assert main(["play", "--db", db, "--profile", str(tmp_path / "missing.toml")]) in (1, 2)
    assert "missing.toml" in capsys.readouterr().err

    def no_board(profile, port=None):
        raise HardwareUnavailable("not a Raspberry Pi")
    monkeypatch.setattr(hw, "open_board", no_board, raising=False)
    assert main(["play", "--db", db]) == 1
    assert "not a Raspberry Pi" in capsys.readouterr().err


def test_open_parts_unpacks_the_real_hw_board():
    from dvonn_hw.board import Board
    opened = Board("s", "l", None, warnings=("buttons disabled: no GPIO",))
    assert play.open_parts(opened) == ("s", "l", None, ("buttons disabled: no GPIO",))
    assert play.open_parts(("s", "l", "b")) == ("s", "l", "b", ())


def test_computer_options_make_thinkers_and_name_the_player(board, tmp_path):
    from firmware_py.cli import build_parser
    args = build_parser().parse_args(["play", "--ai", "black", "--level", "1", "--white", "Ann"])
    [thinker] = play.thinkers_from(args)
    assert thinker.colour == 1 and thinker.level == 1
    assert play.tags_from(args) == {"White": "Ann", "Black": "dvonn-board ai level 1"}
    assert play.thinkers_from(build_parser().parse_args(["play"])) == []
    [clocked] = play.thinkers_from(build_parser().parse_args(
        ["play", "--ai", "white", "--game", "300"]))
    assert clocked.clock.total == 300.0 and thinker.clock is None


@pytest.mark.parametrize("seconds", ["0", "-5", "soon"])
def test_game_time_must_be_positive_seconds(seconds, capsys):
    from firmware_py.cli import build_parser
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--ai", "white", "--game", seconds])
    assert "--game" in capsys.readouterr().err


class SimUntilCtrlC:
    """The simulated board as the real one: a person places pieces, then presses Ctrl-C."""

    def __init__(self, tokens, seconds):
        from dvonn_sim.board import SimBoard
        from firmware_py.rules import Board, Ply
        self.sim = SimBoard(seed=4)
        self.adc_max = self.sim.adc_max
        self.seconds = seconds
        board = Board()
        self.sim.hand.wait(1.0)
        for token in tokens:
            ply = Ply.parse(token)
            self.sim.hand.place(ply.dst, board.piece_to_place())
            self.sim.hand.wait(0.5)
            board.push(ply)

    def read_frame(self, timeout=None):
        if self.sim.now >= self.seconds:
            raise KeyboardInterrupt
        return self.sim.read_frame(timeout)

    def close(self):
        self.sim.close()


def test_play_with_the_real_controller_on_the_simulated_board(monkeypatch, tmp_path, capsys):
    board = SimUntilCtrlC(TOKENS[:4], seconds=12.0)
    monkeypatch.setattr(hw, "open_board",
                        lambda profile, port=None: (board, board.sim, board.sim), raising=False)
    db = tmp_path / "g.sqlite3"
    assert main(["play", "--db", str(db), "--calibration", str(tmp_path / "none.json")]) == 130
    with Store(db) as store:
        assert [str(p) for p in store.plies(store.unfinished().id)] == TOKENS[:4]
    assert board.sim.leds == BLANK and board.sim.closed


def test_a_bad_calibration_file_is_named_and_the_board_closed(board, tmp_path, capsys):
    bad = tmp_path / "cal.json"
    bad.write_text("{not json")
    assert main(["play", "--db", str(tmp_path / "g.sqlite3"),
                 "--calibration", str(bad)]) == 1
    assert "cal.json" in capsys.readouterr().err
    assert board["leds"].closed and board["source"].closed


def test_a_database_locked_too_long_ends_play_with_a_message_and_status_1(monkeypatch,
                                                                          tmp_path, capsys):
    from tests.test_store import Locker
    monkeypatch.setattr(Store, "BUSY_S", 0.05)
    db = tmp_path / "g.sqlite3"
    lockers = []

    class LockingSource(CtrlC):  # another program takes the file after the first ply
        def read_frame(self, timeout=None):
            if len(self.script) == 2 and not lockers:
                lockers.append(Locker(db, 30))
            return super().read_frame(timeout)

    source, leds = LockingSource([set()] + placements(TOKENS[:3])), RecordingLeds()
    monkeypatch.setattr(hw, "open_board", lambda profile, port=None: (source, leds, None),
                        raising=False)
    monkeypatch.setattr(play, "make_controller_factory", lambda **kw: OccupancyController)
    try:
        assert main(["play", "--db", str(db)]) == 1
    finally:
        for locker in lockers:
            locker.__exit__()
    err = capsys.readouterr().err
    assert "locked by another process" in err and "Traceback" not in err
    assert "start `dvonn-board play` again" in err
    assert leds.closed and source.closed
    with Store(db) as store:
        assert [str(p) for p in store.plies(store.unfinished().id)] == TOKENS[:1]


def test_play_tells_the_controller_the_step_of_the_sources_readings(monkeypatch, tmp_path):
    # The direct scanner's readings are means in 1/N codes; a serial scanner's whole codes.
    class QuarterCodes(CtrlC):
        reading_step = 0.25

    seen = []

    def factory(**options):
        seen.append(options["reading_step"])
        return OccupancyController

    monkeypatch.setattr(play, "make_controller_factory", factory)
    for source, step in ((QuarterCodes([set()]), 0.25), (CtrlC([set()]), 1.0)):
        monkeypatch.setattr(hw, "open_board", lambda profile, port=None, s=source:
                            (s, RecordingLeds(), None), raising=False)
        assert main(["play", "--db", str(tmp_path / "g.sqlite3")]) == 130
        assert seen[-1] == step


class Subscribers:
    """The part of a Session that keep_first_baselines uses."""

    def __init__(self):
        self.callbacks = []

    def subscribe(self, callback):
        self.callbacks.append(callback)
        return lambda: self.callbacks.remove(callback)

    def changed(self):
        for callback in list(self.callbacks):
            callback(self)


def test_the_first_empty_board_s_baselines_are_kept_when_no_calibration_was_made(tmp_path):
    """A cheap sensor's offset, confirmed empty in the first game, is known after a pulled plug:
    saved once the empty board is read, never over a file the player made."""
    from firmware_py.calibration import Calibration, load_or_nominal
    path = tmp_path / "calibration.json"
    cal = Calibration.nominal()
    session = Subscribers()
    play.keep_first_baselines(session, cal, path)
    session.changed()
    assert not path.exists()  # nothing read yet: mid-scale is no baseline
    values = [2048.0 + (37.0 if s == 5 else 0.0) for s in range(49)]  # one sensor 18 mT off
    cal.set_empty(values, [1.0] * 49)
    session.changed()
    saved = load_or_nominal(path)
    assert saved.baseline_known and saved.baseline[5] == 2085.0
    assert session.callbacks == []  # saved once

    made = Calibration.nominal()  # a file the player made with `diag calibrate` stays
    made.set_empty([2000.0] * 49, [1.0] * 49)
    made.save(path)
    play.keep_first_baselines(session, cal, path)
    assert session.callbacks == []
    assert load_or_nominal(path).baseline[5] == 2000.0


def test_baselines_that_cannot_be_saved_do_not_stop_the_game(tmp_path, caplog):
    from firmware_py.calibration import Calibration
    cal = Calibration.nominal()
    session = Subscribers()
    (tmp_path / "ro").write_text("a file, not a folder")
    play.keep_first_baselines(session, cal, tmp_path / "ro" / "calibration.json")
    cal.set_empty([2048.0] * 49, [1.0] * 49)
    session.changed()  # no exception
    assert "could not save the board's baselines" in caplog.text
