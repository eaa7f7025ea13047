"""The first settled board of a game: the empty board read, or a resumed game's pieces checked.

The controller starts in `calibrating`. Its first settled snapshot decides how play begins:

- a new game wants an empty board. Spaces that read like pieces (`OCCUPIED_MT` from their
  baselines) are named: the player clears them, or confirms they are empty (`confirm_empty`:
  their readings become their baselines; only a sensor at a rail or stuck is marked faulty). A
  sensor's quiescent offset cannot be told from a piece until the board has read it empty: the
  baselines start at mid-scale, and a cheap Hall sensor (the SS49E class) sits up to +-20 mT
  off it, while a piece reads 35 mT or more from its own baseline, either way (issue 19: 14 of
  49 spaces read "like a piece" and confirm marked them faulty). A saved calibration
  (`dvonn-board diag calibrate`), or an earlier game of the session, knows the baselines: then
  only pieces are named. An empty board gives every sensor its baseline and becomes the first
  reference (`reference.Reference.start_empty`);
- a resumed game (the controller built on a restored board) wants its pieces as recorded (with
  sensors' offsets unknown, no saved calibration: an empty space off mid-scale is named as a
  stack to take off; the baselines under its pieces could not be read anyway). Where
  they differ (a stack missing or extra, or a bottom piece whose magnet reads the wrong way up)
  the board is `unexplained` and the players are told what to set up; where they match, the
  calibration learns what a fresh game would have learned (`reference.Reference.resume`).
  With no baselines at all (no calibration file), confirm takes the board as recorded
  (`confirm_as_recorded`): the stacks' baselines are read when they leave.

`start` returns True when the board is as the game says: the controller then shows whose turn
it is. Until then it reads the board again at each settled snapshot.
"""

from __future__ import annotations

from .i18n import _
from .faults import names
from .mismatch import difference_text
from .state import BoardState


def start(st: BoardState, snap, faults, inference, reference) -> bool:
    """Read the first settled snapshot `snap` of the game in `st` (see the module docstring).

    faults: the `FaultWatch` (sensors at a rail are marked first, and stuck ones on a new
    game's empty board); inference: says which spaces are occupied; reference: the
    `Reference` that starts from this snapshot.
    """
    if faults.check(snap):
        st.message = faults.note()
    occ = inference.occupancy(snap.values)
    if st.board.ply_count == 0:
        if occ:  # pieces on the board at the start, or sensors off their baselines
            ask_clear(st, sorted(occ))
            return False
        st.clear_marks()
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
        if not inference.model.cal.baseline_known:
            st.message += ". " + _("If the board stands as recorded, press confirm: its "
                                  "empty spaces' readings are taken as empty (the sensors' "
                                  "offsets are not known yet)")
        return False
    reference.resume(snap, stacks, expected)
    return True


def ask_clear(st: BoardState, occupied: list) -> None:
    """Spaces that read like pieces on a new game's board: lit, and the two ways on named."""
    st.clear_marks()
    st.mode = "calibrating"
    st.extra = occupied
    st.message = _("clear the board: pieces on {spaces}? If those spaces are empty, press "
                   "confirm: their sensors' readings are taken as empty (a sensor's offset, not "
                   "a fault)").format(spaces=names(occupied))


def confirm_empty(st: BoardState, snap, faults, inference, reference) -> bool:
    """The player says the spaces named (`st.extra`) are empty: on `snap` (the board as it
    stands now) their readings become their baselines, and the board is read again (`start`).
    A sensor at a rail or stuck is then marked faulty by `faults.check`; nothing else is (an
    offset is no fault). A space that reads like a piece and was not named (set down since)
    is named in turn. Returns what `start` returns."""
    if snap is not None and st.board.ply_count == 0:
        baseline = inference.model.cal.baseline
        for s in inference.occupancy(snap.values) & set(st.extra):
            baseline[s] = float(snap.values[s])
        return start(st, snap, faults, inference, reference)
    return False


def confirm_as_recorded(st: BoardState, snap, faults, reference) -> bool:
    """The player says a resumed game stands as recorded, on a board with no baselines (no
    calibration file): a space that reads like a stack may be an empty one's sensor offset,
    and a stack may read weakly against a sensor off the other way, so only the player can
    tell. On `snap` the empty spaces' readings become their baselines; those under the stacks
    stay unknown (`Calibration.unread`) until their stacks leave. Returns True when taken."""
    if snap is None or st.board.ply_count == 0 or reference.cal.baseline_known:
        return False
    stacks = st.board.stacks()
    st.clear_marks()
    reference.resume(snap, stacks, faults.seen(stacks), offsets_unknown=True)
    return True
