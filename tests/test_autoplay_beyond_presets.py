"""Boards beyond the simulator's presets (issue 19): whole games through the whole pipeline on
boards a person may build and the controller was never tuned to, compared with the truth.

- Cheap Hall sensors (the SS49E class): quiescent offsets +-20 mT. The new game's empty board
  names the spaces that read off mid-scale; the players see they are empty and confirm; their
  readings become their baselines and no sensor is marked faulty.
- Weak fields (a 7 mm gap, N35 magnets at 6 mm): a DVONN piece reads under half the
  datasheet's White piece. It is taken by its polarity alone until the board has learned
  what its pieces read, and a piece is seen on a reading that falls with what the board's
  pieces read (a White or Black piece at 14 mT).

Each game is short enough (placements and the first moves) to keep the test under 20 s; the
full measurements are in docs/reading-moves.md ("Boards beyond the presets").
"""

from __future__ import annotations

import pytest

from dvonn_sim.autoplay import play_game

OFFSET20 = {"offset_spread_mt": 20.0}
GAP7 = {"sensor_gap_mm": 7.0}
N35_GAP6 = {"sensor_gap_mm": 6.0, "magnets": {k: {"br_mt": 1200.0} for k in "WBD"}}


def played(seed, preset, adc_bits, board, plies=None):
    """(the result, the sensors the controller ended up distrusting, the modes it showed)."""
    seen = {"faulty": {}, "messages": set()}

    def trace(c, _board):
        seen["faulty"] = dict(c.faulty)
        if c.state.mode in ("calibrating", "error"):
            seen["messages"].add(c.state.message)

    r = play_game(seed=seed, preset=preset, adc_bits=adc_bits, mistakes=0.3, board=board,
                  max_plies=plies, trace=trace)
    return r, seen["faulty"], seen["messages"]


def exact(r, plies=None):
    return (r.match and r.wrong == 0 and not r.stalled
            and len(r.record) == (plies or len(r.truth)))


@pytest.mark.parametrize("preset, adc_bits, seed", [("default", 12, 1), ("rough", 10, 2),
                                                    ("rough", 12, 3)])
def test_sensor_offsets_are_confirmed_empty_and_the_game_read_exactly(preset, adc_bits, seed):
    # Before: every preset and ADC stalled at ply 0 (14 spaces "like a piece on an empty
    # board", and the players never pressed the confirm that would have marked them faulty).
    r, faulty, messages = played(seed, preset, adc_bits, OFFSET20, plies=24)
    assert exact(r, 24), (r.record, r.truth)
    assert not faulty  # an offset is no fault
    assert any("press confirm: their sensors' readings are taken as empty" in m
               for m in messages)


@pytest.mark.parametrize("preset, adc_bits, board, seed", [
    ("rough", 10, GAP7, 1),  # before: "i1: wrong piece, a DVONN piece is to be placed"
    ("rough", 12, N35_GAP6, 1),  # before: the same at ply 1, then "nothing may be set
                                 # down on e1, j2" and the difference, in turn for ever
    ("rough", 10, GAP7, 2),  # before: the first Black piece read -14.4 mT, under the 15 mT
                             # a stack took, unseen: the next placement recorded in its place
    ("default", 10, GAP7, 2),
    ("rough", 12, N35_GAP6, 4)])
def test_a_weak_field_board_s_dvonn_pieces_are_taken_and_the_game_read_exactly(
        preset, adc_bits, board, seed):
    r, faulty, messages = played(seed, preset, adc_bits, board, plies=24)
    assert exact(r, 24), (r.record, r.truth)
    assert not faulty
    assert not any("a DVONN piece is to be placed" in m for m in messages)


def test_a_whole_game_on_cheap_sensors_and_a_weak_field_is_read_exactly():
    # Both at once, on the rough board: offsets named and confirmed, DVONN pieces taken.
    r, faulty, _ = played(1, "rough", 12, {**OFFSET20, **GAP7})
    assert exact(r) and not faulty


def test_an_answer_about_one_ply_leaves_the_next_asked_never_guessed():
    # N35 magnets at 7 mm, rough 10-bit, seed 3: asked about h4f2, the next player moved f4
    # onto d4 meanwhile; the answer f2 (h4's landing) was taken with f4f2, which fitted as well
    # as f4d4 (both spaces lifted and set back): a wrong ply. Now f4's landing is asked.
    weakest = {"sensor_gap_mm": 7.0, "magnets": {k: {"br_mt": 1200.0} for k in "WBD"}}
    r, faulty, _ = played(3, "rough", 10, weakest)
    assert exact(r) and not faulty


def test_a_game_on_cheap_sensors_resumes_after_a_pulled_plug_on_the_baselines_play_kept():
    """`play` keeps the first empty board's baselines when no calibration was made
    (`commands.play.keep_first_baselines`): the game resumed after a pulled plug reads its
    stacks against them (against mid-scale, empty spaces read like stacks: it never started)."""
    from firmware_py.calibration import Calibration
    cal = Calibration.nominal()
    kept = []

    def keep(_c, _board):
        if cal.baseline_known and not kept:
            kept.append(cal.to_json())  # what play saves, once the empty board is read

    first = play_game(seed=1, mistakes=0.3, board=OFFSET20, max_plies=30, trace=keep,
                      controller_options={"calibration": cal})
    assert first.match and len(first.record) == 30
    resumed = play_game(seed=1, mistakes=0.3, board=OFFSET20, start=first.record, max_plies=42,
                        controller_options={"calibration": Calibration.from_json(kept[0])})
    assert resumed.match and resumed.wrong == 0 and not resumed.stalled
    assert len(resumed.record) == 42


def test_a_game_on_cheap_sensors_resumes_after_a_pulled_plug_with_no_calibration_file():
    """No calibration file at all (a first game cut off before anything was saved): the
    resumed game names the empty spaces whose sensors sit off mid-scale, and the player
    confirms the board stands as recorded; their readings become their baselines. The
    baselines under the stacks are read as the stacks leave (before: stuck, 0 plies)."""
    from firmware_py.calibration import Calibration
    cal = Calibration.nominal()
    seen = {"confirm": False, "unread": []}

    def watch(c, _board):
        seen["confirm"] |= "press confirm" in c.state.message and c.reference.values is None
        seen["unread"].append(len(cal.unread))

    first = play_game(seed=1, mistakes=0.3, board=OFFSET20, max_plies=30)
    assert first.match and len(first.record) == 30
    resumed = play_game(seed=1, mistakes=0.3, board=OFFSET20, start=first.record, max_plies=56,
                        controller_options={"calibration": cal}, trace=watch)
    assert resumed.match and resumed.wrong == 0 and not resumed.stalled
    assert len(resumed.record) == 56
    assert seen["confirm"] and not cal.baseline_known
    assert max(seen["unread"]) > seen["unread"][-1] > 0  # read as stacks left, not before
