"""hw/protocol.py and the firmware's scanner.py in real MicroPython (its WebAssembly port, run
by node), checked byte for byte against CPython.

Needs node and `npm install` in hw/firmware/micropython-host (.ci/run does it); skipped where
either is missing.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dvonn_hw import protocol as p
from dvonn_hw.firmware.scanner import FIRMWARE_VERSION

HW = Path(__file__).parent.parent / "hw"
HOST = HW / "firmware" / "micropython-host"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None or not (HOST / "node_modules" / "@micropython").exists(),
    reason="MicroPython's WebAssembly port is not installed (npm install in " + str(HOST) + ")")

SCRIPT = r"""
import sys
sys.path.append("/")
import json
import protocol as p
from scanner import Scanner

out = {"implementation": sys.implementation.name}
enc = p.Encoder()
wire = enc.packet(p.SENSOR_FRAME, p.sensor_body(4000000000, list(range(1000, 1049))))
wire += enc.packet(p.LED_FRAME, bytes(range(150)))
wire += enc.packet(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "mpy", 3))
out["wire"] = list(wire)
out["crc"] = p.crc16(b"123456789")
dec = p.Decoder()
msgs = dec.feed(b"noise\x00" + wire[:40]) + dec.feed(wire[40:])
out["decoded"] = [[m.kind, m.seq, list(m.body)] for m in msgs]
out["counters"] = dec.counters()

class StandIn:
    def __init__(self):
        self.input = 0; self.mux = 0; self.now = (1 << 30) - 3000
        self.sent = bytearray(); self.incoming = bytearray(); self.shown = []
    def select(self, i): self.input = i
    def enable(self, m): self.mux = m
    def read(self): return 100 + self.mux * 16 + self.input
    def show(self, chain): self.shown.append(bytes(chain))
    def send(self, data): self.sent.extend(data)
    def receive(self):
        data = bytes(self.incoming); self.incoming = bytearray(); return data
    def ticks_us(self): return self.now
    def ticks_diff(self, a, b): return ((a - b + (1 << 29)) % (1 << 30)) - (1 << 29)
    def ticks_add(self, a, d): return (a + d) % (1 << 30)
    def sleep_us(self, us): pass

hw = StandIn()
fw = Scanner(hw, rate_hz=100, oversample=4, settle_us=0, name="mpy")
host = p.Encoder()
hw.incoming.extend(host.packet(p.HELLO, p.hello_body(p.ROLE_HOST)))
hw.incoming.extend(host.packet(p.LED_FRAME, bytes(30)))
hw.incoming.extend(host.packet(p.PING, p.ping_body(5)))
for _ in range(40):
    fw.step()
    hw.now = (hw.now + 500) % (1 << 30)
out["firmware_sent"] = list(hw.sent)
out["shown"] = [list(c) for c in hw.shown]
print("RESULT " + json.dumps(out))
"""


def run_in_micropython(tmp_path):
    script = tmp_path / "check.py"
    script.write_text(SCRIPT)
    result = subprocess.run(
        [NODE, str(HOST / "run.mjs"), f"{HW / 'protocol.py'}=/protocol.py",
         f"{HW / 'firmware' / 'scanner.py'}=/scanner.py", str(script)],
        cwd=HOST, capture_output=True, text=True, timeout=120)
    lines = [line for line in result.stdout.splitlines() if line.startswith("RESULT ")]
    assert result.returncode == 0 and lines, result.stdout + result.stderr
    return json.loads(lines[0][len("RESULT "):])


def test_same_bytes_in_micropython_and_cpython(tmp_path):
    mp = run_in_micropython(tmp_path)
    assert mp["implementation"] == "micropython"
    enc = p.Encoder()
    wire = enc.packet(p.SENSOR_FRAME, p.sensor_body(4000000000, list(range(1000, 1049))))
    wire += enc.packet(p.LED_FRAME, bytes(range(150)))
    wire += enc.packet(p.HELLO, p.hello_body(p.ROLE_SCANNER, 12, 49, 50, 100, "mpy", 3))
    assert bytes(mp["wire"]) == wire
    assert mp["crc"] == 0x29B1
    assert [(k, s, bytes(b)) for k, s, b in mp["decoded"]] == \
        [(m.kind, m.seq, m.body) for m in p.Decoder().feed(wire)]
    assert mp["counters"]["frames"] == 3 and mp["counters"]["garbage_bytes"] == 5

    # What the firmware sent from MicroPython decodes on CPython as the host would see it.
    sent = p.Decoder().feed(bytes(mp["firmware_sent"]))
    kinds = [m.kind for m in sent]
    assert kinds.count(p.HELLO) == 1 and kinds.count(p.PONG) == 1
    hello = p.parse_hello(next(m for m in sent if m.kind == p.HELLO).body)
    assert (hello["version"], hello["firmware"]) == (p.VERSION, FIRMWARE_VERSION)  # what the Pi checks
    frames = [p.parse_sensor(m.body) for m in sent if m.kind == p.SENSOR_FRAME]
    assert len(frames) == 2  # 20 ms at 100 frames per second
    assert frames[0][1] == tuple(100 + ch for ch in range(49))
    assert frames[1][0] - frames[0][0] == 10_000  # across MicroPython's ticks wrap
    assert [bytes(c) for c in mp["shown"]] == [bytes(30)]
