"""The one place that builds a simulated board for the commands: `dvonn-board sim` (web page and
terminal), `dvonn-board diag --backend sim`, and the tools that drive the simulator.

`firmware_py` never imports `sim`: its commands call these functions and hand the result to the
code that runs the same way on the real board (a `Session`, a `DiagBoard`, the web simulator).

>>> board = simulated_board("clean", seed=1)
>>> board.read_frame().time, len(board.read_frame().raw)
(0.0, 49)
>>> with diag_board(faults=["dead:e3"], seed=1) as diag:
...     diag.read().raw[SPACE_E3]
0
"""

from __future__ import annotations

from firmware_py.spaces import parse_space

from .board import SimBoard
from .clock import RealTimeClock
from .params import Params

SPACE_E3 = parse_space("e3")


def simulated_board(noise: str | float | None = "default", *, seed: int = 0,
                    speed: float | None = None, profile=None, clock=None) -> SimBoard:
    """A simulated board.

    noise: a level name (clean, default, poor, bad) or mT RMS per raw sample; None: the
        reference board's own figure.
    seed: draws the magnets, the sensors' spreads, the noise and the hand's timing.
    speed: simulated seconds per wall-clock second (real time for people); None: simulated
        time, as fast as it goes.
    profile: a loaded board profile (`dvonn_hw.profile.Profile`): the simulator then stands in for
        the board it describes (its ADC, sensor, oversampling and frame rate).
    clock: a clock of one's own (a test's), instead of the one `speed` chooses.
    """
    params = Params() if noise is None else Params.from_noise(noise)
    if profile is not None:
        params = params.replace(adc_bits=profile.adc.bits, adc_vref=profile.adc.vref,
                                sensitivity_mv_per_mt=profile.sensor.mv_per_mt,
                                supply_v=profile.sensor.supply_v,
                                oversample=profile.sensor.oversample,
                                scanner=profile.scanner.kind,
                                frame_rate=float(profile.scanner.rate_hz))
    if clock is None and speed is not None:
        clock = RealTimeClock(speed)
    return SimBoard(params, seed=seed, clock=clock)


def diag_board(profile=None, *, seed: int = 0, noise: str | float | None = None, faults=(),
               real_time: bool = False, person: bool = True, pieces: dict | None = None):
    """The simulator as a `DiagBoard` for the diagnostics (`diag ... --backend sim`).

    profile: a profile name, file or loaded profile (default: the reference board);
    faults: `Fault`s or their specs ("dead:e3", "swap:a1,b1"); person: a simulated person who
    follows the LEDs; pieces: {space name: "WB"} set down after the first second.
    """
    from firmware_py.diag.backend import DiagBoard, Fault
    from firmware_py.diag.person import SimPerson
    from dvonn_hw.profile import load_profile

    prof = profile if hasattr(profile, "adc") else load_profile(profile)
    sim = simulated_board(noise, seed=seed, speed=1.0 if real_time else None, profile=prof)
    parsed = tuple(f if isinstance(f, Fault) else Fault.parse(f) for f in faults)
    for f in parsed:
        f.apply(sim)
    helper = SimPerson(sim, seed=seed) if person else None
    board = DiagBoard("sim", prof, sim, sim, sim=sim, person=helper, faults=parsed)
    if pieces:  # set down after the first second, so they show against an empty baseline
        board.pending, board.place_at = dict(pieces), round(sim.params.frame_rate)
    return board
