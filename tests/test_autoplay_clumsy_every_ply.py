"""A mistake on every ply (`--mistakes 1.0`) on the rough 10-bit board: games that recorded a
wrong ply before, each played up to just past it. Simulated time only."""

import pytest

from dvonn_sim.autoplay import play_game


@pytest.mark.parametrize("seed", [
    39,  # h1 slid over i1 (h1i1 open) to i2, h2 lifted 0.1 s later: that lift made h1i1
         # final although h1i2 with h2 in the hand fitted better (48 against 54); asked "did
         # you land on i1?", the player lifted i2, which made h1i1 final again: a wrong ply
    36,  # d5 slid over c4 (d5c4 open) to c5, b4 set on c5 at once: "did you land on c4?",
         # the player lifted c5 (where d5 went), no answer, and that lift made d5c4 final
])
def test_a_move_slid_over_one_landing_and_asked_about_is_recorded_as_played(seed):
    r = play_game(seed=seed, preset="rough", adc_bits=10, mistakes=1.0, max_plies=56)
    assert r.wrong == 0 and not r.stalled
    assert r.record == r.truth
