"""The session loop: commits on disk before the LEDs, resume after a kill, takeback, link loss.

These tests use a small occupancy-only controller and a scripted source of our own (below), so
that they pin down the session's own job; tests/test_session_sim.py runs the real controller
against the simulator.
"""

import doctest
import os
import signal
import subprocess
import sys
import textwrap
import threading


from firmware_py import session as session_module
from firmware_py.colours import BY_NAME
from firmware_py.errors import LinkLost, StoreError
from firmware_py.interfaces import BLANK, SensorFrame
from firmware_py.rules import Board, Ply
from firmware_py.guidance import signals
from firmware_py.session import Session, rebuild_lines
from firmware_py.spaces import INDEX, N_SPACES, SPACES
from firmware_py.state import BoardState
from firmware_py.store import Store

OCCUPIED = 3000  # raw code of an occupied space in the scripted frames
EMPTY = 2048


class OccupancyController:
    """A stand-in controller: commits the placement whose occupancy the frame shows.

    Good for the placing phase only (occupancy cannot tell moves apart); it keeps the contract:
    `on_commit(ply)` is called before the state changes, `on_undo()` on a takeback.
    """

    def __init__(self, board: Board):
        self.state = BoardState(board=board, mode="calibrating")
        self.on_commit = self.on_undo = None
        self.resync = True  # after a start or a takeback: wait for the board to match first

    def feed(self, frame: SensorFrame) -> None:
        board, state = self.state.board, self.state
        seen = {s for s, r in enumerate(frame.raw) if r > (OCCUPIED + EMPTY) // 2}
        expected = {s for s in range(N_SPACES) if board.height(s)}
        state.time = frame.time
        state.clear_marks()
        new = seen - expected
        if not self.resync and not (expected - seen) and len(new) == 1 and board.phase == 1:
            ply = Ply(-1, new.pop())
            self.on_commit(ply)
            board.push(ply)
            expected = seen
        if seen == expected:
            self.resync = False
            state.mode = "over" if board.is_over() else "idle"
            state.message = ""
        else:
            state.mode = "unexplained"
            state.missing = sorted(expected - seen)
            state.extra = sorted(seen - expected)
            state.message = "put the board back as it was"

    def button(self, name: str) -> None:
        if name == "undo" and self.state.board.move_stack:
            self.on_undo()
            self.state.board.pop()
            self.resync = True


class ScriptedSource:
    """Frames from a list of occupied-space sets; raises LinkLost where the script says 'lost'."""

    adc_max = 4095

    def __init__(self, script):
        self.script = list(script)
        self.seq = 0
        self.closed = False

    def read_frame(self, timeout=None):
        if not self.script:
            return None
        item = self.script.pop(0)
        if item == "lost":
            raise LinkLost("cable pulled")
        self.seq += 1
        return SensorFrame(self.seq, self.seq * 0.01,
                           tuple(OCCUPIED if s in item else EMPTY for s in range(N_SPACES)))

    def close(self):
        self.closed = True


class RecordingLeds:
    """An LedSink that keeps every frame it was shown, and what the store held at that moment."""

    def __init__(self, store_path=None):
        self.frames = []
        self.closed = False
        self.store_path = store_path
        self.stored_at_show = []

    def show(self, frame):
        self.frames.append(frame)
        if self.store_path:  # look at the file from another connection, as after a power cut
            with Store(self.store_path) as other:
                game = other.unfinished() or other.games()[-1]
                self.stored_at_show.append(game.ply_count)

    def close(self):
        self.closed = True


class Buttons:
    def __init__(self):
        self.pending = []
        self.closed = False

    def events(self):
        out, self.pending = self.pending, []
        return out

    def close(self):
        self.closed = True


def placements(tokens):
    """The occupancy after each placement of `tokens`, one set per ply."""
    out, occ = [], set()
    for t in tokens:
        occ = occ | {INDEX[t]}
        out.append(set(occ))
    return out


TOKENS = ["e3", "f3", "g3", "a1", "b1", "c1"]


def make_session(db, script, **kw):
    leds = kw.pop("leds", None) or RecordingLeds()
    return Session(ScriptedSource(script), leds, Store(db), OccupancyController, **kw)


def run_script(session, steps=None):
    n = 0
    while session.source.script and (steps is None or n < steps):
        session.step(0)
        n += 1


def test_doctests():
    assert doctest.testmod(session_module).failed == 0


def test_every_ply_is_on_disk_before_the_leds_acknowledge_it(tmp_path):
    db = tmp_path / "g.sqlite3"
    leds = RecordingLeds(store_path=db)
    session = make_session(db, [set()] + placements(TOKENS), leds=leds)
    run_script(session)
    # The LEDs change with every placement (the turn moves on), and each change was shown with
    # that placement already in the file, read by another connection.
    turn_colours = [next(c for c in f.spaces if c != (0, 0, 0)) for f in leds.frames[1:]]
    assert turn_colours[-1] == BY_NAME["white_to_play"].rgb  # after 6 plies: White places
    assert leds.stored_at_show == sorted(leds.stored_at_show)
    assert set(leds.stored_at_show) == set(range(len(TOKENS) + 1))
    assert leds.stored_at_show[-1] == len(TOKENS)
    with Store(db) as store:
        assert [str(p) for p in store.plies(session.game_id)] == TOKENS
    session.close()
    assert leds.frames[-1] == BLANK and leds.closed and session.source.closed


def test_leds_are_sent_only_when_they_change(tmp_path):
    session = make_session(tmp_path / "g.sqlite3", [set()] * 20)
    run_script(session)
    # 20 identical frames, 0.2 s of frame clock: the slow blink of the DVONN spaces turns once.
    assert len(session.leds.frames) == 1
    session.close()


def test_takeback_by_button_deletes_the_ply_and_says_what_to_rebuild(tmp_path):
    db = tmp_path / "g.sqlite3"
    buttons = Buttons()
    seen = []
    session = make_session(db, [set()] + placements(TOKENS[:4]), buttons=buttons)
    unsubscribe = session.subscribe(lambda s: seen.append((s.state.mode, s.state.board.ply_count)))
    run_script(session)
    assert session.state.board.ply_count == 4
    buttons.pending.append("undo")
    session.source.script = [placements(TOKENS[:4])[-1]]  # a1 still on the board
    session.step(0)
    assert session.rebuild == ["a1: take it off (leave the space empty)"]
    assert session.state.mode == "unexplained" and session.state.extra == [INDEX["a1"]]
    assert session.leds_shown.spaces[INDEX["a1"]] in (BY_NAME["extra"].rgb, (0, 0, 0))
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:3]
    session.source.script = [placements(TOKENS[:3])[-1]]  # a1 taken off: back in step
    session.step(0)
    assert session.state.mode == "idle" and seen[-1] == ("idle", 3)
    unsubscribe()
    session.takeback()  # from the CLI or the web: same path through the controller
    session.source.script = [placements(TOKENS[:3])[-1]]  # g3 still on the board
    n_seen = len(seen)
    session.step(0)
    assert len(seen) == n_seen  # no call after unsubscribing
    assert session.state.board.ply_count == 2 and session.rebuild == [
        "g3: take it off (leave the space empty)"]
    session.source.script = [placements(TOKENS[:2])[-1]]
    session.step(0)
    assert session.state.mode == "idle" and session.rebuild == []  # rebuilt: nothing to say
    session.close()


def test_link_lost_pauses_and_shows_then_play_resumes_with_nothing_lost(tmp_path):
    script = [set()] + placements(TOKENS[:3]) + ["lost"] * 5 + placements(TOKENS[:5])[3:]
    clock = iter(range(100)).__next__
    session = make_session(tmp_path / "g.sqlite3", script, clock=lambda: clock() * 0.1)
    modes = []
    session.subscribe(lambda s: modes.append(s.state.mode))
    run_script(session, steps=5)
    assert session.link_lost and session.state.mode == "link_lost"
    assert session.state.board.ply_count == 3  # the controller's own state is untouched
    lost_rgb = BY_NAME["link_lost"].rgb
    run_script(session, steps=4)
    assert any(f.spaces[INDEX["a1"]] == lost_rgb for f in session.leds.frames)
    run_script(session)
    assert not session.link_lost and session.state.mode == "idle"
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:5]
    assert "link_lost" in modes and modes[-1] == "idle"
    session.close()


def test_new_game_keeps_the_old_one_as_abandoned(tmp_path):
    session = make_session(tmp_path / "g.sqlite3", [set()] + placements(TOKENS[:2]),
                           tags={"Event": "x"})
    run_script(session)
    first = session.game_id
    session.new_game({"Event": "y"})
    session.source.script = [set()]
    session.step(0)
    assert session.game_id != first and session.state.board.ply_count == 0
    assert session.store.game(first).result == "*"
    assert session.store.game(session.game_id).tags == {"Event": "y"}
    session.close()


def test_a_finished_game_is_marked_in_the_store(tmp_path):
    # A whole placing phase can't end a game; a game replayed to its end can (resume of it).
    from tests.test_guidance import random_game
    game = random_game(4)
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        gid = store.new_game()
        for ply in game.move_stack:
            store.add_ply(gid, ply)
    occupied = {s for s in range(N_SPACES) if game.height(s)}
    session = make_session(db, [occupied])
    assert session.resumed and session.game_id == gid
    session.step(0)
    assert session.state.mode == "over"
    assert session.store.game(gid).result == "0-1"
    assert session.leds_shown.spaces != BLANK.spaces
    session.close()


def test_run_stops_on_event_and_closes_everything(tmp_path):
    stop = threading.Event()
    session = make_session(tmp_path / "g.sqlite3", [set()] * 3)
    session.subscribe(lambda s: stop.set())
    session.run(stop)
    assert session.leds.closed and session.source.closed and session.leds.frames[-1] == BLANK
    session.close()  # idempotent


def test_rebuild_lines_for_a_move_with_removals():
    from tests.test_guidance import random_game
    game = random_game(1)
    for n in range(49, game.ply_count):
        before = Board.from_plies(game.move_stack[:n + 1])
        if before.last_removed:
            break
    after = before.copy()
    ply = after.pop()
    lines = dict(line.split(": ", 1) for line in rebuild_lines(before, after))
    # The source gets its stack back, the destination its old stack, the removed stacks return.
    for space in [ply.src, ply.dst, *before.last_removed]:
        stack = after.stack(space)
        assert lines[SPACES[space]] == (f"one {stack[0]}" if len(stack) == 1 else
                                        " ".join(stack) + " (bottom to top)")


# -- a pulled plug: the session process is killed, a new one resumes from the same file ---------

PLAYER = textwrap.dedent("""
    import sys
    from tests.test_session import make_session, placements, TOKENS
    session = make_session(sys.argv[1], [set()] + placements(TOKENS))
    class Announcing:  # tell the parent each time a commit reached the LEDs
        def __init__(self, inner): self.inner = inner
        def show(self, frame):
            self.inner.show(frame)
            print(session.state.board.ply_count, flush=True)
        def close(self): pass
    session.leds = Announcing(session.leds)
    while session.source.script:
        session.step(0)
    sys.stdin.read()  # hang on until killed, like a board in the middle of a game
""")


def test_resume_after_the_plug_is_pulled_and_guide_the_players_back(tmp_path):
    db = tmp_path / "g.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", PLAYER, str(db)], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        acknowledged = 0
        while acknowledged < len(TOKENS):
            acknowledged = int(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    # Power back: meanwhile someone knocked c1 off the board.
    board_now = placements(TOKENS)[-1] - {INDEX["c1"]}
    session = make_session(db, [board_now])
    assert session.resumed
    assert [str(p) for p in session.state.board.move_stack] == TOKENS
    session.step(0)
    assert session.state.mode == "unexplained" and session.state.missing == [INDEX["c1"]]
    lit = session.leds_shown.spaces
    assert lit[INDEX["c1"]] == BY_NAME["missing"].rgb  # 'missing' is steady: lit at any time
    session.source.script = [placements(TOKENS)[-1], placements(TOKENS + ["d1"])[-1]]
    run_script(session)
    assert session.state.mode == "idle"
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS + ["d1"]
    session.close()


def test_takeback_from_the_games_command_reaches_a_running_session(tmp_path, capsys):
    from firmware_py.cli import main
    db = tmp_path / "g.sqlite3"
    t = [0.0]
    session = make_session(db, [set()] + placements(TOKENS[:4]), clock=lambda: t[0])
    run_script(session)
    assert main(["games", "takeback", "--db", str(db)]) == 0
    assert "a1: take it off" in capsys.readouterr().out
    session.source.script = [placements(TOKENS[:4])[-1]]
    session.step(0)
    assert session.state.board.ply_count == 4  # not yet looked: the store is polled each second
    t[0] += session.POLL_SECONDS
    session.source.script = [placements(TOKENS[:4])[-1]]
    session.step(0)
    assert session.state.board.ply_count == 3 and session.state.mode == "unexplained"
    assert session.rebuild == ["a1: take it off (leave the space empty)"]
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:3]  # once only
    session.source.script = [placements(TOKENS[:3])[-1], placements(TOKENS[:3] + ["h1"])[-1]]
    t[0] += session.POLL_SECONDS
    run_script(session)
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:3] + ["h1"]
    session.close()


def test_the_computer_s_ply_is_shown_as_a_hint_until_played(tmp_path):
    from firmware_py.ai import Thinker
    from firmware_py.rules import BLACK
    thinker = Thinker(BLACK, level=1, seed=1, nodes=200)
    session = make_session(tmp_path / "g.sqlite3", [set(), {INDEX["e3"]}], computer=[thinker])
    run_script(session)
    assert thinker.wait(10.0)
    session.source.script = [{INDEX["e3"]}]
    session.step(0)
    hint = session.state.hint
    assert hint is not None and hint.is_placement and session.state.board.is_legal(hint)
    assert signals(session.state)[hint.dst] == "computer_to"
    session.source.script = [{INDEX["e3"], hint.dst}]
    session.step(0)
    assert session.state.board.move_stack[-1] == hint and session.state.hint is None
    session.close()


def test_outside_takeback_of_a_forced_pass_takes_back_the_move_once(tmp_path):
    """The games command deletes a forced pass and the move before it; the controller, told
    once, takes back the same two plies and nothing more."""
    from tests.test_guidance import random_game
    from firmware_py.cli import main
    from firmware_py.rules import PASS
    game = random_game(0)
    at = game.move_stack.index(PASS)
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        gid = store.new_game()
        for ply in game.move_stack[:at + 1]:
            store.add_ply(gid, ply)
    t = [0.0]

    class PassingController(OccupancyController):  # takes back like the real one
        def button(self, name):
            board = self.state.board
            while name == "undo" and board.move_stack:
                ply = board.pop()
                self.on_undo()
                if not ply.is_pass:
                    break

    there = Board.from_plies(game.move_stack[:at + 1])
    occupied = {s for s in range(N_SPACES) if there.height(s)}
    session = Session(ScriptedSource([occupied]), RecordingLeds(), Store(db), PassingController,
                      clock=lambda: t[0])
    session.step(0)
    assert main(["games", "takeback", "--db", str(db)]) == 0
    t[0] += session.POLL_SECONDS
    session.step(0)
    assert session.state.board.move_stack == game.move_stack[:at - 1]
    assert session.store.plies(gid) == game.move_stack[:at - 1]
    session.close()


def test_while_a_pass_is_pending_the_computer_hints_the_other_player_s_move(tmp_path):
    from tests.test_guidance import random_game
    from firmware_py.ai import Thinker
    from firmware_py.rules import PASS
    game = random_game(0)
    at = game.move_stack.index(PASS)
    there = Board.from_plies(game.move_stack[:at])  # the player to move must pass
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        gid = store.new_game()
        for ply in there.move_stack:
            store.add_ply(gid, ply)
    mover = 1 - there.turn
    thinker = Thinker(mover, level=1, seed=2, nodes=300)
    occupied = {s for s in range(N_SPACES) if there.height(s)}
    session = make_session(db, [occupied] * 3, computer=[thinker])
    session.step(0)
    assert thinker.wait(10.0)
    session.step(0)
    hint = session.state.hint
    after_pass = there.copy()
    after_pass.push(PASS)
    assert hint is not None and hint in after_pass.legal_plies()
    lit = signals(session.state)
    assert lit[hint.src] == "computer_from" and lit[hint.dst] == "computer_to"
    session.close()


def test_leds_behind_a_lost_link_are_sent_again_when_it_returns(tmp_path):
    class LinkedLeds(RecordingLeds):
        down = True

        def show(self, frame):
            if self.down:
                raise LinkLost("the scanner drives the LEDs and is gone")
            super().show(frame)

    leds = LinkedLeds()
    session = make_session(tmp_path / "g.sqlite3", [set(), set()], leds=leds)
    session.step(0)
    assert leds.frames == [] and session.leds_shown is None
    leds.down = False
    session.step(0)
    assert len(leds.frames) == 1 and session.leds_shown == leds.frames[0]
    session.close()


def test_a_down_link_is_retried_after_a_pause_not_in_a_busy_loop(tmp_path, monkeypatch):
    pauses = []
    monkeypatch.setattr(session_module.time, "sleep", pauses.append)
    session = make_session(tmp_path / "g.sqlite3", ["lost", "lost", set()])
    session.step(1.0)
    session.step(0.02)
    session.step(1.0)
    assert pauses == [session.LINK_RETRY_S, 0.02]  # none once frames flow again
    session.close()


def test_a_ply_made_just_after_an_outside_takeback_is_refused_and_the_game_re_read(tmp_path,
                                                                                    capsys):
    """`games takeback` while the board commits the next ply before the session has looked:
    the store refuses the stale ply, play goes on, and the players rebuild the stored game."""
    from firmware_py.cli import main
    db = tmp_path / "g.sqlite3"
    t = [0.0]
    session = make_session(db, [set()] + placements(TOKENS[:4]), clock=lambda: t[0])
    run_script(session)
    assert main(["games", "takeback", "--db", str(db)]) == 0
    capsys.readouterr()
    session.source.script = [placements(TOKENS[:5])[-1]]  # b1 placed: ply 5 of the old game
    session.step(0)  # no StoreError: the ply is held off the disk
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:3]
    assert not session.store.game(session.game_id).is_finished
    session.source.script = [placements(TOKENS[:5])[-1]]
    session.step(0)  # the store is read again at once, not a second later
    assert session.state.board.ply_count == 3
    assert sorted(session.rebuild) == ["a1: take it off (leave the space empty)",
                                       "b1: take it off (leave the space empty)"]
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:3]
    session.source.script = [placements(TOKENS[:3])[-1], placements(TOKENS[:3] + ["h1"])[-1]]
    run_script(session)
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:3] + ["h1"]
    session.close()


def test_a_ply_refused_because_another_writer_added_plies_is_an_error(tmp_path):
    db = tmp_path / "g.sqlite3"
    session = make_session(db, [set()] + placements(TOKENS[:2]))
    run_script(session)
    with Store(db) as other:
        other.add_ply(session.game_id, Ply.parse("a1"))
    session.source.script = [placements(TOKENS[:3])[-1]]
    import pytest
    with pytest.raises(StoreError, match="holds 3 plies"):
        session.step(0)
    session.close()
