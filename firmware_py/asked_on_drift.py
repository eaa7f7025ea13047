"""A ply asked about and not answered, decided later by readings of sensors drifting unsure.

A question about where a stack landed may be dropped unanswered (the board reads the position
as unexplained for a moment, the next player goes on), and the next still board read with that
ply and the next one on top of it. On a board whose sensors drift by more than it follows
(`Drift.unsure`), the readings that asked have only aged since: they are no answer. So a commit
that picks one of the asked landings over another, where a sensor of either drifts unsure, is
asked again, with each asked landing under the same later plies (drift 6 mT a minute, default
10-bit m0.3 seed 1: "f4, h4, h2?" about f2's move dropped, then f2f4 j3i2 taken on readings
30 s old, h2 the truth, a wrong ply).
"""

from __future__ import annotations

from .candidates import Decision


def asked_on_drift(d: Decision, asked, ply_count: int, unsure) -> Decision:
    """`d`, a still board read as a commit; `asked`: (ply count, first plies) of the last
    question about a new ply (`Questions.asked_first`); `unsure`: each sensor's drift not
    followed (`Inference.drift_unsure`). The question again when `d` decides among those
    plies on drifting sensors; else `d` itself."""
    best = d.best
    if (d.kind != "commit" or not unsure or asked is None or asked[0] != ply_count
            or best.amends or not best.plies or best.plies[0] not in asked[1]):
        return d
    kept = [c for c in d.candidates if c.kind == "commit" and not c.amends
            and c.plies[1:] == best.plies[1:] and c.plies[0] in asked[1]
            and c.plies[0] != best.plies[0]]
    landings = [p.dst for p in [best.plies[0]] + [c.plies[0] for c in kept] if p.is_move]
    if not kept or not any(unsure[s] > 0 for s in landings):
        return d
    return Decision("ambiguous", best, [best] + kept, d.candidates)
