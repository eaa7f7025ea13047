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
        spectator = main(["play", "--db", str(tmp_path / "h.sqlite3"),
                          "--join", host.link("spectator")])
    assert status == 130
    assert "you play white" in joined
    assert spectator == 2 and "spectator's link" in capsys.readouterr().err
