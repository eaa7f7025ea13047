"""A quiet 10-bit board (issue 19): readings that noise does not dither sit on one code and step
by a whole one as they drift, so they cannot tell a stack held still in the air from one set on
a tall stack. A glance above the source leaves the board unsure; the hand carrying the stack on
and pausing just above where it lands is not then asked about at once. Simulated time only."""

import pytest

from dvonn_sim.autoplay import play_game
from firmware_py.controller import Controller
from firmware_py.inference import Candidate, Decision
from firmware_py.settle import Snapshot
from firmware_py.spaces import N_SPACES


def quiet_controller() -> Controller:
    """A controller for the direct scanner (means of 4 raw samples) on a board with no noise to
    dither its readings, in the moving phase."""
    c = Controller(reading_step=0.25)
    c.cal.noise = [0.05] * N_SPACES  # the floor: an empty board read without noise
    board = c.state.board
    while board.phase == 1:
        board.push(board.legal_plies()[0])
    c.state.mode = "idle"
    return c


def unsure_between_two_landings(c: Controller) -> Decision:
    """Two landings of one stack, and that stack still in the hand, fitting about as well."""
    board = c.state.board
    src = next(p.src for p in board.legal_plies() if p.is_move and sum(
        q.is_move and q.src == p.src for q in board.legal_plies()) > 1)
    landings = []
    for ply in [p for p in board.legal_plies() if p.is_move and p.src == src][:2]:
        after = board.copy()
        after.push(ply)
        landings.append(Candidate("commit", (ply,), after, after.stacks(), frozenset(),
                                  chi2=5.0 + len(landings)))
    held = board.stacks()
    held[src] = ()
    lifted = Candidate("lifted", (), board.copy(), held, frozenset(), src=src, chi2=7.0)
    rivals = landings + [lifted]
    return Decision("ambiguous", landings[0], rivals, rivals)


def snapshot(time: float, since: float, moved: int | None = None) -> Snapshot:
    values = [2048.0] * N_SPACES
    if moved is not None:
        values[moved] += 2.0  # two codes: a held stack's field moved on
    return Snapshot(tuple(values), tuple([0.0] * N_SPACES), 20, time, since)


def test_a_stack_carried_on_after_a_glance_is_not_asked_about_at_once():
    c = quiet_controller()
    d = unsure_between_two_landings(c)
    hold = c.inference.hold_s
    c.decisions.act(c.state, d, snapshot(10.0, 9.8))  # a glance above the source: unsure
    assert c.state.mode != "asking"
    # Carried on, paused just above where it lands: a new still moment, not a long hold.
    c.decisions.act(c.state, d, snapshot(9.8 + hold + 0.5, 9.8 + hold + 0.3, moved=d.best.last_dst))
    assert c.state.mode != "asking" and c.state.board.ply_count == 49
    # Still that long since: asked.
    c.decisions.act(c.state, d, snapshot(9.8 + 2 * hold + 0.4, 9.8 + hold + 0.3,
                                         moved=d.best.last_dst))
    assert c.state.mode == "asking"


def test_a_board_that_only_looked_creeping_is_still_the_same_question():
    c = quiet_controller()
    d = unsure_between_two_landings(c)
    hold = c.inference.hold_s
    c.decisions.act(c.state, d, snapshot(10.0, 9.8))
    # The same readings, still only since a moment later (a spike, readings creeping).
    c.decisions.act(c.state, d, snapshot(9.8 + hold + 0.5, 9.8 + hold + 0.3))
    assert c.state.mode == "asking"


@pytest.mark.parametrize("seed", [1, 5])
def test_a_quiet_rough_10_bit_board_recognises_95_percent_without_asking(seed):
    # Before: 73 of 78 and 77 of 82 moves (93.6 %, 93.9 %), nearly every question asked while
    # a hand held the stack still in the air.
    r = play_game(seed=seed, preset="rough", adc_bits=10, noise="clean")
    assert r.wrong == 0 and r.match and not r.stalled
    assert r.auto >= 0.95 * (r.auto + r.asked)


def test_a_stack_held_high_that_fits_only_about_as_well_as_its_landing_doubts_nothing():
    # Coarse readings: a stack held above its source and the same stack set on a tall stack
    # read alike, so the one fitting a little better says neither (seed 13 lost its last ply:
    # the landing was never taken, and the question came when the players were done).
    c = quiet_controller()
    board = c.state.board
    ply = next(p for p in board.legal_plies() if p.is_move)
    after = board.copy()
    after.push(ply)
    held = board.stacks()
    held[ply.src] = ()
    hold = c.inference.hold_s
    for gap, doubted in ((2.0, False), (c.inference.hover_margin + 1.0, True)):
        c.questions.sure()
        aloft = Candidate("lifted", (), board.copy(), held, frozenset(), src=ply.src,
                          hover=(ply.src, 7, board.stack(ply.src), 0.0), chi2=5.0)
        landing = Candidate("commit", (ply,), after, after.stacks(), frozenset(), chi2=5.0 + gap)
        d = Decision("ambiguous", aloft, [aloft, landing], [aloft, landing])
        c.questions.set_down_unseen(d, snapshot(10.0 + hold, 9.8))
        assert c.questions.doubted is doubted
