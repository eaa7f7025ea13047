"""The sensor fault watch: which sensors the controller no longer trusts, and why.

A sensor has failed when its reading sits at an ADC rail (no output, a broken supply), never
moves by a single code while the others show noise (stuck), or is so noisy that the board never
settles. It may also be the player who says so: the one space that keeps disagreeing with the
game is offered as a *suspect*, and confirm marks it faulty. (A space that reads like a piece
on a new game's empty board is no suspect: confirmed empty, its reading is its baseline,
`startup.confirm_empty`.)

A faulty sensor is played around: its space's occupancy comes from the game, its reading is
never evidence (`Inference.unreliable`), and a ply that places on, moves from or lands on it is
confirmed by the player (`blind`).

>>> from firmware_py.board_model import BoardModel
>>> from firmware_py.calibration import Calibration
>>> from firmware_py.inference import Inference
>>> from firmware_py.spaces import INDEX
>>> watch = FaultWatch(Inference(BoardModel(Calibration.nominal())), adc_max=4095)
>>> watch.mark([INDEX["e3"]], "reads no output (at the ADC's rail)")
>>> watch.note()
'sensor e3 looks faulty: played from the game alone; check it with `dvonn-board diag selftest`'
"""

from __future__ import annotations

from .i18n import _
from .settle import mean_noise
from .spaces import N_SPACES, SPACES

STUCK_S = 2.0
"""A reading that has not changed by one code for this long, while the others show noise, is
stuck (with 0.3 codes of noise or more, a working sensor repeats one code for this long with a
chance far below one in a million)."""
MAX_FROZEN = 1
"""More sensors than this frozen on one code at once: a quiet board (a coarse ADC), not stuck
sensors (a working sensor whose readings dither by noise never repeats one code for long)."""
DITHER_STEPS = 0.6
"""Readings whose typical spread is at least this many reading steps dither by noise, not by
rounding: a sensor with noise of half a step or less may sit between two edges and repeat one
value (its rounded readings then spread by up to half a step), one with more does not for long.
A step is a whole code, or 1/N code for the direct scanner's mean of N raw samples."""


def names(spaces) -> str:
    """'a1, c3' for spaces given as indices."""
    return ", ".join(SPACES[s] for s in spaces)


class FaultWatch:
    """The faulty sensors (`faulty`: space -> why) and the suspects the player may confirm.

    inference: its `unreliable` set is kept equal to the faulty spaces; adc_max: the ADC's
    full scale (a reading at 0 or there is at a rail); reading_step: the finest step of a
    reading (codes: 1, or 1/N for a mean of N raw samples).
    """

    def __init__(self, inference, adc_max: int, reading_step: float = 1.0):
        self.inference = inference
        self.adc_max = adc_max
        self.reading_step = reading_step
        self.faulty: dict[int, str] = {}
        # Spaces whose sensors may be faulty, if the player confirms: the one space where the
        # board differs from the game.
        self.suspects: list[int] = []
        self._frozen: dict[int, tuple] = {}  # space -> (reading, since): not moving at all
        # Sensors measured drifting faster than the board can follow (`Drift.too_fast`):
        # still read, each reading the less sure the older its reference (`Drift.unsure`),
        # and named to the player.
        self.drifting: set[int] = set()

    def reset(self) -> None:
        """Trust every sensor again (a new game checks them all afresh)."""
        self.faulty.clear()  # in place: the reference shares it
        self.inference.unreliable = frozenset()
        self.suspects = []
        self._frozen.clear()
        self.drifting = set()

    def __contains__(self, space: int) -> bool:
        return space in self.faulty

    def seen(self, stacks) -> frozenset:
        """The spaces where `stacks` (a list per space) holds a stack whose sensor works:
        the occupancy the board reads when it stands so."""
        return frozenset(s for s in range(N_SPACES) if stacks[s] and s not in self.faulty)

    def mark(self, spaces, why: str) -> None:
        """Stop trusting the sensors of `spaces`: their occupancy comes from the game, their
        readings are never evidence (moves that depend on them are asked, not guessed)."""
        for s in spaces:
            self.faulty.setdefault(s, why)
        self.inference.unreliable = frozenset(self.faulty)

    def note(self) -> str:
        """The line that names the faulty sensors ('' when there are none), those drifting
        too fast apart: what to do about them differs."""
        lines = []
        if self.faulty:
            lines.append(_("sensor {spaces} looks faulty: played from the game alone; check it "
                           "with `dvonn-board diag selftest`").format(
                               spaces=names(sorted(self.faulty))))
        drifting = sorted(self.drifting - self.faulty.keys())
        if drifting:
            lines.append(_("sensor {spaces} drifts faster than the board can follow: moves "
                           "there may be asked about; let the board warm up, then check the "
                           "sensors' supply").format(spaces=names(drifting)))
        return "; ".join(lines)

    def check(self, snap, stuck_s: float = 0.0) -> bool:
        """A sensor at an ADC rail, or whose reading has not moved by a single code for
        `stuck_s` of still board while the others show noise (stuck: at once on the empty
        board at the start, `STUCK_S` during play), has failed: it is marked. True when one
        was found."""
        noise = mean_noise(snap.spread)
        found = False
        # A quiet sensor on a coarse ADC (10 bits: 0.2 mT a code) repeats one code when its
        # readings are rounded to whole codes: a frozen reading is evidence only among
        # readings that dither by noise (a mean of raw samples, each dithered, rarely repeats).
        # When more than one is frozen at once, the board is too quiet to tell (a stuck sensor
        # then shows when a piece set on it is not seen, and the player confirms it).
        frozen = sum(1 for s in range(N_SPACES) if snap.spread[s] < 1e-3 and s not in self.faulty)
        dithering = frozen <= MAX_FROZEN and noise >= DITHER_STEPS * self.reading_step
        if not dithering:
            self._frozen.clear()
        # A reading frozen on a stack is no evidence either: a tall stack's field beyond the
        # sensor's range pins its output short of the ADC's rail (rough 10-bit m1.0 seed 68:
        # h5 under a stack of 4 read 948 of 1023 for seconds, was marked stuck, and every
        # answer lifted there went unseen). A sensor stuck so reads a stack where the game has
        # none, or none lifted: the player's word marks it then (`offer`).
        pinned = self.inference.occupancy(snap.values) if dithering else frozenset()
        for s in range(N_SPACES):
            if s in self.faulty:
                continue
            v = snap.values[s]
            if v <= 0.5 or v >= self.adc_max - 0.5:
                self.mark([s], "reads no output (at the ADC's rail)")
                found = True
            elif dithering and snap.spread[s] < 1e-3 and snap.frames >= 10 and s not in pinned:
                value, since = self._frozen.setdefault(s, (v, snap.stable_since))
                if value != v:
                    self._frozen[s] = (v, snap.stable_since)
                elif snap.time - since >= stuck_s:
                    self.mark([s], "reading never moves (stuck)")
                    found = True
            else:
                self._frozen.pop(s, None)
        return found

    def noisy(self, space: int, raw, settler) -> None:
        """A sensor so noisy that the board could never settle: stillness is judged without
        it, and it is played around like any faulty sensor."""
        settler.noisy = None
        settler.ignore[space] = float(raw[space])
        self.mark([space], "too noisy: the board could not settle")

    def blind(self, plies) -> list[int]:
        """The faulty-sensor spaces that `plies` place on, move from or land on."""
        out = []
        for p in plies:
            for s in (p.src, p.dst):
                if s is not None and s in self.faulty and s not in out:
                    out.append(s)
        return out

    def offer(self, space: int) -> str:
        """One space off, and the player may see it is right: then its sensor is at fault.
        Returns what to add to the message."""
        self.suspects = [space]
        return " " + _("(if {space} is right as it is, press confirm: its sensor is faulty and "
                       "the game goes on without it)").format(space=SPACES[space])

    def confirm(self, why: str) -> bool:
        """The player confirmed the suspects are faulty: mark them. False when there were none."""
        if not self.suspects:
            return False
        self.mark(self.suspects, why)
        self.suspects = []
        return True
