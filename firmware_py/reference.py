"""The reference: the last settled readings of a physical configuration the game explains.

Every settled snapshot is compared with the reference through the forward model (`inference`),
so a change shows against what the board last read, not against a nominal board. Each time the
board is explained again the snapshot becomes the new reference, and what it teaches goes into
the calibration: the baselines of empty spaces (drift), the noise, and from placements each
sensor's single-piece response.

>>> from firmware_py.board_model import BoardModel
>>> from firmware_py.calibration import Calibration
>>> ref = Reference(BoardModel(Calibration.nominal()), faulty={})
>>> ref.values is None
True
"""

from __future__ import annotations

from .spaces import N_SPACES


class Reference:
    """values, frames, stacks, time: the reference snapshot's readings, how many frames they
    average, the stacks standing then (never mutated) and when. faulty: the fault watch's
    spaces (their readings teach nothing)."""

    def __init__(self, model, faulty):
        self.model = model
        self.cal = model.cal
        self.faulty = faulty
        self.values: tuple | None = None
        self.frames = 1
        self.stacks: list | None = None
        self.time = 0.0

    def clear(self) -> None:
        """Nothing known: the next settled board is read from scratch."""
        self.values = self.stacks = None

    def set(self, snap, stacks) -> None:
        """`snap` shows `stacks`: it becomes the reference; follow drift and noise."""
        self.values = snap.values
        self.frames = snap.frames
        self.stacks = stacks if isinstance(stacks, list) else list(stacks)  # never mutated
        self.time = snap.time
        cal = self.cal
        noise = sorted(snap.spread)[N_SPACES // 2]
        for s in range(N_SPACES):  # drift: follow the baselines of empty spaces
            if not stacks[s] and s not in self.faulty:
                cal.track_drift(s, snap.values[s] - self.model.crosstalk_at(s, stacks))
            cal.noise[s] = 0.8 * cal.noise[s] + 0.2 * max(noise, 0.05)

    def rebase(self, stacks) -> None:
        """A configuration known without a snapshot of it: predict its readings from the model."""
        if self.values is None:
            return
        changes = {t: stacks[t] for t in range(N_SPACES) if stacks[t] != self.stacks[t]}
        d, _ = self.model.delta(changes, self.values, self.stacks)
        ref = list(self.values)
        for s, v in d.items():
            ref[s] += v
        self.values = tuple(ref)
        self.stacks = list(stacks)

    def start_empty(self, snap) -> None:
        """The empty board at the start: every sensor's baseline, and the first reference."""
        self.cal.set_empty(snap.values, snap.spread)
        self.set(snap, [()] * N_SPACES)

    def resume(self, snap, stacks, occupied) -> None:
        """A restored game whose pieces stand as recorded: learn what a fresh game would have
        learned from this position (baselines of the empty spaces, responses of the
        `occupied` spaces' bottom pieces), and take it as the reference."""
        cal = self.cal
        for s in range(N_SPACES):
            if not stacks[s] and s not in self.faulty:
                cal.baseline[s] = snap.values[s] - self.model.crosstalk_at(s, stacks)
        for s in occupied:
            if cal.response[s] is None or cal.kind[s] != stacks[s][0]:
                self.relearn(s, snap.values, stacks)
        cal.changed()
        self.set(snap, stacks)

    def wrong_polarity(self, values, stacks, spaces) -> list[int]:
        """The `spaces` whose reading has the opposite sign to their bottom piece's magnet."""
        cal = self.cal
        return [s for s in spaces
                if (values[s] - cal.baseline[s] > 0) != (cal.polarity[stacks[s][0]] > 0)]

    # -- what the inference compares against -------------------------------------------------
    def explain(self, inference, board, pending, snap, amendable: bool):
        return inference.explain(board, pending, snap, self.values, self.frames, self.stacks,
                                 snap.time - self.time, amendable=amendable)

    def misfits(self, inference, cand, snap) -> list[int]:
        """The spaces where `cand` fits `snap` worst."""
        return inference.misfits(cand, snap.values, snap.frames, self.values, self.frames,
                                 self.stacks, snap.time - self.time)

    # -- learning ----------------------------------------------------------------------------
    def learn_placements(self, best, before, before_stacks, snap) -> None:
        """Placements teach the calibration each sensor's single-piece response."""
        placed = [p.dst for p in best.plies if p.is_placement]
        if not placed or before is None:
            return
        cal = self.cal
        for t in placed:
            if before_stacks[t] or len(best.stacks[t]) != 1:
                continue  # not a lone piece on an empty space (the last one, moved on at once)
            others = [o for o in placed if o != t]
            cal.learn_placement(t, best.stacks[t][0], before, snap.values, others=others)
            if t in self.faulty:  # its neighbours' cross-talk is real; its own reading is not
                cal.response[t] = cal.kind[t] = None
                cal.changed()

    def relearn(self, s: int, values, stacks) -> None:
        """Learn the bottom piece's response on `s` from readings of `stacks` (a resumed game,
        a piece swapped for another of its kind)."""
        upper = sum(self.model.piece_own(s, k, lv) for lv, k in enumerate(stacks[s]) if lv)
        self.cal.response[s] = (values[s] - self.cal.baseline[s] - upper
                                - self.model.crosstalk_at(s, stacks))
        self.cal.kind[s] = stacks[s][0]
