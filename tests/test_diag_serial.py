"""The diag commands on the real-hardware path: `dvonn_hw.board` + `dvonn_hw.serial_link` talking to the
scanner firmware emulated on a pseudo-terminal (`dvonn_sim.pty_scanner`), in real time."""

import json
import time

from firmware_py.cli import main
from firmware_py.diag.person import SimPerson
from dvonn_sim.board import SimBoard
from dvonn_sim.pty_scanner import PtyScanner


def test_selftest_over_the_serial_link(capsys):
    board = SimBoard(seed=2)
    board.fail("e3", "dead")
    with PtyScanner(board) as emu:
        status = main(["diag", "selftest", "--port", emu.port, "--frames", "40", "--json"])
    report = json.loads(capsys.readouterr().out)
    checks = {c["name"]: c for c in report["checks"]}
    assert status == 1 and report["backend"] == "hw"
    assert checks["link"]["ok"] and report["link"]["frames"] == 40
    assert checks["LED strip"]["ok"] and "50 LEDs" in checks["LED strip"]["detail"]
    assert [(f["space"], f["kind"]) for f in report["faults"]] == [("e3", "dead")]
    assert report["link"]["crc_errors"] == 0


def test_map_over_the_serial_link_with_a_person_at_the_board(capsys):
    board = SimBoard(seed=3)
    board.swap_channels("a1", "b1")
    person = SimPerson(board, seed=3)  # reads the LEDs the scanner decodes onto the board
    with PtyScanner(board, on_frame=person.step) as emu:
        status = main(["diag", "map", "--port", emu.port, "--spaces", "a1", "--json",
                       "--timeout", "10"])
        report = json.loads(capsys.readouterr().out)
        assert status == 1 and report["moved"] == {"a1": "b1"}
        assert [a for _, a, _ in person.actions] == ["place", "remove"]
        assert board.truth()[0] == ()
        # the blank frame sent on closing reaches the scanner: the LEDs go off
        deadline = time.monotonic() + 5
        while any(map(any, board.leds.spaces)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any(map(any, board.leds.spaces))
