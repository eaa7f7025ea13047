"""The review after a game: evaluations, mistakes with the better move, the graph (terminal,
`--svg`, the web view's `/review.json`), deterministic for a node budget."""

import doctest
import json
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_py import review as review_module
from firmware_py.cli import main
from firmware_py.records import read_file
from firmware_py.review import MISTAKE, MOST, mistake_text, review, review_svg, sparkline
from firmware_py.rules import N_PLACEMENTS, Board
from firmware_py.state import BoardState
from firmware_py.web.server import WebThread
from firmware_py.web.source import StateSource
from firmware_py.web import review_route

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "review-example.txt"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game():
    return read_file(EXAMPLE)[0].plies


@pytest.fixture(scope="module")
def reviewed(game):
    return review(game, nodes=300)


def test_doctests():
    assert doctest.testmod(review_module).failed == 0
    assert doctest.testmod(review_route).failed == 0


def test_every_ply_of_the_moving_phase_is_evaluated(game, reviewed):
    assert [e.ply for e in reviewed.entries] == game
    for e in reviewed.entries:
        searched = e.n >= N_PLACEMENTS - 3  # the positions of the last placements are searched
        assert (e.white is not None) == searched, e
        assert e.mover == Board.from_plies(game[:e.n - 1]).turn
    assert reviewed.entries[-1].decided  # the game is over at the end


def test_mistakes_are_the_biggest_swings_with_a_better_move(reviewed):
    assert 1 <= len(reviewed.mistakes) <= MOST
    assert [e.n for e in reviewed.mistakes] == sorted(e.n for e in reviewed.mistakes)
    for e in reviewed.mistakes:
        assert e.loss >= MISTAKE and e.best is not None and e.best != e.ply
        before = Board.from_plies([x.ply for x in reviewed.entries[:e.n - 1]])
        assert before.is_legal(e.best)
    smallest = min(e.loss for e in reviewed.mistakes)
    unmarked = [e for e in reviewed.entries if e not in reviewed.mistakes]
    assert all(e.loss <= smallest for e in unmarked)


def test_a_review_is_the_same_for_the_same_budget(game, reviewed):
    again = review(game, nodes=300)
    assert [(e.white, e.best, e.loss) for e in again.entries] == \
        [(e.white, e.best, e.loss) for e in reviewed.entries]


def test_the_graph_is_an_svg_with_the_mistakes_marked(reviewed):
    root = ET.fromstring(review_svg(reviewed))
    marks = [g for g in root.iter(SVG + "g") if g.get("class") == "mistake"]
    assert len(marks) == len(reviewed.mistakes)
    titles = [g.find(SVG + "title").text for g in marks]
    assert all("better was" in t for t in titles)
    assert len(root.find(SVG + "polyline").get("points").split()) == sum(
        e.white is not None for e in reviewed.entries)
    assert len(sparkline(reviewed.entries)) == sum(e.white is not None for e in reviewed.entries)


def test_a_game_still_placing_has_nothing_to_evaluate():
    r = review(["e3", "c3", "g3", "a1"], nodes=200)
    assert r.mistakes == [] and "no evaluation" in r.text()
    ET.fromstring(review_svg(r))


def test_review_command_prints_the_review_and_writes_the_graph(tmp_path, capsys):
    out = tmp_path / "graph.svg"
    assert main(["review", str(EXAMPLE), "--nodes", "300", "--svg", str(out)]) == 0
    text = capsys.readouterr().out
    assert "mistakes (the biggest swings):" in text and "better was" in text
    assert f"wrote the evaluation graph to {out}" in text
    assert ET.fromstring(out.read_text()).tag == SVG + "svg"


def test_review_command_names_what_is_wrong(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("e3 f3 zz9\n")
    assert main(["review", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.txt" in err and "'zz9'" in err and "Traceback" not in err
    assert main(["review", str(EXAMPLE), "--game", "2"]) == 2
    assert "holds 1 game(s)" in capsys.readouterr().err
    assert main(["review", str(EXAMPLE), "--nodes", "5"]) == 2
    assert main(["review", str(tmp_path / "missing.txt")]) == 1
    assert "missing.txt" in capsys.readouterr().err


def test_the_web_view_serves_the_review_of_the_game_on_the_board(game, monkeypatch):
    monkeypatch.setattr(review_route, "REVIEW_NODES", 300)  # the page's budget, cheaper
    state = BoardState(board=Board.from_plies(game), mode="over")
    with WebThread(StateSource(state), port=0) as web:
        url = web.url.split("?")[0].rstrip("/") + "/review.json"
        got = json.loads(urllib.request.urlopen(url, timeout=60).read())
    expected = review(game, nodes=300)
    assert got["plies"] == len(game) and got["svg"] == review_svg(expected)
    assert got["mistakes"] == [mistake_text(e) for e in expected.mistakes]
