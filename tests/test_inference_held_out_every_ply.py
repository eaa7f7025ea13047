"""Held-out games with a mistake on every ply (issue 19: `--mistakes 1.0`), the default 12-bit
board. Each game below recorded a wrong ply before. Simulated time only."""

from dvonn_sim.autoplay import play_game


def assert_recorded_exactly(seed: int) -> None:
    r = play_game(seed=seed, mistakes=1.0, preset="default", adc_bits=12)
    assert r.wrong == 0 and not r.stalled
    assert r.record == r.truth


def test_the_asked_landing_cleared_as_the_only_stack_its_move_cuts_off_answers_yes():
    # a2 slid over b2 to a3 (a2b2 taken open, a3 cut off); "did you land on a3?" (a2a3 cuts
    # off a3 too): the player cleared a3, and the board waited for it to be set back for ever
    # (a3: now set it back), then took i2i1 on top of a2b2: a wrong ply, then stuck.
    assert_recorded_exactly(22)


def test_a_faint_landing_on_a_tall_stack_where_the_final_move_could_have_gone_is_asked():
    # h3, set down on b4 by mistake, was carried high over f3 to h1: on the board still for a
    # moment under it, h3f3 (onto a stack of 7) fitted best and was taken open; set down on h1
    # (a stack of 6) as h2 was lifted by mistake, which made h3f3 final. The board then matched
    # h3f3 with h1 7.3 sigma off (its neighbours 4-5): under the 8 that had the move's other
    # landings checked, so h3f3 was kept unasked. Now "f3 or h1?", answered h1.
    assert_recorded_exactly(41)


def test_a_landing_lifted_at_once_and_set_back_where_the_final_move_could_have_gone_is_asked():
    # d3 slid low over c2 on its way to d4 (d3c2 taken open); set down on d4 (a stack of 3)
    # and lifted again at once by mistake, never read still there: that lift made d3c2 final
    # (shown as an error: d4 may not move now). Set back, d4 read as the game says and its
    # neighbours c4, d5 up to 5 sigma off (d3d4 fitting with chi2 27 against 130): only the
    # move's other landings themselves had it checked, so d3c2 was kept. Now "c2 or d4?".
    assert_recorded_exactly(74)


def test_the_next_stack_read_set_down_on_another_landing_of_the_open_move_keeps_it_open():
    # i2 slid low over i1 on its way to j3 (i2i1 taken open); set down on j3 as a2 was lifted
    # by mistake: the board read a2 set down on j3 (an error), and asked "i1 or j3?" only once
    # a2 was back, as the player cleared i1, j3 and k3 (which both moves cut off): with both
    # landings gone they read the same, and i2i1 was kept. Now a2 is shown in the hand, i2i1
    # open until it is set down, and "j3 or i1?" is asked before anything is cleared.
    assert_recorded_exactly(56)
