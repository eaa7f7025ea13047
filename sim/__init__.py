"""The simulated DVONN board: magnets, Hall sensors, LEDs and people's hands, behind the same
interfaces as the real hardware (`firmware_py.interfaces`).

Modules, one job each:

- `dvonn_sim.params`   every physical number (the reference board of sensing.md), TOML profiles,
                 noise levels ``clean`` / ``default`` / ``poor`` / ``bad``;
- `dvonn_sim.physics`  the magnets' field at the sensors (exact cylinder model, dipole far away);
- `dvonn_sim.sensors`  Hall sensors + ADC (offset and gain spread, drift, noise, saturation) and faults;
- `dvonn_sim.clock`    `SimClock` (simulated time, no sleeping) and `RealTimeClock` (for people);
- `dvonn_sim.board`    `SimBoard`: the ground truth, a `SensorSource` (100 frames per simulated
                 second; each `read_frame()` advances the clock 10 ms) and an `LedSink`;
- `dvonn_sim.hand`     `board.hand`: lift / put / remove / place / knock / restore / slide / wait,
                 with human timing, queued on the board's clock;
- `dvonn_sim.players`  `Players`: scripted people playing a record, a chooser or at random, reading
                 the LEDs and making mistakes; the truth of what they played;
- `dvonn_sim.pty_scanner`  the scanner microcontroller emulated on a pseudo-terminal;
- `dvonn_sim.bench`    how fast the simulator runs (figures printed, never asserted).

The controller sees only frames and shows only LED frames; the truth (`board.truth()`,
`players.truth`) is for tests, which compare it with what the controller recorded.

An autoplay loop (written out in full in `dvonn_sim.autoplay.play_game`)::

    from dvonn_sim.board import SimBoard
    from dvonn_sim.params import Params
    from dvonn_sim.players import Players, Mistakes

    board = SimBoard(Params.from_noise("default"), seed=1)   # or clock=RealTimeClock()
    players = Players(board, ["e3", "f3", ...],               # a record, None (random), or
                      mistakes=Mistakes(rate=0.1), seed=1)    # a callable Board -> Ply
    while not players.done:
        frame = board.read_frame()                 # SensorSource: +10 ms of board time
        controller.feed(frame)
        board.show(render(controller.state, frame.time))   # LedSink: the players read this
        players.step()                             # people look at the LEDs and act
    assert controller.state.board.move_stack == players.truth.move_stack

A person clicking in a web view acts through the same hand (actions queue and run in order)::

    board.hand.lift("e3"); board.hand.put("e5")     # a move (lift, carry, set down)
    board.hand.place("e3", "W")                     # a new piece from the reserve
    board.hand.remove("c3")                         # off the board, into the box
    board.hand.knock("d3"); board.hand.restore("d3")
    board.hand.slide("e3", "e5", via=["e4"])        # low over e4 on the way

Sensor faults: ``board.fail("e3", "dead" | "stuck" | "noisy")``, ``board.swap_channels("e3",
"f3")``, ``board.repair()``. Buttons: ``board.press("confirm")``; the board is also a
`ButtonSource` (``board.events()``).

Serial emulation: ``scanner = sim.pty_scanner.serve_port(board, on_frame=lambda f:
players.step())`` serves the board on a pseudo-terminal (``scanner.port``, e.g. /dev/pts/3) for
`dvonn_hw.serial_link.SerialScanner`; ``python -m dvonn_sim.pty_scanner [--random] [--link PATH]`` prints
the port and serves until stopped. Speed: ``python -m dvonn_sim.bench``.
"""
