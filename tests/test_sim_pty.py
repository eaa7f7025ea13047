"""The scanner emulated on a pseudo-terminal, through the real serial link (hw.serial_link)."""

import os

from firmware_py.interfaces import LedFrame
from firmware_py.spaces import INDEX, N_SPACES
from dvonn_hw.leds import ChainEncoder
from dvonn_hw.profile import load_profile
from dvonn_hw.serial_link import SerialScanner
from dvonn_sim.board import SimBoard
from dvonn_sim.params import Params
from dvonn_sim.pty_scanner import PtyScanner


def test_protocol_round_trip_through_the_serial_link(tmp_path):
    board = SimBoard(Params.from_noise("clean"), seed=1)
    board.setup({"e3": "W", "g3": "B"})
    link = str(tmp_path / "dvonn-scanner")
    seen = []
    with PtyScanner(board, on_frame=seen.append, link=link) as emu:
        assert emu.firmware.oversample == 8
        assert os.path.realpath(link) == emu.port
        host = SerialScanner.from_profile(load_profile(), port=link)
        try:
            assert board.params.oversample == load_profile().sensor.oversample
            host.close()  # the host asks for 4 samples per reading on opening the port
            profile = load_profile()
            host = SerialScanner(link, profile.channels, profile.adc.max,
                                 ChainEncoder.from_profile(profile), oversample=4)
            hello = host.hello(timeout=5)
            for _ in range(100):  # SET_OVERSAMPLE went out with the HELLO on opening
                if board.params.oversample == 4:
                    break
                host.read_frame(timeout=5)
            assert board.params.oversample == 4
            assert hello["name"] == "dvonn-sim" and hello["adc_bits"] == 12
            assert hello["channels"] == N_SPACES and hello["leds"] == 50
            rtt, counters = host.ping(timeout=5)
            assert counters[1:] == [0, 0, 0]  # no bad CRC, no broken packet, no gap
            frames = [host.read_frame(timeout=5) for _ in range(5)]
            assert all(f is not None for f in frames)
            raw = frames[-1].raw
            mid = sorted(raw)[N_SPACES // 2]
            assert raw[INDEX["e3"]] > mid + 500 and raw[INDEX["g3"]] < mid - 500
            assert [f.seq for f in frames] == list(range(frames[0].seq, frames[0].seq + 5))
            assert all(b.time > a.time for a, b in zip(frames, frames[1:]))
            # the readings are the board's own frames, in space order after the channel map
            assert any(f.raw == raw for f in seen)

            led = LedFrame(spaces=tuple((0, 255, 255) if i == INDEX["e3"] else (0, 0, 0)
                                        for i in range(N_SPACES)))
            host.show(led)
            for _ in range(500):  # the LED frame crosses the pty while frames stream in
                if board.leds is not None and board.leds.spaces[INDEX["e3"]] != (0, 0, 0):
                    break
                assert host.read_frame(timeout=5) is not None
            got = board.leds.spaces[INDEX["e3"]]
            assert got[0] < 10 and got[1] > 240 and got[2] > 240  # back through gamma
            assert board.leds.spaces[INDEX["f3"]] == (0, 0, 0)

            s = host.stats
            assert (s.garbage_bytes, s.bad_crc, s.gaps, s.bad_frames) == (0, 0, 0, 0)
        finally:
            host.close()
    assert not os.path.lexists(link)


def test_the_board_moves_while_the_host_listens():
    board = SimBoard(Params.from_noise("clean"), seed=2)
    board.setup({"e3": "W"})
    with PtyScanner(board) as emu:
        host = SerialScanner(emu.port)
        try:
            first = host.read_frame(timeout=5)
            with emu.lock:
                board.hand.lift("e3")
                board.hand.put("a1")
            a1, e3 = INDEX["a1"], INDEX["e3"]
            frame = first
            for _ in range(1000):  # the frames stream in as the hand works (about 1-2 s)
                if frame.raw[a1] - first.raw[a1] > 500:
                    break
                frame = host.read_frame(timeout=5)
            assert frame.raw[a1] - first.raw[a1] > 500
            assert first.raw[e3] - frame.raw[e3] > 500  # (the piece may still be settling)
        finally:
            host.close()
