"""The check that a ply is the one shown: on the computer's turns only the ply it shows on the
LEDs (`state.hint`) may be recorded; any other ply, or a lift of another stack, is an error
there until put back. (A remote player's ply can be checked the same way: another source of
the shown ply.)

>>> from firmware_py.rules import Board, Ply
>>> script = Script()
>>> script.computer = frozenset({1})             # the computer plays Black
>>> board = Board(); board.push(Ply.parse("e3"))  # Black to place
>>> script.expected_src(board, None, 5)          # it is still thinking: nothing may move
"""

from __future__ import annotations

from .i18n import _
from .rules import PASS, Board
from .spaces import SPACES


class Script:
    """computer: the colours (rules.WHITE / BLACK) whose plies must be the one shown."""

    def __init__(self):
        self.computer: frozenset = frozenset()
        self.names: dict[int, str] = {}  # colour -> who shows the ply ("black, far away")

    def mover(self, board: Board) -> int:
        """The colour to make the next move (after a forced pass, the other one)."""
        if board.phase == 2 and board.legal_plies() == [PASS]:
            return 1 - board.turn
        return board.turn

    def off_script(self, board: Board, hint, cand):
        """The first ply of `cand` made on the computer's turn that is not the one it shows
        (`hint`; any ply while it is still thinking), or None when all are as shown."""
        if not self.computer:
            return None
        board = board.copy()
        if cand.amends:
            board.pop()
        first = True
        for ply in cand.plies:
            if not ply.is_pass:
                if board.turn in self.computer and not (first and ply == hint):
                    return ply
                first = False
            board._push(ply)
        return None

    def expected_src(self, board: Board, hint, src: int | None) -> int | None:
        """The stack that may be lifted in the recorded position: the shown move's source on
        the computer's turn (None while it thinks), else `src` itself."""
        if not self.computer or self.mover(board) not in self.computer:
            return src
        return hint.src if hint is not None and hint.is_move else None

    def flag(self, st, ply, lifted: int | None = None) -> None:
        """A ply (or a lift from `lifted`) on the computer's turn that is not the one it
        shows: an error there until the board is put back."""
        st.clear_marks()
        st.mode = "error"
        st.error = [lifted if ply is None else ply.dst]
        hint = st.hint
        who = self.names.get(self.mover(st.board))
        put = (_("put the stack back on {space}").format(space=SPACES[lifted]) if ply is None
               else _("take it back"))
        st.message = (_("{who} plays {ply}: {put}").format(who=who or _("the computer"),
                                                           ply=hint, put=put)
                      if hint is not None else
                      _("wait for the computer's move: {put}").format(put=put) if who is None else
                      _("wait for {who} to play: {put}").format(who=who, put=put))
