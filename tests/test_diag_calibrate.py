"""`diag calibrate` end to end on the simulator: the file it writes is the controller's."""

import json

from firmware_py.calibration import Calibration
from firmware_py.cli import main
from firmware_py.controller import Controller
from firmware_py.spaces import INDEX


def test_full_calibration_writes_what_the_controller_loads(capsys, tmp_path):
    path = tmp_path / "cal.json"
    status = main(["diag", "calibrate", "--backend", "sim", "--seed", "4", "-o", str(path),
                   "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and report["ok"] and report["outliers"] == []
    cal = Calibration.load(path)
    assert all(r is not None and r > 600 for r in cal.response)  # ~45 mT x 20.5 codes/mT
    assert cal.kind == ["W"] * 49
    # gains near nominal (the simulator's +-8 % gain spread, +-10 % magnet spread, pieces up
    # to 1 mm off-centre)
    gains = [s["gain"] for s in report["sensors"]]
    assert all(0.78 < g < 1.22 for g in gains)
    assert all(abs(s["offset_mt"]) < 4 for s in report["sensors"])  # +-3 mT offset spread
    assert cal.crosstalk[(INDEX["d3"], INDEX["e3"])] < 0  # a neighbour reads the other way
    controller = Controller(calibration=cal)
    assert controller.cal is cal


def test_outliers_say_what_to_check(capsys, tmp_path):
    path = tmp_path / "cal.json"
    status = main(["diag", "calibrate", "--backend", "sim", "-o", str(path), "--spaces",
                   "a1,b1,c1,e3", "--fault", "swap:a1,b1", "--fault", "dead:e3", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    problems = {o["space"]: o["problem"] for o in report["outliers"]}
    assert problems == {"e3": "dead", "a1": "elsewhere", "b1": "elsewhere"}
    assert all(o["check"] for o in report["outliers"])
    assert "diag map" in next(o["check"] for o in report["outliers"] if o["space"] == "a1")
    Calibration.load(path)  # written all the same: the controller relearns what is missing


def test_some_spaces_update_an_existing_file(capsys, tmp_path):
    path = tmp_path / "cal.json"
    assert main(["diag", "calibrate", "--backend", "sim", "-o", str(path), "--spaces", "a1",
                 "--json"]) == 0
    assert main(["diag", "calibrate", "--backend", "sim", "-o", str(path), "--spaces", "k5",
                 "--kind", "B", "--json"]) == 0
    capsys.readouterr()
    cal = Calibration.load(path)
    assert cal.response[INDEX["a1"]] > 600 and cal.response[INDEX["k5"]] < -600
    assert cal.kind[INDEX["a1"]] == "W" and cal.kind[INDEX["k5"]] == "B"
    assert cal.response[INDEX["e3"]] is None


def test_human_report(capsys, tmp_path):
    path = tmp_path / "cal.json"
    assert main(["diag", "calibrate", "--backend", "sim", "-o", str(path), "--spaces",
                 "e3,f3"]) == 0
    out = capsys.readouterr().out
    assert "[1/2] put a W piece on e3 (lit)" in out and "take it off f3" in out
    assert "no outliers" in out
    assert f"calibration written to {path}" in out.replace("\n", "")


def test_ctrl_c_in_the_middle_leaves_the_leds_off_and_the_old_file_alone(capsys, tmp_path):
    from firmware_py.cli import build_parser
    from firmware_py.diag import calibrate
    from dvonn_sim.compose import diag_board
    from firmware_py.interfaces import BLANK
    path = tmp_path / "cal.json"
    path.write_text("old")
    board = diag_board(seed=1)
    read = board.read

    def interrupted(timeout=None):
        frame = read(timeout)
        if frame.time > 3.0:  # a prompt is lit by now
            assert board.sim.leds != BLANK
            raise KeyboardInterrupt
        return frame

    board.read = interrupted
    args = build_parser().parse_args(["diag", "calibrate", "--backend", "sim", "-o", str(path)])
    assert calibrate.run(args, board=board) == 130
    assert board.sim.leds == BLANK and board.sim.closed and path.read_text() == "old"
