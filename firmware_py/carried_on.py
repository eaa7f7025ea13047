"""Where a move went when the board cannot tell its landings apart.

A landing read while its stack may still be in the hand is recorded provisionally
(`recorder`), and the snapshot it was read on, the stack perhaps still in the air, becomes the
reference. Where noise does not dither the readings (a quiet 10-bit board:
`Inference.dithered`), a landing on a tall stack adds less than a code, and against that
reference, its readings about the recorded landing left loose for a hover, the move as recorded
and the move set down on another stack near it fit alike once the hand has carried the stack
on. Against the board at rest before the move (`Reference.before`) the whole move shows: its
source emptied and its landing grown. So, on such readings (quiet rough 10-bit board, mistakes
0.3, a stack slid low over one stack and set down on the next):

- a still board read as the open move as recorded, where against the board before the move
  another landing of its stack fits better by the margin, asks about both rather than letting
  the recorded landing stand after a still while (`landed_elsewhere`; seed 285);
- a ply read on top of the open move as recorded while its landing is in doubt, its stack seen
  in the hand as another stack was lifted (`Recorder.carried`) or its landing asked about and
  not answered (`Recorder.asked_about`), is taken with it only when, against the board before
  the move, the move as recorded fits better than the move set down anywhere else by the
  margin; else both are asked about (`asked_on_top`, for `Decisions.went_on`; seeds 278, 307).

Where noise dithers the readings a landing may still read faintly: on a rough board a landing
pushes the stack below aside, and a piece set on one piece can read a tenth of its model. So a
still board unsure only whether the move as recorded landed or its stack is still in the hand
(`in_hand_only`), where another landing of its stack fits within the margin, asks when that
landing fits better at all against the board before the move, and plausibly (within
`fit_limit`: with a stack set back off its place since, nothing may explain that board)
(`landed_elsewhere`; rough 10-bit, mistakes 1.0, seed 33: j5 slid low over k5 to j4, j5k5 59,
j5j4 64, j5 in the hand 68; before the move j5j4 20, j5k5 38).
"""

from __future__ import annotations

from .candidates import AMEND_NONE, Decision
from .landing_wait import HELD_KINDS


def asked_on_top(again, recorder, reference, board, pending, snap) -> bool:
    """Whether `again` (`Decisions.went_on`'s meanings of a ply read on top of the open move of
    `board`, 'ambiguous', the move as recorded best) is to be asked as it stands: the move's
    landing is in doubt (above), the move changed fits within the margin (among its rivals),
    and read against the board before the move it does not fit clearly worse. If so, the
    stack of the ply on top is the recorder's `moved_on`: the board is read with the move
    changed under it from now on, so that an answer about the ply on top (its stack lifted
    and set back reads anywhere) leaves the question about the move."""
    best, inference = again.best, reference.inference
    if (not (recorder.carried or recorder.asked_about) or best is None or best.amends
            or not undithered(inference, board)
            or not any(c.kind == "commit" and c.amends for c in again.rivals)
            or kept_before(inference, reference, board, pending, snap)):
        return False
    moves = [p.src for p in best.plies if p.is_move]
    recorder.moved_on = moves[0] if moves else best.src  # (a forced pass, that stack lifted)
    return True


def landed_elsewhere(d, recorder, reference, board, pending, snap):
    """`d`, a still board read as the open move as recorded (a 'match', alone or with rivals),
    when read against the board before the move another landing of its stack fits better by
    the margin (where noise does not dither its landing), or at all (and within `fit_limit`)
    while `d` is unsure only whether the move's stack is still in the hand and that landing
    fits within the margin of it (`in_hand_only`): then with that landing as a rival
    ('ambiguous': asked, the move as recorded among the answers, rather than standing after a
    still while). Else `d` itself."""
    best, inference = d.best, reference.inference
    quiet = undithered(inference, board)
    if (not recorder.provisional or best is None or best.kind != "match" or best.amends
            or not (quiet or in_hand_only(d))
            or d.kind not in ("match", "ambiguous")):
        return d
    fits = _read_before(inference, reference, board, pending, snap)
    last = board.move_stack[-1]
    kept = fits.get(last) if fits else None
    if kept is None:
        return d
    if quiet:  # (a landing on a tall stack adds less than a code: clearly better)
        better = {p for p, chi2 in fits.items() if chi2 <= kept - inference.margin}
    else:  # (better at all, where the board before the move is explained at all)
        better = {p for p, chi2 in fits.items() if chi2 < min(kept, inference.fit_limit)}
    keys = {c.key for c in d.rivals}
    extra = [c for c in d.candidates if c.kind == "commit" and c.amends
             and c.plies[:1] and c.plies[0] in better and c.key not in keys
             and (quiet or c.chi2 - best.chi2 < inference.margin)]
    if not extra:
        return d
    return Decision("ambiguous", best, list(d.rivals) + extra[:1], d.candidates)


def in_hand_only(d) -> bool:
    """Whether `d` is unsure only whether the open move as recorded (its best) landed or its
    stack is still in the hand (`LandingWait.stands`: a still while decides that)."""
    return d.kind == "ambiguous" and all(c.kind in HELD_KINDS and c.amends
                                         for c in d.rivals[1:])


def undithered(inference, board) -> bool:
    """Whether the last move of `board` landed where noise does not dither the readings
    (`Inference.dithered`): only there does a landing on a tall stack read like nothing."""
    last = board.move_stack[-1] if board.move_stack else None
    return last is not None and last.is_move and not inference.dithered(last.dst)


def kept_before(inference, reference, board, pending, snap) -> bool:
    """Read against the board at rest before the last move of `board` (`Reference.before`),
    whether the move as recorded (with whatever came after it) fits better than that stack
    set down anywhere else by the margin."""
    fits = _read_before(inference, reference, board, pending, snap)
    kept = fits.get(board.move_stack[-1]) if fits else None
    return kept is not None and all(chi2 - kept >= inference.margin
                                    for p, chi2 in fits.items() if p != board.move_stack[-1])


def changed_before(inference, reference, board, pending, snap, change) -> bool:
    """Whether `change` (a move of the last move's stack, changing where it landed) fits
    `snap` better than the move as recorded by the margin read against the board at rest
    before the move too (True when that board cannot tell: the move changed since, another
    stack moved). A move read while its stack may still have been in the air has that
    snapshot for its reference: its landing, set down after, pushed the stack below aside,
    reads off there, and a landing next to it fits better against that reference alone
    (placed 3 mm off, nudges 2 mm, rough 10-bit m0.3 seed 2: i5h5 changed to i5h4 unasked,
    138.8 against 318.9)."""
    fits = _read_before(inference, reference, board, pending, snap)
    last = board.move_stack[-1] if board.move_stack else None
    kept = fits.get(last) if fits else None
    new = fits.get(change) if fits else None
    return kept is None or new is None or new <= kept - inference.margin


def _read_before(inference, reference, board, pending, snap) -> dict | None:
    """The last move of `board` and every other move of its stack, each with how well it
    fits `snap` (with whatever came after it: the best chi-square) read against the board at
    rest before the move (`Reference.before`); None when that board is not the one before the
    move (the move changed since, a stack cleared)."""
    last = board.move_stack[-1] if board.move_stack else None
    if reference.before is None or last is None or not last.is_move:
        return None
    values, frames, stacks, time = reference.before
    prev = board.copy()
    prev.pop()
    physical = prev.stacks()
    for space, stack in pending.items():
        physical[space] = stack
    if [tuple(s) for s in physical] != [tuple(s) for s in stacks]:
        return None
    loose, inference.loose = inference.loose, {}  # (loose for a hover: the board after)
    try:
        read = inference.explain(prev, pending, snap, values, frames, stacks,
                                 snap.time - time, amendable=AMEND_NONE)
    finally:
        inference.loose = loose
    fits: dict = {}
    for c in read.candidates:
        if c.kind == "commit" and c.plies[0].is_move and c.plies[0].src == last.src:
            fits[c.plies[0]] = min(c.chi2, fits.get(c.plies[0], c.chi2))
    return fits
