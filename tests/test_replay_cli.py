"""`dvonn-board replay` and `dvonn-board show`, run through the real command-line entry point."""

import json
import random
from pathlib import Path

from firmware_py.cli import main
from firmware_py.records import write_record
from firmware_py.rules import Board

GAMES = Path(__file__).parent / "data" / "games"
LG = str(GAMES / "littlegolem_dvonn_mc_2014_may_1_1.txt")
AMIT = str(GAMES / "amit-dvonn-bot_3games.json")


def run_json(capsys, *files):
    status = main(["replay", "--json", *map(str, files)])
    lines = capsys.readouterr().out.splitlines()
    return status, [json.loads(line) for line in lines]


def test_replay_json_public_games(capsys):
    status, out = run_json(capsys, LG, AMIT)
    assert status == 0
    lg = out[0]
    assert lg["file"] == LG and lg["ok"] is True and lg["finished"] is False
    assert lg["score"] == {"white": 5, "black": 29} and lg["winner"] is None
    assert lg["resigned"] == "white" and lg["plies"] == 75
    assert [(r["game"], r["winner"], r["score"]) for r in out[1:]] == [
        (1, "black", {"white": 8, "black": 16}),
        (2, "white", {"white": 24, "black": 6}),
        (3, "white", {"white": 20, "black": 10}),
    ]
    assert all(r["finished"] and r["ok"] for r in out[1:])


def test_replay_json_illegal_record_and_exit_status(tmp_path, capsys):
    good = tmp_path / "good.txt"
    board = Board()
    rnd = random.Random(5)
    while legal := board.legal_plies():
        board.push(rnd.choice(legal))
    good.write_text(write_record(board))
    bad = tmp_path / "bad.txt"
    bad.write_text("e3 f3\ng3 E3\n")
    status, out = run_json(capsys, good, bad)
    assert status == 1
    assert out[0]["ok"] and out[0]["finished"] and out[0]["plies"] == board.ply_count
    w, b = board.score()
    assert out[0]["score"] == {"white": w, "black": b}
    assert out[0]["winner"] == {0: "white", 1: "black", "draw": "draw"}[board.winner()]
    r = out[1]
    assert r["ok"] is False and r["ply"] == 4 and r["token"] == "E3" and "occupied" in r["error"]
    assert r["plies"] == 3 and r["finished"] is False and r["winner"] is None


def test_replay_text_output(capsys):
    assert main(["replay", LG]) == 0
    assert "white resigned (White 5, Black 29)" in capsys.readouterr().out


def test_show_draws_the_board(capsys):
    assert main(["show", AMIT, "--game", "2"]) == 0
    out = capsys.readouterr().out
    assert "Game over: White wins" in out and "White 24, Black 6" in out
    assert main(["show", LG, "--ply", "49"]) == 0
    out = capsys.readouterr().out
    board, legend = out.split("White to move · ply 49")
    assert board.count(" D ") == 3
    assert "W5: White's stack of 5 (white on top) · B7*: Black's of 7, a DVONN" in legend
    assert " D : a lone DVONN piece · e3: an empty space · e3: the last ply's spaces" in legend


def test_show_rejects_a_ply_beyond_the_game(capsys):
    assert main(["show", LG, "--ply", "500"]) == 2
    assert "--ply 500" in capsys.readouterr().err


def test_hostile_records_get_one_clear_line_and_replay_goes_on(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 1000 + "]" * 1000)
    latin = tmp_path / "latin1.txt"
    latin.write_bytes(b"e3 \xe9\n")
    status = main(["replay", str(deep), str(latin), LG])
    out, err = capsys.readouterr()
    assert status == 1 and not err
    lines = out.splitlines()
    assert "nested too deeply" in lines[0] and "line 1: not UTF-8" in lines[1]
    assert lines[2].startswith(LG) and "75 plies" in lines[2]
    for args in (["show", str(deep)], ["sim", "--autoplay", "--script", str(deep)],
                 ["show", str(latin)]):
        assert main(args) == 1
        out, err = capsys.readouterr()
        assert "Traceback" not in err and ("nested too deeply" in err or "not UTF-8" in err)
