"""Hints: the engine's move for the player to move on the LEDs, asked for by confirm while the
board waits for a move (or `hint`, or the page), never recorded; `--hints off` refuses them."""

import doctest
from pathlib import Path

import pytest

from firmware_py import hints as hints_module
from firmware_py.controller import Controller
from firmware_py.guidance import signals
from firmware_py.hints import Hints
from firmware_py.rules import BLACK, Board, Ply
from firmware_py.session import Session
from firmware_py.store import Store
from firmware_py.web.session_source import SessionSource
from firmware_py.web.source import ActionRefused
from dvonn_sim.board import SimBoard
from tests.test_session_sim import TOKENS, place_all, run


def test_doctests():
    assert doctest.testmod(hints_module).failed == 0


def test_requests_are_refused_when_off_over_or_on_the_computer_s_turn():
    board = Board.from_plies(["e3"])
    assert Hints(enabled=False).request(board) == "hints are off for this game"
    assert "computer is to move" in Hints(computer={BLACK}).request(board)
    hints = Hints(level=1, nodes=100)
    assert hints.request(board) == "hint: the engine is thinking"
    assert hints.request(board) == "hint hidden" and not hints.asked


def test_a_hint_is_for_its_position_only():
    hints = Hints(level=1, nodes=100)
    board = Board.from_plies(["e3"])
    hints.request(board)
    hints.wait(5.0)
    assert board.is_legal(hints.update(board))
    board.push(Ply.parse("f3"))
    assert hints.update(board) is None and not hints.asked  # stale once the game goes on


def session_at(db, **kw):
    sim = SimBoard(seed=5)
    session = Session(sim, sim, Store(db), lambda board: Controller(board=board), buttons=sim,
                      resume=False, **kw)
    run(session, sim, 1.0)
    place_all(session, sim, TOKENS[:4])
    assert session.state.mode == "idle"
    return sim, session


def shown_hint(session):
    """Step the session until the engine's move is shown; check it is legal and lit in the
    suggestion pattern (the computer's destination flash), and return it."""
    for _ in range(20):
        session.step()
        if session.state.hint is not None:
            break
        session.hints.wait(5.0)
    hint = session.state.hint
    assert hint is not None and session.state.board.is_legal(hint)
    assert signals(session.state)[hint.dst] == "computer_to"  # flash: "a suggestion"
    return hint


def test_confirm_while_waiting_for_a_move_shows_the_engine_s_move_and_records_nothing(tmp_path):
    sim, session = session_at(tmp_path / "g.sqlite3")
    stored = session.store.plies(session.game_id)
    sim.press("confirm")
    hint = shown_hint(session)
    assert session.state.message == f"hint: {hint} (shown on the LEDs; nothing is recorded)"
    run(session, sim, 1.0)
    assert session.store.plies(session.game_id) == stored  # nothing recorded
    # The player places elsewhere: that is recorded and the hint goes out.
    board = session.state.board
    other = next(p for p in board.legal_plies() if p != hint)
    sim.hand.place(other.dst, board.piece_to_place())
    run(session, sim, 2.5)
    assert session.store.plies(session.game_id)[-1] == other
    assert session.state.hint is None and not session.hints.asked
    session.close()


def test_hints_off_refuses_from_the_button_and_the_page(tmp_path):
    sim, session = session_at(tmp_path / "g.sqlite3", hints=False)
    sim.press("confirm")
    run(session, sim, 0.5)
    assert session.state.hint is None and session.state.message == "hints are off for this game"
    with pytest.raises(ActionRefused, match="hints are off"):
        SessionSource(session).act("hint", {})
    assert SessionSource(session).session_view()["hints"] is False
    session.close()


def test_sim_and_play_take_hints_off():
    from firmware_py.cli import build_parser
    parser = build_parser()
    assert parser.parse_args(["sim", "--hints", "off"]).hints == "off"
    assert parser.parse_args(["play"]).hints != "off"  # on by default


def test_a_press_on_the_hint_button_s_pin_shows_the_engine_s_move(tmp_path):
    """The profile's `hint` pin (gpiozero's MockFactory as the Pi's pins): a press shows the
    engine's move in the suggestion pattern and records nothing."""
    from gpiozero.pins.mock import MockFactory

    from dvonn_hw.buttons import GpioButtons
    from dvonn_hw.profile import load_profile
    from tests.test_hw_buttons import press
    default = Path(__file__).parent.parent / "hw" / "profiles" / "default.toml"
    text = default.read_text().replace("new_game = 22\n", "new_game = 22\nhint = 24\n", 1)
    path = tmp_path / "hint.toml"
    path.write_text(text)
    profile = load_profile(str(path))
    assert profile.buttons.pins["hint"] == 24
    factory = MockFactory()
    try:
        buttons = GpioButtons.from_profile(profile, pin_factory=factory)
        sim, session = session_at(tmp_path / "g.sqlite3")
        session.buttons = buttons
        stored = session.store.plies(session.game_id)
        press(factory.pin(24))
        shown_hint(session)
        run(session, sim, 1.0)
        assert session.store.plies(session.game_id) == stored
        session.close()
    finally:
        factory.reset()
        factory.close()
