"""The page's hand on the simulated board (`SimDesk`), without a browser: what a click does to
the simulated table and how soon the board records it, in simulated time (deterministic: the
board's clock only moves as frames are read)."""

from __future__ import annotations

import random
import threading

from firmware_py.controller import Controller
from firmware_py.rules import Board
from firmware_py.session import Session
from firmware_py.store import Store
from firmware_py.web.session_source import SimDesk
from dvonn_sim.board import SimBoard


def click(session: Session, desk: SimDesk, kind: str, args: dict) -> float:
    """Send one request as the server does (from another thread) and step the session until its
    loop has done it; returns the board time at which the hand got it."""
    done = desk.done
    asking = threading.Thread(target=desk.act, args=(kind, args))
    asking.start()
    while desk.done == done:
        session.step()
    asking.join()
    return session.now()


def test_a_click_is_a_hand_that_has_let_go(tmp_path):
    """A placement clicked on the page is recorded within 0.4 s of simulated time (the real
    board's settle time is 0.2 s of that): the page's hand sets pieces down at once."""
    board = SimBoard(seed=5)
    desk = SimDesk(board)
    with Session(desk, board, Store(tmp_path / "g.sqlite3"),
                 lambda b: Controller(board=b), buttons=board) as session:
        while session.state.mode != "idle":  # the empty board is read first
            session.step()
        rnd, game = random.Random(2), Board()
        for n in range(1, 9):
            ply = rnd.choice(game.legal_plies())
            game.push(ply)
            clicked = click(session, desk, "place", {"space": ply.dst, "piece": None})
            while session.state.board.ply_count < n:
                session.step()
            assert session.state.board.move_stack == game.move_stack
            assert session.now() - clicked < 0.4, (n, session.now() - clicked)


def test_the_click_benchmark_runs(capsys):
    from firmware_py.tools.web_bench import main

    assert main(["--changes", "3", "--placements", "2"]) == 0
    out = capsys.readouterr().out
    assert "change -> page over 3 changes" in out
    assert "click -> recorded over 2 placements" in out and "median" in out and "p90" in out
