"""Diagnostics for building, calibrating and repairing a board: `dvonn-board diag ...`.

One module per command, each with `add_parser(subparsers)` and `run(args, board=None)`:

- `selftest`   non-interactive: link, frame rate, noise, faulty sensors, LED strip start-up;
- `sensors`    the 49 readings live on the hex board (offset, noise, flags, link statistics);
- `leds`       test patterns: every colour full and capped, a chase in space order, one space;
- `calibrate`  guided calibration written in `firmware_py.calibration`'s format;
- `map`        the wiring check: swapped channels, multiplexers out of order, dead spaces;
- `ports`      serial ports with USB vendor/product, pointing out the scanner.

Shared helpers: `backend` (the real board from its profile, or the simulator with injected
faults), `person` (the simulated person who follows the LED prompts), `prompts` (asking for a
piece and waiting until it is there), `analysis` (statistics and fault classification on arrays
of frames), `boardview` (49 values drawn on the hex board with rich), `common` (options, stop
conditions, closing cleanly on Ctrl-C).

    $ dvonn-board diag selftest --backend sim --fault dead:e3 --fault noisy:d4
    $ dvonn-board diag map --backend sim --fault swap:a1,b1 --write fixed.toml
"""
