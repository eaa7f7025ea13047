"""The scanner microcontroller, emulated on a pseudo-terminal: the simulated board behind the
same serial link as the real one, so a controller connects to it by port name.

It runs the scanner firmware's own logic (`dvonn_hw.firmware.scanner.Scanner`, the code the RP2040
runs) with the simulated board as its hardware: the firmware obeys the host (HELLO, PING,
LED_FRAME, SET_RATE, SET_OVERSAMPLE, ERROR for anything else, all per `dvonn_hw.protocol`) and sends
SENSOR_FRAMEs in channel order at its frame rate. Each scan reads the `SimBoard` frames up to the
firmware's clock (so board time follows the wall clock whatever the rate), and every LED_FRAME
is decoded back into an `LedFrame` shown on the board, where scripted players read it. Wiring
(space -> channel, space -> LED) comes from a hardware profile (default: hw/profiles/default.toml).

    >>> from dvonn_sim.board import SimBoard                                  # doctest: +SKIP
    >>> with PtyScanner(SimBoard(seed=1)) as scanner:                   # doctest: +SKIP
    ...     print(scanner.port)        # e.g. /dev/pts/5: open it with hw.serial_link
    ...     link = SerialScanner.from_profile(load_profile(), port=scanner.port)

From a shell: ``python -m dvonn_sim.pty_scanner [--seed 1] [--noise default] [--preset
default|rough|ideal] [--adc 12|10] [--record FILE] [--random] [--mistakes 0.1] [--link
/tmp/dvonn-scanner]`` prints the port and serves until Ctrl-C (with --record or --random, scripted
players play on the board, following its LEDs; their button presses reach no host from here:
`dvonn-board bench serial` carries them to `play` through its web view). --preset and --adc build
the board exactly as `sim --autoplay` does (`served_params`).
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import threading
import time
import tty

from firmware_py.errors import ProfileError
from dvonn_hw.firmware.scanner import Scanner
from dvonn_hw.leds import ChainEncoder
from dvonn_hw.profile import load_profile

TICKS_PERIOD = 2**30  # MicroPython's ticks_us wraps here on the RP2040


class _SimHardware:
    """What the firmware sees of the machine: muxes and ADC (the simulated board's readings),
    the LED chain, the USB serial (a pty master), and MicroPython's tick functions."""

    def __init__(self, emulator: "PtyScanner"):
        self.em = emulator
        self._input = 0
        self._mux = 0

    # muxes and ADC: the reading of the selected channel in the current board frame
    def select(self, mux_input):
        self._input = mux_input

    def enable(self, mux):
        self._mux = mux

    def read(self):
        return self.em.readings[self._mux * 16 + self._input]

    def show(self, chain):
        self.em.on_leds(bytes(chain))

    def send(self, data):
        self.em.write(data)

    def receive(self):
        return self.em.receive()

    def ticks_us(self):
        return (time.monotonic_ns() // 1000) % TICKS_PERIOD

    def ticks_diff(self, a, b):
        return ((a - b + TICKS_PERIOD // 2) % TICKS_PERIOD) - TICKS_PERIOD // 2

    def ticks_add(self, a, delta):
        return (a + delta) % TICKS_PERIOD

    def sleep_us(self, us):
        pass  # the simulated multiplexers settle at once


class _SimScanner(Scanner):
    """The firmware, fetching the simulated board's next frame at the start of every scan; the
    host's SET_OVERSAMPLE reaches the simulated sensors (the noise of a reading follows it)."""

    def scan(self):
        self.hw.em.next_board_frame()
        return super().scan()

    def handle(self, message):
        super().handle(message)
        board = self.hw.em.board
        if self.oversample != board.params.oversample:
            with self.hw.em.lock:
                board.params = board.params.replace(oversample=self.oversample)


class PtyScanner:
    """Serve `board` on a new pseudo-terminal (see the module docstring).

    profile: a hw profile (wiring of channels and LEDs); on_frame(frame): called after each board
    frame is read (e.g. ``lambda f: players.step()``); link: also make a symlink with this path
    to the port (a stable name, like the udev rule's /dev/dvonn-scanner). Hold `lock` while
    acting on the board from another thread (the emulator reads frames under it).
    """

    def __init__(self, board, profile=None, on_frame=None, link: str | None = None,
                 name: str = "dvonn-sim"):
        self.board = board
        self.profile = profile or load_profile()
        self.on_frame = on_frame
        self.channels = self.profile.channels
        n_channels = max(self.channels) + 1
        self.readings = [0] * n_channels
        self.chain = ChainEncoder.from_profile(self.profile)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.link = link
        if link:
            if os.path.islink(link):
                os.unlink(link)
            os.symlink(self.port, link)
        self.errors: list[str] = []
        self.led_frames = 0
        self.hw = _SimHardware(self)
        self.firmware = _SimScanner(self.hw, channels=n_channels,
                                    rate_hz=round(board.params.frame_rate),
                                    oversample=board.params.oversample, settle_us=0,
                                    leds=self.chain.count, adc_bits=board.params.adc_bits,
                                    name=name)
        self._t0 = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lock = threading.Lock()

    # -- the firmware's side --------------------------------------------------------------------
    def next_board_frame(self) -> None:
        """Read board frames up to now on the wall clock (at least one)."""
        board = self.board
        target = time.monotonic() - self._t0
        frame = None
        with self.lock:
            while frame is None or board.now < target - board.frame_period / 2:
                frame = board.read_frame()
                if self.on_frame is not None:
                    self.on_frame(frame)
        for space, channel in enumerate(self.channels):
            self.readings[channel] = frame.raw[space]

    def on_leds(self, chain: bytes) -> None:
        full = chain + bytes(max(0, 3 * self.chain.count - len(chain)))
        with self.lock:
            self.board.show(self.chain.decode(full))
        self.led_frames += 1

    def write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except BlockingIOError:
            self.errors.append("host not reading: packet dropped")
        except OSError as exc:  # EIO while no host has the port open
            self.errors.append(f"write: {exc}")

    def receive(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

    # -- running --------------------------------------------------------------------------------
    def start(self) -> "PtyScanner":
        """Run the firmware loop in a background thread (returns self)."""
        self.firmware.start()
        self._thread = threading.Thread(target=self._run, name="pty-scanner", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.firmware.step()
            # Sleep until the host writes or the next frame is due (at most a few ms).
            fw = self.firmware
            due = fw.hw.ticks_diff(fw.next_frame, fw.hw.ticks_us()) / 1e6 if fw.period_us else 0.05
            try:
                select.select([self.master], [], [], min(max(due, 0.0), 0.05))
            except (OSError, ValueError):
                return

    def serve_forever(self) -> None:
        """Run in this thread until KeyboardInterrupt."""
        self.firmware.start()
        try:
            self._run()
        except KeyboardInterrupt:
            pass

    def close(self) -> None:
        """Stop the thread and close the pty (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self.slave = -1
        if self.link and os.path.islink(self.link):
            os.unlink(self.link)

    def __enter__(self) -> "PtyScanner":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def serve_port(board, **kwargs) -> PtyScanner:
    """Start serving `board` on a pty in the background; the caller prints `.port`."""
    return PtyScanner(board, **kwargs).start()


def served_params(preset: str = "default", noise: str | float | None = "default",
                  adc_bits: int = 12, params_file: str | None = None):
    """The simulated board a pty serves: autoplay's board (`Params.preset` with `adc_board`, the
    same code as `sim --autoplay --preset P --adc A`), or a TOML file's, read through the serial
    scanner: whatever the ADC, the firmware sends whole codes over the link (a 10-bit ADC is then
    an MCP3008 in the RP2040's place; autoplay's 10-bit board is the Pi's direct scanner, which
    keeps the fraction of a code). ProfileError names a value that cannot be served."""
    from .params import Params, adc_board, noise_level

    if params_file:  # the file's board; the noise and the ADC as given (as ever)
        params = Params.from_toml(params_file)
        if params.scanner != "serial":  # the direct scanner is the Pi's own, not on a port
            raise ProfileError("scanner", "a scanner on a serial port is \"serial\" (it sends "
                                          f"whole codes), not {params.scanner!r}")
        params = params.replace(noise_mt=noise_level(noise), **adc_board(adc_bits))
        params.check()
    else:
        params = Params.preset(preset, noise=noise, **adc_board(adc_bits))
    return params.replace(scanner="serial")


def main(argv: list[str] | None = None) -> int:
    """Serve a simulated board on a pseudo-terminal and print its port name."""
    from .board import SimBoard
    from .params import ADC_BOARDS, NOISE_LEVELS, PRESETS
    from .players import Mistakes, Players

    parser = argparse.ArgumentParser(prog="python -m dvonn_sim.pty_scanner", description=main.__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", default="default",
                        help=f"{', '.join(NOISE_LEVELS)} or mT per raw sample")
    board_from = parser.add_mutually_exclusive_group()
    board_from.add_argument("--preset", default="default", choices=list(PRESETS),
                            help="the simulated board, as `sim --autoplay --preset`: default (a "
                                 "careful builder's), rough (every imperfection at its worst), "
                                 "ideal (none)")
    board_from.add_argument("--params", help="a TOML file of simulator parameters")
    parser.add_argument("--adc", type=int, default=12, choices=sorted(ADC_BOARDS, reverse=True),
                        help="ADC bits, as `sim --autoplay --adc`: 12 (the RP2040) or 10 (an "
                             "MCP3008; the host then needs a profile with [adc] type = "
                             "\"MCP3008\")")
    parser.add_argument("--profile", help="hw profile for the wiring (default: packaged default)")
    parser.add_argument("--record", help="a file of plies (one game) for scripted players")
    parser.add_argument("--random", action="store_true", help="scripted players play at random")
    parser.add_argument("--mistakes", type=float, default=0.0, help="players' mistake rate")
    parser.add_argument("--link", help="also make this symlink to the port")
    args = parser.parse_args(argv)
    try:
        try:
            level = float(args.noise)
        except ValueError:
            level = args.noise
        params = served_params(args.preset, level, args.adc, args.params)
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    board = SimBoard(params, seed=args.seed)
    on_frame = None
    if args.record or args.random:
        tokens = None
        if args.record:
            with open(args.record, encoding="utf-8") as f:
                tokens = f.read().split()
        players = Players(board, tokens, mistakes=Mistakes(rate=args.mistakes), seed=args.seed)
        on_frame = lambda frame: players.step()  # noqa: E731
    profile = load_profile(args.profile) if args.profile else None
    scanner = PtyScanner(board, profile=profile, on_frame=on_frame, link=args.link)
    print(scanner.port, flush=True)
    if args.link:
        print(f"(also {args.link})", file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # clean up the link on kill too
    try:
        scanner.serve_forever()
    finally:
        scanner.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
