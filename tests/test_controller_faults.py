"""A faulty sensor at the start (dead, stuck): the board names it, never hangs silently, and
play goes on with that space read from the game alone. Simulated time only."""

import pytest

from firmware_py.controller import Controller
from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from dvonn_sim.board import SimBoard
from dvonn_sim.params import Params
from tests.simgames import midgame_board, resume, run
from dvonn_sim.players import Players

E3 = INDEX["e3"]


def play(sim, c, max_s: float = 900.0, during=None):
    """Whole game with scripted players, who read only the LEDs: asked about the space they
    played on whose sensor is faulty (lit apart: a lift there is not seen), they press
    confirm. `during(c)`: each frame."""
    from firmware_py import guidance
    players = Players(sim, None, seed=sim.seed)
    shown = None
    while sim.now < max_s and not (players.done and c.state.mode in ("idle", "over")
                                   and c.state.board.ply_count >= players.truth.ply_count):
        frame = sim.read_frame()
        c.feed(frame)
        for name in sim.events():
            c.button(name)
        if during is not None:
            during(c)
        st = c.state
        leds = guidance.render(st, frame.time)
        if leds != shown:
            sim.show(leds)
            shown = leds
        if not players.done:
            players.step()
    return [str(p) for p in players.truth.move_stack], [str(p) for p in c.state.board.move_stack]


@pytest.mark.parametrize("space, fault, seed", [("e3", "dead", 5), ("a1", "dead", 1),
                                                ("c2", "noisy", 2)])  # inside; a corner
def test_a_faulty_sensor_is_named_and_the_game_is_played_without_it(space, fault, seed):
    sim = SimBoard(Params.from_noise("default"), seed=seed)
    sim.fail(INDEX[space], fault)
    c = Controller(adc_max=sim.adc_max)
    run(sim, c, 0.6 if fault == "dead" else 4.0)  # noisy: named once it kept the board busy
    assert c.state.mode == "idle"
    assert c.faulty.keys() == {INDEX[space]}
    assert space in c.state.message and "diag selftest" in c.state.message
    truth, record = play(sim, c)
    assert record == truth[:len(record)]  # never a ply the players did not make
    assert len(record) == len(truth) and c.state.mode == "over"


def test_a_sensor_stuck_like_a_piece_is_named_then_confirm_plays_on():
    sim = SimBoard(Params.from_noise("default"), seed=6)
    sim.fail(E3, "stuck", 3000)  # reads like a White piece, and its reading never moves
    c = Controller(adc_max=sim.adc_max)
    run(sim, c, 0.6)
    # Not at a rail, and reading like a piece: named (a piece, or an offset: the player's call).
    assert c.state.mode == "calibrating" and c.state.extra == [E3]
    assert "pieces on e3?" in c.state.message and "press confirm" in c.state.message
    run(sim, c, 4.0)
    assert c.state.mode == "calibrating" and not c.faulty  # nothing marked unasked
    c.button("confirm")  # "e3 is empty": its reading would be its baseline, but it never moves
    assert c.state.mode == "idle" and c.faulty.keys() == {E3} and "stuck" in c.faulty[E3]


def test_a_piece_left_on_the_board_is_named_and_confirm_is_the_players_call():
    sim = SimBoard(Params.from_noise("default"), seed=7)
    b = Board()
    b.push(b.legal_plies()[0])
    sim.setup(b)
    c = Controller(adc_max=sim.adc_max)
    run(sim, c, 0.6)
    assert c.state.mode == "calibrating" and c.state.extra  # clear the board first
    run(sim, c, 4.0)
    assert c.state.mode == "calibrating" and "press confirm" in c.state.message
    assert not c.faulty  # nothing is declared faulty without the player's word


def test_sensor_offsets_confirmed_empty_are_known_to_the_next_game():
    # Cheap Hall sensors (+-20 mT off mid-scale, issue 19): the first start names the spaces
    # that read like pieces; confirm takes them as empty, nothing faulty; the next game of
    # the session knows their baselines and asks nothing.
    sim = SimBoard(Params.preset("default").changed({"offset_spread_mt": 20.0}), seed=9)
    c = Controller(adc_max=sim.adc_max)
    run(sim, c, 0.6)
    named = c.state.extra
    assert c.state.mode == "calibrating" and len(named) >= 5
    assert "If those spaces are empty, press confirm" in c.state.message
    c.button("confirm")
    assert c.state.mode == "idle" and not c.faulty and not c.state.extra
    c.new_game()
    run(sim, c, 0.6)
    assert c.state.mode == "idle" and not c.faulty


def test_a_sensor_stuck_at_its_empty_reading_is_found_by_its_missing_noise():
    sim = SimBoard(Params.from_noise("default"), seed=8)
    sim.read_frame()
    sim.fail(E3, "stuck")  # frozen at its last (empty-board) reading
    c = Controller(adc_max=sim.adc_max)
    run(sim, c, 0.6)
    assert c.state.mode == "idle" and c.faulty.keys() == {E3}
    assert "e3" in c.state.message


def test_on_a_ten_bit_direct_board_healthy_sensors_stay_trusted_and_a_stuck_one_is_found():
    # An MCP3008 (0.2 mT a code) read as means of 4 samples: no healthy sensor repeats its
    # reading, so the stuck test works there as on 12 bits, and marks only the stuck one.
    from dvonn_sim.params import adc_board
    sim = SimBoard(Params.preset("default", **adc_board(10)), seed=8)
    c = Controller(adc_max=sim.adc_max, reading_step=sim.reading_step)
    run(sim, c, 6.0)  # longer than the stuck test's 2 s, on the empty board
    assert c.state.mode == "idle" and not c.faulty
    sim.fail(E3, "stuck")
    run(sim, c, 3.0)
    assert c.faulty.keys() == {E3} and "e3" in c.state.message


# -- a sensor failing during the game ------------------------------------------------------------

@pytest.mark.parametrize("fault, at_ply, seed", [("dead", 30, 11), ("dead", 60, 12),
                                                 ("stuck", 55, 13)])
def test_a_sensor_failing_mid_game_is_named_and_the_game_goes_on(fault, at_ply, seed):
    sim = SimBoard(Params.from_noise("default"), seed=seed)
    c = Controller(adc_max=sim.adc_max)
    failed = {}

    def during(c):
        if not failed and c.state.board.ply_count >= at_ply:
            # the sensor under a stack, or an empty space (stuck: frozen where it is)
            space = next(s for s in range(49) if c.state.board.height(s)) if fault == "dead" \
                else next(s for s in range(49) if not c.state.board.height(s))
            sim.fail(space, fault)
            failed[space] = sim.now
        if failed and c.faulty and "found" not in failed:
            failed["found"] = sim.now

    truth, record = play(sim, c, during=during)
    space = next(k for k in failed if k != "found")
    assert c.faulty.keys() == {space}
    assert failed["found"] - failed[space] < 6.0  # named within seconds, not at the end
    assert record == truth  # every ply recorded as played, none made up
    assert c.state.mode == "over"


def test_one_space_that_disagrees_is_the_players_call_then_played_around():
    board = midgame_board(14)
    sim, c = resume(board, 14)
    empty = next(s for s in range(49) if not board.height(s))
    sim.sensors.offset_mt[empty] += 40.0  # its output jumps: reads like a piece, still noisy
    run(sim, c, 1.0)
    assert c.state.mode == "error" and c.state.error == [empty]  # "take it off" at once
    assert "confirm" not in c.state.message
    run(sim, c, 3.0)  # nothing there to take off: after a while the sensor is suspected
    assert c.state.mode == "error" and c.state.error == [empty]
    assert "press confirm" in c.state.message and not c.faulty  # the player's call
    c.button("confirm")
    assert c.faulty.keys() == {empty} and c.state.mode == "idle"
    ply = next(p for p in board.legal_plies() if p.is_move and not board.isolated_by(p)
               and empty not in (p.src, p.dst))
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack[-1] == ply


def test_a_sensor_turning_noisy_mid_game_no_longer_keeps_the_board_from_settling():
    board = midgame_board(15)
    sim, c = resume(board, 15)
    noisy = next(s for s in range(49) if board.height(s))
    sim.fail(noisy, "noisy")  # 2 mT RMS: every reading jumps by more than the stillness limit
    run(sim, c, 4.0)
    assert c.faulty.keys() == {noisy} and "looks faulty" in c.state.message
    ply = next(p for p in board.legal_plies() if p.is_move and not board.isolated_by(p)
               and noisy not in (p.src, p.dst))
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack[-1] == ply


def test_a_hand_held_still_over_the_board_is_not_a_noisy_sensor():
    board = midgame_board(16)
    sim, c = resume(board, 16)
    src = board.mobile_stacks()[0]
    sim.hand.lift(src)  # held in the air for a long while, then put down
    sim.hand.wait(8.0)
    sim.hand.put(board.destinations(src)[0])
    run(sim, c, 12.0)
    assert not c.faulty


def test_a_new_game_forgets_the_faulty_sensors_and_their_note():
    from firmware_py.controller import Controller
    from dvonn_sim.board import SimBoard
    from dvonn_sim.params import Params
    from tests.simgames import run

    sim = SimBoard(Params.from_noise("default"), seed=2)
    c = Controller()
    run(sim, c, 0.5)
    c.mark_faulty([3], "test")
    c.decisions.settle_mode(c.state)
    assert "looks faulty" in c.state.message
    c.new_game()
    run(sim, c, 0.5)
    assert c.faulty == {} and c.state.mode == "idle" and "faulty" not in c.state.message


def test_a_landing_on_a_faulty_space_is_asked_with_that_space_lit_apart_for_confirm():
    # a1 moved onto b1, whose sensor is dead: no evidence there, so the landings next to it
    # fit about as well ("did you land on b1 (its sensor is faulty)? press confirm; or lift the
    # one you landed on, c1, b2, c2"). b1 flashed like the others, and the player, who sees
    # only the lit spaces, lifted it and set it back, which no sensor sees: the question stood
    # (so in rough 10-bit m1.0 seed 68 while a pinned sensor was taken for stuck). Now b1 is
    # lit apart (ask_faulty: press confirm if you played there); a lift there answers nothing.
    from firmware_py import guidance
    from firmware_py.spaces import SPACES
    board = midgame_board(14)
    ply = next(p for p in board.legal_plies() if p.is_move and not board.isolated_by(p))
    sim, c = resume(board, 14)
    stored = []
    c.on_commit = stored.append
    sim.fail(ply.dst, "dead")
    run(sim, c, 1.0)
    assert c.faulty.keys() == {ply.dst}
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 3.0)
    lit = guidance.signals(c.state)
    assert c.state.mode == "asking" and lit[ply.dst] == "ask_faulty"
    assert len(lit) > 1 and all(lit[s] == "ask" for s in lit if s != ply.dst)
    assert f"{SPACES[ply.dst]} (its sensor is faulty)" in c.state.message
    sim.hand.lift(ply.dst)  # not seen
    sim.hand.put(ply.dst)
    run(sim, c, 3.0)
    assert c.state.mode == "asking" and guidance.signals(c.state)[ply.dst] == "ask_faulty"
    assert not stored
    c.button("confirm")
    assert stored == [ply] and c.state.mode == "idle"
