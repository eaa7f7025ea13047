"""The options `play` and `sim` share for playing someone far away:

    --remote COLOUR [--remote-at [HOST:]PORT]   host: COLOUR is played from a browser (or a
                                                board that joins); prints the invitation links
    --join LINK                                 join a game another board hosts

`Remote.from_args` checks the options (and, for --join, reaches the host to learn the colour);
the command builds its session with `thinkers` among its computer players and `buttons(...)` as
its buttons, then calls `start(session)` for the lines to print and `stop()` at the end.
"""

from __future__ import annotations

COLOUR_NAMES = ("white", "black")


def buttons_note() -> str:
    """What the board's buttons do in a game far away (`remote.ending`)."""
    from ..i18n import _
    return _("At the board: undo asks for a takeback (or accepts theirs), confirm accepts "
             "their draw offer; new game asks to end the game: then confirm offers a draw, "
             "new game again resigns, undo plays on.")


class RemoteOptionError(ValueError):
    """Options that do not go together, or a link that cannot be joined; the text says why."""


def add_remote_arguments(parser) -> None:
    parser.add_argument("--remote", metavar="COLOUR", choices=COLOUR_NAMES, default=None,
                        help="someone far away plays this colour: prints an invitation link "
                             "(their ply lights on the board like the computer's)")
    parser.add_argument("--remote-at", metavar="[HOST:]PORT", default="8090",
                        help="where the remote game is served (default 8090 on this machine "
                             "only; 0.0.0.0:8090 serves the network: use TLS, see README)")
    parser.add_argument("--join", metavar="LINK", default=None,
                        help="join the game another board hosts, with its invitation link")


def kept_tokens(db, game_id: int) -> dict[str, str]:
    """The invitation tokens of game `game_id`, kept beside the games database while it is
    played, so the links still work when the board is restarted and resumes the game; a new
    game gets new ones. The file is readable by its owner only (the tokens are the keys)."""
    import json
    import os
    from pathlib import Path

    from ..remote.host import ROLES, new_tokens

    path = Path(str(db) + ".remote.json")
    try:
        kept = json.loads(path.read_text())
        if kept.get("game") == game_id and set(kept.get("tokens", {})) == set(ROLES):
            return kept["tokens"]
    except (OSError, ValueError, AttributeError):
        pass  # none kept yet, or unreadable: new tokens
    tokens = new_tokens()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"game": game_id, "tokens": tokens}, f)
    except OSError:  # the links then last as long as this run
        pass
    return tokens


class Remote:
    """Nothing (neither option given), a hosted game, or a joined one."""

    def __init__(self):
        self.game = self.host = self.client = None
        self.thinkers: list = []
        self.rebuild: list[str] = []  # --join: the host's position to set up
        self.followed = ""            # --join: which game the board follows (`prepare`)

    @classmethod
    def from_args(cls, args) -> "Remote":
        remote = cls()
        colour, join = getattr(args, "remote", None), getattr(args, "join", None)
        if colour and join:
            raise RemoteOptionError("--remote and --join: a board either hosts or joins")
        ai = set(getattr(args, "ai", ()) or ())
        if colour:
            if colour in ai:
                raise RemoteOptionError(f"--remote {colour} and --ai {colour}: one side, "
                                        "one player")
            from ..rules import BLACK, WHITE
            from ..remote.game import RemoteGame
            from ..web.server import parse_address
            try:
                remote.address = parse_address(args.remote_at)
            except ValueError as e:
                raise RemoteOptionError(f"--remote-at {e}") from None
            remote.game = RemoteGame({"white": WHITE, "black": BLACK}[colour])
            remote.thinkers = [remote.game.line]
        elif join:
            if getattr(args, "from_file", None) or getattr(args, "replay", None):
                raise RemoteOptionError("--join plays the host's game: no --from or --replay")
            from ..remote.client import JoinError, RemoteClient
            from ..rules import PLAYER_NAMES
            try:
                remote.client = RemoteClient(join)
                mine = remote.client.connect()
            except JoinError as e:
                raise RemoteOptionError(f"--join: {e}") from None
            if PLAYER_NAMES[1 - mine] in ai:
                remote.client.close()
                raise RemoteOptionError("--join and --ai: the other side is played far away")
            remote.thinkers = [remote.client.line]
        return remote

    def prepare(self, store, new: bool = False) -> bool | None:
        """--join: make the store's game to resume the host's game (`remote.follow`); True
        (the session resumes it), or None when not joined. `rebuild`: the stacks to set up."""
        if self.client is None:
            return None
        from ..remote.follow import follow_host
        state = self.client.state
        self.rebuild, self.followed = follow_host(store, state["line"], self.client.colour,
                                                  self.client.tag(), new)
        return True

    def buttons(self, buttons):
        """The board's buttons: undo and confirm make and answer offers to the other side."""
        if self.game is None and self.client is None:
            return buttons
        from ..remote.host import RemoteButtons
        return RemoteButtons(buttons, self.game or self.client)

    def start(self, session) -> list[str]:
        """Follow `session`; the lines to tell the local player."""
        from ..i18n import _
        from ..rules import WHITE
        if self.game is not None:
            from ..remote.host import RemoteHost, exposure_note
            self.game.attach(session)
            host, port = self.address
            tokens = kept_tokens(session.store.path, session.game_id)
            self.host = RemoteHost(self.game, host, port, tokens=tokens).start()
            return [_("white plays far away: send them this link (it lets them play)")
                    if self.game.colour == WHITE else
                    _("black plays far away: send them this link (it lets them play)"),
                    f"  {self.host.link('opponent')}",
                    _("spectators (read-only): {link}").format(link=self.host.link('spectator')),
                    exposure_note(host, self.host.port),
                    buttons_note()]
        if self.client is not None:
            self.client.attach(session)
            words = dict(url=self.client.url.split('?')[0])
            return [(_("joined {url}: you play white; the other side's plies light up")
                     if self.client.colour == WHITE else
                     _("joined {url}: you play black; the other side's plies light up")
                     ).format(**words),
                    *filter(None, [self.followed]), buttons_note()]
        return []

    def note(self) -> str:
        """A line for the local player: the open offer and what answers it, the result, or
        what the board's buttons just did about ending the game (`remote.ending.summary`)."""
        far = self.game or self.client
        summary = far.summary() if far is not None else None
        return summary["status"] if summary else ""

    def on_change(self, callback) -> None:
        """`callback()` (from the network thread) when the remote side's state changes."""
        if self.game is not None:
            self.game.on_change(callback)
        elif self.client is not None:
            self.client.on_change(callback)

    def stop(self) -> None:
        for part in (self.host, self.client):
            if part is not None:
                part.stop() if hasattr(part, "stop") else part.close()
