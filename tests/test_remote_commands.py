"""`play --remote`, `play --join` and `sim --remote` through the real entry point: the links
and the safety note are printed, options that do not go together are refused with the reason."""

from __future__ import annotations

import pytest

from firmware_py.cli import main
from firmware_py.remote.game import RemoteGame
from firmware_py.remote.host import RemoteHost
from firmware_py.rules import WHITE
from tests.test_commands_play import board  # noqa: F401 (the stand-in board fixture)


@pytest.mark.parametrize("args, says", [
    (["play", "--remote", "black", "--ai", "black"], "one side, one player"),
    (["play", "--remote", "black", "--join", "http://x/play?token=a"], "either hosts or joins"),
    (["play", "--join", "ftp://x"], "expected the invitation link"),
    (["play", "--join", "http://127.0.0.1:1/play"], "has no token"),
    (["play", "--remote", "black", "--remote-at", "nowhere:port"], "--remote-at"),
    (["sim", "--remote", "black", "--terminal"], "on the web page"),
])
def test_options_that_do_not_go_together_are_refused(args, says, tmp_path, capsys):
    assert main(args + ["--db", str(tmp_path / "g.sqlite3")]) == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("at, says", [("0", "Only this machine"),
                                      ("0.0.0.0:0", "TLS reverse proxy")])
def test_play_remote_prints_the_invitations_and_who_can_reach_them(board, tmp_path, capsys,
                                                                  at, says):
    status = main(["play", "--db", str(tmp_path / "g.sqlite3"), "--remote", "black",
                   "--remote-at", at])
    assert status == 130  # Ctrl-C after the scripted frames
    out = capsys.readouterr().out
    assert "black plays far away" in out and says in out
    links = [w for w in out.split() if "/play?token=" in w]
    assert len(links) == 2 and links[0] != links[1]  # opponent and spectator


def test_play_join_learns_its_colour_from_the_host(board, tmp_path, capsys):
    with RemoteHost(RemoteGame(WHITE), port=0) as host:
        status = main(["play", "--db", str(tmp_path / "g.sqlite3"),
                       "--join", host.link("opponent")])
        joined = capsys.readouterr().out
        again = main(["play", "--db", str(tmp_path / "g.sqlite3"), "--new",
                      "--join", host.link("opponent")])
        assert again == 130 and "--new: a joined board plays the host's game, not one of " \
            "its own" in capsys.readouterr().out
        spectator = main(["play", "--db", str(tmp_path / "h.sqlite3"),
                          "--join", host.link("spectator")])
    assert status == 130
    assert "you play white" in joined
    assert spectator == 2 and "spectator's link" in capsys.readouterr().err


def test_the_board_player_is_told_of_the_remote_sides_offers():
    from argparse import Namespace

    from firmware_py.commands._remote import Remote
    from tests.test_remote_game import Recorded

    remote = Remote.from_args(Namespace(remote="black", remote_at="0", join=None, ai=[]))
    session = Recorded(["e3", "f3"])
    remote.game.attach(session)
    seen = []
    remote.on_change(lambda: seen.append(remote.note()))
    assert remote.note() == ""
    remote.game.local_button("undo")
    assert remote.note() == "your takeback request waits for the answer"
    remote.game.receive("decline", {"what": "takeback"})
    remote.game.receive("offer", {"what": "draw", "n": 2})
    assert seen[-1] == "black offers a draw: confirm accepts"
    assert remote.game.local_button("undo") is False  # no takeback offer over an open offer
    assert remote.note() == "black offers a draw: confirm accepts"
    assert remote.game.local_button("confirm") is False
    assert remote.note() == "game over: 1/2-1/2 (draw agreed)"


def test_the_links_survive_a_restart_of_the_hosting_board(board, tmp_path, capsys):
    """The board resumes the unfinished game: the invitation links are the same."""
    import os

    db = str(tmp_path / "g.sqlite3")
    runs = []
    for args in ([], [], ["--new"]):
        board.clear()
        assert main(["play", "--db", db, "--remote", "black", "--remote-at", "0"] + args) == 130
        out = capsys.readouterr().out
        runs.append([w.split("token=")[1] for w in out.split() if "/play?token=" in w])
    assert runs[0] == runs[1] and len(runs[0]) == 2
    assert set(runs[2]).isdisjoint(runs[0])  # a new game: new keys
    assert oct(os.stat(db + ".remote.json").st_mode & 0o777) == "0o600"
