"""`LandingWait.held_for`: how long a still board has read a stack as not set down. Still
moments a moment apart count as one (a noisy board's stillness restarts every second or two),
but not across a change of the readings: the hand held the stack still in the air, then set it
down where it reads faintly, and the board, still since the set-down, may yet read it."""

from types import SimpleNamespace

from firmware_py.landing_wait import GAP_S, LandingWait
from firmware_py.settle import Snapshot


class Changes:
    """An inference that reports the spaces whose readings differ by more than 1 code."""

    unreliable = frozenset()

    @staticmethod
    def changed(values, frames, ref, ref_frames):
        return frozenset(s for s, (a, b) in enumerate(zip(values, ref)) if abs(a - b) > 1.0)


def waiter():
    w = LandingWait.__new__(LandingWait)
    w.held, w.inference = None, Changes()
    return w


def snap(time: float, since: float, landing: float = 0.0) -> Snapshot:
    values = (landing,) + (0.0,) * 48
    return Snapshot(values, (1.0,) * 49, 20, time, since)


HELD = SimpleNamespace(best=SimpleNamespace(src=7))


def test_still_moments_a_moment_apart_reading_the_same_count_as_one():
    w = waiter()
    assert w.held_for(HELD, snap(3.0, 0.0)) == 3.0
    # Stillness restarted at 3.5 (one frame off), the board reads the same: counted from 0.
    assert w.held_for(HELD, snap(5.5, 3.0 + GAP_S / 2)) == 5.5


def test_a_change_between_still_moments_starts_the_count_again():
    w = waiter()
    assert w.held_for(HELD, snap(3.0, 0.0)) == 3.0
    # The stack, held still in the air, was set down: its landing reads 5 codes more.
    assert w.held_for(HELD, snap(5.5, 3.0 + GAP_S / 2, landing=5.0)) == 2.0
