"""What the board says: game events turned into phrases for a speaker (`voice`).

`Announcer.observe(state)` is called after every change of the `BoardState` (the session's
subscribers; autoplay after each frame). It compares with what it saw last and says what
happened: plies committed (moves, placements, forced passes), takebacks, the stacks to take off,
mistakes and questions (the controller's own lines), the end and the score, the computer's or a
hint's ply, the clock's low time. `say_situation(state)` answers the `say` button: after a lift,
the stack and where it may go; when idle, whose turn and the last ply; else the board's line.

>>> from firmware_py.rules import Board
>>> move_phrase(Board.from_plies(["e3", "f3"]), Ply.parse("g3"))
'White places a DVONN piece on g3'
"""

from __future__ import annotations

from .i18n import _, ngettext
from .rules import PASS, WHITE, Board, Ply
from .spaces import SPACES

SPOKEN_MODES = {"error": "error", "asking": "question", "unexplained": "notice",
                "paused": "notice", "link_lost": "notice", "calibrating": "notice"}
"""Modes whose line the board says as it is (the controller's words), and their kind."""


def player(side: int) -> str:
    return _("White") if side == WHITE else _("Black")


def names(spaces) -> str:
    return ", ".join(SPACES[s] for s in spaces)


def ply_words(ply: Ply) -> str:
    """'e3 to f3' or 'e3'."""
    if ply.is_move:
        return _("{src} to {dst}").format(src=SPACES[ply.src], dst=SPACES[ply.dst])
    return SPACES[ply.dst]


def move_phrase(before: Board, ply: Ply) -> str:
    """What `ply` (played on `before`) does, in words: who, from where to where, onto what."""
    who = player(before.turn)
    if ply.is_pass:
        return _("{player} cannot move and passes").format(player=who)
    if ply.is_placement:
        if before.piece_to_place() == "D":
            return _("{player} places a DVONN piece on {space}").format(
                player=who, space=SPACES[ply.dst])
        return _("{player} places a piece on {space}").format(player=who, space=SPACES[ply.dst])
    height = before.height(ply.dst)
    words = dict(player=who, src=SPACES[ply.src], dst=SPACES[ply.dst], height=height)
    if height == 1:  # (a piece, not a stack: two sentences, not the plural of one)
        return _("{player}, {src} to {dst}, onto a single piece").format(**words)
    return _("{player}, {src} to {dst}, onto a stack of {height}").format(**words)


def removal_phrase(spaces) -> str:
    return ngettext("take off the stack on {spaces}", "take off the stacks on {spaces}",
                    len(spaces)).format(spaces=names(spaces))


def end_phrase(board: Board, line: str = "") -> str:
    """The end and the score; a game ended otherwise (a flag) says its own line."""
    if not board.is_over():
        return line or _("the game is over")
    white, black = board.score()
    winner = board.winner()
    if winner == "draw":
        return _("game over: a draw, {white} to {black}").format(white=white, black=black)
    return _("game over: {player} wins, {won} to {lost}").format(
        player=player(winner), won=max(white, black), lost=min(white, black))


def stack_phrase(board: Board, space: int) -> str:
    """'white stack of 2 on e3' / 'a DVONN piece on e3'."""
    stack = board.stack(space)
    owner = board.owner(space)
    if owner is None:
        return _("a DVONN piece on {space}").format(space=SPACES[space])
    words = dict(player=player(owner), height=len(stack), space=SPACES[space])
    if len(stack) == 1:
        return _("{player} piece on {space}").format(**words)
    return _("{player} stack of {height} on {space}").format(**words)


def situation(state) -> str:
    """What the `say` button says now (see the module docstring)."""
    board = state.board
    if state.mode == "lifted" and state.lifted is not None:
        held = stack_phrase(board, state.lifted)
        if not state.destinations:
            return _("{stack}, may not move").format(stack=held)
        return _("{stack}, may go to {spaces}").format(stack=held,
                                                       spaces=names(state.destinations))
    if state.mode == "removing":
        return removal_phrase(state.remove)
    if state.mode == "over":
        return end_phrase(board, state.message)
    if state.mode == "idle":
        if state.hint is not None:  # the computer's ply (or a hint) for a person to carry out
            return _("{turn}; to play: {ply}").format(turn=idle_phrase(board, last=False),
                                                      ply=ply_words(state.hint))
        return idle_phrase(board)
    return state.message or idle_phrase(board)


def idle_phrase(board: Board, last: bool = True) -> str:
    """Whose turn, what to do, and (with `last`) the last ply."""
    piece = board.piece_to_place()
    if piece == "D":
        turn = _("{player} to place a DVONN piece").format(player=player(board.turn))
    elif piece is not None:
        turn = _("{player} to place a piece").format(player=player(board.turn))
    elif board.legal_plies() == [PASS]:
        turn = _("{player} cannot move and passes").format(player=player(board.turn))
    else:
        turn = _("{player} to move").format(player=player(board.turn))
    played = next((p for p in reversed(board.move_stack) if not p.is_pass), None)
    if played is None or not last:
        return turn
    return _("{turn}; last: {ply}").format(turn=turn, ply=ply_words(played))


class Announcer:
    """Says what changed between the states it observes (see the module docstring).

    speaker: a `voice.Speaker` (`say(text, kind)`); computer: the colours the computer plays
    (its plies are said as its, not as a hint).
    """

    def __init__(self, speaker, computer=frozenset()):
        self.speaker = speaker
        self.computer = frozenset(computer)
        self._seen = None   # a cheap key of the last state observed
        self._board = None  # id() of the game's board: another one is a new game
        self._plies: list[Ply] | None = None
        self._mode = self._line = None
        self._remove: tuple = ()
        self._hint = None
        self._low = False
        self._ended: list[Ply] | None = None  # the plies when the end was said

    def observe(self, state) -> None:
        board = state.board
        clock = state.clock
        low = bool(clock is not None and clock.low)
        key = (id(board), board.ply_count, board.key(), state.mode, state.message,
               tuple(state.remove), state.hint, low)
        if key == self._seen:
            return
        self._seen = key
        if self._plies is None or id(board) != self._board:
            # The first look (what is already there was said before), or a new game.
            if self._plies is not None:
                self.speaker.say(_("new game"), "notice")
            self._board, self._plies = id(board), list(board.move_stack)
            self._mode, self._line = state.mode, state.message
            self._remove, self._hint, self._low = tuple(state.remove), state.hint, low
            return
        self._plies_changed(board)
        self._mode_changed(state)
        if state.hint != self._hint:
            self._hint = state.hint
            if state.hint is not None and state.mode in ("idle", "removing", "lifted"):
                self._say_hint(board, state.hint)
        if low and not self._low:
            self._say_low(clock)
        self._low = low

    def say_situation(self, state) -> None:
        self.speaker.say(situation(state), "situation")

    def close(self) -> None:
        self.speaker.close()

    # -- inside -----------------------------------------------------------------------------------
    def _plies_changed(self, board: Board) -> None:
        now = board.move_stack
        old = self._plies
        same = 0
        while same < min(len(old), len(now)) and old[same] == now[same]:
            same += 1
        if old[same:]:
            self._ended = None  # taken back: the end, reached again, is said again
        for ply in reversed(old[same:]):
            if not ply.is_pass:
                self.speaker.say(_("taken back: {ply}").format(ply=ply_words(ply)), "takeback")
        if len(now) > same:
            before = board.copy()
            for _n in range(len(now) - same):
                before.pop()
            for ply in now[same:]:
                kind = "pass" if ply.is_pass else "placement" if ply.is_placement else "move"
                self.speaker.say(move_phrase(before, ply), kind)
                before.push(ply)
        self._plies = list(now)

    def _mode_changed(self, state) -> None:
        mode, line = state.mode, state.message
        remove = tuple(state.remove)
        if mode == "removing" and set(remove) - set(self._remove):  # (not each one taken off)
            self.speaker.say(removal_phrase(remove), "remove")
        elif mode == "over" and self._mode != "over":
            if self._ended != self._plies:  # (not again for a last move left open, re-shown)
                self.speaker.say(end_phrase(state.board, line), "end")
            self._ended = list(self._plies)
        elif mode in SPOKEN_MODES and line and (mode, line) != (self._mode, self._line):
            self.speaker.say(line, SPOKEN_MODES[mode])
        self._mode, self._line, self._remove = mode, line, remove

    def _say_hint(self, board: Board, hint: Ply) -> None:
        side = board.turn if not board.legal_plies() == [PASS] else 1 - board.turn
        if side in self.computer:
            text = _("{player} plays {ply}").format(player=player(side), ply=ply_words(hint))
        else:
            text = _("hint: {ply}").format(ply=ply_words(hint))
        self.speaker.say(text, "hint")

    def _say_low(self, clock) -> None:
        side = clock.running if clock.running is not None else WHITE
        seconds = int(clock.left[side])
        self.speaker.say(ngettext("{player}, low on time: {seconds} second left",
                                  "{player}, low on time: {seconds} seconds left",
                                  seconds).format(player=player(side), seconds=seconds), "clock")

