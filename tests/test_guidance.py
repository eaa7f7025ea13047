"""LED guidance: every controller mode lights the right spaces with the right signals."""

import doctest
import random

import pytest

from firmware_py import colours, guidance
from firmware_py.colours import BY_NAME, BY_RGB, MODE_SIGNALS, PATTERNS, SIGNALS, is_lit
from firmware_py.guidance import CORNERS, render, signals
from firmware_py.interfaces import OFF
from firmware_py.rules import BLACK, PASS, WHITE, Board, Ply
from firmware_py.spaces import INDEX, N_SPACES
from firmware_py.state import MODES, BoardState


def random_game(seed: int) -> Board:
    """A whole legal game played at random (seeded)."""
    rnd = random.Random(seed)
    board = Board()
    while plies := board.legal_plies():
        board.push(rnd.choice(plies))
    return board


def replay(board: Board, n: int) -> Board:
    return Board.from_plies(board.move_stack[:n])


def phase2_board(seed: int = 1) -> Board:
    return replay(random_game(seed), 55)


def test_doctests():
    assert doctest.testmod(colours).failed == 0
    assert doctest.testmod(guidance).failed == 0


# -- the language itself -------------------------------------------------------------------------

def test_every_signal_has_its_own_rgb_so_a_single_frame_decodes():
    assert len(BY_RGB) == len(SIGNALS)
    assert OFF not in BY_RGB


def test_signals_lit_together_never_share_a_pattern():
    assert set(MODE_SIGNALS) == set(MODES)
    for mode, names in MODE_SIGNALS.items():
        patterns = [BY_NAME[n].pattern for n in names]
        assert len(set(patterns)) == len(patterns), (mode, patterns)


def test_patterns_blink_as_documented():
    assert all(is_lit("steady", t / 10) for t in range(30))
    assert [is_lit("slow", t) for t in (0.1, 0.6, 1.1, 1.6)] == [True, False, True, False]
    assert [is_lit("fast", t) for t in (0.05, 0.2, 0.3, 0.45)] == [True, False, True, False]
    assert [is_lit("double", t) for t in (0.1, 0.2, 0.35, 0.6)] == [True, False, True, False]
    assert is_lit("flash", 0.1) and not is_lit("flash", 0.5)
    assert is_lit("wink", 0.5) and not is_lit("wink", 0.9)
    assert is_lit("slow", -0.9)  # any clock, even one that starts below zero
    for name, p in PATTERNS.items():  # every pattern is visibly on and (but steady) visibly off
        samples = [is_lit(name, i * p.period / 100) for i in range(100)]
        assert any(samples)
        assert all(samples) == (name == "steady")


# -- placing -------------------------------------------------------------------------------------

def test_first_placements_show_dvonn_spaces_then_whose_turn_on_the_empty_spaces():
    board = Board()
    state = BoardState(board=board, mode="idle")
    assert signals(state) == {s: "dvonn_to_place" for s in range(N_SPACES)}
    for token in ("e3", "f3", "g3"):
        board.push(Ply.parse(token))
    lit = signals(state)
    assert board.turn == BLACK and board.piece_to_place() == "B"
    assert set(lit) == set(range(N_SPACES)) - {INDEX["e3"], INDEX["f3"], INDEX["g3"]}
    assert set(lit.values()) == {"black_to_play"}
    board.push(Ply.parse("a1"))
    assert set(signals(state).values()) == {"white_to_play"}


def test_placement_hint_is_shown_on_top_of_the_turn():
    state = BoardState(board=Board.from_plies(["e3", "f3", "g3"]), mode="idle",
                       hint=Ply.parse("a1"))
    lit = signals(state)
    assert lit[INDEX["a1"]] == "computer_to"
    assert lit[INDEX["b1"]] == "black_to_play"


# -- moving --------------------------------------------------------------------------------------

def test_idle_in_phase_two_lights_the_mobile_stacks_of_the_player_to_move():
    board = phase2_board()
    lit = signals(BoardState(board=board, mode="idle"))
    assert sorted(lit) == board.mobile_stacks()
    assert set(lit.values()) == {guidance.TURN_SIGNAL[board.turn]}


def test_computer_hint_shows_the_stack_to_lift_and_where_to_put_it():
    board = phase2_board()
    hint = board.legal_plies()[0]
    state = BoardState(board=board, mode="idle", hint=hint)
    lit = signals(state)
    assert lit[hint.src] == "computer_from" and lit[hint.dst] == "computer_to"
    # Once that stack is lifted, its destination among the others is the hinted one.
    state.mode, state.lifted, state.destinations = "lifted", hint.src, board.destinations(hint.src)
    lit = signals(state)
    assert lit[hint.src] == "source" and lit[hint.dst] == "computer_to"


def test_lifted_stack_shows_source_and_legal_destinations():
    board = phase2_board()
    src = board.mobile_stacks()[0]
    dests = board.destinations(src)
    state = BoardState(board=board, mode="lifted", lifted=src, destinations=dests)
    lit = signals(state)
    assert lit == {src: "source", **{d: "destination" for d in dests}}
    frame_on, frame_off = render(state, 0.1), render(state, 0.7)
    assert frame_on.spaces[src] == frame_off.spaces[src] == BY_NAME["source"].rgb
    assert {frame_on.spaces[d] for d in dests} == {BY_NAME["destination"].rgb}
    assert {frame_off.spaces[d] for d in dests} == {OFF}


def test_illegal_lift_is_flagged_at_once():
    board = phase2_board()
    opponents = [s for s in range(N_SPACES) if board.owner(s) == 1 - board.turn]
    state = BoardState(board=board, mode="error", lifted=opponents[0], error=[opponents[0]])
    assert signals(state) == {opponents[0]: "error"}
    assert render(state, 0.05).spaces[opponents[0]] == BY_NAME["error"].rgb
    assert render(state, 0.2).spaces[opponents[0]] == OFF


def test_illegal_set_down_is_flagged_while_the_legal_ones_stay_shown():
    board = phase2_board()
    src = board.mobile_stacks()[0]
    dests = board.destinations(src)
    wrong = next(s for s in range(N_SPACES) if s not in dests and s != src and board.height(s))
    state = BoardState(board=board, mode="error", lifted=src, destinations=dests, error=[wrong])
    lit = signals(state)
    assert lit[wrong] == "error" and lit[src] == "source"
    assert all(lit[d] == "destination" for d in dests)


def test_spaces_to_clear_after_an_isolating_move():
    state = BoardState(board=phase2_board(), mode="removing", remove=[INDEX["a1"], INDEX["b1"]])
    assert signals(state) == {INDEX["a1"]: "remove", INDEX["b1"]: "remove"}
    # 'double': on at the start of the period, off between the flashes.
    assert render(state, 0.05).spaces[INDEX["a1"]] == BY_NAME["remove"].rgb
    assert render(state, 0.2).spaces[INDEX["a1"]] == OFF


def test_stacks_to_remove_stay_marked_while_the_next_stack_is_lifted():
    board = phase2_board()
    src = board.mobile_stacks()[0]
    dests = board.destinations(src)
    cut = next(s for s in range(N_SPACES) if s != src and s not in dests and board.height(s))
    state = BoardState(board=board, mode="lifted", lifted=src, destinations=dests, remove=[cut])
    assert signals(state)[cut] == "remove" and signals(state)[src] == "source"


def test_asking_blinks_the_candidates():
    cands = [INDEX["c3"], INDEX["d4"]]
    state = BoardState(board=phase2_board(), mode="asking", ask=cands)
    assert signals(state) == {c: "ask" for c in cands}
    assert [render(state, 0.1).spaces[c] for c in cands] == [BY_NAME["ask"].rgb] * 2
    assert [render(state, 0.6).spaces[c] for c in cands] == [OFF, OFF]


def test_unexplained_position_shows_missing_and_extra():
    state = BoardState(board=phase2_board(), mode="unexplained",
                       missing=[INDEX["e3"]], extra=[INDEX["a1"]])
    assert signals(state) == {INDEX["e3"]: "missing", INDEX["a1"]: "extra"}


def test_calibrating_lights_the_board_and_flags_pieces_that_must_go():
    state = BoardState(board=Board(), mode="calibrating", extra=[INDEX["e3"]])
    lit = signals(state)
    assert lit.pop(INDEX["e3"]) == "extra"
    assert set(lit.values()) == {"calibrating"} and len(lit) == N_SPACES - 1


# -- passes, the end, the machine ----------------------------------------------------------------

def pass_game() -> tuple[Board, int]:
    """A random game with a forced pass, and the index of that pass in its history."""
    board = random_game(0)
    return board, board.move_stack.index(PASS)


def test_forced_pass_is_announced_and_the_other_player_shown_their_moves():
    game, at = pass_game()
    board = replay(game, at)
    assert board.legal_plies() == [PASS]
    lit = signals(BoardState(board=board, mode="idle"))
    passer, mover = board.turn, 1 - board.turn
    assert sorted(s for s, n in lit.items() if n == "pass") == \
        [s for s in range(N_SPACES) if board.owner(s) == passer]
    # ... and the other player, who moves again at once, sees their stacks that may move.
    assert sorted(s for s, n in lit.items() if n != "pass") == \
        sorted({p.src for p in board.moves_of(mover)})
    assert {n for n in lit.values() if n != "pass"} == {guidance.TURN_SIGNAL[mover]}


def test_after_a_pass_the_passer_is_shown_beside_the_player_to_move():
    game, at = pass_game()
    board = replay(game, at + 1)
    lit = signals(BoardState(board=board, mode="idle"))
    passer = 1 - board.turn
    assert {s for s, n in lit.items() if n == "pass"} == \
        {s for s in range(N_SPACES) if board.owner(s) == passer}
    assert {s for s, n in lit.items() if n != "pass"} == set(board.mobile_stacks())


@pytest.mark.parametrize("seed", [0, 4, 14])
def test_game_over_shows_the_winner_or_a_draw(seed):
    board = random_game(seed)
    winner = board.winner()
    lit = signals(BoardState(board=board, mode="over"))
    if winner == "draw":
        assert set(lit.values()) == {"draw"}
        assert sorted(lit) == [s for s in range(N_SPACES) if board.height(s)]
    else:
        assert winner in (WHITE, BLACK)
        assert set(lit.values()) == {"winner"}
        assert sorted(lit) == [s for s in range(N_SPACES) if board.owner(s) == winner]


def test_link_lost_and_paused_use_the_corners_only():
    board = phase2_board()
    lost = BoardState(board=board, mode="link_lost", missing=[INDEX["e3"]])
    assert signals(lost) == {c: "link_lost" for c in CORNERS}
    paused = BoardState(board=board, mode="paused", missing=[INDEX["e3"]])
    assert signals(paused) == {**{c: "paused" for c in CORNERS}, INDEX["e3"]: "missing"}


def test_every_mode_renders_only_signals_the_language_allows_there():
    board = phase2_board()
    src = board.mobile_stacks()[0]
    for mode in MODES:
        state = BoardState(board=board, mode=mode, lifted=src, destinations=board.destinations(src),
                           remove=[0], ask=[1, 2], missing=[3], extra=[4])
        if mode in ("lifted", "error", "idle", "removing", "over", "link_lost"):
            state.missing, state.extra = [], []
        if mode == "asking":
            state.extra = []  # (missing: an asked stack cleared, to be put back)
        if mode in ("idle", "over", "unexplained", "calibrating", "paused"):
            state.remove = []
        for name in signals(state).values():
            assert name in MODE_SIGNALS[mode], (mode, name)
        for t in (0.0, 0.1, 0.3, 0.6, 0.9):
            frame = render(state, t)
            assert all(rgb == OFF or rgb in BY_RGB for rgb in frame.spaces)
