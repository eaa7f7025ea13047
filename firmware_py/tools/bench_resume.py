"""A game resumed after a pulled plug with no calibration file, on cheap Hall sensors.

    python -m firmware_py.tools.bench_resume SEED PRESET ADC_BITS [PLACEMENTS]

Plays PLACEMENTS (30) placements with mistakes 0.3 on sensors whose offsets spread +-20 mT,
then resumes the same game on `Calibration.nominal` (mid-scale baselines, nothing learned), as
`play` does with no calibration file. Prints: seed preset adc placements, then for the resumed
game: exact, wrong plies, stalled, plies read without asking, asked, plies in its record.
(docs/reading-moves.md, "A game resumed with no calibration file, on cheap sensors".)
"""

from __future__ import annotations

import sys

from ..calibration import Calibration


def main(argv: list[str]) -> int:
    from dvonn_sim.autoplay import play_game
    seed, preset, adc = int(argv[0]), argv[1], int(argv[2])
    n = int(argv[3]) if len(argv) > 3 else 30
    board = {"offset_spread_mt": 20.0}
    first = play_game(seed=seed, preset=preset, adc_bits=adc, mistakes=0.3, board=board,
                      max_plies=n)
    r = play_game(seed=seed, preset=preset, adc_bits=adc, mistakes=0.3, board=board,
                  start=first.record,
                  controller_options={"calibration": Calibration.nominal(adc_max=(1 << adc) - 1)})
    print(seed, preset, adc, n, "resumed: exact", r.match, "wrong", r.wrong, "stalled",
          r.stalled, "auto", r.auto, "asked", r.asked, "plies", len(r.record), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
