"""Stacks whose magnets cancel: how weakly a stack that stood may read and still stand.

Pieces of both colours carry their magnets in opposite directions, so a tall stack of mixed
pieces can read far weaker than one piece (rough quiet 10-bit seed 305: seven pieces, 9 mT).
A landing on it pushes it aside by up to a millimetre, which on a rough board moves its reading
by several mT (`BoardModel.nudge_span`): there it read 3.6 mT, under `STANDING_MT`, and the
board took the stack for lifted, for good. Such a stack still stands down to what it read less
what a nudge can take away, and never below what a stack lifted or knocked aside leaves on its
space (`LIFTED_MT`): a stack reading stronger than 13 mT or so keeps `STANDING_MT`.
"""

from __future__ import annotations

from .spaces import N_SPACES

STANDING_MT = 6.0
"""A space whose stack stood in the reference still holds one down to this: nudged far off its
place under pieces of the other polarity, a stack reads as little as 13 mT on a rough board,
while one lifted or knocked aside leaves `LIFTED_MT` at most. (A stack whose magnets cancel
reads weaker: `standing_limits`.)"""
LIFTED_MT = 2.0
"""The most a stack lifted or knocked aside leaves on its space (cross-talk, its return field)."""


def standing_limits(model, values, stacks) -> dict[int, float]:
    """For each space holding a stack in `stacks` (read as `values`): how far (codes) from its
    baseline a reading still shows that stack standing."""
    cal = model.cal
    usual, least = STANDING_MT * cal.codes_per_mt, LIFTED_MT * cal.codes_per_mt
    limits = {}
    for s in range(N_SPACES):
        if stacks[s]:
            own = abs(values[s] - cal.baseline[s])
            lowest = own - model.nudge_span(s, stacks[s])  # the least it reads still standing
            limits[s] = max(least, min(usual, lowest))
            if s in cal.unread:  # its baseline only estimated: lifted, it may read that far off
                limits[s] = max(limits[s], 0.5 * own)
            elif s in cal.aged:  # lifted, it reads as far off as its baseline may have aged
                limits[s] = max(limits[s], min(cal.aged[s] + least, lowest))
    return limits


def unsure_standing(inference, values, occ) -> frozenset:
    """The spaces whose stack stood in the reference and now reads neither as standing nor as
    gone: weaker than its standing limit, stronger than a stack lifted leaves (`LIFTED_MT`).
    A piece landed on a stack whose magnets nearly cancel can make it read so (placed 3 mm
    off + nudges 2 mm, default 12-bit m0.3 seed 3: k3 onto k4's W-B, W-B-B read 4.8 mT
    against a limit of 5.65): the readings cannot say whether it stands, the fit may."""
    cal = inference.model.cal
    least = LIFTED_MT * cal.codes_per_mt
    return frozenset(s for s in inference.standing
                     if s not in occ and s not in inference.unreliable
                     and s not in cal.unread and abs(values[s] - cal.baseline[s]) > least)
