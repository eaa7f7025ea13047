"""Players from SPEC strings and `dvonn-board match`, run through the real entry point."""

import json

import pytest

from firmware_py.cli import main
from firmware_py.match import play_match, read_openings
from firmware_py.players import AIPlayer, ClassicPlayer, GreedyPlayer, RandomPlayer, parse_spec
from firmware_py.rules import Board, Ply


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


def test_classic_engine_and_game_clock_specs():
    classic = parse_spec("ai:classic:4,nodes=300")
    assert isinstance(classic, ClassicPlayer) and (classic.level, classic.nodes) == (4, 300)
    board = Board.from_plies(["e3", "c3", "g3"])
    assert board.is_legal(classic(board))
    clocked = parse_spec("ai:3,game=60")
    assert clocked.clock.total == 60.0 and parse_spec("ai:3").clock is None
    with pytest.raises(ValueError, match="bad option 'game=3'"):
        parse_spec("ai:classic,game=3")  # the old engine has no game clock


OPENING = ("f3 c3 i3 a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 a3 b3 d3 e3 g3 "
           "h3 j3 k3 b4 c4 d4 e4 f4 g4 h4 i4 j4 k4 c5 d5 e5 f5 g5 h5 i5 j5 k5")


def test_openings_start_each_pair_of_games_colours_swapped(tmp_path, capsys):
    path = tmp_path / "openings.txt"
    path.write_text("# placement phases\n\n" + OPENING + " a1b1\n")  # a longer record: cut
    assert read_openings(path) == [(3, [Ply.parse(t) for t in OPENING.split()])]
    status = main(["match", "--white", "ai:1,nodes=100", "--black", "greedy", "--games", "2",
                   "--openings", str(path), "--json", "--record"])
    assert status == 0
    games = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:2]]
    assert [g["white"] for g in games] == ["ai:1,nodes=100", "greedy"]
    for g in games:
        assert g["record"].split()[:49] == OPENING.split() and g["opening"] == 3


@pytest.mark.parametrize("text,words", [
    ("f3 c3 zz", "line 1, token 3 'zz'"),
    ("# nothing\n", "no openings"),
    ("f3 c3 i3 a1", "line 1: 4 placements"),
    ("f3 f3", "line 1, token 2 'f3': f3: f3 is already occupied"),
])
def test_bad_openings_name_the_line_and_token(tmp_path, capsys, text, words):
    path = tmp_path / "o.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=words):
        read_openings(path)
    assert main(["match", "--white", "random", "--black", "random", "--openings",
                 str(path)]) == 2
    assert words in capsys.readouterr().err
