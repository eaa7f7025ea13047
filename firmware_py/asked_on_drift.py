"""A ply asked about and not answered, decided later by readings of sensors drifting too fast.

A question about where a stack landed may be dropped unanswered (the board reads the position
as unexplained for a moment, the next player goes on), and the next still board read with that
ply and the next one on top of it. Where a sensor drifts faster than the board can follow (named
to the player, `FaultWatch.drifting`), the readings that asked have only aged since: they are no
answer. So a commit that picks one of the asked landings over another, where either's sensor is
so named, is asked again, with each asked landing under the same later plies (drift 6 mT a
minute, default 10-bit m0.3 seed 1: "f4, h4, h2?" about f2's move dropped, then f2f4 j3i2
taken on readings 30 s old, h2 the truth and named, a wrong ply).
"""

from __future__ import annotations

from .candidates import Decision


def asked_on_drift(d: Decision, asked, ply_count: int, drifting) -> Decision:
    """`d`, a still board read as a commit; `asked`: (ply count, first plies) of the last
    question about a new ply (`Questions.asked_first`); `drifting`: the sensors drifting faster
    than the board can follow. The question again when `d` decides among those plies where
    such a sensor reads a landing; else `d` itself. (Any sensor drifting unsure, not only
    those named, stalled drift 3 mT a minute rough 12-bit m0.3 seed 1.)"""
    best = d.best
    if (d.kind != "commit" or not drifting or asked is None or asked[0] != ply_count
            or best.amends or not best.plies or best.plies[0] not in asked[1]):
        return d
    kept = [c for c in d.candidates if c.kind == "commit" and not c.amends
            and c.plies[1:] == best.plies[1:] and c.plies[0] in asked[1]
            and c.plies[0] != best.plies[0]]
    landings = [p.dst for p in [best.plies[0]] + [c.plies[0] for c in kept] if p.is_move]
    if not kept or not drifting.intersection(landings):
        return d
    return Decision("ambiguous", best, [best] + kept, d.candidates)
