"""A landing on a stack whose magnets then nearly cancel can read weaker than the limit that
stack was read standing by, yet stronger than a stack lifted leaves (placed 3 mm off + nudges
2 mm, default 12-bit m0.3 seed 3: k3 onto k4's W-B read 4.8 mT against 5.65, and the board
said "put back k3, k4" for good). Nothing fitting with that space taken as empty, it is read
as standing too (`faint_stacks.unsure_standing`); what that explains is asked, never taken.
Simulated time only."""

from dvonn_sim.params import Params
from firmware_py.candidates import Candidate, Decision
from firmware_py.faint_stacks import unsure_standing
from tests.simgames import midgame_board, run, scene


def faint_landing(seed: int):
    """A move onto a single piece, played on a simulated board: the controller, the move, the
    reference before it (values, frames, stacks, standing limits) and the snapshot after."""
    board = midgame_board(seed)
    stacks = board.stacks()
    ply = next(p for p in board.legal_plies() if p.is_move and len(stacks[p.dst]) == 1)
    sim, c, _ = scene(board, seed, Params.preset("default"))
    ref = c.reference
    before = (ref.values, ref.frames, ref.stacks, dict(c.inference.standing), ref.time)
    snaps = []
    original = c._on_snapshot
    c._on_snapshot = lambda snap: (snaps.append(snap), original(snap))
    sim.hand.lift(ply.src)
    sim.hand.put(ply.dst)
    run(sim, c, 4.0)
    assert c.state.board.move_stack[-1] == ply  # read as it landed
    return c, board, ply, before, snaps[-1]


def unsure_limit(c, snap, space: int) -> float:
    """A standing limit above what `space` reads in `snap`: its stack reads weaker than the
    limit it was read standing by (as k4's did), its reading left as the physics made it."""
    return abs(snap.values[space] - c.cal.baseline[space]) + 5.0 * c.cal.codes_per_mt


def test_a_stack_read_too_faint_to_stand_but_not_gone_is_unsure():
    c, board, ply, before, snap = faint_landing(3)
    c.inference.standing = {**before[3], ply.dst: unsure_limit(c, snap, ply.dst)}
    occ = c.inference.occupancy(snap.values)
    assert ply.dst not in occ  # read as no stack ...
    assert unsure_standing(c.inference, snap.values, occ) == {ply.dst}  # ... but not gone
    c.inference.standing = before[3]
    assert not unsure_standing(c.inference, snap.values, c.inference.occupancy(snap.values))


def test_nothing_fitting_is_read_again_with_the_unsure_stack_standing_and_asked():
    # `Inference._explain` stubbed: the first reading (the space empty) fits nothing, the
    # second (occupancy with it) finds the landing; that is asked (ambiguous), never taken.
    c, board, ply, before, snap = faint_landing(3)
    inf = c.inference
    inf.standing = {**before[3], ply.dst: unsure_limit(c, snap, ply.dst)}
    occ = inf.occupancy(snap.values)
    after = board.copy()
    after.push(ply)
    landing = Candidate("commit", (ply,), after, after.stacks(), frozenset(), chi2=40.0)
    lifted = Candidate("relift", (ply,), after, board.stacks(), frozenset(), src=ply.dst,
                       chi2=900.0)
    seen = []

    def stub(occupied, *args):
        seen.append(occupied)
        if ply.dst in occupied:
            return Decision("commit", landing, [landing], [landing])
        return Decision("unexplained", lifted, [lifted], [lifted])

    inf._explain = stub
    d = inf.explain(board, {}, snap, *before[:3], 1.0)
    assert seen == [occ, occ | {ply.dst}]
    assert d.kind == "ambiguous" and d.best is landing
    # A first reading that fits is all there is.
    seen.clear()
    inf._explain = lambda occupied, *args: (seen.append(occupied),
                                            Decision("match", lifted, [lifted], [lifted]))[1]
    assert inf.explain(board, {}, snap, *before[:3], 1.0).kind == "match"
    assert seen == [occ]
