"""On the computer's turn only the ply it shows (`state.hint`) is recorded: another ply, or a
lift of another stack, is flagged at once until the board is put back. Simulated time only."""

from firmware_py import guidance
from firmware_py.rules import Board, Ply
from firmware_py.spaces import SPACES
from tests.simgames import placed_board, resume, run


def start(board: Board, seed: int = 3):
    """Resumed on `board`, the computer playing the side to move."""
    sim, c = resume(board, seed)
    c.computer = frozenset({board.turn})
    return sim, c


def two_quiet_moves(board: Board) -> tuple[Ply, Ply]:
    """Two moves of different stacks that cut nothing off (the shown one and another)."""
    quiet = [p for p in board.legal_plies() if p.is_move and not board.isolated_by(p)]
    shown = quiet[0]
    other = next(p for p in quiet if p.src != shown.src and p.dst not in (shown.src, shown.dst))
    return shown, other


def test_another_move_on_the_computers_turn_is_flagged_until_put_back():
    board = placed_board(11)
    shown, other = two_quiet_moves(board)
    sim, c = start(board)
    c.state.hint = shown
    sim.hand.lift(other.src)
    sim.hand.put(other.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack == board.move_stack  # nothing recorded
    assert c.state.mode == "error" and c.state.error == [other.dst]
    assert f"the computer plays {shown}" in c.state.message
    assert guidance.signals(c.state) == {other.dst: "error"}
    sim.hand.lift(other.dst, count=board.height(other.src))  # put back where it came from
    sim.hand.put(other.src)
    run(sim, c, 4.0)
    assert c.state.mode == "idle" and c.state.board.move_stack == board.move_stack
    lit = guidance.signals(c.state)  # the computer's move is shown again
    assert lit[shown.src] == "computer_from" and lit[shown.dst] == "computer_to"
    sim.hand.lift(shown.src)  # the move as shown is recorded
    sim.hand.put(shown.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack == board.move_stack + [shown]


def test_lifting_another_stack_on_the_computers_turn_is_flagged_at_once():
    board = placed_board(12)
    shown, other = two_quiet_moves(board)
    sim, c = start(board)
    c.state.hint = shown
    sim.hand.lift(other.src)
    run(sim, c, 1.5)
    assert c.state.mode == "error" and c.state.error == [other.src]
    assert f"put the stack back on {SPACES[other.src]}" in c.state.message
    sim.hand.put(other.src)
    run(sim, c, 2.0)
    assert c.state.mode == "idle"
    sim.hand.lift(shown.src)  # the shown stack lifted: its destinations, no error
    run(sim, c, 1.5)
    assert c.state.mode == "lifted" and c.state.lifted == shown.src


def test_nothing_may_be_played_for_the_computer_while_it_thinks():
    board = placed_board(13)
    _, other = two_quiet_moves(board)
    sim, c = start(board)  # no hint yet: the computer is still thinking
    sim.hand.lift(other.src)
    sim.hand.put(other.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack == board.move_stack
    assert c.state.mode == "error" and "wait for the computer" in c.state.message


def test_a_placement_elsewhere_than_shown_is_flagged():
    board = Board.from_plies(["e3", "f3", "g3"])  # the DVONN pieces are placed
    sim, c = start(board)
    c.state.hint = board.legal_plies()[0]
    wrong = board.legal_plies()[5].dst
    kind = board.piece_to_place()
    sim.hand.place(wrong, kind)
    run(sim, c, 2.0)
    assert c.state.board.ply_count == 3
    assert c.state.mode == "error" and c.state.error == [wrong]
    sim.hand.remove(wrong)
    sim.hand.place(c.state.hint.dst, kind)
    run(sim, c, 3.0)
    assert c.state.board.move_stack[-1] == c.state.hint


def test_the_players_own_moves_are_not_checked():
    board = placed_board(14)
    shown, other = two_quiet_moves(board)
    sim, c = start(board)
    c.computer = frozenset({1 - board.turn})  # the computer plays the other colour
    sim.hand.lift(other.src)
    sim.hand.put(other.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack == board.move_stack + [other]
