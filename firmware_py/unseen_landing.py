"""A landing read where nothing changed: a stack gone from its space read as moved onto a
space whose reading has not moved since the board was last still.

A stack knocked aside lies beside its space (`alternatives.knocked`). Lying near a landing read
while a hand still held its stack (its reference off by what the hand's letting go changed),
the stale reading there can fit the knocked stack set down on top better than lying beside
(rough 12-bit, bad noise, mistakes 0.6, seed 6: g1h1 read as the hand set it down, h1 then
read 1.8 mT off; h2, knocked towards it, was read as h2h1, chi2 94 against 156: a wrong ply).
Against the board still just before, a move whose stack stood there shows whole: its source
emptied and its landing changed. So a landing that reads as it did on that board, where the
model says it changes clearly, is asked about, with the best meaning that lands elsewhere
(`landed_unseen`); never taken from the readings alone.
"""

from __future__ import annotations

from .candidates import Decision

CLEAR = 2.0
"""A landing the model says changes its reading by this many times `Inference.change_limit`
(more than noise and rounding can) must show a change. (3 missed the same knock on the rough
10-bit board, seed 6: h2h1 would add 1.13 mT on h1, the limit there 0.38.)"""


def landed_unseen(d: Decision, before, snap, inference, reference) -> Decision:
    """`d`, unless it commits a move whose stack stood on `before` (the last still board
    before the stacks standing last changed, a `settle.Snapshot`) and whose landing reads no
    change towards it since (nor one the stack lying aside could not make), though
    the landing clearly changes it against the `reference`: then a question between it and
    the best meaning landing on none of those spaces."""
    if d.kind != "commit" or before is None or reference.values is None:
        return d
    best = d.best
    stood = inference.occupancy(before.values)
    unseen = set()
    for p in best.plies:
        if not p.is_move or p.src not in stood or best.stacks[p.dst] == reference.stacks[p.dst]:
            continue
        t, moved = p.dst, reference.stacks[p.src]
        if not moved:
            continue
        limit = inference.change_limit(t, snap.frames, before.frames)
        grows = inference.model.delta({t: best.stacks[t]}, reference.values,
                                      reference.stacks)[0].get(t, 0.0)
        change = snap.values[t] - before.values[t]
        # (A change the other way is no landing either, up to what the stack lying beside
        # could make there: beyond, the landing pushed the stack below aside, as on a rough
        # board it can: seed 4, c3b3 read -3.5 mT on b3, where the model says it grows.)
        lo, hi = inference.model.lying_range(moved)
        lying = min(lo, 0.0) - limit <= change <= max(hi, 0.0) + limit
        toward = change if grows > 0 else -change
        if abs(grows) > CLEAR * limit and toward <= limit and lying:
            unseen.add(t)
    if not unseen:
        return d
    rival = next((c for c in d.candidates if c is not best and c.chi2 < 1e9
                  and not any(p.is_move and p.dst in unseen for p in c.plies)), None)
    if rival is None:
        return d
    return Decision("ambiguous", best, [best, rival], d.candidates,
                    unchanged=frozenset(unseen))
