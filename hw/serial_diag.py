"""Talking to a scanner from the command line, and the host's cost per sensor frame.

    python -m dvonn_hw.serial_diag                       # the serial ports, likely scanners first
    python -m dvonn_hw.serial_diag --port /dev/dvonn-scanner   # HELLO, PING, frames, counters
    python -m dvonn_hw.serial_diag --bench               # microseconds per frame, no I/O
"""

from __future__ import annotations

import time
from collections import deque

from firmware_py.errors import LinkLost
from firmware_py.spaces import N_SPACES

from . import protocol
from .scanner_receive import LinkStats
from .serial_link import SerialScanner, list_ports


def benchmark(frames: int = 2000) -> dict:
    """Microseconds per sensor frame on this machine: protocol encode, decode, and the
    scanner's whole receive path (decode, channel map, SensorFrame), without any I/O."""
    readings = list(range(1000, 1000 + N_SPACES))
    enc = protocol.Encoder()
    packets = [enc.packet(protocol.SENSOR_FRAME, protocol.sensor_body(i * 10_000, readings))
               for i in range(frames)]
    wire = b"".join(packets)

    def best(fn) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return round(min(times) / frames * 1e6, 1)

    scanner = SerialScanner.__new__(SerialScanner)  # no port: only the receive path
    scanner.channels, scanner.stats = tuple(range(N_SPACES)), LinkStats()
    scanner._decoder, scanner._tracker = protocol.Decoder(), protocol.SeqTracker()
    scanner._pending, scanner._replies = deque(), deque()
    scanner._seq, scanner._t_offset, scanner._last_time = -1, None, float("-inf")
    scanner._clock = time.monotonic

    def feed():
        scanner.feed(wire)
        scanner._pending.clear()

    return {"frames": frames,
            "encode_us": best(lambda: [protocol.encode(protocol.SENSOR_FRAME, i,
                                                       protocol.sensor_body(i, readings))
                                       for i in range(frames)]),
            "decode_us": best(lambda: protocol.Decoder().feed(wire)),
            "feed_us": best(feed)}


def main(argv: list[str] | None = None) -> int:  # python -m dvonn_hw.serial_diag [--port PORT]
    """List serial ports; with --port, talk to the scanner and print what the link sees."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m dvonn_hw.serial_diag", description=main.__doc__)
    parser.add_argument("--port", help="the scanner's port, e.g. /dev/dvonn-scanner")
    parser.add_argument("--seconds", type=float, default=2.0, help="how long to read frames")
    parser.add_argument("--bench", action="store_true",
                        help="measure the host's cost per sensor frame (decode, map) and exit")
    parser.add_argument("--frames", type=int, default=2000, help="frames per --bench run")
    args = parser.parse_args(argv)
    if args.bench:
        r = benchmark(args.frames)
        print(f"per sensor frame of {N_SPACES} readings, best of 3 x {r['frames']}: "
              f"encode {r['encode_us']:.1f} us, decode {r['decode_us']:.1f} us, "
              f"SerialScanner.feed (decode + map + SensorFrame) {r['feed_us']:.1f} us")
        return 0
    if not args.port:
        ports = list_ports()
        for p in ports:
            mark = "  <- RP2040, likely the scanner" if p["likely_scanner"] else ""
            print(f"{p['device']}: {p['description']} [{p['hwid']}]{mark}")
        if not ports:
            print("no serial ports found")
        return 0
    scanner = SerialScanner(args.port)
    try:
        hello = scanner.hello()
        print("hello:", hello if hello is not None else "no answer")
        ping = scanner.ping(timeout=1.0)
        if ping is None:
            print("ping: no answer")
        else:
            print(f"ping: {ping[0] * 1000:.1f} ms; scanner received "
                  f"frames/bad_crc/broken/gaps = {ping[1]}")
        start, frames, first = time.monotonic(), 0, None
        while time.monotonic() - start < args.seconds:
            frame = scanner.read_frame(timeout=0.2)
            if frame is not None:
                frames += 1
                first = first or frame
        print(f"{frames} frames in {args.seconds:.1f} s ({frames / args.seconds:.0f} per second)")
        if first is not None:
            print("first frame:", first.raw)
    except LinkLost as exc:
        print("link lost:", exc)
        return 1
    finally:
        print("stats:", json.dumps(scanner.stats.as_dict(), indent=1))
        scanner.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
