"""The board profile reaches the controller: a board built with the magnets the other way up
(Black north up) plays correctly when its profile says so. Simulated time only."""

from importlib import resources

import pytest

from firmware_py import guidance
from firmware_py.board_model import BoardSpec
from firmware_py.commands.play import board_spec
from firmware_py.controller import Controller
from firmware_py.spaces import INDEX
from dvonn_hw.profile import load_profile, parse_profile
from dvonn_sim.board import SimBoard
from dvonn_sim.params import MagnetSpec, Params
from dvonn_sim.players import Players
from tests.simgames import run

SWAPPED_SIM = {"W": MagnetSpec(polarity=-1), "B": MagnetSpec(polarity=1),
               "D": MagnetSpec(thickness_mm=3.0, polarity=-1)}


def swapped_profile():
    text = (resources.files("dvonn_hw") / "profiles" / "default.toml").read_text()
    head, magnets = text.split("[magnets.white]", 1)
    magnets, tail = magnets.split("[spaces]", 1)
    magnets = (magnets.replace('"north"', '"N"').replace('"south"', '"north"')
               .replace('"N"', '"south"'))
    return parse_profile(head + "[magnets.white]" + magnets + "[spaces]" + tail, "swapped.toml")


def test_the_spec_follows_the_profile():
    assert board_spec(load_profile("default")).polarity == {"W": 1.0, "B": -1.0, "D": 1.0}
    spec = board_spec(swapped_profile())
    assert spec.polarity == {"W": -1.0, "B": 1.0, "D": -1.0}
    assert spec.geometry.magnets["D"].thickness_mm == 3.0 and spec.adc_max == 4095
    c = Controller(spec=spec)
    assert c.cal.polarity == spec.polarity and c.model.geo is spec.geometry


def test_a_spec_with_one_polarity_for_both_colours_is_refused():
    with pytest.raises(ValueError, match="White and Black"):
        BoardSpec(polarity={"W": 1.0, "B": 1.0, "D": 1.0})


def test_a_swapped_board_plays_a_whole_game_when_its_profile_says_so():
    sim = SimBoard(Params(magnets=SWAPPED_SIM), seed=4)
    c = Controller(spec=board_spec(swapped_profile()))
    players = Players(sim, None, seed=4)
    shown = None
    while sim.now < 900 and not (players.done and c.state.mode in ("idle", "over")
                                 and c.state.board.ply_count >= players.truth.ply_count):
        frame = sim.read_frame()
        c.feed(frame)
        leds = guidance.render(c.state, frame.time)
        if leds != shown:
            sim.show(leds)
            shown = leds
        if not players.done:
            players.step()
    truth = [str(p) for p in players.truth.move_stack]
    assert [str(p) for p in c.state.board.move_stack] == truth and c.state.mode == "over"


def test_a_wrong_piece_on_a_swapped_board_is_flagged():
    sim = SimBoard(Params(magnets=SWAPPED_SIM), seed=3)
    c = Controller(spec=board_spec(swapped_profile()))
    run(sim, c, 0.5)
    sim.hand.place("e3", "B")  # a DVONN piece is due; Black reads the other way here
    run(sim, c, 2.0)
    assert c.state.mode == "error" and c.state.error == [INDEX["e3"]]
    sim.hand.lift("e3")
    sim.hand.discard()
    sim.hand.place("e3", "D")
    run(sim, c, 4.0)
    assert [str(p) for p in c.state.board.move_stack] == ["e3"] and c.state.mode == "idle"
    # (White has DVONN's polarity here: it differs from a DVONN piece by strength only, by
    # less than magnets, sensors and placement spread before anything is learned)


def test_the_reference_controller_on_a_swapped_board_is_not_fooled():
    sim = SimBoard(Params(magnets=SWAPPED_SIM), seed=3)
    c = Controller()  # no profile: assumes White/DVONN north up
    run(sim, c, 0.5)
    sim.hand.place("e3", "D")
    run(sim, c, 2.0)
    assert c.state.board.ply_count == 0 and c.state.mode == "error"
