"""The board a diagnostics command works on: the real one (`hw`, from the board profile) or the
simulator (`--backend sim`, with injectable faults and a simulated person who follows the LEDs).

Every command gets a `DiagBoard`: a sensor source and an LED sink, the profile, link counters,
and for the simulator its `SimBoard` and `SimPerson`. Closing it (also on Ctrl-C) turns the LEDs
off and closes the port. The simulated one is built by the commands (`dvonn_sim.compose.diag_board`):
nothing here imports the simulator.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..errors import DvonnError, HardwareUnavailable, LinkLost
from ..interfaces import BLANK, LedFrame, SensorFrame
from ..spaces import SPACES, parse_space
from .analysis import SEQ_MOD, Units

FAULT_KINDS = ("dead", "stuck", "noisy", "saturated", "swap")
NOISE_NAMES = ("clean", "default", "poor", "bad")


@dataclass(frozen=True)
class Fault:
    """One injected simulator fault: `dead:e3`, `stuck:c2[=CODE]`, `noisy:d4[=mT]`,
    `saturated:c2` (output pinned at full scale) or `swap:a1,b1`.

    >>> Fault.parse("swap:a1,b1")
    Fault(kind='swap', spaces=(0, 1), value=None)
    >>> Fault.parse("noisy:d4=1.5").value
    1.5
    """

    kind: str
    spaces: tuple[int, ...]
    value: float | None = None

    @classmethod
    def parse(cls, spec: str) -> Fault:
        kind, sep, rest = spec.partition(":")
        kind = kind.strip().lower()
        if not sep or kind not in FAULT_KINDS:
            raise ValueError(f"--fault {spec!r}: expected KIND:SPACE with KIND one of "
                             f"{', '.join(FAULT_KINDS)} (e.g. dead:e3, swap:a1,b1)")
        where, eq, value = rest.partition("=")
        try:
            spaces = tuple(parse_space(s) for s in where.split(","))
        except ValueError as e:
            raise ValueError(f"--fault {spec!r}: {e}") from None
        want = 2 if kind == "swap" else 1
        if len(spaces) != want or (kind == "swap" and spaces[0] == spaces[1]):
            raise ValueError(f"--fault {spec!r}: {kind} takes {want} different space(s)")
        number = None
        if eq:
            if kind not in ("stuck", "noisy"):
                raise ValueError(f"--fault {spec!r}: {kind} takes no value")
            try:
                number = float(value)
            except ValueError:
                raise ValueError(f"--fault {spec!r}: {value!r} is not a number") from None
        return cls(kind, spaces, number)

    def apply(self, sim) -> None:
        if self.kind == "swap":
            sim.swap_channels(*self.spaces)
        elif self.kind == "saturated":
            sim.fail(self.spaces[0], "stuck", sim.adc_max)
        elif self.kind == "stuck" and self.value is not None:
            sim.fail(self.spaces[0], "stuck", int(self.value))
        else:
            sim.fail(self.spaces[0], self.kind, self.value)

    def __str__(self) -> str:
        names = ",".join(SPACES[s] for s in self.spaces)
        return f"{self.kind}:{names}" + ("" if self.value is None else f"={self.value:g}")


class DiagBoard:
    """What a diagnostics command talks to (see the module docstring)."""

    def __init__(self, kind: str, profile, source, leds, *, sim=None, person=None, link=None,
                 led_error: str | None = None, faults: tuple[Fault, ...] = ()):
        self.kind = kind  # 'hw' or 'sim'
        self.profile = profile
        self.source = source
        self.leds = leds
        self.sim = sim
        self.person = person
        self.link = link  # the SerialScanner, for its counters and HELLO
        self.led_error = led_error  # why the LED strip did not start, if it did not
        self.faults = faults
        self.units = Units.from_profile(profile)
        self.adc_max = source.adc_max
        self.frames = 0
        self.gaps = 0
        self.lost = 0
        self.link_losses = 0
        self._last_seq: int | None = None
        self._closed = False
        self.pending: dict = {}  # simulator: stacks to set up at frame `place_at`
        self.place_at = 0

    @property
    def wiring(self):
        return self.profile.spaces

    def read(self, timeout: float | None = 1.0) -> SensorFrame | None:
        """The next frame (None on timeout); counts frames and sequence gaps; lets the
        simulated person look at the LEDs."""
        frame = self.source.read_frame(timeout)
        if frame is None:
            return None
        self.frames += 1
        if self._last_seq is not None:
            step = (frame.seq - self._last_seq) % SEQ_MOD
            if step != 1:
                self.gaps += 1
                self.lost += (step - 1) % SEQ_MOD
        self._last_seq = frame.seq
        if self.pending and self.frames >= self.place_at:
            self.sim.setup(self.pending)
            self.pending = {}
        if self.person is not None:
            self.person.step(frame)
        return frame

    def show(self, frame: LedFrame) -> None:
        self.leds.show(frame)

    def counters(self) -> dict:
        """Link statistics: frames, gaps and lost frames seen here, plus the link's own
        counters (CRC errors, garbage, reconnections) on a serial scanner."""
        out = {"frames": self.frames, "gaps": self.gaps, "lost": self.lost,
               "crc_errors": 0, "truncated": 0, "garbage_bytes": 0, "link_losses": 0}
        stats = getattr(self.link, "stats", None)
        if stats is not None:
            out.update(crc_errors=stats.bad_crc, truncated=stats.truncated,
                       garbage_bytes=stats.garbage_bytes, link_losses=stats.link_losses,
                       reconnects=stats.reconnects, scanner_gaps=stats.gaps,
                       scanner_lost=stats.lost)
        return out

    def led_startup(self) -> tuple[bool, str]:
        """Whether the LED strip started, and how we know."""
        if self.led_error:
            return False, self.led_error
        if self.kind == "sim":
            try:
                self.leds.show(BLANK)
            except Exception as e:  # the sink refusing a frame is exactly the fault
                return False, f"the simulated strip refused a frame: {e}"
            return True, "simulated strip accepts frames"
        if self.profile.leds.driver == "none":
            return True, "the profile has no LEDs"
        if self.link is not None and self.profile.leds.driver == "serial":
            try:
                hello = self.link.stats.scanner or self.link.hello(timeout=2.0)
            except LinkLost as e:
                return False, f"the LED chain is on the scanner, whose link is down ({e})"
            if not hello:
                return False, "the scanner did not say hello: its LED chain state is unknown"
            leds = hello.get("leds", 0)
            if leds < self.profile.leds.count:
                return False, (f"the scanner drives {leds} LEDs, the profile has "
                               f"{self.profile.leds.count}")
            return True, f"the scanner drives {leds} LEDs"
        return True, f"{type(self.leds).__name__} started"

    def close(self) -> None:
        """LEDs off, port closed (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.leds.show(BLANK)
        except Exception:
            pass  # the link may be gone; closing still has to happen
        finally:
            self.leds.close()
            if self.source is not self.leds:
                self.source.close()

    def __enter__(self) -> DiagBoard:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_board(backend: str = "hw", profile: str | None = None, port: str | None = None, *,
               simulator=None, **sim_options) -> DiagBoard:
    """Open the real board from a profile, or (backend "sim") the simulated one that
    `simulator(profile, **sim_options)` builds: the commands pass `dvonn_sim.compose.diag_board`, so
    that nothing here depends on the simulator. sim_options: seed, noise, faults (specs or
    Faults), real_time, person, pieces."""
    from dvonn_hw.profile import load_profile
    prof = load_profile(profile)
    if backend == "sim":
        if simulator is None:
            raise ValueError("the simulator is not available to this command")
        return simulator(prof, **sim_options)
    if backend != "hw":
        raise ValueError(f"unknown backend {backend!r} (hw or sim)")
    if sim_options.get("faults") or sim_options.get("noise") is not None:
        raise ValueError("--fault and --noise are for the simulator (--backend sim)")
    return _open_hw(prof, port)


def _open_hw(prof, port) -> DiagBoard:
    """The board through `dvonn_hw.board.open_board`; an LED strip that cannot start is reported by
    the self-test rather than stopping the sensor diagnostics."""
    import dataclasses

    from dvonn_hw.board import open_board as open_hw
    led_error = None
    prof = dataclasses.replace(prof, buttons=None)  # diagnostics leave the buttons' pins alone
    try:
        hw = open_hw(prof, port)
    except HardwareUnavailable as e:
        if prof.leds.driver not in ("ws281x", "pio"):
            raise
        led_error = str(e)
        hw = open_hw(dataclasses.replace(prof, leds=dataclasses.replace(prof.leds,
                                                                        driver="none")), port)
    link = hw.sensors if hasattr(hw.sensors, "stats") else None
    if link is None and hasattr(hw.leds, "stats"):
        link = hw.leds  # a direct scanner with the LED chain on a serial scanner
    return DiagBoard("hw", prof, hw.sensors, hw.leds, link=link, led_error=led_error)


# ----------------------------------------------------------------------------- command line

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every diag command shares: which board, and the simulator's faults."""
    g = parser.add_argument_group("board")
    g.add_argument("--backend", choices=("hw", "sim"), default="hw",
                   help="the real board (default) or the simulator")
    g.add_argument("--profile", metavar="FILE", default=None,
                   help="board profile (a TOML file, or 'default' / 'direct' / 'direct-pi5')")
    g.add_argument("--port", metavar="PORT", default=None,
                   help="the scanner's serial port (default: the profile's)")
    s = parser.add_argument_group("simulator (--backend sim)")
    s.add_argument("--fault", action="append", default=[], metavar="KIND:SPACE",
                   help="inject a fault: dead:e3, stuck:c2[=CODE], noisy:d4[=mT], saturated:c2, "
                        "swap:a1,b1 (repeatable)")
    s.add_argument("--noise", metavar="LEVEL", default=None,
                   help="sensor noise: clean, default, poor, bad, or mT RMS per raw sample")
    s.add_argument("--seed", type=int, default=0, help="the simulated board's seed")
    s.add_argument("--place", action="append", default=[], metavar="SPACE=STACK",
                   help="a stack set down on a space after the first second, bottom piece "
                        "first: e3=W, f3=WBD (repeatable)")
    s.add_argument("--real-time", action="store_true",
                   help="run the simulator at wall-clock speed (default: as fast as it goes)")


def board_from_args(args, person: bool = True, real_time: bool | None = None) -> DiagBoard:
    """Open what the command line asks for; errors become a DvonnError/ValueError message."""
    noise = args.noise
    if noise is not None and noise not in NOISE_NAMES:
        try:
            noise = float(noise)
        except ValueError:
            raise ValueError(f"--noise {noise!r}: one of {', '.join(NOISE_NAMES)} or a number "
                             "(mT RMS)") from None
    if args.backend != "sim" and (args.fault or args.noise is not None):
        raise ValueError("--fault and --noise need --backend sim")
    pieces = {}
    for spec in args.place:
        where, eq, stack = spec.partition("=")
        try:
            space = parse_space(where)
        except ValueError as e:
            raise ValueError(f"--place {spec!r}: {e}") from None
        stack = stack.strip().upper()
        if not eq or not stack or set(stack) - set("WBD"):
            raise ValueError(f"--place {spec!r}: expected SPACE=STACK with pieces W, B, D "
                             "bottom first (e.g. e3=WB)")
        pieces[SPACES[space]] = stack
    if pieces and args.backend != "sim":
        raise ValueError("--place needs --backend sim")
    return open_board(args.backend, args.profile, args.port,
                      simulator=getattr(args, "simulator", None), seed=args.seed, noise=noise,
                      faults=args.fault, pieces=pieces,
                      real_time=args.real_time if real_time is None else real_time,
                      person=person)


OPEN_ERRORS = (DvonnError, ValueError, OSError)
__all__ = ["DiagBoard", "Fault", "open_board", "add_arguments", "board_from_args",
           "OPEN_ERRORS"]
