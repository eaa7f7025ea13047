"""A joining board restarted (after a crash, and with `--new`) follows the host's game: the
host's store is the truth. Its own last game, which went another way, is kept but not played;
a new local game holds the host's plies, the player is told so and shown what to set up, and
play goes on with the host: the host's next ply lights up, the board's own ply reaches the host.
Joined again without --new, the board resumes that game instead of making another."""

from __future__ import annotations

import time
from argparse import Namespace

import pytest

from firmware_py.commands._remote import Remote
from firmware_py.controller import Controller
from firmware_py.remote.follow import TAG
from firmware_py.remote.host import RemoteHost
from firmware_py.rules import BLACK, Board, Ply
from firmware_py.session import Session
from firmware_py.spaces import INDEX
from firmware_py.store import Store
from firmware_py.study import setup_lines
from dvonn_sim.board import SimBoard
from tests.test_remote_game import hosted
from tests.test_session_sim import run

PLAYED = ["e3", "f3", "g3", "a1"]  # on both boards before the joining board went down


def joined(link: str, db, new: bool):
    """The joining board started again: `play --join LINK [--new]` as the command does it."""
    remote = Remote.from_args(Namespace(remote=None, join=link, ai=[], remote_at="8090"))
    store = Store(db)
    assert remote.prepare(store, new) is True
    game = store.unfinished()
    sim = SimBoard(seed=2)
    sim.setup(store.board(game.id))  # the pieces stand as they stood (the simulator sets them)
    session = Session(sim, sim, store, lambda board: Controller(board=board),
                      remote.buttons(sim), resume=True, computer=remote.thinkers)
    lines = remote.start(session)
    return remote, session, sim, lines


def step_until(session, sim, check, what, timeout=20.0):
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, what
        run(session, sim, 0.1)


@pytest.mark.parametrize("new", [True, False])
def test_a_restarted_joining_board_follows_the_host_s_game(tmp_path, new):
    game, recorded = hosted(PLAYED, colour=BLACK)  # the host: White at its board
    db = tmp_path / "join.sqlite3"
    with Store(db) as store:  # the joining board's own last game went another way
        own = store.new_game({})
        store.add_ply(own, Ply.parse("d3"), index=0)
    with RemoteHost(game, port=0) as server:
        remote, session, sim, lines = joined(server.link("opponent"), db, new)
        try:
            why = ("--new: a joined board plays the host's game, not one of its own" if new
                   else "this board's last game is not the host's")
            assert f"{why}: following the host's game at ply 4" in " ".join(lines)
            assert remote.rebuild == setup_lines(Board.from_plies(PLAYED))
            assert session.resumed and [str(p) for p in session.state.board.move_stack] == PLAYED
            assert session.store.game(session.game_id).tags[TAG] == remote.client.tag()
            step_until(session, sim, lambda: session.state.mode == "idle", "the board matches")
            # The host's player places: it lights up on the joining board, which records it.
            recorded.play("b1")
            step_until(session, sim, lambda: session.state.hint == Ply.parse("b1"), "b1 lit")
            sim.hand.place(INDEX["b1"], session.state.board.piece_to_place())
            step_until(session, sim, lambda: session.state.board.ply_count == 5, "b1 recorded")
            # The joining board's own ply goes to the host.
            sim.hand.place(INDEX["c1"], session.state.board.piece_to_place())
            step_until(session, sim, lambda: game.view("opponent")["line"][-1:] == ["c1"],
                       "c1 reaches the host")
            assert [str(p) for p in session.store.plies(session.game_id)] == \
                game.view("opponent")["line"] == PLAYED + ["b1", "c1"]
        finally:
            session.close()
            remote.stop()
        with Store(db) as store:  # the board's own game is kept as it was, and not played
            assert [str(p) for p in store.plies(own)] == ["d3"]
            games = len(store.games())
        # Started again without --new: the same game, resumed.
        remote, session, sim, lines = joined(server.link("opponent"), db, new=False)
        try:
            assert "resuming the host's game at ply 6" in lines
            assert [str(p) for p in session.state.board.move_stack] == PLAYED + ["b1", "c1"]
            assert len(session.store.games()) == games and not remote.rebuild
        finally:
            session.close()
            remote.stop()


def test_a_joined_board_follows_the_host_into_its_next_game_even_one_under_way(tmp_path):
    game, recorded = hosted(PLAYED, colour=BLACK)
    with RemoteHost(game, port=0) as server:
        remote, session, sim, lines = joined(server.link("opponent"), tmp_path / "j.sqlite3",
                                             new=False)
        try:
            first = session.game_id
            step_until(session, sim, lambda: session.state.mode == "idle", "the board matches")
            # The host starts another game, set up from a record (`play --from`).
            recorded.game_id = 2
            recorded.state.board = Board.from_plies(["a1", "b1", "c1"])
            recorded.callback(recorded)
            step_until(session, sim, lambda: session.game_id != first, "the board follows")
            assert [str(p) for p in session.state.board.move_stack] == ["a1", "b1", "c1"]
            assert session.store.game(session.game_id).tags[TAG] == remote.client.tag(2)
            assert session.store.game(first).result == "*"  # left behind, kept
            assert "e3: take it off (leave the space empty)" in session.rebuild
            assert "c1: one D" in session.rebuild
            assert remote.note() == ("the host started a game at ply 3: this board follows it "
                                     "(set up its position)")
        finally:
            session.close()
            remote.stop()


def test_sim_join_sets_the_host_s_position_up_on_the_simulated_table(tmp_path):
    """`sim --join`: the simulator prepares its store the same way, and its table stands as
    the followed game says (as for any resumed game on the simulated board)."""
    from firmware_py.remote.follow import follow_host
    from firmware_py.web.simulator import SimulatorRun
    from dvonn_sim.compose import simulated_board

    board = simulated_board("clean", seed=1)
    followed = []
    run = SimulatorRun(lambda b: Controller(board=b), tmp_path / "s.sqlite3", board, port=0,
                       prepare=lambda store: followed.append(
                           follow_host(store, PLAYED, BLACK, "http://h/ws game 1")))
    try:
        assert followed[0][1] == "joined the host's game: following the host's game at ply 4 " \
            "(set up its position as the LEDs and the list show; your last game here is kept)"
        assert run.session.resumed
        assert [str(p) for p in run.session.state.board.move_stack] == PLAYED
        assert list(board.truth()) == list(Board.from_plies(PLAYED).stacks())
    finally:
        run.session.close()


def test_a_board_joining_a_game_the_host_has_ended_ends_it_too(tmp_path):
    game, recorded = hosted(PLAYED, colour=BLACK)
    game.receive("resign", {})  # Black (far away) resigned while this board was down
    with RemoteHost(game, port=0) as server:
        remote, session, sim, lines = joined(server.link("opponent"), tmp_path / "j.sqlite3",
                                             new=False)
        try:
            step_until(session, sim, lambda: session.state.mode == "over", "the end shown")
            assert session.state.message == "black resigned: 1-0"
            info = session.store.game(session.game_id)
            assert (info.result, info.resigned) == ("1-0", BLACK)
        finally:
            session.close()
            remote.stop()
