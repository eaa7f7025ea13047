"""A board that joins a game hosted on another board (`dvonn-board play --join URL`).

The joining board's player plays the colour the invitation is for, on their own physical board.
`RemoteClient` keeps a WebSocket to the host open (and opens it again, with a growing pause,
whenever it drops): the host's plies come in as the agreed line (`line.Line`), which the local
session shows on the LEDs like the computer's plies; the local player's own plies, once their
board has recorded them, go to the host with their number. After a dropped connection the host
sends its state again: plies it already has are not sent twice (the host would take the same ply
again anyway), plies it lacks are sent, and the host's plies made meanwhile light up.

Takebacks need both sides: the undo button offers one (or accepts the host's offer); when the
host's record comes back shorter, the local board takes back too. The confirm button accepts a
draw offer; the new game button asks "end the game?" (`ending.Menu`: a draw offer or
resignation), and the local page does the same through `end`. A game the host ends (resigned,
draw agreed) ends on this board too.

The WebSocket itself (opening it again, asking with an id) is `channel.Channel`.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import TimeoutError as FutureTimeout

from ..i18n import _
from ..rules import BLACK, WHITE
from . import protocol
from .channel import Channel, JoinError, channel_url
from .ending import Menu, summary
from .game import Refused, ending_words
from .line import Line, tokens, turn_start

log = logging.getLogger(__name__)
ANSWER_S = 3.0  # seconds the local page waits for the host's answer


class RemoteClient:
    """The joining board's link to the host. `connect()` opens it (and learns the colour),
    `attach(session)` follows the local game, `close()` ends it."""

    def __init__(self, link: str):
        self.channel = Channel(channel_url(link), self._on_message, self._sender)
        self.colour: int | None = None      # the colour the local player plays
        self.line: Line | None = None       # the host's plies, the session's shown plies
        self.state: dict | None = None      # the host's last state message
        self._early_state: dict | None = None  # a state that came before the hello
        self.errors: list[str] = []         # the host's refusals, newest last
        self._session = None
        self._own: list[str] = []
        self._held: int | None = None  # a takeback to follow: the record's length after it
        self._listeners: list = []
        self.menu = Menu()                  # the board's buttons ending the game
        self._ended: object = None          # the game (id) whose end this board has shown
        self._sent: set[tuple[int, str]] = set()
        self._wake: asyncio.Event | None = None  # the sender looks again (its loop's)

    # The channel's figures, as the callers read them.
    url = property(lambda self: self.channel.url, doc="the host's live channel (ws://...)")
    loop = property(lambda self: self.channel.loop, doc="the network thread's event loop")
    connected = property(lambda self: self.channel.connected, doc="set while the host's "
                         "state is current (cleared when the connection drops)")
    connections = property(lambda self: self.channel.connections,
                           doc="how many times the channel was opened")

    # -- the caller's side ------------------------------------------------------------------------
    def connect(self, timeout: float = 10.0) -> int:
        """Open the channel; the colour the local player plays. JoinError when the host cannot
        be reached in `timeout` seconds or refuses the link."""
        self.channel.start()
        if not self.channel.answered.wait(timeout) or self.channel.fatal:
            self.close()
            raise JoinError(self.channel.fatal or f"no answer from {self.url} in {timeout:.0f} s")
        return self.colour

    def attach(self, session) -> None:
        """Follow the local session: its plies go to the host."""
        self._session = session
        session.far_away = self  # the front ends' undo and confirm go through local_button too
        session.subscribe(self._observe)
        self._observe(session)
        if self.state is not None:  # joined a game the host had already ended
            self._follow_end(self.state)

    def offer(self, what: str) -> None:
        """Offer a takeback or a draw, at this board's record (the host refuses it while this
        board's last ply is still being carried out there)."""
        self._send_soon("offer", what=what, n=len(self._own))

    def on_change(self, callback) -> None:
        """`callback()` (from the network thread) after each state from the host."""
        self._listeners.append(callback)

    def local_button(self, name: str) -> bool:
        """The local player pressed `name`: False when it became a message to the host (undo
        offers a takeback, or accepts the host's; confirm accepts a draw offer), True to let the
        board act on it."""
        ending = self.menu.press(name, self)
        if ending is not None:
            self._notify()
            return ending
        state = self.state
        if name == "new_game" and state is not None:
            self.menu.said = self.new_game_refused()
            self._notify()
            return False
        offer = state and state.get("offer")
        theirs = offer is not None and offer and offer["by"] != state["colour"]
        if name == "undo":
            if theirs and offer["what"] == "takeback":
                self._send_soon("accept", what="takeback", n=len(state["moves"]))
            elif state is not None:
                self.offer("takeback")
            return False
        if name == "confirm" and theirs and offer["what"] == "draw":
            self._send_soon("accept", what="draw", n=len(state["moves"]))
            return False
        return True

    def tag(self, game=None) -> str:
        """The record tag of a local game that follows the host's game `game` (default: the
        host's game now; see `follow`)."""
        game = self.state["game"] if game is None else game
        return f"{self.url.split('?')[0]} game {game}"

    def is_open(self) -> bool:
        """Whether the host's game goes on."""
        state = self.state
        return bool(state) and not state.get("result") and state.get("turn") is not None

    def new_game_refused(self) -> str | None:
        """Why the local page may not start a new game: the host starts the next one."""
        return _("the host starts the next game: this board follows it")

    def end(self, kind: str, wait: bool = True) -> str:
        """The local player offers, accepts or declines a draw or resigns (`ending.KINDS`).
        With `wait`, the host's answer (Refused: its reason; a timeout says so); without (the
        board's loop never waits for the network), what was sent."""
        state = self.state
        if state is None:
            raise Refused(_("not connected to the host yet"))
        if state.get("result"):
            raise Refused(_("the game is over ({result})").format(result=state["result"]))
        offer = state.get("offer")
        theirs = bool(offer) and offer["by"] != state["colour"] and offer["what"] == "draw"
        n = len(state["moves"])
        if kind in ("accept_draw", "decline_draw") and not theirs:
            raise Refused(_("no draw offer is open"))
        message = {"offer_draw": ("offer", {"what": "draw", "n": n}),
                   "accept_draw": ("accept", {"what": "draw", "n": n}),
                   "decline_draw": ("decline", {"what": "draw"}),
                   "resign": ("resign", {})}[kind]
        answer = self.channel.ask(*message)
        if not wait:
            return _("sent to the host")
        try:
            return answer.result(ANSWER_S)
        except FutureTimeout:
            raise Refused(_("no answer from the host in {s:.0f} s (is the connection down?)")
                          .format(s=ANSWER_S)) from None

    def summary(self) -> dict | None:
        """The game as the local player sees it (`ending.summary`)."""
        state = self.state
        return summary(state, state["colour"], self.menu) if state else None

    def close(self) -> None:
        self.channel.close()

    def drop(self) -> None:
        """Close the current connection (it is opened again): for tests of the reconnection."""
        self.channel.drop()

    # -- the board's loop -------------------------------------------------------------------------
    def _observe(self, session) -> None:
        own = tokens(session.state.board.move_stack)
        if self._held is not None and len(own) <= self._held:
            self._held = None
        if own != self._own:
            self._own = own
            self.menu.disarm()  # "end the game?" lapses when the game goes on
            self._poke()

    def _poke(self) -> None:
        if self._wake is not None and not self.loop.is_closed():
            try:
                self.loop.call_soon_threadsafe(self._wake.set)
            except RuntimeError:  # closing
                pass

    def _send_soon(self, kind: str, **fields) -> None:
        self.channel.send_soon(kind, **fields)

    def _notify(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:  # a broken viewer must not stop the game
                log.exception("listener failed")

    # -- the network thread -----------------------------------------------------------------------
    def _on_message(self, data: dict) -> None:
        kind = data.get("type")
        if kind == "hello":
            if data.get("role") != "opponent":
                self.channel.refuse("this is a spectator's link: a board joins with the "
                                    "opponent's link")
                return
            colour = {"white": WHITE, "black": BLACK}[data["colour"]]
            if self.colour is None:
                self.colour, self.line = colour, Line(1 - colour)
            early, self._early_state = self._early_state, None
            if early is not None:
                self._on_message(early)
        elif kind == "state":
            if self.line is None:  # the game's state overtook the hello: read it after that
                self._early_state = data
                return
            old = self.state
            self.state = data
            self.line.set(data["line"])
            if old is None or old["line"] != data["line"]:
                self._sent.clear()  # a ply refused before may be due again now
                self.menu.disarm()
            self.connected.set()
            self.channel.answered.set()
            self._follow_takeback(old, data)
            self._follow_new_game(old, data)
            self._follow_end(data)
            if self._wake is not None:  # (None until the network thread runs)
                self._wake.set()
            self._notify()
        elif kind in ("ok", "error"):
            if kind == "error":
                self.errors.append(data.get("message", ""))
                log.warning("the host says: %s", data.get("message"))
            if self.channel.answer(data):
                if self.menu.said == _("sent to the host"):  # the board's buttons: the answer
                    self.menu.said = data.get("message", "")
                    self._notify()

    def _follow_takeback(self, old: dict | None, new: dict) -> None:
        """The host's record came back shorter (an agreed takeback): take back here too."""
        if old is None or self._session is None or old.get("game") != new.get("game"):
            return
        if len(new["line"]) < len(old["line"]) and len(self._own) > len(new["line"]):
            self._held = len(new["line"])  # send nothing until this board has taken it back
            self._session.takeback()

    def _follow_new_game(self, old: dict | None, new: dict) -> None:
        """The host started another game (maybe under way: `play --from`): so does this board,
        holding the host's plies (it never starts one of its own)."""
        if old is not None and self._session is not None and old.get("game") != new.get("game"):
            self._held = None
            from ..rules import Ply
            from .follow import TAG
            self._session.new_game({**self._session.tags, TAG: self.tag(new.get("game"))},
                                   [Ply.parse(t) for t in new["line"]])
            self.menu.said = (_("the host started a new game: this board follows it") if not
                              new["line"] else _("the host started a game at ply {n}: this "
                                                 "board follows it (set up its position)")
                              .format(n=len(new["line"])))

    def _follow_end(self, state: dict) -> None:
        """The host's game ended off the board (resigned, draw agreed): so does this board's."""
        result, reason = state.get("result"), state.get("reason")
        if not (result and reason) or self._session is None or self._ended == state["game"]:
            return
        self._ended = state["game"]
        resigned = None
        if reason == "resigned":
            resigned = BLACK if result == "1-0" else WHITE
        words = ending_words(result, reason, resigned)
        self._session.call_soon(lambda s: s.end_game(result, words, resigned))

    async def _sender(self, ws) -> None:
        """Send the local plies the host does not have yet, whenever something changed (the
        channel runs it while each connection is open)."""
        if self._wake is None:
            self._wake = asyncio.Event()
        self._sent.clear()  # this connection has sent nothing yet
        while True:
            ply = self._due()
            if ply is not None and ply not in self._sent:
                self._sent.add(ply)
                await ws.send_str(protocol.message("ply", n=ply[0], ply=ply[1]))
            await self._wake.wait()
            self._wake.clear()

    def _due(self) -> tuple[int, str] | None:
        """(n, ply) of the local ply the host lacks, if any."""
        if self.state is None or self.state.get("result") or self._held is not None:
            return None
        agreed, own = self.state["line"], self._own
        if len(own) <= len(agreed) or own[:len(agreed)] != agreed:
            return None
        i = len(agreed)
        while i < len(own) and own[i] == "pass":
            i += 1
        if i >= len(own):
            return None
        return turn_start(own, i), own[i]
