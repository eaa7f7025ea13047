"""`dvonn-board games list|export|takeback` through the real entry point, on real SQLite files."""

import json

import pytest

from firmware_py.cli import main
from firmware_py.records import read_file
from firmware_py.store import ENV_VAR, Store
from tests.test_guidance import random_game


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(ENV_VAR, str(path))  # the default the commands fall back to
    with Store(path) as store:
        finished = store.new_game({"White": "Ann", "Black": "Bob", "Event": "Club night"})
        for ply in random_game(2).move_stack:
            store.add_ply(finished, ply)
        store.finish(finished)
        going = store.new_game()
        for ply in random_game(3).move_stack[:20]:
            store.add_ply(going, ply)
    return path


def test_list_json_and_table(db, capsys):
    assert main(["games", "list", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["plies"], r["result"]) for r in rows] == [
        (1, random_game(2).ply_count, "1-0"), (2, 20, None)]
    assert rows[0]["tags"]["White"] == "Ann"
    assert main(["games", "list", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Ann - Bob" in out and "unfinished" in out and "Club night" in out


def test_export_round_trips_through_our_record_reader(db, tmp_path, capsys):
    out = tmp_path / "game1.txt"
    assert main(["games", "export", "1", "--out", str(out)]) == 0
    [game] = read_file(out)
    assert game.plies == random_game(2).move_stack
    assert game.tags["Event"] == "Club night" and game.tags["Result"] == "1-0"
    assert main(["games", "export", "2"]) == 0
    assert '[Result "*"]' in capsys.readouterr().out


def test_takeback_of_the_unfinished_game_prints_what_to_rebuild(db, capsys):
    game = random_game(3)
    assert main(["games", "takeback"]) == 0
    out = capsys.readouterr().out
    last = game.move_stack[19]
    assert f"took back ply 20 ({last})" in out and "Rebuild:" in out
    with Store(db) as store:
        assert store.plies(2) == game.move_stack[:19]


def test_errors_name_what_is_wrong(db, tmp_path, capsys):
    assert main(["games", "export", "9"]) == 1
    assert "no game 9" in capsys.readouterr().err
    empty = tmp_path / "empty.sqlite3"
    Store(empty).close()
    assert main(["games", "takeback", "--db", str(empty)]) == 1
    assert "no unfinished game" in capsys.readouterr().err
    assert main(["games", "list", "--db", str(empty)]) == 0
    assert "no games" in capsys.readouterr().out
    assert main(["games", "export", "1", "--out", str(tmp_path / "no" / "dir" / "x")]) == 1
    assert "--out" in capsys.readouterr().err


def test_takeback_of_a_forced_pass_takes_back_the_move_before_it(tmp_path, capsys):
    from firmware_py.rules import PASS
    game = random_game(0)
    at = game.move_stack.index(PASS)
    db = tmp_path / "p.sqlite3"
    with Store(db) as store:
        gid = store.new_game()
        for ply in game.move_stack[:at + 1]:
            store.add_ply(gid, ply)
    assert main(["games", "takeback", "--db", str(db)]) == 0
    assert f"({game.move_stack[at - 1]} pass)" in capsys.readouterr().out
    with Store(db) as store:
        assert store.plies(gid) == game.move_stack[:at - 1]


def test_db_is_honoured_before_or_after_the_action(db, tmp_path, capsys):
    other = tmp_path / "other.sqlite3"
    with Store(other) as store:
        gid = store.new_game({"White": "Zoe"})
        for ply in random_game(5).move_stack[:3]:
            store.add_ply(gid, ply)
    for argv in (["games", "--db", str(other), "list", "--json"],
                 ["games", "list", "--json", "--db", str(other)]):
        assert main(argv) == 0
        [game] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert game["tags"] == {"White": "Zoe"}
    assert main(["games", "--db", str(other), "export", "1"]) == 0
    assert "Zoe" in capsys.readouterr().out
    assert main(["games", "--db", str(other), "takeback"]) == 0
    with Store(other) as store:
        assert store.game(gid).ply_count == 2
    with Store(db) as store:  # the default database ($DVONN_BOARD_DB) untouched
        assert [g.ply_count for g in store.games()] == [len(random_game(2).move_stack), 20]


def test_read_only_commands_create_nothing_and_name_the_simulator_s_games(tmp_path, capsys,
                                                                           monkeypatch):
    home = tmp_path / "data" / "dvonn-board"
    monkeypatch.setenv(ENV_VAR, str(home / "games.sqlite3"))
    assert main(["games", "list"]) == 0
    assert "no games" in capsys.readouterr().out
    for argv in (["games", "export", "1"], ["games", "takeback"]):
        assert main(argv) == 1
        assert "no game database at" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
    with Store(home / "sim-games.sqlite3") as store:
        store.new_game()
    assert main(["games", "list"]) == 0
    out = capsys.readouterr().out
    assert "sim-games.sqlite3" in out and "games --db" in out
    Store(home / "games.sqlite3").close()
    assert main(["games", "list"]) == 0
    assert "the simulator's games are in" in capsys.readouterr().out
    assert main(["games", "list", "--db", str(home / "games.sqlite3")]) == 0
    assert "simulator" not in capsys.readouterr().out  # a database named: only that one
