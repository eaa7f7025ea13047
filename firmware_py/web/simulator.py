"""`dvonn-board sim` in the browser: the controller against the simulated board, in real time,
with the page as the hand that moves the pieces.

`SimulatorRun` puts together a simulated board on a real-time clock (built by the command:
`dvonn_sim.compose.simulated_board`), the page's `SimDesk` in front of it, a `Session` (controller +
game store) running on its own thread, and the web server on another. The command
(`dvonn-board sim`, in `commands/sim.py`) prints the URL and serves until Ctrl-C.

>>> # board = simulated_board("default", seed=0, speed=1.0)
>>> # with SimulatorRun(make_controller, "sim.sqlite3", board, port=0) as run:
>>> #     print(run.web.url)            # open it; run.session / run.board for scripts
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from ..i18n import N_, _
from .server import WebThread, is_loopback
from .protocol import NOISE_NAMES
from .session_source import SessionSource, SimDesk

INTRO = N_("""\
The simulated DVONN board is at {url}
Open it in a browser: you are the hand that moves the pieces; the board's software sees only
its sensors and answers with its LEDs. The page explains the rest. Ctrl-C stops.
Games are kept in {db}.""")


class SimulatorRun:
    """Simulated board + session thread + web server (see the module docstring).

    make_controller(board): the controller for a game at `board` (as `Session` takes it).
    db: the game store's file (an unfinished game there is resumed, pieces set up as recorded).
    board: the simulated board, on a real-time clock; noise: the noise level it was built with
        (for the page's fault panel).
    """

    def __init__(self, make_controller, db: str | Path, board, *, host: str = "127.0.0.1",
                 port: int = 8080, token: str | None = None, noise: str | float = "default",
                 computer=(), time_control=None, hints: bool = True, study=None, prepare=None,
                 voice=None):
        from ..session import Session
        from ..store import Store

        self.db = Path(db)
        self.board = board
        self.desk = SimDesk(self.board)
        self.desk.noise = noise if isinstance(noise, str) else float(noise)
        store = Store(self.db)
        if study is not None:
            study.prepare(store)  # --from: the record's position, set up as a resumed game
        if prepare is not None:
            prepare(store)  # --join: the host's game, set up as a resumed game
        replay = study is not None and study.replay
        unfinished = store.unfinished()
        if unfinished is not None and not replay:  # the pieces stand where the record says
            self.board.setup(store.board(unfinished.id))
        self.session = Session(self.desk, self.board, store, make_controller, buttons=self.board,
                               tags={"Site": "dvonn-board simulator",
                                     **(study.tags() if replay else {})},
                               computer=computer, time_control=time_control, hints=hints,
                               resume=not replay, voice=voice)
        self.source = SimulatorSource(self.session, self.desk)
        self.web = WebThread(self.source, host=host, port=port, token=token)
        self._stop = threading.Event()
        self.failure: Exception | None = None  # what ended the session thread, if not stop()
        self._loop = threading.Thread(target=self._run_session, name="session", daemon=True)

    def _run_session(self) -> None:
        from ..errors import StoreError

        try:
            self.session.run(self._stop)
        except StoreError as e:  # e.g. the database locked by another program for too long
            self.failure = e

    def start(self) -> "SimulatorRun":
        self._loop.start()
        try:
            self.web.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        self.web.stop()
        self._stop.set()
        if self._loop.is_alive():
            self._loop.join(5)
        self.session.close()

    def __enter__(self) -> "SimulatorRun":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class SimulatorSource(SessionSource):
    """A session on the simulator: the page presses the simulated board's own buttons (the
    session reads them like a real board's), and a new game also clears the simulated table."""

    BUTTONS = {"takeback": "undo", "confirm": "confirm", "new_game": "new_game"}

    def act(self, kind, args):
        if kind not in self.BUTTONS:
            return super().act(kind, args)
        self.refuse_button(kind)
        if kind == "new_game":
            self.refuse_new_game()  # (the table is not cleared either)
        board = self.desk.board

        def press():
            board.press(self.BUTTONS[kind])
            if kind == "new_game":
                board.reset()  # the people clear the board and empty their hands
                return _("new game: the table is cleared; the last game stays in the store")
            return None
        return self.desk.call(press)


def run_web(args, make_controller, make_board, computer=(), on_start=None, time_control=None,
            hints: bool = True, study=None, prepare=None, voice=None) -> int:
    """`dvonn-board sim` (people mode, in the browser); returns the exit status.

    args: `web` ('[HOST:]PORT', default 8080 on this machine only), `token`, `db`, `seed`,
    `speed`, `noise` (see `dvonn-board sim --help`). make_board(noise, seed, speed): the
    simulated board (the command passes `dvonn_sim.compose.simulated_board`). on_start(run): called
    once the board runs, for the lines to print (e.g. a remote game's invitation).
    prepare(store): called before the session starts (a joined game: the host's, to resume).
    voice: an `announce.Announcer` for the session (None: silent).
    """
    import time

    from ..errors import StoreError
    from ..store import sim_path
    from .server import parse_address

    prog = "dvonn-board sim"
    db = getattr(args, "db", None) or sim_path()
    try:
        host, port = parse_address(str(getattr(args, "web", None) or "8080"))
        noise = getattr(args, "noise", None) or "default"
        if noise not in NOISE_NAMES:
            noise = float(noise)
        board = make_board(noise, seed=getattr(args, "seed", None) or 0,
                           speed=getattr(args, "speed", None) or 1.0)
        run = SimulatorRun(make_controller, db, board, host=host, port=port,
                           token=getattr(args, "token", None), noise=noise,
                           computer=computer, time_control=time_control,
                           hints=hints, study=study, prepare=prepare, voice=voice).start()
    except ValueError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    except StoreError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # most often: the port is taken
        print(f"{prog}: cannot serve the page on {host}:{port}: {e.strerror or e} "
              "(choose another with --web PORT)", file=sys.stderr)
        return 1
    print(_(INTRO).format(url=run.web.url, db=db), flush=True)
    for line in (on_start(run) if on_start else ()):
        print(line, flush=True)
    if not is_loopback(host):
        print(_("Pages opened without the token in the URL are read-only."), flush=True)
    try:
        while run._loop.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        return 0
    finally:
        run.stop()
    # The session's thread ended by itself: say why, and fail (never a silent exit 0).
    print(f"{prog}: {run.failure or 'the board stopped'}", file=sys.stderr)
    return 1
