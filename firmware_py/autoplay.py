"""Whole games through the whole pipeline, in simulated time.

Simulator physics -> raw sensor frames -> `Controller` -> LED frames (`guidance.render`) ->
scripted players who read the LEDs, answer the board's questions, clear cut-off stacks and make
human mistakes (`sim.players`). Afterwards the plies the controller recorded are compared with
the plies the players really made. The controller never sees the truth.

>>> r = play_game(seed=3, script=["e3", "f3", "g3", "a1"])
>>> r.match, r.record, r.wrong
(True, ['e3', 'f3', 'g3', 'a1'], 0)
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from . import guidance
from .controller import Controller
from .rules import Ply


@dataclass
class GameResult:
    """One autoplayed game. Times: `frame_us_*` is the controller's wall time per frame
    (microseconds); `decide_ms_max` the longest single frame (the settled snapshot on which the
    heaviest decision was taken); `commit_delay_ms_*` simulated time from the hand letting go of
    a piece to its ply being committed (the settle time, plus the wait when a landing could
    still be a hand hovering just above); `sim_s` the simulated game length."""

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
    delays: list = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        d = asdict(self)
        d.pop("delays")
        return d


def count_wrong(record: list[str], truth: list[str]) -> int:
    """Recorded plies that differ from the truth: a different ply at the same index, or a ply
    recorded that was never played. (Plies not recorded yet are not wrong, only missing.)"""
    wrong = sum(1 for r, t in zip(record, truth) if r != t)
    return wrong + max(0, len(record) - len(truth))


def play_game(seed: int = 1, noise: str = "default", script=None, mistakes: float = 0.0,
              max_sim_s: float = 3600.0, controller_options: dict | None = None,
              trace=None) -> GameResult:
    """Play one game on a fresh simulated board and return how the controller did.

    script: a list of record tokens to play (None: random legal plies from `seed`);
    mistakes: the chance per ply of a human mistake (all kinds of `sim.players.MISTAKES`);
    trace: optional callable(controller, board) after every frame, for debugging.
    """
    from sim.board import SimBoard
    from sim.params import Params
    from sim.players import Mistakes, Players

    board = SimBoard(Params.from_noise(noise), seed=seed)
    players = Players(board, script, mistakes=Mistakes(rate=mistakes), seed=seed)
    controller = Controller(adc_max=board.adc_max, **(controller_options or {}))
    committed: list[tuple[str, float]] = []  # (ply, frame time when committed)
    controller.on_commit = lambda ply: committed.append((str(ply), controller.state.time))
    costs: list[float] = []
    clock = time.perf_counter
    render = guidance.render
    shown = None
    tail = None  # after the players are done: let the last ply settle and be committed

    while board.now < max_sim_s:
        frame = board.read_frame()
        t0 = clock()
        controller.feed(frame)
        costs.append(clock() - t0)
        for name in board.events():
            controller.button(name)
        leds = render(controller.state, frame.time)
        if leds != shown:
            board.show(leds)
            shown = leds
        if trace is not None:
            trace(controller, board)
        if not players.done:
            players.step()
            continue
        if tail is None:  # the last ply may still be waiting to be told from a hover
            tail = board.now + 8.0
        if board.now >= tail or (controller.state.board.ply_count
                                 >= players.truth.ply_count and controller.state.mode
                                 in ("idle", "over")):
            break

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
        match=record == truth, auto=stats["auto"], asked=stats["asked"],
        wrong=count_wrong(record, truth), resyncs=stats["resyncs"],
        frame_us_mean=round(sum(costs) / n * 1e6, 1) if n else 0.0,
        frame_us_p99=round(costs[min(n - 1, int(n * 0.99))] * 1e6, 1) if n else 0.0,
        decide_ms_max=round(costs[-1] * 1e3, 2) if n else 0.0,
        frames=n, sim_s=round(board.now, 2),
        commit_delay_ms_median=_at(delays, 0.5), commit_delay_ms_p95=_at(delays, 0.95),
        commit_delay_ms_max=_at(delays, 1.0), mistakes=dict(players.made),
        complaints=len(players.complaints), errors=stats["errors"], delays=pairs)


def _at(sorted_values: list[float], q: float) -> float:
    """The q-quantile of seconds, in milliseconds (0 when empty)."""
    if not sorted_values:
        return 0.0
    return round(sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] * 1e3, 1)


def tokens_of(plies) -> list[str]:
    return [str(p if isinstance(p, Ply) else Ply.parse(p)) for p in plies]
