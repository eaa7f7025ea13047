"""The simulated board: the ground truth (pieces on spaces, in a hand, knocked aside, removed)
and the in-process backend that turns it into sensor frames and receives LED frames.

`SimBoard` implements `firmware_py.interfaces.SensorSource` (each `read_frame` advances the
simulated clock by one frame period, 10 ms on the reference board, and returns that frame),
`LedSink` (the last `LedFrame` is kept in `leds`, its changes in `led_log` for reading blink
patterns) and `ButtonSource` (`press` / `events`). Everything the controller may know goes
through those interfaces; the truth (`truth()`, `stacks`, `hand`, `loose`, `removed`,
`reserve`) is for tests, scripted players and views.

Pieces are not where the ideal board has them: a piece set on an empty space lands up to
`placement_mm` off its intersection, a stack set on a stack up to `misalign_mm` off the piece
below (a carried stack keeps its own shape), a landing nudges the stack below by up to
`nudge_mm`, and each magnet sits up to `magnet_offset_mm` off its piece's axis. Every magnet's
field is computed where it really is (`FieldModel.field`: the exact cylinder field). What the
LEDs show adds the LED current's field at the sensors (`led_mt` per fully lit LED).

Frames are computed a few at a time while nothing is picked up or set down (numpy), so a whole
game of about 20,000 frames takes well under a second of CPU (`python -m dvonn_sim.bench`).

>>> board = SimBoard(seed=1)
>>> board.setup({"e3": "D", "f3": "WB"})
>>> board.truth()[23], board.truth()[24]
(('D',), ('W', 'B'))
>>> frame = board.read_frame(); frame.time, len(frame.raw)
(0.0, 49)
"""

from __future__ import annotations

import collections

import numpy as np

from firmware_py.interfaces import LedFrame, SensorFrame
from firmware_py.spaces import N_SPACES, parse_space

from .clock import RealTimeClock, SimClock
from .hand import Hand
from .params import Params, noise_level
from .physics import KIND_INDEX, FieldModel
from .pieces import Loose, Piece
from .sensors import SensorArray

PIECE_COUNTS = {"W": 23, "B": 23, "D": 3}
CHUNK = 25  # frames computed at once while nothing changes on the board


class SimBoard:
    """A wooden DVONN board with magnets, Hall sensors and LEDs, simulated.

    params: the physics (default: the reference board); seed: draws the pieces' magnets, the
    sensors' offsets and gains, the noise and the hand's timing; clock: `SimClock()` (default,
    as fast as possible) or `RealTimeClock()` (frames come at the frame rate of the wall clock).
    """

    def __init__(self, params: Params | None = None, seed: int = 0, clock=None):
        self._params = params or Params()
        self._params.check()
        self.seed = seed
        self.clock = clock or SimClock()
        self.adc_max = self._params.adc_max
        self.model = FieldModel(self._params)
        self.sensors = SensorArray(self._params, seed)
        rng = np.random.default_rng([seed, 0x91ECE])
        spread = self.params.strength_spread
        strengths = {kind: [float(rng.uniform(1 - spread, 1 + spread)) for _ in range(n)]
                     for kind, n in PIECE_COUNTS.items()}
        # Drawn from their own streams, so the strengths above stay what they were.
        self._place_rng = np.random.default_rng([seed, 0x91ACE])
        off = np.random.default_rng([seed, 0x3A6])
        self.reserve: dict[str, list[Piece]] = {
            kind: [Piece(kind, i + 1, st, *_in_disc(off, self._params.magnet_offset_mm))
                   for i, st in enumerate(strengths[kind])]
            for kind in PIECE_COUNTS}
        # Where each piece on a space (or in the hand) sits: its centre's (dx, dy) from its
        # space's intersection (from the held stack's bottom piece while in the hand).
        self.offset: dict[Piece, tuple[float, float]] = {}
        self.stacks: list[list[Piece]] = [[] for _ in range(N_SPACES)]
        self.loose: list[Loose] = []
        self.removed: list[Piece] = []
        self.hand = Hand(self, np.random.default_rng([seed, 0x4A4D]))
        self.leds: LedFrame | None = None
        self.led_log: collections.deque[tuple[float, LedFrame]] = collections.deque(maxlen=400)
        self.button_presses: list[str] = []
        self.closed = False
        self._read = 0          # index of the next frame to hand out
        self._buffer: collections.deque = collections.deque()
        self._static: np.ndarray | None = None
        self._truth: tuple | None = None
        self._last_time = 0.0

    # -- settings -------------------------------------------------------------------------------
    @property
    def params(self) -> Params:
        return self._params

    @params.setter
    def params(self, params: Params) -> None:
        """Change the physics on the fly (e.g. the noise level); the pieces' magnets and the
        sensors' own offsets and gains stay what they were."""
        params.check()
        old, self._params = self._params, params
        self.sensors.params = params
        self.adc_max = params.adc_max
        geometry = ("magnets", "sensor_gap_mm", "piece_pitch_mm", "space_pitch_mm")
        if any(getattr(old, k) != getattr(params, k) for k in geometry):
            self.model = FieldModel(params)
        self.changed()

    @property
    def reading_step(self) -> float:
        """The finest step of a reading (codes): 1, or 1/N as the direct scanner reports."""
        return self._params.reading_step

    def set_noise(self, level: str | float) -> None:
        """Noise per raw sample: 'clean', 'default', 'poor', 'bad' or mT."""
        self.params = self._params.replace(noise_mt=noise_level(level))

    # -- SensorSource ---------------------------------------------------------------------------
    def read_frame(self, timeout: float | None = None) -> SensorFrame | None:
        """The next frame: one frame period after the previous one on the board's clock."""
        if not self._buffer:
            self._fill()
        index, t, raw = self._buffer[0]
        if not self.clock.wait_until(t, timeout):
            return None
        self._buffer.popleft()
        self._read = index + 1
        self._last_time = t
        return SensorFrame(index & 0xFFFF, t, raw)

    def close(self) -> None:
        self.closed = True

    # -- LedSink --------------------------------------------------------------------------------
    def show(self, frame: LedFrame) -> None:
        """Keep the LED frame (scripted players and the web view read it). `led_log` keeps the
        changes: (time shown, frame), a new entry only when the frame differs from the last."""
        if frame != self.leds:
            self.led_log.append((self._last_time, frame))
            if self._params.led_mt:
                # The LED current's field: frames computed ahead were read with the old one.
                self.sensors.led_mt = self._params.led_mt * np.array(
                    [sum(c) / 765.0 for c in frame.spaces])
                self._buffer.clear()
        self.leds = frame

    # -- buttons (a ButtonSource view of the simulated board) -----------------------------------
    def press(self, name: str) -> None:
        """A person presses a button: one of `firmware_py.interfaces.BUTTON_EVENTS`."""
        self.button_presses.append(name)

    def events(self) -> list[str]:
        out, self.button_presses = self.button_presses, []
        return out

    # -- time -----------------------------------------------------------------------------------
    @property
    def now(self) -> float:
        """Time of the last frame handed out (0.0 before the first)."""
        return self._last_time

    @property
    def frame_period(self) -> float:
        return self.params.frame_period

    def run(self, seconds: float) -> SensorFrame | None:
        """Read (and drop) frames for `seconds` of board time; returns the last one."""
        frame = None
        end = self.now + seconds - 1e-9
        while self.now < end or frame is None:
            frame = self.read_frame()
        return frame

    # -- the truth ------------------------------------------------------------------------------
    def truth(self) -> tuple[tuple[str, ...], ...]:
        """The stacks standing on the 49 spaces, bottom up, as piece codes."""
        if self._truth is None:
            self._truth = tuple(tuple(p.kind for p in s) for s in self.stacks)
        return self._truth

    def stack(self, space: int | str) -> tuple[str, ...]:
        return tuple(p.kind for p in self.stacks[_space(space)])

    def is_settled(self) -> bool:
        """Nothing in the air or knocked aside, and the hand has nothing left to do."""
        return not self.loose and self.hand.idle()

    def setup(self, position) -> None:
        """Put stacks on spaces at once (no hand): a rules Board, a list of 49 stacks, or a dict
        {space: stack} where a stack is a string or tuple of codes bottom up ('WB', ('D',)).
        Pieces come from the reserve; the spaces named are replaced."""
        if hasattr(position, "stacks"):
            position = position.stacks()
        items = position.items() if isinstance(position, dict) else enumerate(position)
        for space, codes in items:
            space = _space(space)
            self._return_to_reserve(self.stacks[space])
            self.stacks[space] = []
            for c in codes:
                self.land(space, [self.take_from_reserve(c)])
        self.changed()

    def land(self, space: int, pieces: list[Piece]) -> None:
        """Set `pieces` (a stack, bottom first, keeping its shape) down on `space`, off-centre
        as a hand sets them: on an empty space up to `placement_mm` from the intersection, on
        a stack up to `misalign_mm` from its top piece, nudging that stack by up to
        `nudge_mm`."""
        p, rng = self._params, self._place_rng
        below = self.stacks[space]
        if below:
            nx, ny = _in_disc(rng, p.nudge_mm)
            for q in below:
                x, y = self.offset.get(q, (0.0, 0.0))
                self.offset[q] = (x + nx, y + ny)
            tx, ty = self.offset.get(below[-1], (0.0, 0.0))
            dx, dy = _in_disc(rng, p.misalign_mm)
            bx, by = tx + dx, ty + dy
        else:
            bx, by = _in_disc(rng, p.placement_mm)
        base = self.offset.get(pieces[0], (0.0, 0.0))
        for q in pieces:
            x, y = self.offset.get(q, (0.0, 0.0))
            self.offset[q] = (bx + x - base[0], by + y - base[1])
        below.extend(pieces)

    def take_up(self, space: int, count: int) -> list[Piece]:
        """Take the top `count` pieces off `space`: they keep their shape, measured from the
        bottom one (the hand holds them by it)."""
        st = self.stacks[space]
        held = st[len(st) - count:]
        del st[len(st) - count:]
        bx, by = self.offset.get(held[0], (0.0, 0.0)) if held else (0.0, 0.0)
        for q in held:
            x, y = self.offset.get(q, (0.0, 0.0))
            self.offset[q] = (x - bx, y - by)
        return held

    def take_from_reserve(self, kind: str) -> Piece:
        """A piece of `kind` from beside the board (the reserve, else the box of removed ones)."""
        if kind not in self.reserve:
            raise ValueError(f"no piece kind {kind!r} (W, B or D)")
        if not self.reserve[kind]:
            for i, p in enumerate(self.removed):
                if p.kind == kind:
                    self.offset.pop(p, None)
                    return self.removed.pop(i)
            raise ValueError(f"no {kind} piece left in the reserve")
        return self.reserve[kind].pop(0)

    def available(self, kind: str) -> int:
        """How many `kind` pieces lie beside the board (reserve and box) to be placed."""
        return len(self.reserve.get(kind, ())) + sum(p.kind == kind for p in self.removed)

    def reset(self) -> None:
        """Every piece back beside the board (spaces, knocked-aside and removed ones, and the
        hand's, whose queued actions are dropped): an empty board for a new game."""
        self.hand.cancel()
        self._return_to_reserve([p for s in self.stacks for p in s])
        self._return_to_reserve([p for lo in self.loose for p in lo.pieces])
        self._return_to_reserve(self.removed)
        self._return_to_reserve(self.hand.held)
        self.stacks = [[] for _ in range(N_SPACES)]
        self.loose, self.removed, self.hand.held = [], [], []
        self.hand.drop_plan()
        self.changed()

    def _return_to_reserve(self, pieces) -> None:
        for p in pieces:
            self.reserve[p.kind].append(p)
            self.offset.pop(p, None)
        for r in self.reserve.values():
            r.sort(key=lambda p: p.number)

    # -- faults ---------------------------------------------------------------------------------
    def fail(self, space: int | str, fault: str, value=None) -> None:
        """Inject a sensor fault ('dead', 'stuck', 'noisy'): see `dvonn_sim.sensors`."""
        self.sensors.fail(_space(space), fault, value)
        self.changed()

    def swap_channels(self, a: int | str, b: int | str) -> None:
        self.sensors.swap(_space(a), _space(b))
        self.changed()

    def repair(self, space: int | str | None = None) -> None:
        self.sensors.repair(None if space is None else _space(space))
        self.changed()

    # -- physics --------------------------------------------------------------------------------
    def changed(self) -> None:
        """Something changed on the board: recompute fields and drop frames computed ahead.
        (The hand calls this; call it after editing `stacks` or `loose` directly.)"""
        self._static = None
        self._truth = None
        self._buffer.clear()

    def field(self, times=None) -> np.ndarray:
        """The true field (mT) at the 49 sensors now (49,), or at `times` (T, 49)."""
        t = np.atleast_1d(np.asarray(self.now if times is None else times, dtype=float))
        out = self._static_field() + self._moving_field(t)
        return out[0] if times is None else out

    def _static_field(self) -> np.ndarray:
        if self._static is None:
            f = np.zeros(N_SPACES)
            pieces = [(p, space, level) for space, st in enumerate(self.stacks)
                      for level, p in enumerate(st)]
            if pieces:
                xy = self.model.sensor_xy
                kinds = [KIND_INDEX[p.kind] for p, _, _ in pieces]
                strengths = [self._signed(p) for p, _, _ in pieces]
                x, y, h = (np.array(v) for v in zip(*(
                    (xy[s, 0] + self.offset.get(p, (0.0, 0.0))[0] + p.magnet_dx,
                     xy[s, 1] + self.offset.get(p, (0.0, 0.0))[1] + p.magnet_dy,
                     self.model.resting_h(level)) for p, s, level in pieces)))
                f = f + self.model.field(kinds, strengths, x, y, h)
            for lo in self.loose:
                kinds, strengths, x, y, h = self._magnets(lo.pieces, lo.x, lo.y,
                                                          self.params.sensor_gap_mm)
                f = f + self.model.field(kinds, strengths, x, y, h)
            self._static = f
        return self._static

    def _moving_field(self, times: np.ndarray) -> np.ndarray:
        held = self.hand.held
        if not held:
            return np.zeros((len(times), N_SPACES))
        x, y, h = self.hand.position(times)  # (T,) each: the held stack's bottom piece
        kinds, strengths, dx, dy, dh = self._magnets(held, 0.0, 0.0, 0.0)
        return self.model.field(kinds, strengths, x[:, None] + dx, y[:, None] + dy,
                                h[:, None] + dh)

    def _signed(self, piece: Piece) -> float:
        return self.params.magnets[piece.kind].polarity * piece.strength

    def _magnets(self, pieces, x, y, h0):
        """Arrays describing a stack's magnets with its bottom magnet at (x, y, h0)."""
        pitch = self.params.piece_pitch_mm
        kinds = np.array([KIND_INDEX[p.kind] for p in pieces])
        strengths = np.array([self._signed(p) for p in pieces])
        n = len(pieces)
        dx = np.array([self.offset.get(p, (0.0, 0.0))[0] + p.magnet_dx for p in pieces])
        dy = np.array([self.offset.get(p, (0.0, 0.0))[1] + p.magnet_dy for p in pieces])
        return (kinds, strengths, x + dx, y + dy, h0 + pitch * np.arange(n, dtype=float))

    def _fill(self) -> None:
        """Compute the next few frames at once (up to the hand's next pick-up or set-down)."""
        period = self.params.frame_period
        first = self._read + len(self._buffer)
        t0 = first * period
        self.hand.advance_to(t0)
        horizon = self.hand.next_change(t0)
        times = (first + np.arange(CHUNK)) * period
        times = times[: max(1, int(np.sum(times < horizon - 1e-9)))]
        codes = self.sensors.read(self.field(times), times)
        for i, t in enumerate(times):
            self._buffer.append((first + i, float(t), tuple(codes[i].tolist())))


def _in_disc(rng, radius: float) -> tuple[float, float]:
    """A point up to `radius` from the origin, in any direction (distance uniform)."""
    if radius <= 0:
        return (0.0, 0.0)
    r, a = rng.uniform(0, radius), rng.uniform(0, 2 * np.pi)
    return (float(r * np.cos(a)), float(r * np.sin(a)))


def _space(space: int | str) -> int:
    if isinstance(space, str):
        return parse_space(space)
    if not (isinstance(space, (int, np.integer)) and 0 <= space < N_SPACES):
        raise ValueError(f"no space {space!r} (0..{N_SPACES - 1} or a name like 'e3')")
    return int(space)


__all__ = ["SimBoard", "Piece", "Loose", "SimClock", "RealTimeClock", "PIECE_COUNTS"]
