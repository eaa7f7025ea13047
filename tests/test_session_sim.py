"""The whole keeping path with the real controller against the simulated board: the simulator's
hand plays, the session stores, resumes after a kill, takes back, and rides out a lost link.
The LEDs are read the way the simulator's players read them: by exact RGB (`colours.BY_RGB`)."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from firmware_py.colours import BY_RGB
from firmware_py.controller import Controller
from firmware_py.errors import LinkLost
from firmware_py.guidance import CORNERS, signals
from firmware_py.rules import Board, Ply
from firmware_py.session import Session
from firmware_py.spaces import INDEX
from firmware_py.store import Store
from dvonn_sim.board import SimBoard

TOKENS = ["e3", "f3", "g3", "a1", "b1", "c1", "d1", "e1"]


def make(db, sim=None, source=None, **kw):
    sim = sim or SimBoard(seed=5)
    return sim, Session(source or sim, sim, Store(db), lambda board: Controller(board=board),
                        buttons=sim, **kw)


def run(session, sim, seconds):
    end = sim.now + seconds
    while sim.now < end:
        session.step()


def place_all(session, sim, tokens, start=0):
    board = Board.from_plies(TOKENS[:start])
    for token in tokens:
        ply = Ply.parse(token)
        sim.hand.place(ply.dst, board.piece_to_place())
        board.push(ply)
        run(session, sim, 2.5)


def lit(sim) -> dict[int, str]:
    """What the LEDs say right now (a blinking space may be in its dark part)."""
    return {s: BY_RGB[rgb].name for s, rgb in enumerate(sim.leds.spaces) if rgb in BY_RGB}


def watch(session, sim, seconds=1.3) -> dict[int, set[str]]:
    """What the LEDs said over a while: every signal seen on each space (covers all blinks)."""
    seen: dict[int, set[str]] = {}
    end = sim.now + seconds
    while sim.now < end:
        session.step()
        for space, name in lit(sim).items():
            seen.setdefault(space, set()).add(name)
    return seen


def test_placements_are_stored_and_the_leds_show_whose_turn(tmp_path):
    sim, session = make(tmp_path / "g.sqlite3", resume=False)
    run(session, sim, 1.0)
    place_all(session, sim, TOKENS[:5])
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:5]
    assert session.state.mode == "idle"
    # After five placements Black places a black piece: blue winks on every empty space.
    seen = watch(session, sim)
    assert len(seen) == 49 - 5 and all(names == {"black_to_play"} for names in seen.values())
    session.close()
    assert sim.closed and sim.leds.spaces == (((0, 0, 0),) * 49)


def test_takeback_button_is_guided_until_the_board_matches(tmp_path):
    sim, session = make(tmp_path / "g.sqlite3", resume=False)
    run(session, sim, 1.0)
    place_all(session, sim, TOKENS[:5])
    sim.press("undo")
    session.step()
    b1 = INDEX["b1"]
    assert session.state.board.ply_count == 4 and session.state.mode == "paused"
    assert session.rebuild == ["b1: take it off (leave the space empty)"]
    assert session.state.extra == [b1]
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:4]
    assert signals(session.state) == {b1: "extra", **{c: "paused" for c in CORNERS}}
    sim.hand.remove("b1")  # the player takes the piece off straight away
    run(session, sim, 4.0)
    assert session.state.mode == "idle" and session.state.extra == []
    assert session.state.board.ply_count == 4
    place_all(session, sim, ["h1"], start=4)
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:4] + ["h1"]
    session.close()


def test_a_slow_takeback_is_not_undone_by_the_pieces_still_standing(tmp_path):
    sim, session = make(tmp_path / "g.sqlite3", resume=False)
    run(session, sim, 1.0)
    place_all(session, sim, TOKENS[:5])
    sim.press("undo")
    run(session, sim, 3.0)  # the player looks at the LEDs for a while before acting
    assert session.state.board.ply_count == 4 and session.state.extra == [INDEX["b1"]]
    session.close()


class FlakyLink:
    """The simulator behind a cable that is pulled for `lost` reads after `after` frames."""

    def __init__(self, sim, after: int, lost: int):
        self.sim, self.after, self.lost = sim, after, lost
        self.adc_max = sim.adc_max
        self.reads = 0

    def read_frame(self, timeout=None):
        self.reads += 1
        if self.after < self.reads <= self.after + self.lost:
            raise LinkLost("USB cable pulled")
        return self.sim.read_frame(timeout)

    def close(self):
        self.sim.close()


def test_link_lost_pauses_play_and_nothing_is_lost(tmp_path):
    sim = SimBoard(seed=5)
    clock = iter(x * 0.01 for x in range(10**6)).__next__
    link = FlakyLink(sim, after=10**9, lost=50)
    _, session = make(tmp_path / "g.sqlite3", sim=sim, source=link, resume=False, clock=clock)
    run(session, sim, 1.0)
    place_all(session, sim, TOKENS[:2])
    modes = []
    session.subscribe(lambda s: modes.append(s.state.mode))
    link.after = link.reads + 10  # the cable is pulled 10 frames from now, for 50 reads
    while link.reads <= link.after + 10:
        session.step(0)  # no pause between retries in the test
    assert session.state.mode == "link_lost" and session.link_lost
    seen = set()
    while link.reads < link.after + link.lost:
        session.step(0)
        seen |= {name for s, name in lit(sim).items() if s in CORNERS}
    assert seen == {"link_lost"} and set(lit(sim)) <= set(CORNERS)
    place_all(session, sim, TOKENS[2:4], start=2)
    assert not session.link_lost and session.state.mode == "idle"
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:4]
    assert "link_lost" in modes and modes[-1] == "idle"
    session.close()


PLAYER = textwrap.dedent("""
    import sys
    from tests.test_session_sim import make, run, TOKENS
    from firmware_py.rules import Board, Ply
    sim, session = make(sys.argv[1], resume=False)
    run(session, sim, 1.0)
    board = Board()
    for token in TOKENS:
        ply = Ply.parse(token)
        sim.hand.place(ply.dst, board.piece_to_place())
        board.push(ply)
        while session.state.board.ply_count < board.ply_count:
            session.step()
        print(board.ply_count, flush=True)  # the LEDs have moved on: acknowledged
    sys.stdin.read()  # a board in the middle of a game, until the plug is pulled
""")


def test_pulled_plug_then_resume_guides_the_players_back(tmp_path):
    db = tmp_path / "g.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", PLAYER, str(db)], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        acknowledged = 0
        while acknowledged < 6:
            acknowledged = int(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with Store(db) as store:
        recorded = store.board(store.unfinished().id)
    assert recorded.ply_count >= 6
    assert [str(p) for p in recorded.move_stack] == TOKENS[:recorded.ply_count]
    # Power back on. The pieces stayed, but the last one placed got knocked off the board.
    last = recorded.move_stack[-1].dst
    sim = SimBoard(seed=9)
    sim.setup({s: recorded.stack(s) for s in range(49) if recorded.stack(s) and s != last})
    sim, session = make(db, sim=sim)
    assert session.resumed and session.state.board.key() == recorded.key()
    run(session, sim, 1.0)
    assert session.state.missing == [last]
    assert lit(sim)[last] == "missing"  # steady: lit at any moment
    sim.hand.place(last, recorded.stack(last)[0])
    run(session, sim, 4.0)
    assert session.state.mode == "idle"
    n = recorded.ply_count
    place_all(session, sim, TOKENS[n:n + 1], start=n)
    assert [str(p) for p in session.store.plies(session.game_id)] == TOKENS[:n + 1]
    session.close()


@pytest.mark.parametrize("to", ["dst", "src"])  # on to its destination; back where it was
def test_a_move_changed_on_the_way_leaves_only_the_real_move_in_the_store(tmp_path, to):
    from tests.test_controller_amend import slide_over_a_tall_stack
    seed, board, ply, via = slide_over_a_tall_stack()
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        game = store.new_game({"Event": "test"})
        for p in board.move_stack:
            store.add_ply(game, p)
    sim = SimBoard(seed=seed)
    sim.setup(board)
    sim, session = make(db, sim=sim)  # resumes the unfinished game
    run(session, sim, 0.6)
    assert session.state.mode == "idle"
    end = ply.dst if to == "dst" else ply.src
    sim.hand.slide(ply.src, end, via=[via])  # pauses just above `via` on the way
    run(session, sim, 6.0)
    assert session.controller.stats["amended"] == 1
    played = board.move_stack + ([ply] if to == "dst" else [])
    assert session.store.plies(session.game_id) == played
    assert session.state.mode == "idle" and session.rebuild == []  # nothing to rebuild
    assert ("changed to" if to == "dst" else "taken back") in session.state.message
    session.close()
