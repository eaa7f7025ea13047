"""The first settled board of a game: the empty board read, or a resumed game's pieces checked.

The controller starts in `calibrating`. Its first settled snapshot decides how play begins:

- a new game wants an empty board. Pieces seen on it are asked to be cleared (or, if the player
  confirms the space is empty, its sensor is faulty: `faults.FaultWatch.ask_clear`); an empty
  board gives every sensor its baseline and becomes the first reference
  (`reference.Reference.start_empty`);
- a resumed game (the controller built on a restored board) wants its pieces as recorded. Where
  they differ (a stack missing or extra, or a bottom piece whose magnet reads the wrong way up)
  the board is `unexplained` and the players are told what to set up; where they match, the
  calibration learns what a fresh game would have learned (`reference.Reference.resume`).

`start` returns True when the board is as the game says: the controller then shows whose turn
it is. Until then it reads the board again at each settled snapshot.
"""

from __future__ import annotations

from .i18n import _
from .mismatch import difference_text
from .state import BoardState


def start(st: BoardState, snap, faults, inference, reference, wait_s: float) -> bool:
    """Read the first settled snapshot `snap` of the game in `st` (see the module docstring).

    faults: the `FaultWatch` (sensors at a rail are marked first); inference: says which spaces
    are occupied; reference: the `Reference` that starts from this snapshot; wait_s: how long
    pieces on a new game's board stay before a suspect sensor is offered.
    """
    if faults.check(snap):
        st.message = faults.note()
    occ = inference.occupancy(snap.values)
    if st.board.ply_count == 0:
        if occ:  # pieces on the board at the start: clear them (or confirm a bad sensor)
            faults.ask_clear(st, sorted(occ), snap, wait_s)
            return False
        faults.suspects, faults.suspect_since = [], None
        reference.start_empty(snap)
        return True
    stacks = st.board.stacks()
    expected = faults.seen(stacks)
    wrong_sign = reference.wrong_polarity(snap.values, stacks, expected & occ)
    if occ != expected or wrong_sign:
        st.mode = "unexplained"
        st.missing = sorted(expected - occ)
        st.extra = sorted((occ - expected) | set(wrong_sign))
        st.message = _("set up the game as recorded: {difference}").format(
            difference=difference_text(st))
        return False
    reference.resume(snap, stacks, expected)
    return True
