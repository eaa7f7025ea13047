"""The mode table in the controller's docstring is true: every mode is in it, the code sets no
other mode, and every change of mode seen in whole games is one the table lists."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_py import controller
from firmware_py.state import MODES
from dvonn_sim.autoplay import play_game

ROOT = Path(__file__).resolve().parent.parent / "firmware_py"
COLLABORATORS = ("controller", "faults", "questions", "recorder", "mismatch", "script", "state",
                 "reference", "startup", "decisions")


def table() -> dict[str, set[str]]:
    """mode -> the modes it may go to, read from the docstring's table."""
    lines = controller.__doc__.splitlines()
    head = next(i for i, line in enumerate(lines) if line.strip().startswith("mode "))
    col = lines[head].index("goes to")
    allowed: dict[str, set[str]] = {}
    mode = None
    for line in lines[head + 2:]:
        if not line.strip():
            break
        if line[4] != " ":
            mode = line.split()[0]
            allowed[mode] = set()
        text = line[col:]
        allowed[mode] |= {m for m in MODES if re.search(rf"\b{m}\b", text)}
        if "the mode it left" in text:
            allowed[mode] |= set(MODES)
    new_game = "New game returns to calibrating from any mode."
    assert new_game in controller.__doc__
    for targets in allowed.values():
        targets.add("calibrating")
    return allowed


def test_the_table_names_every_mode():
    assert set(table()) == set(MODES)


def test_the_code_sets_only_modes_of_the_table():
    found = set()
    for name in COLLABORATORS:
        source = (ROOT / f"{name}.py").read_text(encoding="utf-8")
        found |= set(re.findall(r'\.mode = "(\w+)"', source))
    assert found and found <= set(MODES)


def test_whole_games_change_mode_only_as_the_table_says():
    allowed = table()
    seen = set()
    last = [None]

    def trace(c, board):
        mode = c.state.mode
        if last[0] is not None and mode != last[0]:
            seen.add((last[0], mode))
        last[0] = mode

    for kwargs in (dict(seed=1, noise="bad", mistakes=0.3),
                   dict(seed=4, mistakes=0.3, ai=["black"], level=1)):
        last[0] = None
        assert play_game(trace=trace, **kwargs).match
    assert len(seen) >= 10  # lifts, landings, errors, questions, removals, the end
    assert {(a, b) for a, b in seen if b not in allowed[a]} == set()
