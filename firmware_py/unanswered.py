"""A ply read on top of a move whose landing was asked about, and not answered.

The question about where the move landed is dropped when something else takes the LEDs (an
error for a stack lifted by mistake) and the players go on; the move stays open
(`Recorder.asked_about`), and the next still board reads the next ply on top of it. The readings
that asked have not become an answer, so that ply is not taken on the move as recorded: the
question comes back, with that ply on the move as recorded and on each change of the move that
fits about as well (rough 10-bit, mistakes 1.0, seed 33: "k5, i4 or j4?" about j5's landing,
f3 lifted by mistake, then i4k4 read on top of j5k5, 37.6 against 70.6 with j5j4 under it).
"""

from __future__ import annotations

from .candidates import Decision


def still_asked(d: Decision, recorder, margin: float) -> Decision:
    """`d`, a still board read as a ply on top of the open move as recorded: when the move's
    landing was asked about and not answered, the question with `d`'s best and each change of
    the move under the same plies within twice the `margin` of it (as an open question keeps
    its rivals, `Questions.ask`). Else `d` itself."""
    best = d.best
    if (not (recorder.provisional and recorder.asked_about) or d.kind != "commit"
            or best.amends or not best.plies):
        return d
    kept = [c for c in d.candidates if c.kind == "commit" and c.amends
            and c.plies[1:] == best.plies and c.chi2 - best.chi2 < 2 * margin]
    return Decision("ambiguous", best, [best] + kept, d.candidates) if kept else d
