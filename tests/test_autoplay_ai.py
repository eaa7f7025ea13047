"""The computer opponent on the (simulated) physical board: the controller shows the computer's
ply on the LEDs, a scripted person reads it there and carries it out, the controller records it.
In simulated time, with a node-limited seeded search: the same games on any machine."""

import json
import random

import pytest

from firmware_py import ai
from dvonn_sim.autoplay import engine_ply, play_game
from firmware_py.cli import main
from firmware_py.colours import BY_NAME
from firmware_py.interfaces import OFF, LedFrame
from firmware_py.rules import BLACK, WHITE
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_sim.board import SimBoard
from dvonn_sim.players import Players

SIDE = {"white": WHITE, "black": BLACK}


def computer_plies(r, colours):
    """(index, recorded ply, the engine's choice) for every ply the computer's colours made."""
    out = []
    for i, token in enumerate(r.truth):
        position = r.position(i)
        if token != "pass" and position.turn in {SIDE[c] for c in colours}:
            out.append((i, r.record[i], str(engine_ply(position, r.level, r.seed))))
    return out


def test_the_engine_ply_is_a_seeded_node_limited_search():
    board = play_game(seed=2, script=["e3", "f3", "g3"]).position(3)
    rng = random.Random(2 * 1_000 + 3)
    assert engine_ply(board, 1, 2) == ai.choose_ply(board, 1, rng, nodes=ai.LEVEL_NODES[1])
    assert engine_ply(board, 1, 2) == engine_ply(board, 1, 2)


def test_the_computer_plays_black_through_the_leds_a_whole_game_with_mistakes():
    r = play_game(seed=4, ai=["black"], level=1, mistakes=0.1)
    assert r.match and r.wrong == 0, (r.truth, r.record)
    assert r.plies > 49 and r.ai == ["black"] and r.level == 1
    assert sum(r.mistakes.values()) > 0  # people's mistakes on both sides, as before
    plies = computer_plies(r, ["black"])
    assert len(plies) > 30  # placements and moves
    assert any(len(recorded) == 4 for _, recorded, _ in plies)  # moves too ('e3f3')
    assert [p[1] for p in plies] == [p[2] for p in plies]


def test_the_computer_plays_white_against_a_script_of_blacks_plies():
    # With the computer on one side, a script gives the other side's plies, in order.
    black = ["a1", "b1", "c1", "d1", "e1"]
    r = play_game(seed=6, ai=["white"], level=2, script=black)
    assert r.match and r.wrong == 0
    assert r.truth[1::2] == black and r.plies == 11  # White's next, then the script ends
    plies = computer_plies(r, ["white"])
    assert [p[0] for p in plies] == [0, 2, 4, 6, 8, 10]
    assert [p[1] for p in plies] == [p[2] for p in plies]


def test_the_computer_plays_both_sides_for_a_few_plies():
    r = play_game(seed=9, ai=["black", "white"], level=1, max_plies=8)
    assert r.ai == ["white", "black"] and r.plies == 8 and r.match
    plies = computer_plies(r, r.ai)
    assert len(plies) == 8 and [p[1] for p in plies] == [p[2] for p in plies]


def test_the_computers_side_takes_its_ply_from_the_leds_only():
    def never(board):
        raise AssertionError("the computer's side must not choose")

    board = SimBoard(seed=1)
    players = Players(board, ["e3"], black=never, computer={BLACK}, max_plies=2)
    lit = [OFF] * N_SPACES
    while not players.done and board.now < 60:
        frame = board.read_frame()
        if players.truth.ply_count == 1 and board.hand.idle():  # the computer: a DVONN on k3
            lit[INDEX["k3"]] = BY_NAME["computer_to"].rgb if frame.time % 1.0 < 0.2 else OFF
        board.show(LedFrame(tuple(lit)))
        players.step()
    assert players.tokens == ["e3", "k3"]
    assert board.stack("k3") == ("D",)


def test_the_computers_side_stops_when_the_board_never_shows_its_ply():
    board = SimBoard(seed=1)
    players = Players(board, ["e3"], computer={BLACK}, computer_timeout=5.0)
    board.show(LedFrame())
    while not players.done and board.now < 60:
        board.read_frame()
        players.step()
    assert players.tokens == ["e3"] and players.complaints


def test_sim_autoplay_with_the_computer_reports_it(capsys):
    assert main(["sim", "--autoplay", "--ai", "black", "--level", "1", "--games", "1",
                 "--seed", "3", "--plies", "6", "--json"]) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["ai"] == ["black"] and game["level"] == 1
    assert game["plies"] == 6 and game["match"] and game["wrong"] == 0
    assert game["truth"][1::2] == [str(engine_ply(play_game(
        seed=3, script=game["truth"][:i]).position(i), 1, 3)) for i in (1, 3, 5)]


def test_sim_autoplay_without_the_computer_says_so(capsys):
    assert main(["sim", "--autoplay", "--seed", "3", "--plies", "4", "--json"]) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["ai"] == [] and game["level"] is None and game["plies"] == 4


@pytest.mark.parametrize("argv", [["--plies", "0"], ["--ai", "red"], ["--level", "9"]])
def test_sim_autoplay_rejects_bad_computer_options(argv, capsys):
    try:
        code = main(["sim", "--autoplay", *argv])
    except SystemExit as e:  # argparse's own choices
        code = e.code
    assert code == 2
