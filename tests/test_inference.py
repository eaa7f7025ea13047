"""Inference on settled snapshots of the simulated board: candidates, fast replies, partial
removals, hovers over legal destinations, and never a guess."""

import random

from firmware_py.controller import Controller
from firmware_py.rules import Board, Ply
from firmware_py.settle import Settler
from dvonn_sim.board import SimBoard
from dvonn_sim.params import Params
from tests.simgames import placed_board, run


def start(seed: int, noise: str = "default", board: Board | None = None):
    board = board or placed_board(seed)
    sim = SimBoard(Params.from_noise(noise), seed=seed)
    sim.setup(board)
    c = Controller(board=board.copy())
    run(sim, c, 0.5)
    assert c.state.mode == "idle"
    return sim, c, board


def snapshot_of(sim, seconds: float = 0.4):
    s = Settler(0.2, tolerance=8.0, refresh_s=None)
    snap = None
    end = sim.now + seconds
    while sim.now < end:
        f = sim.read_frame()
        snap = s.feed(f.time, f.raw) or snap
    return snap


def test_a_lifted_stack_is_one_candidate_among_its_landings():
    sim, c, board = start(21)
    src = board.mobile_stacks()[0]
    sim.setup({src: ()})  # the stack is in the air, far away
    snap = snapshot_of(sim)
    ref = c.reference
    d = c.inference.explain(c.state.board, {}, snap, ref.values, ref.frames, ref.stacks, 1.0)
    kinds = {cand.kind for cand in d.candidates}
    assert {"lifted", "match"} & kinds == {"lifted"}
    assert d.kind == "lifted" and d.best.src == src
    # every legal landing was considered and rejected by the field, not by occupancy
    landings = {cand.plies[0].dst for cand in d.candidates if cand.kind == "commit"}
    assert landings == set(board.destinations(src))


def test_fast_reply_two_plies_in_one_snapshot():
    sim, c, board = start(22)
    first = next(p for p in board.legal_plies() if not board.isolated_by(p))
    after = board.copy()
    after.push(first)
    reply = next(p for p in after.legal_plies()
                 if not after.isolated_by(p) and p.src != first.dst)
    sim.hand.lift(first.src)
    sim.hand.put(first.dst)
    sim.hand.lift(reply.src)  # no pause: the reply starts before the first move settled
    sim.hand.put(reply.dst)
    run(sim, c, 6.0)
    assert c.state.board.move_stack[-2:] == [first, reply]
    assert c.state.mode == "idle"


def test_partial_removals_are_followed_until_done():
    rnd = random.Random(5)
    board = placed_board(30)
    while True:  # play on at random until a move would cut off two stacks or more
        plies = [p for p in board.legal_plies() if len(board.isolated_by(p)) >= 2]
        if plies:
            break
        board.push(rnd.choice(board.legal_plies()))
    ply = plies[0]
    n = board.ply_count
    sim, c, board = start(30, board=board)
    cut = board.isolated_by(ply)
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 3.0)
    assert c.state.mode == "removing" and c.state.remove == cut
    sim.hand.remove(cut[0])
    run(sim, c, 2.0)
    assert c.state.mode == "removing" and c.state.remove == cut[1:]
    for s in cut[1:]:
        sim.hand.remove(s)
    run(sim, c, 3.0)
    assert c.state.mode in ("idle", "over") and c.state.board.move_stack[-1] == ply
    assert c.state.board.ply_count == n + 1


def test_a_stack_slid_over_a_legal_destination_is_not_taken_for_a_move():
    for seed in range(40, 80):
        board = placed_board(seed)
        ply = next((p for p in board.legal_plies()
                    if len(board.destinations(p.src)) > 1 and not board.isolated_by(p)), None)
        if ply is not None:
            break
    sim, c, board = start(seed, board=board)
    via = next(d for d in board.destinations(ply.src) if d != ply.dst)
    seen = []
    sim.hand.slide(ply.src, ply.dst, via=[via])
    run(sim, c, 6.0, watch=lambda c: seen.append(c.state.board.ply_count))
    assert max(seen) == 50  # never anything else committed on the way
    assert c.state.board.move_stack[-1] == ply


def test_bad_noise_asks_or_knows_but_never_guesses():
    # Landings on every destination of one stack, on a noisy board: each is recorded right
    # or asked about; nothing wrong is ever committed.
    board = placed_board(23)
    src = next(s for s in board.mobile_stacks() if len(board.destinations(s)) >= 2)
    for dst in board.destinations(src):
        sim, c, _ = start(23, "bad", board=board)
        sim.hand.lift(src)
        sim.hand.put(dst)
        run(sim, c, 6.0)  # a noisy board waits longer before it rules out a hovering hand
        recorded = c.state.board.move_stack[49:]
        assert recorded in ([], [Ply(src, dst)])
        if not recorded:
            assert c.state.mode == "asking" and dst in c.state.ask


def test_the_last_piece_placed_and_moved_on_before_the_board_settled():
    # The 49th piece goes down and its stack is moved at once (the first move of the game):
    # its space reads empty again, and only the field of the landing tells the two plies.
    for seed in range(60, 200):
        rnd = random.Random(seed)
        board = Board()
        while board.ply_count < 48:
            board.push(rnd.choice(board.legal_plies()))
        last = board.legal_plies()[0]
        after = board.copy()
        after.push(last)
        first = next((p for p in after.legal_plies() if p.is_move and p.src == last.dst
                      and not after.isolated_by(p)), None)
        if first is not None:
            break
    sim, c, board = start(seed, board=board)
    sim.hand.place(last.dst, board.piece_to_place())
    sim.hand.lift(last.dst)  # no pause: lifted again before the placement settled
    sim.hand.put(first.dst)
    run(sim, c, 6.0)
    assert c.state.board.move_stack[-2:] == [last, first]
    assert c.state.mode == "idle"
