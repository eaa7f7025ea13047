"""The simulator's field model against sensing.md's numbers (computed with the exact cylinder
model) and against itself (exact vs table vs dipole)."""

import numpy as np
import pytest

from dvonn_sim.params import Params
from dvonn_sim.physics import FieldModel, bz_dipole, bz_exact, bz_on_axis, space_xy
from firmware_py.spaces import INDEX, NEIGHBOURS, N_SPACES

P = Params()
W, B, D = P.magnets["W"], P.magnets["B"], P.magnets["D"]

TABLE = {3: 109, 5: 44.7, 7: 21.4, 10: 8.93, 15: 3.05, 20: 1.37, 30: 0.43}
INCREMENTS = (44.7, 6.98, 2.16, 0.93, 0.48, 0.28, 0.18)


@pytest.mark.parametrize("h,expected", TABLE.items())
def test_on_axis_field_table(h, expected):
    assert float(bz_on_axis(W, h)) == pytest.approx(expected, rel=0.02)
    assert float(bz_exact(W, 0.0, h)) == pytest.approx(expected, rel=0.02)


def test_dvonn_magnet_at_5mm():
    assert float(bz_exact(D, 0.0, 5.0)) == pytest.approx(57, rel=0.02)


def test_stack_increments():
    fm = FieldModel(P)
    for n, expected in enumerate(INCREMENTS):
        got = float(bz_exact(W, 0.0, fm.resting_h(n)))
        assert got == pytest.approx(expected, rel=0.04), n + 1


def test_cross_talk_from_a_neighbour_is_small_and_opposite():
    for rho in (25.0, 30.0):
        b = float(bz_exact(W, rho, 5.0))
        assert -0.5 <= b <= -0.2
    # through the board model: a white piece on e3 seen by its six neighbours
    fm = FieldModel(P)
    stacks = [[] for _ in range(N_SPACES)]
    stacks[INDEX["e3"]] = [(0, 1.0)]
    f = fm.resting_field(stacks)
    assert f[INDEX["e3"]] == pytest.approx(44.7, rel=0.01)
    for n in NEIGHBOURS[INDEX["e3"]]:
        assert -0.5 <= f[n] <= -0.2


def test_exact_model_agrees_with_biot_savart():
    # A direct numerical integration of the magnet's surface current, off the axis.
    a, length = W.diameter_mm / 2, W.thickness_mm
    th = np.linspace(0, 2 * np.pi, 721)[:-1]
    zs = (np.arange(80) + 0.5) / 80 * length
    for rho, h in ((2.0, 5.0), (3.0, 5.0), (10.0, 5.0), (25.0, 11.0)):
        rx = rho - a * np.cos(th)[None, :]
        ry = -a * np.sin(th)[None, :]
        rz = -(h + zs)[:, None]
        cz = -a * np.sin(th) * ry - a * np.cos(th) * rx
        integral = np.sum(cz / (rx ** 2 + ry ** 2 + rz ** 2) ** 1.5) * (2 * np.pi / 720) * (length / 80)
        assert float(bz_exact(W, rho, h)) == pytest.approx(W.br_mt / (4 * np.pi) * integral, rel=1e-3)


def test_dipole_is_good_far_away_only():
    for rho, h in ((25.0, 5.0), (0.0, 30.0), (40.0, 40.0)):
        assert float(bz_dipole(W, rho, h)) == pytest.approx(float(bz_exact(W, rho, h)), rel=0.03)
    assert abs(float(bz_dipole(W, 0.0, 3.0)) / float(bz_exact(W, 0.0, 3.0)) - 1) > 0.1


def test_field_model_matches_exact_near_and_far():
    fm = FieldModel(P)
    rng = np.random.default_rng(0)
    x = rng.uniform(-30, 280, 200)
    y = rng.uniform(-30, 130, 200)
    h = rng.uniform(5, 70, 200)
    xy = space_xy()
    for i in range(200):
        got = fm.field([0], [1.0], x[i:i + 1], y[i:i + 1], h[i:i + 1])
        rho = np.hypot(xy[:, 0] - x[i], xy[:, 1] - y[i])
        want = bz_exact(W, rho, h[i])
        assert np.allclose(got, want, rtol=0.03, atol=0.003)


def test_black_is_the_mirror_of_white_and_stacks_add():
    fm = FieldModel(P)
    stacks = [[] for _ in range(N_SPACES)]
    stacks[0] = [(0, 1.0), (1, -1.0)]  # a white piece under a black one
    f = fm.resting_field(stacks)
    assert f[0] == pytest.approx(44.7 - 6.98, rel=0.01)


def test_board_geometry_has_25mm_between_neighbours():
    xy = space_xy(25.0)
    for s in range(N_SPACES):
        for n in NEIGHBOURS[s]:
            assert np.hypot(*(xy[s] - xy[n])) == pytest.approx(25.0)
