"""The controller against the simulated board: resume, moves, illegal actions flagged at once,
takeback, asking, link loss. Simulated time only; each test runs a few simulated seconds."""


import pytest

from firmware_py.controller import Controller
from firmware_py.spaces import INDEX
from dvonn_sim.board import SimBoard
from dvonn_sim.params import Params
from tests.simgames import placed_board, run


def until_idle(sim, c, seconds: float = 6.0) -> None:
    end = sim.now + seconds
    while sim.now < end:
        c.feed(sim.read_frame())
        if sim.hand.idle() and c.state.mode in ("idle", "removing", "over"):
            return


@pytest.fixture
def resumed():
    board = placed_board(7)
    # No pause above a stack before letting go: these hands lift the next stack the moment
    # they let go of the last (a hover's end and the next landing on the same stack, with no
    # still board in between, is asked about).
    sim = SimBoard(Params.from_noise("default", hover_chance=0.0), seed=7)
    sim.setup(board)
    c = Controller(board=board.copy())
    run(sim, c, 0.5)
    return sim, c, board


def test_resume_on_a_matching_board_then_moves_are_recognised(resumed):
    sim, c, board = resumed
    assert c.state.mode == "idle"
    seen = []
    c.on_commit = lambda ply: seen.append((ply, c.state.board.ply_count))
    for _ in range(3):
        ply = board.legal_plies()[0]
        sim.hand.lift(ply.src)
        sim.hand.put(ply.dst)
        board.push(ply)
        until_idle(sim, c)
        for r in board.last_removed:
            sim.hand.remove(r)
        until_idle(sim, c)
        assert c.state.board.move_stack == board.move_stack
    # the commit hook ran before the ply was on the controller's board
    assert [p for p, _ in seen] == board.move_stack[-3:]
    assert all(n == 49 + i for i, (_, n) in enumerate(seen))


def test_resume_on_a_different_board_guides_the_players_back():
    board = placed_board(8)
    sim = SimBoard(seed=8)
    sim.setup(board)
    e3 = INDEX["e3"]
    sim.setup({e3: ()})  # a stack went missing while the power was off
    c = Controller(board=board.copy())
    run(sim, c, 0.5)
    assert c.state.mode == "unexplained" and c.state.missing == [e3]
    sim.setup({e3: board.stack(e3)})
    run(sim, c, 0.5)
    assert c.state.mode == "idle" and c.state.missing == []


def test_lifting_a_stack_that_may_not_move_is_flagged_at_once(resumed):
    sim, c, board = resumed
    theirs = next(s for s in range(49) if board.owner(s) == 1 - board.turn)
    sim.hand.lift(theirs)
    run(sim, c, 0.8)
    assert c.state.mode == "error" and c.state.error == [theirs]
    sim.hand.put(theirs)
    until_idle(sim, c)
    assert c.state.mode == "idle" and c.state.board.ply_count == 49


def test_a_lifted_stack_shows_its_destinations(resumed):
    sim, c, board = resumed
    src = board.mobile_stacks()[0]
    sim.hand.lift(src)
    sim.hand.wait(1.0)
    run(sim, c, 1.2)
    assert c.state.mode == "lifted" and c.state.lifted == src
    assert c.state.destinations == board.destinations(src)


def test_wrong_piece_is_flagged_until_corrected():
    sim = SimBoard(seed=3)
    c = Controller()
    run(sim, c, 0.5)
    assert c.state.mode == "idle"
    # a DVONN piece is due: Black reads the other way (a White piece differs from a DVONN
    # one by less than magnets, sensors and placement spread before anything is learned)
    sim.hand.place("e3", "B")
    run(sim, c, 2.0)
    assert c.state.mode == "error" and c.state.error == [INDEX["e3"]]
    assert c.state.board.ply_count == 0
    sim.hand.lift("e3")
    sim.hand.discard()
    sim.hand.place("e3", "D")
    run(sim, c, 4.0)
    assert [str(p) for p in c.state.board.move_stack] == ["e3"]
    assert c.state.mode == "idle"


def test_takeback_waits_for_the_board_to_be_rebuilt(resumed):
    sim, c, board = resumed
    undone = []
    c.on_undo = lambda: undone.append(1)
    ply = next(p for p in board.legal_plies() if not board.isolated_by(p))
    n = board.height(ply.src)
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    until_idle(sim, c)
    assert c.state.board.ply_count == 50
    c.button("undo")
    assert undone == [1] and c.state.board.ply_count == 49
    run(sim, c, 1.0)  # the move still stands: it must not be taken as played again
    assert c.state.mode == "paused" and c.state.missing == [ply.src]
    assert c.state.board.ply_count == 49
    sim.hand.lift(ply.dst, count=n)
    sim.hand.put(ply.src)
    until_idle(sim, c)
    assert c.state.mode == "idle" and c.state.board.ply_count == 49


def test_asking_is_answered_by_lifting_the_stack_landed_on():
    board = placed_board(9)
    sim = SimBoard(seed=9)
    sim.setup(board)
    c = Controller(board=board.copy(), margin=1e9)  # nothing is ever clear enough: always ask
    run(sim, c, 0.5)
    ply = next(p for p in board.legal_plies()
               if not board.isolated_by(p) and len(board.destinations(p.src)) > 1)
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 2.5)
    assert c.state.mode == "asking" and ply.dst in c.state.ask
    assert c.state.board.ply_count == 49  # nothing recorded on a guess
    sim.hand.lift(ply.dst)
    sim.hand.put(ply.dst)
    until_idle(sim, c)
    assert c.state.board.move_stack[-1] == ply and c.stats["asked"] == 1


def test_confirm_takes_the_likeliest_answer():
    board = placed_board(9)
    sim = SimBoard(seed=9)
    sim.setup(board)
    c = Controller(board=board.copy(), margin=1e9)
    run(sim, c, 0.5)
    ply = next(p for p in board.legal_plies() if not board.isolated_by(p))
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 2.5)
    assert c.state.mode == "asking" and c.state.ask[0] == ply.dst
    c.button("confirm")
    assert c.state.board.move_stack[-1] == ply


def test_link_lost_and_back():
    c = Controller()
    c.link_lost()
    assert c.state.mode == "link_lost" and "link" in c.state.message
    c.link_restored()
    assert c.state.mode == "calibrating"
    with pytest.raises(ValueError, match="unknown button"):
        c.button("jump")
