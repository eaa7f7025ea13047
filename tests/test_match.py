"""Players from SPEC strings and `dvonn-board match`, run through the real entry point."""

import json

import pytest

from firmware_py.cli import main
from firmware_py.match import play_match
from firmware_py.players import AIPlayer, GreedyPlayer, RandomPlayer, parse_spec
from firmware_py.rules import Board


def test_parse_spec_kinds_and_budgets():
    assert isinstance(parse_spec("random"), RandomPlayer)
    assert isinstance(parse_spec(" Greedy "), GreedyPlayer)
    p = parse_spec("ai:2,nodes=500,depth=4")
    assert isinstance(p, AIPlayer) and (p.level, p.nodes, p.depth) == (2, 500, 4)
    assert parse_spec("ai").level == parse_spec("ai:3").level
    assert parse_spec("ai:1,time=0.1").seconds == 0.1


@pytest.mark.parametrize("spec,words", [
    ("ai:0", "level 0"), ("ai:x", "level x"), ("ai:2,nodes", "bad option"),
    ("ai:2,speed=3", "bad option"), ("ai:2,nodes=lots", "nodes must be a number"),
    ("ai:2,depth=0", "positive"), ("minimax", "unknown player"),
])
def test_parse_spec_errors_name_the_bad_part(spec, words):
    with pytest.raises(ValueError, match=words):
        parse_spec(spec)


def test_greedy_takes_the_best_immediate_score():
    # White's c3d3 cuts Black's a3, b3 off (score 3-0); other moves score less.
    board = Board.from_stacks({"a3": "B", "b3": "B", "c3": "W", "d3": "D", "e3": "W"})
    assert str(GreedyPlayer(seed=1)(board)) == "c3d3"


def test_seeded_players_repeat_their_games():
    a, _ = play_match("random", "greedy", games=2, seed=9)
    b, _ = play_match("random", "greedy", games=2, seed=9)
    c, _ = play_match("random", "greedy", games=2, seed=10)
    assert [r.record for r in a] == [r.record for r in b] != [r.record for r in c]


def test_match_json_lines_and_summary(capsys):
    status = main(["match", "--white", "ai:1,nodes=150", "--black", "random", "--games", "3",
                   "--seed", "4", "--json"])
    assert status == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert [g["game"] for g in games] == [1, 2, 3]
    assert [g["white"] for g in games] == ["ai:1,nodes=150", "random", "ai:1,nodes=150"]
    for g in games:
        w, b = g["score"]["white"], g["score"]["black"]
        assert g["winner"] == ("white" if w > b else "black" if b > w else "draw")
        assert g["plies"] >= 49
    t = summary["first_result"]
    assert summary["summary"] and summary["games"] == 3
    assert t["wins"] + t["draws"] + t["losses"] == 3
    assert summary["second_result"] == {"wins": t["losses"], "draws": t["draws"],
                                        "losses": t["wins"]}
    assert summary["first_as"]["white"]["wins"] + summary["first_as"]["black"]["wins"] == t["wins"]


def test_match_text_output_and_bad_spec(capsys):
    assert main(["match", "--white", "greedy", "--black", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "game 1: greedy (white) vs random (black)" in out
    assert "game 2: random (white) vs greedy (black)" in out
    assert "2 games: greedy" in out
    assert main(["match", "--white", "ai:9", "--black", "random"]) == 2
    assert "no AI level 9" in capsys.readouterr().err
