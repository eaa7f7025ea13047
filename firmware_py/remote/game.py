"""The host's side of a game against someone far away: what the remote side may do, decided
against the host's record (the truth), and what each side is told.

`RemoteGame` sits beside a `Session`. The session's loop reports every change (`observe`, from
`session.subscribe`); the network thread hands in the remote side's messages (`receive`) and
reads what to tell them (`view`). Nothing here waits on the network, and the network never
waits on the board: a flood of messages costs the board's loop nothing but a lock held for
microseconds.

The remote ply is not recorded when it arrives: it becomes the line's next ply (`line.Line`),
which the session shows on the LEDs like the computer's ply, and the controller records it once
the local player has carried it out. Takebacks and draws need both sides: one offers, the other
accepts (at the board: the undo button accepts a takeback, confirm accepts a draw; the undo
button with no offer open asks the remote side for a takeback). The local player's own draw
offers and resignation: `end` (the local page) and the new game button (`ending.Menu`).
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from ..i18n import _
from ..rules import PLAYER_NAMES, WHITE, BLACK, Ply
from ..web.view import stacks_view
from .ending import Menu, summary
from .line import Line, position_for, tokens

log = logging.getLogger(__name__)

COLOURS = {"white": WHITE, "black": BLACK}


class Refused(ValueError):
    """A message the game cannot take now; the text says why (sent back to the remote side)."""


class RemoteGame:
    """colour: the side played from far away. session: the host's `Session` (built with
    `computer=[game.line]`, so the remote plies are its shown plies); attach with `attach()`."""

    def __init__(self, colour: int):
        self.colour = colour
        self.line = Line(colour)
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self._session = None
        self.game_id: int | None = None
        self.record: list[str] = []
        self.ahead: list[str] = []  # the remote plies sent but not yet carried out (and the
        #                             forced passes before them): the line is record + ahead
        self.offer: dict | None = None               # {"what", "by": colour, "n"}
        self.result: str | None = None               # '1-0', '0-1', '1/2-1/2' once decided
        self.reason = ""                             # 'resigned', 'draw agreed', ''
        self.resigned: int | None = None             # the colour that resigned
        self.menu = Menu()                           # the board's buttons ending the game
        self._position = position_for([])

    # -- wiring -----------------------------------------------------------------------------------
    def attach(self, session) -> None:
        """Follow `session` (its loop calls `observe` after every change)."""
        self._session = session
        session.far_away = self  # the front ends' undo and confirm go through local_button too
        session.subscribe(self.observe)
        self.observe(session)

    def on_change(self, callback: Callable[[], None]) -> None:
        """`callback()` (from any thread) whenever what the remote side sees changed."""
        self._listeners.append(callback)

    def _changed(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:  # a broken viewer must not stop the game
                log.exception("listener failed")

    # -- from the board's loop --------------------------------------------------------------------
    def observe(self, session) -> None:
        """The session changed: take its record (called in its loop thread)."""
        board = session.state.board
        record = tokens(board.move_stack)
        game_id = session.game_id
        over = board.is_over()
        with self._lock:
            if game_id == self.game_id and record == self.record and not (
                    over and self.result is None):
                return
            if game_id != self.game_id:
                self.ahead, self.offer, self.result, self.reason = [], None, None, ""
                self.resigned, self.menu.armed = None, False
            line = self.record + self.ahead
            if len(record) >= len(self.record) and line[:len(record)] == record:
                # the remote plies carried out so far are done
                self.ahead = line[len(record):]
            else:                             # taken back (or a new game): nothing ahead
                self.ahead = []
            self.game_id, self.record = game_id, record
            self.menu.disarm()  # "end the game?" lapses when the game goes on
            self._position = position_for(record + self.ahead)
            if self.offer is not None and self.offer["n"] != len(record):
                self.offer = None    # a ply was played or taken back since: void
            if over and self.result is None:
                white, black = board.score()
                self.result = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
            self._set_line()
        self._changed()

    def _set_line(self) -> None:
        self.line.set(self.record + self.ahead)

    @property
    def pending(self) -> str | None:
        """The last remote ply sent and not carried out yet."""
        return next((p for p in reversed(self.ahead) if p != "pass"), None)

    # -- the board's buttons (see `RemoteButtons`) ------------------------------------------------
    def local_button(self, name: str) -> bool:
        """The local player pressed `name`: True to let the board act on it (the undo accepting
        the remote side's takeback offer), False when it became a message instead (new game
        asks "end the game?": `ending.Menu`)."""
        ending = self.menu.press(name, self)
        if ending is not None:
            self._changed()
            return ending
        with self._lock:
            offer = self.offer
            remote_offer = offer is not None and offer["by"] == self.colour
            if name == "undo":
                if remote_offer and offer["what"] == "takeback":
                    self.offer = None
                    return True
                if self.result is None and self.record and offer is None:
                    self.offer = {"what": "takeback", "by": 1 - self.colour,
                                  "n": len(self.record)}
                else:
                    return False
            elif name == "confirm" and remote_offer and offer["what"] == "draw":
                self.offer = None
                self._finish("1/2-1/2", "draw agreed")
            else:
                return True
        self._changed()
        return False

    def is_open(self) -> bool:
        """Whether the game goes on (not decided, not over on the board)."""
        return self.result is None and not self._position.is_over()

    def new_game_refused(self) -> str | None:
        """Why the local page may not start a new game now (None: it may)."""
        if self.is_open():
            return _("the game against {who} goes on: offer a draw or resign first").format(
                who=_(PLAYER_NAMES[self.colour]))  # "white" or "black", translated
        return None

    def end(self, kind: str, wait: bool = True) -> str:
        """The local player offers, accepts or declines a draw or resigns (`ending.KINDS`); the
        words to show, or Refused saying why. (Never waits: `wait` is for the joining side.)"""
        with self._lock:
            said = self._end(kind)
        self._changed()
        return said

    def _end(self, kind: str) -> str:
        self._check_open()
        local, far = 1 - self.colour, _(PLAYER_NAMES[self.colour])
        offer = self.offer
        theirs = offer is not None and offer["by"] == self.colour
        if kind == "resign":
            self._finish("0-1" if local == WHITE else "1-0", "resigned", resigned=local)
            return _("you resigned: {result}").format(result=self.result)
        if kind == "offer_draw":
            if offer is not None:
                offerer = offer["by"]
                raise Refused(_("{who}'s {what} offer is open: answer it first").format(
                    who=_(PLAYER_NAMES[offerer]),
                    what=_("draw") if offer["what"] == "draw" else _("takeback")))
            self.offer = {"what": "draw", "by": local, "n": len(self.record)}
            return _("draw offered: waiting for {who}'s answer").format(who=far)
        if not (theirs and offer["what"] == "draw"):
            raise Refused(_("{who} has not offered a draw").format(who=far))
        self.offer = None
        if kind == "accept_draw":
            self._finish("1/2-1/2", "draw agreed")
            return _("draw agreed: 1/2-1/2")
        return _("draw declined")

    def summary(self) -> dict | None:
        """The game as the local player sees it (`ending.summary`)."""
        return summary(self.view("spectator"), PLAYER_NAMES[1 - self.colour], self.menu)

    # -- from the network -------------------------------------------------------------------------
    def receive(self, kind: str, args: dict) -> str:
        """Do what the remote side asks; the words to send back, or Refused saying why."""
        with self._lock:
            said = getattr(self, "_" + kind)(**args)
            if kind != "ping":
                self._set_line()
        if kind != "ping":
            self._changed()
        return said

    def _ping(self) -> str:
        return "pong"

    def _check_open(self) -> None:
        if self.result is not None:
            raise Refused(f"the game is over ({self.result}{', ' + self.reason if self.reason else ''})")

    def _ply(self, n: int, ply: str) -> str:
        self._check_open()
        line = self.record + self.ahead
        if n < len(line):
            at = n + 1 if line[n] == "pass" and n + 1 < len(line) else n
            if line[at] == ply and n >= len(self.record):
                return f"{ply} is already shown on the board"
            if line[at] == ply:
                return f"{ply} is already recorded"
            raise Refused(f"ply {n + 1}: stale, the game has {len(line)} plies now "
                          f"({line[at]} was played there; your page catches up)")
        if n > len(line):
            raise Refused(f"ply {n + 1}: the game has only {len(line)} plies")
        board = self._position
        if board.turn != self.colour:
            raise Refused(f"ply {n + 1}: it is {PLAYER_NAMES[board.turn]}'s turn")
        why = board._check(Ply.parse(ply))
        if why is not None:
            raise Refused(f"{ply}: {why}")
        if board.ply_count > len(line):  # the host's side must pass: recorded with this ply
            self.ahead.append("pass")
        self.ahead.append(ply)
        self._position = position_for(self.record + self.ahead)
        self.offer = None if self.offer and self.offer["what"] == "takeback" else self.offer
        return f"{ply} is shown on the board"

    def _offer(self, what: str, n: int) -> str:
        self._check_open()
        if n != len(self.record):
            raise Refused(f"{what}: stale, the game has {len(self.record)} plies now")
        if self.offer is not None:
            raise Refused(f"{what}: {PLAYER_NAMES[self.offer['by']]}'s "
                          f"{self.offer['what']} offer is open: accept or decline it first")
        if what == "takeback":
            if self.ahead:
                raise Refused(_("takeback: your ply is being carried out on the board"))
            if not self.record:
                raise Refused(_("takeback: there is no ply to take back"))
        self.offer = {"what": what, "by": self.colour, "n": n}
        return f"{what} offered"

    def _accept(self, what: str, n: int) -> str:
        self._check_open()
        offer = self.offer
        if offer is None or offer["by"] == self.colour or offer["what"] != what:
            raise Refused(f"{what}: no such offer is open")
        if n != offer["n"]:
            raise Refused(f"{what}: stale, the offer was made at ply {offer['n']}")
        self.offer = None
        if what == "draw":
            self._finish("1/2-1/2", "draw agreed")
            return _("draw agreed")
        self._session.takeback()  # the board's loop takes it back; the record follows
        return _("takeback of {ply} agreed: the board's player puts it back").format(
            ply=self.record[-1])

    def _decline(self, what: str) -> str:
        offer = self.offer
        if offer is None or offer["by"] == self.colour or offer["what"] != what:
            raise Refused(f"{what}: no such offer is open")
        self.offer = None
        return f"{what} declined"

    def _resign(self) -> str:
        self._check_open()
        self._finish("0-1" if self.colour == WHITE else "1-0", "resigned",
                     resigned=self.colour)
        return "resigned"

    def _finish(self, result: str, reason: str, resigned: int | None = None) -> None:
        """The game ends by agreement or resignation (stored and shown by the board's loop)."""
        self.result, self.reason, self.ahead, self.resigned = result, reason, [], resigned
        self.offer = None
        session, game_id = self._session, self.game_id
        if session is not None:
            words = ending_words(result, reason, resigned)
            session.call_soon(lambda s: s.game_id == game_id and s.end_game(result, words,
                                                                          resigned))

    # -- what the remote side sees ----------------------------------------------------------------
    def view(self, role: str) -> dict:
        """The state message for a page of `role` ('opponent' or 'spectator')."""
        with self._lock:
            board = self._position
            playing = role == "opponent"
            mover = board.turn
            open_ = self.result is None and not board.is_over()
            to_move = open_ and mover == self.colour
            legal = ([str(p) for p in board.legal_plies() if not p.is_pass]
                     if to_move and playing else [])
            white, black = board.score()
            offer = None if self.offer is None else {
                "what": self.offer["what"], "by": PLAYER_NAMES[self.offer["by"]]}
            return {
                "type": "state", "game": self.game_id, "role": role,
                "colour": PLAYER_NAMES[self.colour],
                "n": len(self.record) + len(self.ahead),
                "moves": list(self.record), "line": self.record + self.ahead,
                "pending": self.pending,
                "stacks": stacks_view(board.stacks()), "phase": board.phase,
                "turn": PLAYER_NAMES[mover] if open_ else None,
                "to_place": board.piece_to_place() if open_ else None,
                "legal": legal, "offer": offer, "result": self.result, "reason": self.reason,
                "score": {"white": white, "black": black},
                "status": self._status(board, role, to_move),
            }

    def _status(self, board, role: str, to_move: bool) -> str:
        white = self.colour == WHITE  # the side far away
        if self.result is not None:
            if self.resigned is not None:
                text = (_("game over: {result} (white resigned)") if self.resigned == WHITE else
                        _("game over: {result} (black resigned)"))
            elif self.reason:
                text = _("game over: {result} ({reason})")
            else:
                text = _("game over: {result}")
            return text.format(result=self.result, reason=_(self.reason) if self.reason else "")
        if to_move:
            return (_("your turn") if role == "opponent" else
                    _("white to play") if white else _("black to play"))
        if self.pending is not None:
            return (_("white's {ply} is lit on the board: waiting for black to carry it out")
                    if white else
                    _("black's {ply} is lit on the board: waiting for white to carry it out")
                    ).format(ply=self.pending)
        return _("black to play on the board") if white else _("white to play on the board")


def ending_words(result: str, reason: str, resigned: int | None) -> str:
    """The line a board shows when the game ended off the board.

    >>> ending_words("1-0", "resigned", BLACK)
    'black resigned: 1-0'
    """
    if resigned is not None:
        return (_("white resigned: {result}") if resigned == WHITE else
                _("black resigned: {result}")).format(result=result)
    return _("{reason}: {result}").format(reason=_(reason), result=result)  # 'draw agreed'
