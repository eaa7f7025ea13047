from firmware_py.spaces import COORDS, INDEX, NEIGHBOURS, SPACES, distance, parse_space, step

import pytest


def test_49_spaces_named_as_little_golem():
    assert len(SPACES) == 49
    assert SPACES[0] == "a1" and SPACES[8] == "i1" and SPACES[19] == "a3" and SPACES[48] == "k5"
    assert "a4" not in INDEX and "a5" not in INDEX and "j1" not in INDEX and "k2" not in INDEX


@pytest.mark.parametrize("space,expected", [
    ("e3", {"d3", "f3", "e2", "e4", "d2", "f4"}),
    ("a1", {"b1", "a2", "b2"}),
    ("k5", {"j5", "k4", "j4"}),
])
def test_neighbours_from_notes(space, expected):
    assert {SPACES[n] for n in NEIGHBOURS[INDEX[space]]} == expected


def test_neighbours_are_in_circular_order():
    for i, ns in enumerate(NEIGHBOURS):
        if len(ns) == 6:
            for a, b in zip(ns, ns[1:] + ns[:1]):
                assert b in NEIGHBOURS[a], (SPACES[i], SPACES[a], SPACES[b])


def test_parse_space_any_case_and_clear_error():
    assert parse_space("E3") == INDEX["e3"]
    with pytest.raises(ValueError, match="z9"):
        parse_space("z9")


def test_rows_and_diagonals():
    assert step(INDEX["a3"], 0, 10) == INDEX["k3"]
    assert step(INDEX["a1"], 1, 4) == INDEX["e5"]
    assert step(INDEX["a1"], 3) is None
    assert distance(INDEX["a3"], INDEX["k3"]) == 10
    assert all(distance(i, n) == 1 for i in range(49) for n in NEIGHBOURS[i])
    assert len(set(COORDS)) == 49
