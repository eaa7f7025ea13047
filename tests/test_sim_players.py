"""Scripted players on the simulated board: legal games, every kind of mistake, reading LEDs."""

import json
import re
from pathlib import Path

import pytest

from firmware_py.colours import BY_NAME, SIGNALS, is_lit
from firmware_py.errors import RecordError
from firmware_py.interfaces import OFF, LedFrame
from firmware_py.rules import PASS, WHITE, Board
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_sim.board import SimBoard
from dvonn_sim.players import MISTAKES, LedView, Mistakes, Players, play, random_chooser

GAMES = Path(__file__).resolve().parents[2] / "shared" / "games"
if not GAMES.exists():
    GAMES = Path("/work/shared/games")


def littlegolem_tokens():
    text = (GAMES / "littlegolem_dvonn_mc_2014_may_1_1.txt").read_text()
    text = re.sub(r"\[[^\]]*\]", " ", text)
    return re.findall(r"\b(?:[a-k][1-5](?:[a-k][1-5])?|pass|resign)\b", text)


def check_truth(board, players):
    """The plies really played are legal, and the wood agrees with the rules after them."""
    replay = Board.from_plies(players.truth.move_stack)
    assert replay == players.truth
    assert board.truth() == tuple(players.truth.stacks())
    assert board.is_settled() and board.hand.holding == ()
    on_board = sum(len(s) for s in board.truth())
    assert on_board + len(board.removed) + sum(len(r) for r in board.reserve.values()) == 49


@pytest.mark.skipif(not (GAMES / "littlegolem_dvonn_mc_2014_may_1_1.txt").exists(),
                    reason="shared game records not available")
def test_a_recorded_game_is_played_on_the_board():
    board = SimBoard(seed=5)
    players = play(board, littlegolem_tokens(), seed=5)
    check_truth(board, players)
    # the forced 49th placement (c5) was filled in; White resigns at 5-29
    assert players.truth.ply_count == 49 + 13 * 2  # 48 written + c5, then 13 numbered pairs
    assert players.truth.score() == (5, 29)
    assert [t for _, t in players.log][-1] == "the record ends"


@pytest.mark.skipif(not (GAMES / "amit-dvonn-bot_3games.json").exists(),
                    reason="shared game records not available")
def test_a_json_record_with_left_out_passes():
    game = json.loads((GAMES / "amit-dvonn-bot_3games.json").read_text())[0]
    board = SimBoard(seed=6)
    players = play(board, game["m"], seed=6)
    check_truth(board, players)
    assert players.truth.is_over() and players.truth.score() == (8, 16)  # "b;16;8"


def test_record_errors_name_the_token():
    with pytest.raises(RecordError) as e:
        play(SimBoard(), ["e3", "f3", "e3"])
    assert e.value.token == "e3" and e.value.ply == 3
    with pytest.raises(RecordError) as e:
        play(SimBoard(), ["e3", "zz9"])
    assert e.value.token == "zz9"


def test_random_games_with_every_kind_of_mistake_stay_legal():
    made = {}
    for seed in range(6):
        board = SimBoard(seed=seed)
        players = play(board, seed=seed, mistakes=Mistakes(rate=0.4))
        check_truth(board, players)
        assert players.truth.is_over()
        for kind, n in players.made.items():
            made[kind] = made.get(kind, 0) + n
        if set(made) == set(MISTAKES):
            break
    assert set(made) == set(MISTAKES), made


def test_each_mistake_alone_leaves_a_legal_game():
    for i, kind in enumerate(MISTAKES):
        board = SimBoard(seed=20 + i)
        players = play(board, seed=20 + i, mistakes=Mistakes(rate=0.5, kinds=(kind,)),
                       max_plies=None if kind == "wrong_remove" else 60)
        check_truth(board, players)
        assert players.made[kind] > 0 and set(players.made) == {kind}


def test_a_chooser_per_side():
    def first_legal(board):
        return board.legal_plies()[0]

    board = SimBoard(seed=1)
    players = play(board, white=first_legal, black=random_chooser(3), seed=1)
    check_truth(board, players)
    replay = Board()
    for ply in players.truth.move_stack:
        if replay.turn == WHITE and ply != PASS:
            assert ply == replay.legal_plies()[0]
        replay.push(ply)


def test_a_whole_game_runs_on_simulated_time():
    board = SimBoard(seed=2)
    players = play(board, seed=2)
    assert board.now > 60  # minutes of people moving pieces, in well under a second of CPU
    assert players.truth.is_over()


# -- LEDs -----------------------------------------------------------------------------------
def rgb(name, now):
    sig = BY_NAME[name]
    return sig.rgb if is_lit(sig.pattern, now) else OFF


class Oracle:
    """A stand-in for the controller, for these tests only: it reads the truth (which the real
    controller never does) and lights the LEDs in the colour language. It asks which destination
    on every `ask_every`-th move, until the stack landed on has been lifted and set back."""

    def __init__(self, board, players, ask_every=3):
        self.board, self.players, self.ask_every = board, players, ask_every
        self.asked = set()   # plies asked about
        self.lifted = False

    def render(self, now):
        truth, phys = self.players.truth, self.board.truth()
        want = truth.stacks()
        out = [OFF] * N_SPACES
        problem = False
        for s in range(N_SPACES):
            if phys[s] == want[s]:
                continue
            problem = True
            if not want[s] and s in truth.last_removed and phys[s] == truth.last_removed[s]:
                out[s] = rgb("remove", now)
            elif not want[s]:
                out[s] = rgb("extra", now)
            elif not phys[s]:
                out[s] = rgb("missing", now)
            else:
                out[s] = rgb("error", now)
        n = truth.ply_count
        last = truth.move_stack[-1] if n else None
        if last is not None and last.is_move and n % self.ask_every == 0 and n not in self.asked:
            if not phys[last.dst]:
                self.lifted = True
            elif self.lifted and self.board.hand.idle():
                self.asked.add(n)
                self.lifted = False
            if n not in self.asked and not problem:
                other = next(s for s in range(N_SPACES) if phys[s] and s != last.dst)
                for s in (last.dst, other):
                    out[s] = rgb("ask", now)
                return LedFrame(tuple(out))
        if problem:
            return LedFrame(tuple(out))
        if truth.is_over():
            for s in range(N_SPACES):
                if want[s]:
                    out[s] = rgb("winner", now)
        elif truth.phase == 1:
            name = ("dvonn_to_place" if truth.piece_to_place() == "D"
                    else "white_to_play" if truth.turn == WHITE else "black_to_play")
            for s in range(N_SPACES):
                if not want[s]:
                    out[s] = rgb(name, now)
        elif truth.legal_plies() == [PASS]:
            out[0] = rgb("pass", now)
        else:
            name = "white_to_play" if truth.turn == WHITE else "black_to_play"
            for s in truth.mobile_stacks():
                out[s] = rgb(name, now)
        return LedFrame(tuple(out))


def test_players_follow_the_leds():
    board = SimBoard(seed=7)
    players = Players(board, seed=7, mistakes=Mistakes(rate=0.2))
    oracle = Oracle(board, players)
    while not players.done and board.now < 3000:
        frame = board.read_frame()
        board.show(oracle.render(frame.time))
        players.step()
    assert players.done
    check_truth(board, players)
    notes = [t for _, t in players.log]
    assert len(oracle.asked) > 3
    assert sum(t.startswith("answering") for t in notes) == len(oracle.asked)
    assert not players.complaints, players.complaints[:3]
    assert len(board.removed) > 0


def test_players_wait_for_the_board():
    # A board whose LEDs never acknowledge anything: the players wait ack_timeout each time.
    board = SimBoard(seed=1)
    board.show(LedFrame())
    players = Players(board, ["e3", "f3"], seed=1, ack_timeout=5.0)
    while not players.done:
        board.read_frame()
        players.step()
    assert board.now > 10.0
    assert len(players.complaints) >= 2


def test_led_view_reads_every_signal_blinking_or_not():
    log = []
    for i in range(130):
        t = i * 0.01
        out = [OFF] * N_SPACES
        for space, sig in enumerate(SIGNALS):
            out[space] = rgb(sig.name, t)
        log.append((t, LedFrame(tuple(out))))
    view = LedView(log, 1.29)
    assert view.signal == {space: sig.name for space, sig in enumerate(SIGNALS)}
    assert view.spaces("error", "extra") == sorted(
        i for i, s in enumerate(SIGNALS) if s.name in ("error", "extra"))
    # colours a little off (read back through the LED chain's gamma) still read right
    off = [(max(0, r - 6), min(255, g + 5), b) for r, g, b in (s.rgb for s in SIGNALS)]
    view = LedView([(0.0, LedFrame(tuple(off + [OFF] * (N_SPACES - len(off)))))], 0.5)
    assert view.signal == {space: sig.name for space, sig in enumerate(SIGNALS)}


def test_led_view_forgets_a_signal_once_it_stays_dark():
    e3 = INDEX["e3"]
    log = []
    for i in range(120):  # 'ask' (one short flash a second) until 1.2 s, then dark
        t = i * 0.01
        out = [OFF] * N_SPACES
        out[e3] = rgb("ask", t)
        log.append((t, LedFrame(tuple(out))))
    log.append((1.2, LedFrame()))
    assert LedView(log, 1.9).signal == {e3: "ask"}  # dark 0.7 s: may still be its pattern
    assert LedView(log, 2.2).signal == {}           # dark longer than 'ask' ever is
    assert LedView(log, 1.5, since=1.2).signal == {}  # a fresh look after the change


@pytest.mark.parametrize("name", ["dvonn_sim.players", "dvonn_sim.led_view", "dvonn_sim.choosers",
                                  "dvonn_sim.mistakes"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
