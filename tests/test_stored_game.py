"""The session's game in the store (`stored_game.StoredGame`), on a real SQLite file: plies on
disk in order, a ply refused after a takeback made elsewhere, that takeback noticed by the poll,
and the game's end marked once."""

import doctest

import pytest

from firmware_py import stored_game
from firmware_py.errors import StoreError
from firmware_py.rules import Ply
from firmware_py.store import Store
from firmware_py.stored_game import StoredGame

TOKENS = ["e3", "f3", "g3", "h3"]


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "g.sqlite3") as store:
        yield store


def played(store, tokens, clock=lambda: 0.0):
    game = StoredGame(store, store.new_game(), clock=clock)
    for token in tokens:
        game.commit(Ply.parse(token))
    return game


def test_docstring_examples():
    assert doctest.testmod(stored_game).failed == 0


def test_a_ply_refused_after_a_takeback_elsewhere_is_kept_off_the_disk_and_polled_at_once(store):
    t = [0.0]
    game = played(store, TOKENS[:3], clock=lambda: t[0])
    assert game.poll(take_back=lambda: pytest.fail("nothing to take back")) is None
    store.undo_ply(game.game_id)  # `games takeback` in another process
    assert game.commit(Ply.parse("h3")) is None  # numbered for the longer game: refused
    assert game.stale and [str(p) for p in store.plies(game.game_id)] == TOKENS[:2]
    taken = []
    # (no time has passed: the refusal makes the next poll look at once)
    rebuild = game.poll(take_back=lambda: taken.append(game.undo()))
    assert len(taken) == 2 and not game.stale  # h3 (never stored) and g3 (deleted elsewhere)
    assert [str(p) for p in game.plies] == TOKENS[:2]
    assert [str(p) for p in store.plies(game.game_id)] == TOKENS[:2]  # g3 not deleted twice
    assert rebuild == ["g3: take it off (leave the space empty)",
                       "h3: take it off (leave the space empty)"]


def test_a_ply_refused_without_a_takeback_is_an_error(store):
    game = played(store, TOKENS[:2])
    store.add_ply(game.game_id, Ply.parse("g3"))  # someone else wrote to this game
    with pytest.raises(StoreError):
        game.commit(Ply.parse("h3"))


def test_the_poll_waits_its_interval_and_stops_when_the_board_will_not_take_back(store):
    t = [0.0]
    game = played(store, TOKENS[:2], clock=lambda: t[0])
    game.poll(take_back=lambda: None)
    store.undo_ply(game.game_id)
    assert game.poll(take_back=lambda: pytest.fail("polled too soon")) is None
    t[0] += StoredGame.POLL_SECONDS
    game.poll(take_back=lambda: None)  # the controller would not take back now
    assert len(game.plies) == 2 and len(store.plies(game.game_id)) == 1


def test_the_end_is_stored_once_and_a_takeback_reopens_it(store):
    game = played(store, TOKENS[:2])
    game.follow(over=True, ply_count=1)  # the board does not hold the stored game yet
    assert not game.finished and not store.game(game.game_id).is_finished
    game.follow(over=True, ply_count=2)
    assert game.finished and store.game(game.game_id).is_finished
    game.follow(over=False, ply_count=2)  # taken back: the store reopened it with the ply
    assert not game.finished
    game.finish("1-0", termination="time forfeit")
    game.finish("0-1", resigned=0)  # already over: nothing more stored
    assert store.game(game.game_id).tags["Termination"] == "time forfeit"
    assert store.game(game.game_id).result == "1-0"


def test_the_next_game_leaves_this_one_unfinished_and_starts_under_way(store):
    game = played(store, TOKENS[:2])
    first = game.game_id
    game.next_game({"White": "Ann"}, over=False, plies=[Ply.parse("c1")])
    assert store.game(first).result == "*" and game.game_id != first
    assert [str(p) for p in store.plies(game.game_id)] == ["c1"] == [str(p) for p in game.plies]
    resumed, info = StoredGame.resume_or_start(store, {}, resume=True)
    assert info.id == resumed.game_id == game.game_id and resumed.plies == game.plies
    new, info = StoredGame.resume_or_start(store, {"White": "Bob"}, resume=False)
    assert info is None and new.game_id != game.game_id and new.plies == []
