"""`prog:COMMAND` players: a real program over pipes speaking the CodeCup DVONN protocol (a
small Python one, tests/codecup_program.py), through `play_match` and `dvonn-board match`."""

import json
import shlex
import sys
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.external_player import ExternalPlayer, codecup
from firmware_py.match import play_match
from firmware_py.players import parse_spec
from firmware_py.rules import Board, Ply

PROGRAM = Path(__file__).with_name("codecup_program.py")


def prog(mode: str, seed: int = 1) -> str:
    return "prog:" + shlex.join([sys.executable, str(PROGRAM), mode, str(seed)])


def test_plies_are_written_in_codecup_capitals():
    assert [codecup(Ply.parse(t)) for t in ("e3", "a1k5", "pass")] == ["E3", "A1K5", "PASS"]


def test_a_program_plays_whole_games_on_both_colours():
    results, summary = play_match(prog("random", 3), "random", games=2, seed=5)
    assert summary.games == 2 and [r.swapped for r in results] == [False, True]
    for r in results:
        assert r.forfeit is None and r.plies > 49
        board = Board.from_plies([Ply.parse(t) for t in r.record])  # every ply legal
        assert board.is_over() and r.score == board.score()


def test_the_program_hears_start_then_each_opponent_ply_and_leaves_on_quit():
    player = parse_spec(prog("random"))
    board = Board()
    first = player(board)
    assert board.is_legal(first) and player.told == 1
    board.push(first)
    board.push(board.legal_plies()[0])  # the opponent's reply, sent with the next call
    assert board.is_legal(player(board)) and player.told == 3
    proc = player.proc
    player.close()
    assert player.proc is None and proc.returncode == 0  # it read Quit and exited


# Only the silent program is timed out; the others get a wait no start-up of Python on a
# loaded machine comes near (at load 12 one took over 0.5 s, and "exit" read as "silent").
@pytest.mark.parametrize("mode,timeout,why", [
    ("garble", 30, "replied 'HELLO', which is not a ply"),
    ("illegal", 30, "which the rules do not allow here"),
    ("silent", 0.5, "did not reply within 0.5 s"),
    ("exit", 30, "ended (exit status 3) without a reply"),
])
def test_a_misbehaving_program_loses_that_game_with_the_reason(mode, timeout, why):
    results, summary = play_match(prog(mode), "random", games=1, reply_timeout=timeout)
    r = results[0]
    assert r.winner == "black" and summary.second_total.wins == 1
    assert r.forfeit.startswith(prog(mode)) and why in r.forfeit


def test_match_command_reports_a_forfeit_in_text_and_json(capsys):
    assert main(["match", "--white", prog("garble"), "--black", "random", "--games", "1",
                 "--fixed-colours"]) == 0
    out = capsys.readouterr().out
    assert "black (random) wins" in out and "by forfeit: " in out and "'HELLO'" in out
    assert main(["match", "--white", "random", "--black", prog("garble"), "--games", "1",
                 "--fixed-colours", "--json"]) == 0
    game = json.loads(capsys.readouterr().out.splitlines()[0])
    assert game["winner"] == "white" and "HELLO" in game["forfeit"]


@pytest.mark.parametrize("argv,words", [
    (["--white", "prog:/no/such/program"], "no program '/no/such/program'"),
    (["--white", "prog:"], "give the program to run"),
    (["--white", "prog:'unclosed"], "quotation"),
    (["--white", prog("random"), "--reply-timeout", "0"], "--reply-timeout 0: must be positive"),
])
def test_match_command_refuses_a_bad_program_without_a_traceback(argv, words, capsys):
    assert main(["match", "--black", "random", "--games", "1", *argv]) == 2
    assert words in capsys.readouterr().err


def test_openings_cannot_be_given_to_a_program(tmp_path, capsys):
    openings = tmp_path / "openings.txt"
    openings.write_text(" ".join(str(p) for p in Board.from_plies(
        [Ply.parse(t) for t in "e3 c3 g3".split()]).move_stack) + "\n")
    assert main(["match", "--white", prog("random"), "--black", "random",
                 "--openings", str(openings)]) == 2
    assert "--openings cannot be used with a prog: player" in capsys.readouterr().err


def test_a_program_cannot_join_a_game_already_under_way():
    results, _ = play_match(prog("random"), "random", games=1,
                            openings=[(1, [Ply.parse(t) for t in "e3 c3 g3".split()])])
    assert "cannot join a game at ply 5" in results[0].forfeit


def test_docstring_examples():
    import doctest

    from firmware_py import external_player
    failed, attempted = doctest.testmod(external_player)
    assert attempted > 0 and failed == 0


def test_placements_by_one_player_then_the_match_players_move():
    from firmware_py.match import game_seeds, play_game
    from firmware_py.players import RandomPlayer

    results, _ = play_match("greedy", "greedy", games=1, seed=3, placements="random")
    white, black = (RandomPlayer(s) for s in game_seeds(4, 1))
    board, *_ = play_game(white, black)
    assert results[0].record[:49] == [str(p) for p in board.move_stack[:49]]


def test_placements_by_the_program_itself_let_it_play_on():
    results, _ = play_match("ai:1,nodes=100", prog("random", 4), games=2,
                            placements=prog("random", 4))
    assert all(r.forfeit is None and r.plies > 49 for r in results)


def test_placements_refused_where_a_program_would_join_late(capsys):
    assert main(["match", "--white", "random", "--black", prog("random"),
                 "--placements", "greedy"]) == 2
    assert "a prog: player must make the placements itself" in capsys.readouterr().err
    assert main(["match", "--white", "random", "--black", "random", "--placements", "greedy",
                 "--openings", "x.txt"]) == 2
    assert "not both" in capsys.readouterr().err


def test_match_help_documents_prog_players(capsys):
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "prog:COMMAND" in out and "CodeCup DVONN protocol" in out
    assert "--reply-timeout" in out and "--placements" in out
