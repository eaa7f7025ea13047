"""Differential test: firmware_py.rules (and the benchmark's fast playout) against the simple
reference engine in tests/reference_rules.py, ply by ply over many random games.

Compared after every ply: legal placements/moves (or pass, or end), side to move, every stack,
what was removed, the score; at the end, the winner. A few hundred games by default;
DVONN_DIFF_GAMES=5000 python -m pytest tests/test_rules_differential.py for thousands.
"""

import os
import random

import pytest

from firmware_py.ai import side_terms
from firmware_py.bitboards import P2S, S2P
from firmware_py.rules import BLACK, PASS, WHITE, Board, Ply
from firmware_py.tools.bench_rules import playout, random_game
from tests.reference_rules import RefGame

GAMES = int(os.environ.get("DVONN_DIFF_GAMES", "150"))
CHUNKS = 5


def expected_plies(ref: RefGame) -> list[Ply]:
    if ref.placing():
        return [Ply(-1, s) for s in ref.placements()]
    moves = [Ply(s, d) for s, d in ref.moves(ref.turn)]
    if moves:
        return moves
    return [] if ref.is_over() else [PASS]


def play_both(seed: int) -> None:
    rnd = random.Random(seed)
    board, ref = Board(), RefGame()
    keys = {}
    while True:
        legal = board.legal_plies()
        assert legal == expected_plies(ref), (seed, board.ply_count)
        assert board.turn == ref.turn and board.score() == ref.score()
        assert board.stacks() == [tuple(s) for s in ref.stacks]
        if not ref.placing():
            for player in (WHITE, BLACK):
                moves = ref.moves(player)
                enemy = "B" if player == WHITE else "W"
                catch = max((len(ref.stacks[d]) for _, d in moves if ref.stacks[d][-1] == enemy),
                            default=0)
                # the search's counts, taken without listing the moves
                assert side_terms(board, player)[:3] == (len(moves), len({s for s, _ in moves}),
                                                         catch)
                landing = sum(1 << S2P[d] for d in {d for _, d in moves})
                assert side_terms(board, player)[3] == landing
                assert board.has_moves(player) == bool(moves)
        # equal positions have equal keys (and, with 64 bits, unequal ones differ)
        pos = (board.fen().rsplit(" ", 1)[0], board.phase)
        assert keys.setdefault(board.key(), pos) == pos
        if not legal:
            break
        ply = rnd.choice(legal)
        isolated = board.isolated_by(ply)
        before = board.key()
        board.push(ply)
        if rnd.random() < 0.2:  # undo and redo now and then: must be exact
            after = board.key()
            assert board.pop() == ply and board.key() == before
            board.push(ply)
            assert board.key() == after
        if ply.is_placement:
            ref.place(ply.dst)
        elif ply.is_pass:
            ref.pass_turn()
        else:
            ref.move(ply.src, ply.dst)
        assert board.last_removed == ref.last_removed
        assert isolated == sorted(ref.last_removed)
    assert board.is_over() and ref.is_over()
    w, b = ref.score()
    assert board.winner() == (WHITE if w > b else BLACK if b > w else "draw")


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_board_agrees_with_reference(chunk):
    for seed in range(chunk, GAMES, CHUNKS):
        play_both(seed)


def check_trace(ref: RefGame, trace: list, seed) -> None:
    """Replay a fast-playout trace on the reference engine, checking every ply on the way."""
    for entry in trace:
        if entry[0] == "place":
            assert ref.placing()
            ref.place(P2S[entry[1]])
        elif entry[0] == "pass":
            assert not ref.moves(ref.turn) and ref.moves(1 - ref.turn)
            ref.pass_turn()
        else:
            ps, pd, n_legal = entry
            moves = ref.moves(ref.turn)
            assert n_legal == len(moves) and (P2S[ps], P2S[pd]) in moves, seed
            ref.move(P2S[ps], P2S[pd])
    assert ref.is_over()


def replay_trace(seed: int) -> None:
    trace = []
    result = random_game(random.Random(seed), trace)
    ref = RefGame()
    check_trace(ref, trace, seed)
    assert result.score == ref.score() and result.plies == len(trace)


def playout_from_the_middle(seed: int) -> None:
    """playout() from a Board part-way through a game (placing or moving) finishes it legally."""
    rnd = random.Random(seed)
    board, ref = Board(), RefGame()
    for _ in range(rnd.randrange(90)):
        legal = board.legal_plies()
        if not legal:
            break
        ply = rnd.choice(legal)
        board.push(ply)
        if ply.is_placement:
            ref.place(ply.dst)
        elif ply.is_pass:
            ref.pass_turn()
        else:
            ref.move(ply.src, ply.dst)
    key, plies = board.key(), board.ply_count
    trace = []
    result = playout(board, rnd, trace)
    assert board.key() == key and board.ply_count == plies  # the board is left alone
    check_trace(ref, trace, seed)
    assert result.score == ref.score() and result.plies == plies + len(trace)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_playout_agrees_with_reference(chunk):
    for seed in range(chunk, GAMES, CHUNKS):
        replay_trace(seed)
        if seed % 3 == 0:
            playout_from_the_middle(seed)


def test_playout_from_a_set_up_position_with_unlinked_stacks():
    # g1/h1 are linked to no DVONN piece: the first move must remove them, as Board does.
    for seed in range(30):
        board = Board.from_stacks({"a3": "D", "a2": "B", "b3": "W", "c3": "B", "g1": "B",
                                   "h1": "W"}, turn=BLACK)
        trace = []
        result = playout(board, random.Random(seed), trace)
        for entry in trace:
            board.push(PASS if entry[0] == "pass" else Ply(P2S[entry[0]], P2S[entry[1]]))
        assert board.is_over() and result.score == board.score()


def test_fast_playout_is_uniform_over_legal_moves():
    # Where the chosen move ranks among the sorted legal moves: uniform choice gives a mean
    # relative rank of 1/2 and each quarter of the list about a quarter of the choices.
    ranks = []
    for seed in range(100):
        trace = []
        random_game(random.Random(seed), trace)
        board = Board()
        for entry in trace:
            if entry[0] == "place":
                ply = Ply(-1, P2S[entry[1]])
            elif entry[0] == "pass":
                ply = PASS
            else:
                ply = Ply(P2S[entry[0]], P2S[entry[1]])
                legal = board.legal_plies()
                ranks.append((legal.index(ply) + 0.5) / len(legal))
            board.push(ply)
    assert len(ranks) > 2000
    assert abs(sum(ranks) / len(ranks) - 0.5) < 0.03
    quarters = [sum(1 for r in ranks if q / 4 <= r < (q + 1) / 4) / len(ranks) for q in range(4)]
    assert all(0.2 < q < 0.3 for q in quarters), quarters
