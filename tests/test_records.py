"""Game records: every format we read, our writer, and errors that name line, ply and token."""

import json
import random
from pathlib import Path

import pytest

from firmware_py.errors import RecordError
from firmware_py.records import (PartialGame, parse_games, read_file, read_games, read_record, replay_file,
                                 write_record)
from firmware_py.rules import BLACK, PASS, WHITE, Board, Ply

# Verbatim copies of ../shared/games (public records), so that a fresh clone tests them too.
GAMES = Path(__file__).parent / "data" / "games"
LG = GAMES / "littlegolem_dvonn_mc_2014_may_1_1.txt"
AMIT = GAMES / "amit-dvonn-bot_3games.json"


def random_game(seed):
    rnd = random.Random(seed)
    board = Board()
    while legal := board.legal_plies():
        board.push(rnd.choice(legal))
    return board


def test_little_golem_game_replays_to_the_resignation():
    game = read_file(LG)[0]
    assert game.tags["White"] == "CleverHunk steven cullum"
    assert game.tags["Site"] == "www.littlegolem.net"
    board = game.board()
    assert game.plies[48] == Ply.parse("c5")  # the omitted 49th placement, put back
    assert game.resigned == WHITE
    assert board.score() == (5, 29)
    assert not board.has_moves(WHITE)
    assert game.plies.count(PASS) == 3


def test_json_games_replay_to_their_win_scores():
    games = read_file(AMIT)
    assert len(games) == 3
    for game in games:
        winner, win_score, lose_score = game.tags["win"].split(";")
        board = game.board()
        assert board.is_over()
        w, b = board.score()
        if winner == "w":
            assert (board.winner(), w, b) == (WHITE, int(win_score), int(lose_score))
        else:
            assert (board.winner(), b, w) == (BLACK, int(win_score), int(lose_score))
    # the records leave out forced passes; they are put back
    assert PASS in games[0].plies and PASS in games[1].plies


def test_plain_tokens_any_case_and_separators():
    board = random_game(4)
    words = []
    for i, ply in enumerate(board.move_stack):
        s = str(ply)
        if ply.is_move:
            s = [s, s[:2] + "-" + s[2:], s[:2] + ":" + s[2:]][i % 3]
        words.append(s.upper() if i % 2 else s)
    game = read_record(", ".join(words))
    assert game.plies == board.move_stack and game.board().key() == board.key()


def test_passes_inferred_only_where_forced():
    for seed in (0, 2, 4):
        board = random_game(seed)
        assert PASS in board.move_stack
        without = [str(p) for p in board.move_stack if p != PASS]
        assert read_record(" ".join(without)).plies == board.move_stack


def test_own_format_round_trip():
    for seed in range(20):
        board = random_game(seed)
        text = write_record(board, {"White": 'Ann "the hammer"', "Date": "2026.11.23"})
        game = read_record(text)
        assert game.plies == board.move_stack
        assert game.tags["White"] == 'Ann "the hammer"' and game.tags["Date"] == "2026.11.23"
        assert game.tags["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert write_record(game) == text  # read back identically


def test_own_format_round_trip_with_resignation():
    game = read_file(LG)[0]
    again = read_record(write_record(game))
    assert again.plies == game.plies and again.resigned == WHITE
    assert again.tags["Result"] == "0-1"


def bad(text):
    with pytest.raises(RecordError) as e:
        read_games(text)
    return e.value


def test_unknown_space_names_line_ply_and_token():
    e = bad('[White "x"]\n\n1. e3 f3\n2. z9 a1\n')
    assert (e.line, e.ply, e.token) == (4, 3, "z9")
    assert "line 4" in str(e) and "ply 3" in str(e) and "z9" in str(e)


def test_illegal_placement():
    e = bad("e3 f3 e3")
    assert (e.ply, e.token) == (3, "e3") and "occupied" in str(e)


def test_illegal_move_and_nothing_half_applied():
    board = random_game(2)
    plies = [str(p) for p in board.move_stack[:49]]
    e = bad(" ".join(plies + ["a1k5"]))
    assert (e.ply, e.token) == (50, "a1k5")
    assert isinstance(e, PartialGame) and e.board.ply_count == 49  # the bad ply left no trace


def test_pass_while_moves_exist():
    board = random_game(2)
    e = bad(" ".join([str(p) for p in board.move_stack[:49]] + ["pass"]))
    assert (e.ply, e.token) == (50, "pass") and "may not pass" in str(e)


def test_move_after_the_end():
    board = random_game(3)
    tokens = [str(p) for p in board.move_stack]
    e = bad(" ".join(tokens + [tokens[-1]]))
    assert e.ply == len(tokens) + 1 and "over" in str(e)
    e = bad(" ".join(tokens[:60] + ["resign", tokens[60]]))
    assert e.ply == 62 and "resign" in str(e)


def test_json_colour_must_match_the_player_to_move():
    e = bad(json.dumps([{"m": ["k3|w", "g1|w"]}]))
    assert (e.ply, e.token, e.line) == (2, "g1", 1) and "black's turn" in str(e)


def test_replay_file_reports_partial_board_and_unreadable_files(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("e3 f3\ng3 e3\n")
    [(record, board, error)] = replay_file(f)
    assert record is None and board.ply_count == 3 and (error.ply, error.line) == (4, 2)
    [(record, board, error)] = replay_file(tmp_path / "missing.txt")
    assert record is None and "cannot read" in str(error)


def test_a_bad_token_after_the_omitted_49th_placement_leaves_48_plies():
    board = random_game(6)
    e = bad(" ".join([str(p) for p in board.move_stack[:48]] + ["a1k5"]))
    assert (e.ply, e.token) == (49, "a1k5") and e.board.ply_count == 48


def test_a_set_up_board_has_no_record_to_write():
    with pytest.raises(ValueError, match="from_stacks"):
        write_record(Board.from_stacks({"e3": "D", "f3": "W"}))


# -- hostile files: a RecordError naming what is wrong, never a traceback --------------------------

def test_json_nested_a_thousand_deep_is_a_record_error(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 1000 + "]" * 1000)
    with pytest.raises(RecordError, match="nested too deeply"):
        read_file(deep)
    [(record, board, error)] = replay_file(deep)
    assert record is None and board.ply_count == 0 and "nested too deeply" in str(error)
    with pytest.raises(RecordError, match="nested too deeply"):  # deep inside a game's tags
        read_games('[{"m": ["e3"], "x": ' + "[" * 990 + "]" * 990 + "}]")


def test_a_file_that_is_not_utf8_names_its_line(tmp_path):
    f = tmp_path / "latin1.txt"
    f.write_bytes(b"e3 f3\ng3 \xe9\n")
    with pytest.raises(RecordError, match=r"line 2: not UTF-8 .*0xe9") as e:
        read_file(f)
    assert e.value.line == 2
    [(record, board, error)] = replay_file(f)
    assert record is None and "not UTF-8" in str(error)


def test_a_big_json_record_names_the_line_of_a_late_bad_token():
    # One token per line, the bad one last: the line lookup is one pass over the text (a
    # quadratic lookup took 48 s on a 750 KB record like this one).
    board = random_game(3)
    good = [f"{p}|{'wb'[n % 2]}" for n, p in enumerate(board.move_stack[:49])]
    tokens = good + ["e3|w"] * 60000
    text = json.dumps([{"m": tokens}], indent=0)
    assert len(text) > 450_000
    parse = parse_games(text)
    lines = text.count("\n") + 1
    assert parse[0][1][-1].line == lines - 3  # the last token, then "]", "}", "]"
    assert [t.line for t in parse[0][1][:3]] == [4, 5, 6]  # after "[", "{", '"m": ['
    with pytest.raises(RecordError, match="line 53, ply 50"):
        read_games(text)
