"""Tools for developers, not run on the board: benchmarks that print figures, and the pictures
in the documentation. Each is a module run with ``python -m firmware_py.tools.NAME``; `bench
rules`, `bench inference` and `bench startup` are also subcommands of ``dvonn-board bench``.

- `bench_rules`     random complete games per second, the playout fast path;
- `bench_ai`        the computer's strength: matches against random, greedy and level by level;
- `bench_inference` move reading over autoplayed games (needs the simulator);
- `bench_frames`    the controller's CPU time per frame on a recorded game, for side-by-side runs;
- `bench_startup`   how long `dvonn-board --help` and `replay` take to start, against Python;
- `docs_pictures`   docs/leds.svg and docs/leds.png, the LED language;
- `web_screenshot`  docs/web.png, the simulator's page in headless Chromium;
- `web_bench`       how late a change reaches the web page;
- `catalogues`      the translations: extract the marked messages, update the .po files, compile.

Unlike the runtime modules, the tools may use the simulator (`sim`).
"""
