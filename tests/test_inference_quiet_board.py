"""A quiet rough 10-bit board (no sensor noise to dither a reading, mistakes 0.3): a stack slid
low over one stack and set down on the next. Read in the air over the first, the move was
taken open there; on a tall stack a landing adds less than a code, and against that in-air
reading the move as recorded and the move set down where it went fitted alike. Each game below
recorded a wrong ply and then stalled. Simulated time only."""

import pytest

from dvonn_sim.autoplay import play_game


def assert_recorded_exactly(seed: int) -> None:
    r = play_game(seed=seed, noise="clean", mistakes=0.3, preset="rough", adc_bits=10)
    assert r.wrong == 0 and not r.stalled
    assert r.record == r.truth


@pytest.mark.parametrize("seed", [
    278,  # e1 slid over e2 to f2: e1e2 open, asked "e2, f2, d1 or f1?"; f3 lifted for the next
          # move made e1e2 final, the question dropped, and f3d1 was taken on top of it
    307,  # f2 slid over f3 to g3: f2f3 open, f2 shown in the hand as c3 was lifted; c3e3 was
          # read on top of f2f3 (chi2 35.6) with f2g3 under it nearly as likely (39.0)
])
def test_a_ply_on_top_of_a_move_in_doubt_is_asked_about_with_the_move_changed(seed):
    assert_recorded_exactly(seed)


def test_a_landing_read_in_the_air_is_checked_against_the_board_before_the_move():
    # e3 slid over c1 to c3: e3c1 open, then the board read the move as recorded best (chi2
    # 2.7, e3c3 3.6) and let it stand after a still while; against the board before the move,
    # e3c3 fits at 14 and e3c1 at 48.
    assert_recorded_exactly(285)


def test_a_stack_whose_magnets_cancel_still_stands_when_a_landing_nudges_it():
    # k3 set on j3 for the last move: seven pieces of both colours (W B B B W B W) that read
    # 9 mT together, pushed aside by the landing to 3.6 mT, under the 6 mT a stack that stood
    # keeps; j3 read as lifted ("may not move now: put it back"), and the game stalled.
    assert_recorded_exactly(305)
