"""`diag leds`, `diag sensors` and `diag ports`: LED patterns on the simulated strip, the live
sensor view stopping by itself and on Ctrl-C (LEDs off, port closed), serial port listing."""

import collections
import json
import os

from serial.tools.list_ports_common import ListPortInfo

from firmware_py.cli import build_parser, main
from firmware_py.diag import leds as diag_leds
from firmware_py.diag import ports as diag_ports
from firmware_py.diag import sensors as diag_sensors
from dvonn_sim.compose import diag_board
from firmware_py.interfaces import BLANK, OFF, LedFrame
from firmware_py.spaces import INDEX, SPACES


def lit(frame: LedFrame) -> list[int]:
    return [s for s, rgb in enumerate(frame.spaces) if rgb != OFF]


def run_leds(argv, board):
    args = build_parser().parse_args(["diag", "leds", "--backend", "sim", *argv])
    return diag_leds.run(args, board=board)


def test_chase_lights_one_space_at_a_time_in_space_order(capsys):
    board = diag_board(person=False)
    board.sim.led_log = collections.deque(maxlen=None)
    assert run_leds(["--pattern", "chase", "--step", "0.05"], board) == 0
    singles = [lit(f)[0] for _, f in board.sim.led_log if len(lit(f)) == 1]
    assert singles == list(range(49))
    assert [SPACES[s] for s in singles[:3]] == ["a1", "b1", "c1"]
    out = capsys.readouterr().out
    assert out.index("a1") < out.index("b1") < out.index("k5")
    assert board.sim.leds == BLANK and board.sim.closed  # LEDs off, closed


def test_colours_show_every_signal_on_every_space(capsys):
    from firmware_py.colours import SIGNALS
    board = diag_board(person=False)
    board.sim.led_log = collections.deque(maxlen=None)
    assert run_leds(["--pattern", "colours", "--step", "0.02"], board) == 0
    full = {f.spaces[0] for _, f in board.sim.led_log if len(set(f.spaces)) == 1}
    assert {s.rgb for s in SIGNALS} | {(255, 0, 0), (0, 255, 0)} <= full


def test_one_space(capsys):
    board = diag_board(person=False)
    assert run_leds(["--space", "E3", "--colour", "error", "--seconds", "0.5"], board) == 0
    frames = [f for _, f in board.sim.led_log]
    assert lit(frames[-2]) == [INDEX["e3"]] and frames[-2].spaces[INDEX["e3"]] == (255, 0, 0)
    assert frames[-1] == BLANK


def test_bad_options(capsys):
    assert main(["diag", "leds", "--backend", "sim", "--space", "z9"]) == 2
    assert main(["diag", "leds", "--backend", "sim", "--colour", "mauve"]) == 2
    assert "mauve" in capsys.readouterr().err


class FakeSink:
    """An LED sink with a real chain encoder, as the scanner and ws281x strip have."""

    def __init__(self):
        from dvonn_hw.leds import ChainEncoder
        from dvonn_hw.profile import load_profile
        self.encoder = ChainEncoder.from_profile(load_profile())
        self.chains = []

    def show(self, frame):
        self.chains.append(bytes(self.encoder.encode(frame)))


def test_full_brightness_lifts_the_cap_and_restores_it():
    class Board:
        leds = FakeSink()
    board = Board()
    white = LedFrame(((255, 255, 255),) * 49)
    with diag_leds.full_brightness(board) as lifted:
        board.leds.show(white)
    board.leds.show(white)
    assert lifted and max(board.leds.chains[0]) == 255
    assert max(board.leds.chains[1]) == round(255 * 0.4)  # the profile's cap again


def test_sensors_view_stops_by_itself_and_flags_faults(capsys):
    status = main(["diag", "sensors", "--backend", "sim", "--frames", "200", "--fault",
                   "dead:e3", "--fault", "noisy:d4"])
    out = capsys.readouterr().out
    assert status == 0
    assert "offset from baseline (mT, nominal)" in out and "200 frames" in out
    assert "noise (mT RMS, nominal)" in out and "-0.0" not in out
    assert "100.0 frames/s" in out and "0 CRC errors" in out
    assert "flagged: e3 dead, d4 noisy" in out


def test_sensors_view_in_millitesla_with_a_calibration(capsys, tmp_path):
    cal = tmp_path / "cal.json"
    assert main(["diag", "calibrate", "--backend", "sim", "-o", str(cal), "--spaces", "e3",
                 "--json"]) == 0
    capsys.readouterr()
    assert main(["diag", "sensors", "--backend", "sim", "--seconds", "1",
                 "--calibration", str(cal)]) == 0
    assert "offset from baseline (mT, calibrated)" in capsys.readouterr().out
    assert main(["diag", "sensors", "--backend", "sim", "--calibration",
                 str(tmp_path / "none.json")]) == 2


def test_ctrl_c_turns_the_leds_off_and_closes(capsys):
    board = diag_board(person=False)
    board.show(LedFrame(((9, 9, 9),) * 49))
    read = board.read
    count = 0

    def interrupted(timeout=None):
        nonlocal count
        count += 1
        if count > 50:
            raise KeyboardInterrupt
        return read(timeout)

    board.read = interrupted
    args = build_parser().parse_args(["diag", "sensors", "--backend", "sim"])
    assert diag_sensors.run(args, board=board) == 130
    assert board.sim.leds == BLANK and board.sim.closed
    assert "stopped (LEDs off, port closed)" in capsys.readouterr().err


def test_ports_points_out_the_scanner():
    pico = ListPortInfo("/dev/ttyACM0")
    pico.vid, pico.pid, pico.manufacturer = 0x2E8A, 0x0005, "MicroPython"
    ch340 = ListPortInfo("/dev/ttyUSB0")
    ch340.vid, ch340.pid = 0x1A86, 0x7523
    plain = ListPortInfo("/dev/ttyS0")
    reports = diag_ports.survey([plain, ch340, pico])
    assert [r.device for r in reports] == ["/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyS0"]
    assert reports[0].likely and reports[0].usb == "2e8a:0005"
    assert "CH340" in reports[1].verdict and not reports[1].likely
    assert reports[2].verdict == ""


def test_ports_lists_a_pseudo_terminal_given_as_the_port(capsys):
    controller, device = os.openpty()
    try:
        name = os.ttyname(device)
        status = main(["diag", "ports", "--port", name, "--json"])
        report = json.loads(capsys.readouterr().out)
        assert status == 0 and report["scanner_found"]
        (mine,) = [p for p in report["ports"] if p["device"] == name]
        assert mine["likely"] and "virtual port" in mine["description"] and mine["vid"] is None
    finally:
        os.close(controller)
        os.close(device)


def test_ports_on_this_machine_handles_no_scanner(capsys, tmp_path):
    status = main(["diag", "ports", "--port", str(tmp_path / "gone")])
    out = " ".join(capsys.readouterr().out.split())  # rich wraps at the terminal width
    assert status == 1 and "no scanner found" in out and "does not exist" in out


def test_sensors_view_shows_pieces_set_down_on_the_simulator(capsys):
    status = main(["diag", "sensors", "--backend", "sim", "--frames", "150", "--place", "e3=W",
                   "--place", "f3=b"])
    out = capsys.readouterr().out
    assert status == 0
    row3 = next(line for line in out.splitlines() if "+4" in line and "-4" in line)
    values = [float(v) for v in row3.strip("│ ").split()]
    assert values[4] > 40 and values[5] < -40  # e3 up (north), f3 down (south): ~45 mT
    assert "-0.0" not in out  # a quiet sensor reads 0.0 (+0.0), never a negative zero
    assert main(["diag", "sensors", "--place", "e3=W"]) == 2
