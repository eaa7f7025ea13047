"""Little Golem transcripts written (`games export --format lg`) and read back by our reader."""

import doctest
from pathlib import Path

from firmware_py import little_golem
from firmware_py.cli import main
from firmware_py.little_golem import write_little_golem
from firmware_py.records import read_file, read_record
from firmware_py.store import Store
from tests.test_commands_games import db  # noqa: F401 (fixture)
from tests.test_guidance import random_game

LG = Path(__file__).resolve().parent / "data" / "games" / "littlegolem_dvonn_mc_2014_may_1_1.txt"


def test_doctests():
    assert doctest.testmod(little_golem).failed == 0


def test_a_real_little_golem_game_is_written_as_little_golem_writes_it():
    game = read_file(LG)[0]
    assert write_little_golem(game) == LG.read_text().strip() + "\n"


def test_whole_games_round_trip_without_the_49th_placement():
    for seed in range(4):
        board = random_game(seed)
        game = read_record(" ".join(str(p) for p in board.move_stack))
        text = write_little_golem(game)
        written = [w for w in text.split() if not w.endswith(".")]
        assert len(written) == board.ply_count - 1  # every ply but the forced 49th placement
        assert read_record(text).plies == board.move_stack


def test_games_export_format_lg(db, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "g.lg"
    assert main(["games", "export", "1", "--format", "lg", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("Event [Club night] Date [") and "White [Ann] Black [Bob] 1. " in text
    [game] = read_file(out)
    assert game.plies == random_game(2).move_stack and game.tags["Black"] == "Bob"
    assert main(["games", "export", "2", "--format", "lg"]) == 0
    assert read_record(capsys.readouterr().out).plies == random_game(3).move_stack[:20]
    with Store(db) as store:
        assert store.game(1).ply_count == random_game(2).ply_count
