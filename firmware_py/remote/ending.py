"""Ending a game against someone far away from the local board: offer or answer a draw, resign.

Both boards of a remote game have the same controls: the hosting board (`game.RemoteGame`) and
the joining one (`client.RemoteClient`) each have `end(kind)` for the local web page (`KINDS`),
and their `local_button` asks `Menu` first, so the board's own buttons do the same:

- new game, while the game is open: asks "end the game?"; then confirm offers a draw, new game
  again resigns, undo plays on (and so does a ply: the question lapses). A new game would
  leave the other side's game behind: in a game far away the button ends it instead.
- confirm accepts the other side's draw offer, undo their takeback (as before).

`summary` is what the local player is told (the terminal's line, the local page's controls).

>>> class Side:
...     said = []
...     def is_open(self): return True
...     def end(self, kind, wait=True): self.said.append(kind); return kind + " done"
>>> menu, side = Menu(), Side()
>>> menu.press("new_game", side), menu.armed
(False, True)
>>> menu.press("new_game", side), side.said, menu.said
(False, ['resign'], 'resign done')
>>> menu.press("undo", side) is None          # not armed: undo is the board's as before
True
>>> _ = menu.press("new_game", side); menu.press("say", side) is None, menu.armed
(True, True)
>>> menu.press("undo", side), menu.armed      # say left the question open: undo plays on
(False, False)
>>> _ = menu.press("new_game", side); menu.disarm()   # a ply since: the question lapsed
>>> menu.press("confirm", side) is None, side.said   # confirm is the board's again
(True, ['resign'])
"""

from __future__ import annotations

from ..i18n import _

KINDS = ("offer_draw", "accept_draw", "decline_draw", "resign")


def prompt() -> str:
    return _("end the game? confirm offers a draw, new game again resigns, undo plays on")


class Menu:
    """The board's buttons while "end the game?" is asked (`armed`); `said`: the last answer."""

    def __init__(self):
        self.armed = False
        self.said = ""

    def disarm(self) -> None:
        """The game went on (a ply, a takeback): a later confirm must not offer a draw."""
        self.armed = False

    def press(self, name: str, side) -> bool | None:
        """False when the press was about ending the game (handled here), None otherwise."""
        if name not in ("confirm", "new_game", "undo"):
            return None  # say, hint: the board's, and the question stays open
        if self.armed:
            self.armed = False
            kind = {"confirm": "offer_draw", "new_game": "resign"}.get(name)
            if name == "undo":
                self.said = _("playing on")
            elif kind is not None:
                try:
                    self.said = side.end(kind, wait=False)
                except ValueError as e:  # the game's Refused: the reason
                    self.said = str(e)
            else:
                return None
            return False
        if name == "new_game" and side.is_open():
            self.armed, self.said = True, prompt()
            return False
        self.said = ""  # another press: the last answer is old news
        return None


def summary(state: dict | None, me: str, menu: Menu) -> dict | None:
    """The remote game as the local player (colour name `me`) sees it: the open offer and whose
    it is, the result, and one line to show (`status`); None before the game is known."""
    if not state:
        return None
    offer, result, reason = state.get("offer"), state.get("result"), state.get("reason") or ""
    theirs = bool(offer) and offer["by"] != me
    offerer = offer["by"] if offer else ""  # "white" or "black" (translated where shown)
    if menu.armed:
        status = prompt()
    elif result:
        status = state.get("status") or _("game over: {result}").format(result=result)
    elif theirs and offer["what"] == "draw":
        status = _("{who} offers a draw: confirm accepts").format(who=_(offerer))
    elif theirs:
        status = _("{who} asks to take back the last ply: undo accepts").format(
            who=_(offerer))
    elif offer:
        status = (_("your draw offer waits for the answer") if offer["what"] == "draw"
                  else _("your takeback request waits for the answer"))
    else:
        status = menu.said
    return {"me": me, "offer": offer, "theirs": theirs, "result": result, "reason": reason,
            "armed": menu.armed, "status": status}
