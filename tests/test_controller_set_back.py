"""A stack lifted and set back while the board is moving, before it is still again: set back, it
sits wherever the hand put it (up to 2.5 mm off its place on a rough board), so its new reading
is no evidence of a landing on it, however quickly it was lifted. Rough 12-bit board (issue 19),
simulated time only."""

import pytest

from dvonn_sim.params import Params, adc_board
from tests.simgames import early_moves_board, run, scene


def beside_a_move(seed: int):
    """A position, a move in it that cuts nothing off, and another destination of the same
    stack (a stack to lift and set back as the move is made)."""
    board = early_moves_board(seed)
    for ply in board.legal_plies():
        if ply.is_pass or board.isolated_by(ply):
            continue
        others = [d for d in board.destinations(ply.src) if d != ply.dst]
        if others:
            return board, ply, others[0]
    raise AssertionError("no such position")


@pytest.mark.parametrize("seed", [
    13,  # d1 set back: "did you play c1b1? the board reads d1 differently" (never seen gone
         # on a still board, d1 was held to where it stood)
    39,  # d1 set back: c1b1 asked about
])
def test_a_stack_set_back_as_the_move_is_made_is_no_landing_on_it(seed):
    board, ply, other = beside_a_move(seed)
    sim, c, stored = scene(board, seed, Params.preset("rough", noise="default", **adc_board(12)))
    sim.hand.lift(other)  # lifted by mistake and set back at once, the move made straight on
    sim.hand.put(other)
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 6.0)
    assert stored == board.move_stack + [ply]
    assert c.state.board.move_stack == stored and c.state.mode == "idle"
