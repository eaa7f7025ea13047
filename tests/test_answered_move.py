"""A move the player answered a question about is never put in question again on readings
alone (`Recorder.answered_last`, `Decisions._ask_alternatives`)."""

from dvonn_sim.autoplay import play_game

from firmware_py.recorder import Recorder
from firmware_py.rules import Board


def _placed() -> Board:
    """A board with every piece placed (the first legal placement each time)."""
    board = Board()
    while board.phase == 1:
        board.push(board.legal_plies()[0])
    return board


def test_only_the_move_answered_counts_as_answered():
    board, r = _placed(), Recorder()
    assert not r.answered_last(board)  # placements are no move
    move = board.legal_plies()[0]
    r.commit(board, [move], asked=True)
    assert r.answered_last(board)
    nxt = board.legal_plies()[0]
    r.commit(board, [nxt], asked=False)
    assert not r.answered_last(board)  # read unasked
    board.pop()
    assert not r.answered_last(board)  # (only the last move recorded counts)
    r.commit(board, [nxt], asked=True)
    r.takeback(board)
    assert not r.answered_last(board)


def test_an_answered_move_is_not_asked_again_while_its_cut_off_stacks_are_cleared():
    # Drift 6 mT a minute, rough 10-bit: d3e4 asked, e4 shown. Clearing c2, cut off, whose
    # empty reading sits at the occupancy limit on its drifted baseline, d3c2 fitted the
    # readings; asked "e4 or c2?" again, c2's lift read on one frame answered it: "d3e4
    # changed to d3c2", a wrong ply.
    asked_after = []

    def trace(c, b):
        st = c.state
        # (a question about the next move's landing, c2 cleared, is no question about d3e4)
        if (len(st.board.move_stack) == 70 and st.mode == "asking"
                and "c2" in str(st.message)):
            asked_after.append(round(b.now, 1))

    r = play_game(seed=5, preset="rough", adc_bits=10, mistakes=0.3,
                  board={"drift_mt_per_min": 6}, trace=trace, max_sim_s=245)
    assert [str(p) for p in r.record[66:70]] == ["g1i3", "c3c4", "g4f4", "d3e4"]
    assert r.wrong == 0
    assert not asked_after
