"""The game database on real SQLite files: round trips, takebacks, resume, export, durability."""

import doctest
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from firmware_py import store as store_module
from firmware_py.errors import StoreError
from firmware_py.records import read_record
from firmware_py.rules import BLACK, Ply
from firmware_py.store import ENV_VAR, Store, default_path
from tests.test_guidance import random_game


@pytest.fixture
def db(tmp_path):
    return tmp_path / "sub" / "games.sqlite3"


def test_doctest():
    assert doctest.testmod(store_module).failed == 0


def test_whole_game_round_trip_through_a_reopened_file_and_our_record_format(db):
    game = random_game(4)
    with Store(db) as store:
        gid = store.new_game({"White": "Ann", "Black": "Bob", "Event": "Club night"})
        for n, ply in enumerate(game.move_stack):
            assert store.add_ply(gid, ply, index=n) == n
        store.finish(gid)
    with Store(db) as store:  # a new connection sees exactly what was committed
        info = store.game(gid)
        assert info.is_finished and info.result == "0-1" and info.ply_count == game.ply_count
        assert store.plies(gid) == game.move_stack
        assert store.board(gid).key() == game.key()
        assert store.unfinished() is None
        text = store.export(gid)
    record = read_record(text)
    assert record.plies == game.move_stack
    assert record.tags["White"] == "Ann" and record.tags["Result"] == "0-1"
    assert record.tags["Date"] == info.started[:10].replace("-", ".")


def test_file_is_wal_with_full_sync(db):
    with Store(db) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_takeback_deletes_the_last_ply_and_reopens_a_finished_game(db):
    game = random_game(14)
    with Store(db) as store:
        gid = store.new_game()
        for ply in game.move_stack:
            store.add_ply(gid, ply)
        store.finish(gid)
        assert store.game(gid).result == "1/2-1/2"
        assert store.undo_ply(gid) == game.move_stack[-1]
        assert store.plies(gid) == game.move_stack[:-1]
        assert store.unfinished().id == gid and store.game(gid).result is None
        empty = store.new_game()
        assert store.undo_ply(empty) is None


def test_a_ply_out_of_order_is_refused_and_nothing_is_written(db):
    with Store(db) as store:
        gid = store.new_game()
        store.add_ply(gid, Ply.parse("e3"), index=0)
        with pytest.raises(StoreError, match="holds 1 plies"):
            store.add_ply(gid, Ply.parse("f3"), index=0)  # e.g. the same commit replayed
        assert [str(p) for p in store.plies(gid)] == ["e3"]
        with pytest.raises(StoreError, match="no game 99"):
            store.add_ply(99, Ply.parse("f3"))


def test_unfinished_is_the_latest_open_game_and_list_shows_all(db):
    with Store(db) as store:
        a = store.new_game({"Event": "a"})
        b = store.new_game({"Event": "b"})
        store.add_ply(a, Ply.parse("e3"))
        assert store.unfinished().id == b
        store.finish(b, "*")  # abandoned
        assert store.unfinished().id == a
        listed = store.games()
        assert [(g.id, g.ply_count, g.result) for g in listed] == [(a, 1, None), (b, 0, "*")]
        store.set_tags(a, White="Ann")
        assert store.game(a).tags == {"Event": "a", "White": "Ann"}


def test_resignation_is_kept_and_exported(db):
    with Store(db) as store:
        gid = store.new_game()
        for t in ("e3", "f3", "g3"):
            store.add_ply(gid, Ply.parse(t))
        store.finish(gid, resigned=BLACK)
        assert store.game(gid).result == "1-0"
        record = read_record(store.export(gid))
        assert record.resigned == BLACK and record.tags["Result"] == "1-0"


def test_bad_input_gets_clear_errors(db, tmp_path):
    with Store(db) as store:
        gid = store.new_game()
        with pytest.raises(StoreError, match="result"):
            store.finish(gid, "2-0")
        store._db.execute("INSERT INTO plies VALUES (?, 0, 'e3f3', 'x')", (gid,))
        with pytest.raises(StoreError, match="ply 1 \\(e3f3\\)"):
            store.board(gid)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="junk.sqlite3"):
        Store(junk)


def test_default_location_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "x.sqlite3"))
    assert default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv(ENV_VAR)
    assert default_path().name == "games.sqlite3" and "dvonn-board" in str(default_path())


WRITER = textwrap.dedent("""
    import sys
    from firmware_py.store import Store
    from tests.test_guidance import random_game
    store = Store(sys.argv[1])
    gid = store.new_game()
    for n, ply in enumerate(random_game(6).move_stack):
        store.add_ply(gid, ply, index=n)
        print(n, flush=True)  # acknowledged only after the commit returned
    sys.stdin.read()  # wait to be killed
""")


def test_every_acknowledged_ply_survives_a_kill(db):
    db.parent.mkdir(parents=True)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        acknowledged = [int(proc.stdout.readline()) for _ in range(30)]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with Store(db) as store:
        info = store.unfinished()
        stored = store.plies(info.id)
    assert len(stored) >= len(acknowledged) == 30
    assert stored == random_game(6).move_stack[:len(stored)]


class Locker:
    """Another process holding the database's write lock (as a database browser may)."""

    def __init__(self, path, seconds):
        code = ("import sqlite3, sys, time\n"
                "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True)\n"
                "time.sleep(float(sys.argv[2])); c.execute('COMMIT')\n")
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(path), str(seconds)],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "locked"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()


def test_a_lock_held_longer_than_every_try_is_a_store_error_and_nothing_is_written(db):
    with Store(db, busy_s=0.1) as store:
        game = store.new_game()
        with Locker(db, 30):
            with pytest.raises(StoreError, match=r"locked by another process \(waited 0.3 s\)"):
                store.add_ply(game, Ply.parse("e3"))
        assert store.plies(game) == []
        store.add_ply(game, Ply.parse("e3"))  # the lock gone, the store works on
        assert [str(p) for p in store.plies(game)] == ["e3"]


def test_a_lock_released_during_the_tries_costs_a_wait_not_an_error(db):
    with Store(db, busy_s=0.5) as store:
        game = store.new_game()
        with Locker(db, 0.7):  # longer than one try, shorter than three
            store.add_ply(game, Ply.parse("e3"))
        assert [str(p) for p in store.plies(game)] == ["e3"]


def test_a_read_only_open_never_creates_the_file_or_its_folder(db):
    with pytest.raises(StoreError, match="no game database at"):
        Store(db, create=False)
    assert not db.parent.exists()
