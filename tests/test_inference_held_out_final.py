"""Held-out rough games (issue 19) in which a move already final was read elsewhere: the move
the players made must be recorded, never the one the board first read. Simulated time only."""

import pytest

from dvonn_sim.autoplay import play_game


@pytest.mark.parametrize("seed,adc_bits", [
    (70, 10),  # d3 paused over e4, set down on e3, and e3 (now the next player's to move
               # after the forced pass) lifted at once: touching e3 made d3e4 final, and the
               # board read "e3 may not move" although it fit d3e3, pass, e3 in the hand
    (63, 12),  # h4 paused over f4, set down on f2; the cut-off stacks began to be cleared,
               # which ended every check of h4f4's alternatives, and the board reading
               # differently at f2 was taken as it stood (and, asked, the lift of f2 to
               # answer was not seen while the cut-off f4 was cleared too)
    (64, 12),  # b3b4, still open; b4 lifted by mistake and set back off its place read
               # a little like b3a3 (chi2 16 against 46 for b3b4): changed on that alone
    (18, 12),  # g3 paused over f3 (g3f3, open), set down on h3 while c4 was lifted by
               # mistake: unsure about c4 in the hand was taken as unsure about g3f3, so
               # g3h3, clear (chi2 18 against 187), was asked about instead of decided, and
               # h3, cut off by both answers and cleared, left g3f3 standing
])
def test_a_move_read_before_it_landed_is_recorded_where_it_landed(seed, adc_bits):
    r = play_game(seed=seed, preset="rough", adc_bits=adc_bits, mistakes=0.3)
    assert r.wrong == 0 and r.match and not r.stalled
    assert r.record == r.truth
