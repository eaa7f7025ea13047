"""Whole games through the whole pipeline, in simulated time.

Simulator physics -> raw sensor frames -> `Controller` -> LED frames (`guidance.render`) ->
scripted players who read the LEDs, answer the board's questions, clear cut-off stacks and make
human mistakes (`dvonn_sim.players`). Afterwards the plies the controller recorded are compared with
the plies the players really made. The controller never sees the truth.

With `ai` (colour names), the computer plays those colours as in `play --ai`: on its turn it
thinks (a node-limited search, seeded by the game's seed and the ply number, so the same on any
machine whatever its load; shown after its level's time, in simulated time), the controller's
`state.hint` shows the ply on the LEDs, and that side's scripted player reads it off the LEDs
and carries it out with the hand like any other ply.

With `hints` ('on' or 'off', as `--hints`), the people sometimes ask for a hint and wait for
the answer, which is checked on the LEDs (`hint_asker`): `hints` in the result counts them.

>>> r = play_game(seed=3, script=["e3", "f3", "g3", "a1"])
>>> r.match, r.record, r.wrong
(True, ['e3', 'f3', 'g3', 'a1'], 0)
>>> r = play_game(seed=3, ai=["black"], level=1, max_plies=4)
>>> r.match, r.ai, [r.truth[i] == str(engine_ply(r.position(i), 1, 3)) for i in (1, 3)]
(True, ['black'], [True, True])
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable

from firmware_py import ai as engine
from firmware_py import guidance
from firmware_py.clock import drive
from firmware_py.controller import Controller
from firmware_py.rules import BLACK, WHITE, Board, Ply
from firmware_py.hints import computer_hint

from .board import SimBoard
from .params import Params, adc_board
from .players import Mistakes, Players

COLOURS = {"white": WHITE, "black": BLACK}


@dataclass
class GameResult:
    """One autoplayed game. Times: `frame_us_*` is the controller's wall time per frame
    (microseconds); `decide_ms_max` the longest single frame (the settled snapshot on which the
    heaviest decision was taken); `commit_delay_ms_*` simulated time from the hand letting go of
    a piece to its ply being committed (the settle time; a question asked adds the wait and
    the answer); `amended` moves recorded while a hand paused above a stack and changed when it
    moved on; `sim_s` the simulated game length."""

    seed: int
    noise: str
    plies: int
    truth: list[str]
    record: list[str]
    match: bool
    auto: int
    asked: int
    wrong: int
    resyncs: int
    frame_us_mean: float
    frame_us_p99: float
    decide_ms_max: float
    frames: int
    sim_s: float
    commit_delay_ms_median: float = 0.0
    commit_delay_ms_p95: float = 0.0
    commit_delay_ms_max: float = 0.0
    mistakes: dict = field(default_factory=dict)
    complaints: int = 0
    errors: int = 0
    amended: int = 0
    preset: str = "default"
    adc_bits: int = 12
    stalled: bool = False  # nothing was recorded for `stall_s` while the players went on
    ai: list = field(default_factory=list)  # the colours the computer played ("white", "black")
    level: int | None = None                # its level (None: people played both sides)
    clock: dict | None = None               # the game clock at the end (`ClockReading.as_dict`)
    ply_times: list = field(default_factory=list)  # seconds the mover's clock ran per ply
    hints: dict | None = None  # with --hints: asked, shown, refused, failures (`hint_asker`)
    delays: list = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        d = asdict(self)
        d.pop("delays")
        if self.clock is None:  # without a clock, the same JSON as ever
            d.pop("clock")
            d.pop("ply_times")
        if self.hints is None:
            d.pop("hints")
        return d

    def position(self, index: int) -> Board:
        """The position before ply `index` (0-based) of the truth."""
        return Board.from_plies(self.truth[:index])


# -- the computer, in simulated time ------------------------------------------------------------
def engine_ply(board: Board, level: int, seed: int) -> Ply:
    """The computer's choice at `board`: a search limited to the level's node budget
    (`ai.LEVEL_NODES`), seeded by the game's seed and the ply number: the same on any machine."""
    rng = random.Random(seed * 1_000 + board.ply_count)
    return engine.choose_ply(board, level, rng, nodes=engine.LEVEL_NODES[level])


class SimulatedThinker:
    """`ai.Thinker`'s `update(board)` in simulated time: the ply for `colour` at `board`,
    available `think_s` seconds of `clock` after it was first asked for (None meanwhile, when
    it is not `colour`'s turn, or when the game is over). `chosen` keeps (ply number, ply)."""

    def __init__(self, colour: int, level: int, seed: int, clock: Callable[[], float],
                 think_s: float | None = None):
        engine.level_seconds(level)  # validates the level
        self.colour, self.level, self.seed, self.clock = colour, level, seed, clock
        self.think_s = engine.level_seconds(level) if think_s is None else think_s
        self.chosen: list[tuple[int, Ply]] = []
        self._for: tuple | None = None
        self._ply: Ply | None = None
        self._ready_at = 0.0

    def update(self, board: Board) -> Ply | None:
        if board.turn != self.colour or board.is_over():
            return None
        pos = (board.ply_count, board.key())
        if pos != self._for:
            self._for = pos
            self._ply = engine_ply(board, self.level, self.seed)
            self._ready_at = self.clock() + self.think_s
            self.chosen.append((board.ply_count, self._ply))
        return self._ply if self.clock() >= self._ready_at else None


def colours_of(ai: Iterable[str]) -> list[str]:
    """Colour names, each once, White first; ValueError naming an unknown one."""
    names = set()
    for name in ai:
        if name not in COLOURS:
            raise ValueError(f"no colour {name!r} (white or black)")
        names.add(name)
    return [name for name in COLOURS if name in names]


def count_wrong(record: list[str], truth: list[str]) -> int:
    """Recorded plies that differ from the truth: a different ply at the same index, or a ply
    recorded that was never played. (Plies not recorded yet are not wrong, only missing.)"""
    wrong = sum(1 for r, t in zip(record, truth) if r != t)
    return wrong + max(0, len(record) - len(truth))


def play_game(seed: int = 1, noise: str = "default", script=None, mistakes: float = 0.0,
              max_sim_s: float = 3600.0, controller_options: dict | None = None,
              trace=None, ai: Iterable[str] = (), level: int = engine.DEFAULT_LEVEL,
              think_s: float | None = None, max_plies: int | None = None,
              time_control=None, replay=None, start=None,
              preset: str = "default", adc_bits: int = 12,
              stall_s: float = 120.0, hints: str | None = None, voice=None,
              board: dict | None = None) -> GameResult:
    """Play one game on a fresh simulated board and return how the controller did.

    script: a list of record tokens to play (None: random legal plies from `seed`); with `ai`,
        the plies of the people's side only, in order;
    mistakes: the chance per ply of a human mistake (all kinds of `dvonn_sim.players.MISTAKES`, for
        both sides: the computer's ply is carried out by a person too);
    ai: the colours the computer plays ("white", "black"); level: its level (node budget
        `ai.LEVEL_NODES`); think_s: simulated thinking time (default: the level's time);
    max_plies: stop after that many plies (None: play the game to its end);
    start: plies already played (`play --from`): the board is set up with their position, the
        controller resumes the game there and the players play on (their plies count in
        `max_plies`, the record and the truth);
    replay: a record's plies to replay as `play --replay` does: the LEDs show each next ply
        (as the computer's) and both sides' scripted players carry out what they show;
    time_control: a `time_control.TimeControl`: the game clock runs in simulated time as in `play
        --clock` (a flag ends the game: the record is then shorter than the truth);
    preset: the simulated board (`dvonn_sim.params.PRESETS`: 'default' a careful builder's, 'rough'
        every imperfection at its worst, 'ideal' none); adc_bits: 12 (the RP2040 scanner) or 10
        (an MCP3008 on the direct path: `params.ADC_BOARDS`);
    board: changes to the simulated board beyond the preset, the ADC and the noise level, as a
        profile's keys (`Params.changed`: {'sensor_gap_mm': 7.0, 'magnets': {'D': {'br_mt':
        1200}}}): a board unlike any preset, which the controller has never been tuned to;
    stall_s: a game in which nothing is recorded for this long (simulated) is stuck: it stops
        there, `stalled` (so is one whose board never shows it recorded after its last ply,
        however long the players go on answering: `dvonn_sim.last_ply`);
    hints: 'on' or 'off': the people sometimes ask for a hint (`hint_asker`; None: never);
    voice: an `announce.Announcer` told of every frame's state (`--voice`, `--voice-dir`);
    trace: optional callable(controller, board) after every frame, for debugging.
    """
    ai = colours_of(ai)
    if replay is not None:
        ai = list(COLOURS)  # both sides carry out what the LEDs show
        max_plies = len(replay) if max_plies is None else min(max_plies, len(replay))
    computer = frozenset(COLOURS[c] for c in ai)
    params = Params.preset(preset, noise=noise, **adc_board(adc_bits)).changed(board or {})
    board = SimBoard(params, seed=seed)
    begin = Board.from_plies([Ply.parse(str(p)) for p in start]) if start else None
    if begin is not None:
        board.setup(begin)
    players = Players(board, script, mistakes=Mistakes(rate=mistakes), seed=seed,
                      computer=computer, max_plies=max_plies, start=begin)
    thinkers = [SimulatedThinker(COLOURS[c], level, seed, lambda: board.now, think_s)
                for c in ai]
    if replay is not None:
        from firmware_py.study import RecordPlayer
        thinkers = [RecordPlayer(COLOURS[c], [Ply.parse(str(p)) for p in replay]) for c in ai]
    controller = Controller(board=None if begin is None else begin.copy(), adc_max=board.adc_max,
                            reading_step=board.reading_step,
                            **(controller_options or {}))
    controller.computer = computer  # plies on its turns must be the hint shown
    if voice is not None:
        voice.computer = computer
        voice.observe(controller.state)  # this game's start
    asker = None
    if hints is not None:
        from .hint_asker import LEVEL, HintAsker
        asker = HintAsker(hints == "on", seed, computer,
                          lambda c: SimulatedThinker(c, LEVEL, seed, lambda: board.now))
    committed: list[tuple[str, float]] = []  # (ply, frame time when committed)
    controller.on_commit = lambda ply: committed.append((str(ply), controller.state.time))
    watch = clock_watch(controller, time_control)
    costs: list[float] = []
    clock = time.perf_counter
    render = guidance.render
    shown = None
    tail = None  # after the players are done: let the last ply settle and be committed
    stalled = False
    progress = (0, 0.0)  # (plies recorded, since when)

    while board.now < max_sim_s:
        frame = board.read_frame()
        t0 = clock()
        controller.feed(frame)
        costs.append(clock() - t0)
        if watch is not None:
            drive(watch, controller, frame.time)
        for name in board.events():
            if name == "hint" and asker is not None:
                asker.pressed(controller.state, frame.time)
            else:
                controller.button(name)
        if thinkers or asker is not None:
            hint = computer_hint(controller.state, thinkers)
            if hint is None and asker is not None:
                hint = asker.hint(controller.state)
            if controller.state.hint != hint:
                controller.state.hint = hint
        leds = render(controller.state, frame.time)
        if leds != shown:
            board.show(leds)
            shown = leds
        if voice is not None:
            voice.observe(controller.state)
        if asker is not None:
            asker.check(controller.state, leds, frame.time, board)
        if trace is not None:
            trace(controller, board)
        if controller.ended:
            break  # a flag: nothing more is recorded
        if not players.done:
            if asker is not None:
                asker.consider(controller.state, board, players.truth)
            if asker is None or asker.waiting is None:  # (a player waits for the hint asked)
                players.step()
            count = controller.state.board.ply_count
            if count != progress[0]:
                progress = (count, board.now)
            elif board.now - progress[1] > stall_s:
                stalled = True
                break
            continue
        if tail is None:  # the last ply may still be waiting to be told from a hover
            tail = board.now + 8.0
        if board.now >= tail or (controller.state.board.ply_count
                                 >= players.truth.ply_count and controller.state.mode
                                 in ("idle", "over")
                                 and not controller.recorder.provisional):
            break

    stalled = stalled or players.unfinished  # the last ply never shown recorded
    truth = [str(p) for p in players.truth.move_stack]
    # From the hand letting go (the players' log: "played X") to the commit, ply by ply.
    played = [(text.split()[1], t) for t, text in players.log if text.startswith("played ")]
    made = [c for c in committed if c[0] != "pass"]
    pairs = [(pp, ct - pt) for (pp, pt), (cp, ct) in zip(played, made) if pp == cp and ct >= pt]
    delays = sorted(d for _, d in pairs)
    record = [str(p) for p in controller.state.board.move_stack]
    costs.sort()
    n = len(costs)
    stats = controller.stats
    return GameResult(
        seed=seed, noise=noise, plies=len(truth), truth=truth, record=record,
        match=record == truth or (controller.ended is not None and truth[:len(record)] == record),
        auto=stats["auto"], asked=stats["asked"],
        wrong=count_wrong(record, truth), resyncs=stats["resyncs"],
        frame_us_mean=round(sum(costs) / n * 1e6, 1) if n else 0.0,
        frame_us_p99=round(costs[min(n - 1, int(n * 0.99))] * 1e6, 1) if n else 0.0,
        decide_ms_max=round(costs[-1] * 1e3, 2) if n else 0.0,
        frames=n, sim_s=round(board.now, 2),
        commit_delay_ms_median=quantile_ms(delays, 0.5),
        commit_delay_ms_p95=quantile_ms(delays, 0.95),
        commit_delay_ms_max=quantile_ms(delays, 1.0), mistakes=dict(players.made),
        complaints=len(players.complaints), errors=stats["errors"], amended=stats["amended"],
        preset=preset, adc_bits=adc_bits, stalled=stalled,
        ai=ai if replay is None else [], level=level if ai and replay is None else None,
        delays=pairs,
        clock=None if watch is None else watch.reading(board.now).as_dict(),
        ply_times=[] if watch is None else [round(h[1], 2) for h in watch.clock.history],
        hints=None if asker is None else asker.report())


def clock_watch(controller, time_control):
    """A `clock.ClockWatch` hooked to the controller's commits and takebacks (None: no clock),
    charging each ply up to its let-go moment, as the session does."""
    if time_control is None or not time_control.on:
        return None
    from firmware_py.clock import ClockWatch, GameClock, let_go
    watch = ClockWatch(GameClock(time_control))
    commit, undo = controller.on_commit, controller.on_undo

    def on_commit(ply):
        watch.committed(controller.state.board, ply, let_go(controller, controller.state.time))
        commit(ply)

    def on_undo():
        watch.taken_back()
        if undo:
            undo()
    controller.on_commit, controller.on_undo = on_commit, on_undo
    return watch





def quantile_ms(sorted_values: list[float], q: float) -> float:
    """The q-quantile of seconds, in milliseconds (0 when empty)."""
    if not sorted_values:
        return 0.0
    return round(sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] * 1e3, 1)


def tokens_of(plies) -> list[str]:
    return [str(p if isinstance(p, Ply) else Ply.parse(p)) for p in plies]
