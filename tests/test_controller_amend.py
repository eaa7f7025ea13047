"""A landing is recorded as soon as the board settles, even where a stack held a millimetre above
its destination would read the same; if the hand was only pausing there, lifting the stack off
again changes the move (or takes it back), and the store is left holding only what was played.
Simulated time only."""

from firmware_py.controller import Controller
from firmware_py.rules import Ply
from tests.simgames import early_moves_board, resume, run


def slide_over_a_tall_stack(first_seed: int = 40):
    """A position, a move in it, and another destination of the same stack at least three
    pieces tall (a hand paused just above it reads like a landing) that cuts nothing off."""
    for seed in range(first_seed, first_seed + 100):
        board = early_moves_board(seed)
        for ply in board.legal_plies():
            if ply.is_pass or board.isolated_by(ply):
                continue
            for via in board.destinations(ply.src):
                if (via != ply.dst and board.height(via) >= 3
                        and not board.isolated_by(Ply(ply.src, via))):
                    return seed, board, ply, via
    raise AssertionError("no such position")


class Store:
    """What the session's database would hold: commits appended, undos popped."""

    def __init__(self, c: Controller):
        self.plies = list(c.state.board.move_stack)
        c.on_commit = self.plies.append
        c.on_undo = self.plies.pop


def test_a_pause_over_a_destination_on_the_way_is_changed_to_the_real_move():
    seed, board, ply, via = slide_over_a_tall_stack()
    sim, c = resume(board, seed)
    store = Store(c)
    recorded = []
    sim.hand.slide(ply.src, ply.dst, via=[via])
    run(sim, c, 6.0, watch=lambda c: recorded.append(c.state.board.move_stack[-1]))
    assert Ply(ply.src, via) in recorded  # the pause was taken for a landing...
    assert c.stats["amended"] == 1        # ...and changed when the hand moved on
    assert c.state.board.move_stack == board.move_stack + [ply]
    assert store.plies == c.state.board.move_stack
    assert c.state.mode == "idle" and "changed to " + str(ply) in c.state.message


def test_a_stack_carried_back_to_its_source_takes_the_move_back():
    seed, board, ply, via = slide_over_a_tall_stack()
    sim, c = resume(board, seed)
    store = Store(c)
    sim.hand.slide(ply.src, ply.src, via=[via])
    run(sim, c, 6.0)
    assert c.stats["amended"] == 1
    assert c.state.board.move_stack == board.move_stack
    assert store.plies == board.move_stack
    assert c.state.mode == "idle" and "taken back" in c.state.message


def test_a_landing_is_recorded_as_soon_as_the_board_settles():
    seed, board, _, via = slide_over_a_tall_stack()
    src = next(p.src for p in board.legal_plies() if p.is_move and p.dst == via)
    sim, c = resume(board, seed)
    times = {}

    def watch(c):
        if len(sim.stacks[via]) > board.height(via) and "landed" not in times:
            times["landed"] = sim.now
        if c.state.board.ply_count > board.ply_count and "recorded" not in times:
            times["recorded"] = sim.now

    sim.hand.lift(src)
    sim.hand.put(via)
    run(sim, c, 4.0, watch)
    assert c.state.board.move_stack[-1] == Ply(src, via)
    # The settle window, then at most 50 ms (no wait for a hand that might hover).
    assert times["recorded"] - times["landed"] <= c.settler.settle_s + 0.05 + 0.011


def moved_on_after_standing_still():
    """The slide-over move set down on `via` and left alone (it landed, final), then the same
    pieces lifted off again and set down on the move's true destination."""
    seed, board, ply, via = slide_over_a_tall_stack()
    sim, c = resume(board, seed)
    moved = board.height(ply.src)
    sim.hand.lift(ply.src)
    sim.hand.put(via)
    run(sim, c, 3.0)  # set down and left alone: it landed
    landed = c.state.board.move_stack[-1]
    sim.hand.lift(via, count=moved)  # the same pieces lifted off again and moved on
    sim.hand.put(ply.dst)
    run(sim, c, 6.0)
    return sim, c, ply, via, landed


def test_a_move_that_stood_still_is_final():
    sim, c, ply, via, landed = moved_on_after_standing_still()
    assert landed == Ply(ply.src, via)
    assert c.stats["amended"] == 0
    assert c.state.board.move_stack[-1] == Ply(ply.src, via)
    # Not changed on readings alone, but the move may be wrong: asked where it landed.
    assert c.state.mode == "asking" and c.state.ask == [via, ply.dst]


def test_a_final_move_whose_stack_reads_where_it_could_have_gone_is_amended_when_answered():
    # The board reads differently where the last (final) move went and where it could have
    # gone: taking it as it stands would keep that move, so the player is asked; lifting the
    # stack where it stands and setting it back changes the move (rough seed 30: h3j3 kept
    # for h3f3 when confirm took the board as it stood).
    sim, c, ply, via, _ = moved_on_after_standing_still()
    assert c.state.mode == "asking" and c.mismatch.accept is None  # not offered as it stands
    sim.hand.lift(ply.dst)
    sim.hand.put(ply.dst)
    run(sim, c, 3.0)
    assert c.state.board.move_stack[-1] == ply and c.stats["amended"] == 1
    assert c.state.mode == "idle"
