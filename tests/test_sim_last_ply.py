"""After the game's last ply the scripted players stay until the board shows it recorded: they set
down again a stack it still shows in the hand, put back a stack it says is missing and play the
move again, and give up (`unfinished`) only after `last_ply.PATIENCE_S`. The board's side is
the test oracle of tests/test_sim_players.py (it reads the truth, lights the LEDs)."""

from firmware_py.interfaces import OFF, LedFrame
from firmware_py.spaces import N_SPACES
from dvonn_sim.board import SimBoard
from dvonn_sim.last_ply import PATIENCE_S
from dvonn_sim.players import Players
from tests.test_sim_players import Oracle, check_truth, rgb

LAST = 56  # the game stops after its 56th ply, a move (seed 4)


class StuckOracle(Oracle):
    """After the last ply, shows `how` ('lifted': the move's stack in the hand; 'missing': its
    source missing) until the players have done something about it; for ever with `never`."""

    def __init__(self, board, players, how: str, never: bool = False):
        super().__init__(board, players, ask_every=10 ** 6)
        self.how, self.never, self.touched = how, never, False

    def render(self, now):
        truth, phys = self.players.truth, self.board.truth()
        if truth.ply_count < LAST:
            return super().render(now)
        last = truth.move_stack[-1]
        if phys[last.dst] != truth.stack(last.dst) or phys[last.src]:
            self.touched = True  # lifted again, or put back on its source
        if self.touched and not self.never or not self.board.hand.idle():
            return super().render(now)
        out = [OFF] * N_SPACES
        if self.how == "lifted":
            out[last.src], out[last.dst] = rgb("source", now), rgb("destination", now)
        else:
            out[last.src] = rgb("missing", now)
        return LedFrame(tuple(out))


def see_out(how: str, never: bool = False):
    board = SimBoard(seed=4)
    players = Players(board, seed=4, max_plies=LAST)
    oracle = StuckOracle(board, players, how, never)
    while not players.done and board.now < 3000:
        frame = board.read_frame()
        board.show(oracle.render(frame.time))
        players.step()
    assert players.done and players.truth.ply_count == LAST
    assert players.truth.move_stack[-1].is_move
    check_truth(board, players)
    return players, [t for _, t in players.log]


def test_a_last_move_shown_still_in_the_hand_is_set_down_again():
    players, notes = see_out("lifted")
    last = players.truth.move_stack[-1]
    assert f"setting {str(last)[2:]} down again" in notes
    assert not players.unfinished


def test_a_last_move_whose_source_is_shown_missing_is_put_back_and_played_again():
    players, notes = see_out("missing")
    last = players.truth.move_stack[-1]
    assert f"putting back {str(last)[:2]} and playing {last} again" in notes
    assert not players.unfinished


def test_a_board_that_never_shows_the_game_recorded_is_given_up_after_a_while():
    players, notes = see_out("lifted", never=True)
    assert players.unfinished
    assert sum(n.endswith("down again") for n in notes) == 6  # then they only look
    assert any("never showed the game recorded" in n for n in notes)
    played = max(t for t, n in players.log if n.startswith("played "))
    assert players.log[-1][0] - played >= PATIENCE_S


def test_a_whole_game_whose_last_move_is_asked_about_late_is_recorded_exactly():
    # Default board, mistakes 0.3, seed 33: the last move f1h3 reads best as f1 knocked aside,
    # so the board shows f1 in the hand and asks about h3 only once it has been still for
    # `held_s` (10 s with ask_after_s 2; 5 s by default, within the 6 s the players waited by
    # chance). Players who walked away after 6 s left 83 of 85 plies recorded.
    from dvonn_sim.autoplay import play_game
    r = play_game(seed=33, preset="default", mistakes=0.3,
                  controller_options={"ask_after_s": 2.0})
    assert r.match and r.wrong == 0 and not r.stalled
    assert r.record[-1] == "f1h3" and len(r.record) == 85
