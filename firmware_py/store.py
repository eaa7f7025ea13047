"""The game database: every game and every committed ply, on disk before the LEDs say so.

One SQLite file (default: `games.sqlite3` in the user's data directory, or `$DVONN_BOARD_DB`)
holds two tables: `games` (tags, start and end time, result) and `plies` (one row per ply, in
order). The file runs in WAL mode with `synchronous=FULL`, so a call that returns has reached the
disk: a pulled plug loses nothing that was acknowledged. A game without an end time is
unfinished; `unfinished()` finds the latest one so a restarted board can resume it.

>>> import tempfile, os
>>> from firmware_py.rules import Ply
>>> with Store(os.path.join(tempfile.mkdtemp(), "g.sqlite3")) as store:
...     game = store.new_game({"White": "Ann", "Black": "Bob"})
...     for token in ("e3", "f3", "g3"):
...         _ = store.add_ply(game, Ply.parse(token))
...     store.undo_ply(game), [str(p) for p in store.plies(game)], store.unfinished().id == game
(Ply(src=-1, dst=25), ['e3', 'f3'], True)
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .errors import IllegalPly, StoreError
from .records import GameRecord, result_of, write_record
from .rules import BLACK, WHITE, Board, Ply

log = logging.getLogger(__name__)
ENV_VAR = "DVONN_BOARD_DB"
FILE_NAME = "games.sqlite3"
SIM_FILE_NAME = "sim-games.sqlite3"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    started  TEXT NOT NULL,            -- ISO 8601, UTC
    finished TEXT,                     -- NULL while the game goes on
    result   TEXT,                     -- '1-0', '0-1', '1/2-1/2', or '*' for an abandoned game
    resigned INTEGER,                  -- 0 white, 1 black, when the game ended by resignation
    tags     TEXT NOT NULL DEFAULT '{}'  -- JSON object of record tags (Event, White, Black...)
);
CREATE TABLE IF NOT EXISTS plies (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n       INTEGER NOT NULL,          -- 0-based ply number
    token   TEXT NOT NULL,             -- 'e3', 'e3f3' or 'pass'
    at      TEXT NOT NULL,             -- ISO 8601, UTC: when it was committed
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS ply_times (  -- the game clock: time spent on each ply (clock.py)
    game_id INTEGER NOT NULL,
    n       INTEGER NOT NULL,
    spent_s REAL NOT NULL,             -- seconds the mover's clock ran for this ply
    left_s  REAL NOT NULL,             -- the mover's time left after it (increment included)
    PRIMARY KEY (game_id, n),
    FOREIGN KEY (game_id, n) REFERENCES plies(game_id, n) ON DELETE CASCADE
);
"""


def default_path() -> Path:
    """`$DVONN_BOARD_DB` if set, else games.sqlite3 in the user's data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs
    return Path(platformdirs.user_data_dir("dvonn-board")) / FILE_NAME


def _retried(method):
    """The method, tried again while another process holds the file (see Store._retrying)."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        return self._retrying(method, self, *args, **kwargs)
    return wrapper


def sim_path() -> Path:
    """The simulator's own database: sim-games.sqlite3 beside the real board's default."""
    return default_path().with_name(SIM_FILE_NAME)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass
class GameInfo:
    """One stored game: what `games()` lists and `game()` returns."""
    id: int
    started: str
    finished: str | None
    result: str | None
    resigned: int | None
    tags: dict[str, str] = field(default_factory=dict)
    ply_count: int = 0

    @property
    def is_finished(self) -> bool:
        return self.finished is not None


class Store:
    """The SQLite game database. Safe to share between threads (calls are serialised).

    path: the database file; None for `default_path()`.
    create: make the file (and its folders) if missing; False (read-only commands) raises
        StoreError instead.
    busy_s: how long one try waits for another process's lock (default BUSY_S); a call retries
        `LOCK_TRIES` times in all, then raises StoreError saying the file is locked.
    """

    LOCK_TRIES = 3
    BUSY_S = 5.0

    def __init__(self, path: str | os.PathLike | None = None, *, create: bool = True,
                 busy_s: float | None = None):
        self.path = Path(path) if path is not None else default_path()
        if not create and not self.path.is_file():
            raise StoreError(f"no game database at {self.path}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.busy_s = self.BUSY_S if busy_s is None else busy_s
        self._lock = threading.RLock()
        self._db = None
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                       timeout=self.busy_s)
            self._retrying(self._open)
        except (sqlite3.DatabaseError, StoreError) as e:
            self.close()
            if isinstance(e, StoreError):
                raise
            raise StoreError(f"{self.path}: not a usable game database ({e})") from e

    def _open(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # commit returns once on disk
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer dvonn-board "
                             f"(schema {version}, this one knows {SCHEMA_VERSION})")
        with self._transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    # -- plumbing ---------------------------------------------------------------------------------
    def _retrying(self, fn, *args, **kwargs):
        """fn(*args), tried again while another process holds the file locked (each try waits
        `busy_s`); then a StoreError that says so. A commit never half-happens: a try that
        fails has rolled back."""
        for attempt in range(1, self.LOCK_TRIES + 1):
            try:
                return fn(*args, **kwargs)
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise StoreError(f"{self.path}: {e}") from e
                if attempt == self.LOCK_TRIES:
                    raise StoreError(
                        f"{self.path} is locked by another process (waited "
                        f"{self.LOCK_TRIES * self.busy_s:g} s): close the program holding it "
                        "(another dvonn-board, a database browser) and start again") from e
                log.warning("%s is locked by another process; trying again", self.path)

    @contextmanager
    def _transaction(self):
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            try:
                self._db.execute("COMMIT")
            except sqlite3.OperationalError:
                self._db.execute("ROLLBACK")  # the try is undone whole; _retrying tries again
                raise

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _count(self, db, game_id: int) -> int:
        row = db.execute("SELECT finished, (SELECT COUNT(*) FROM plies WHERE game_id = ?) "
                         "FROM games WHERE id = ?", (game_id, game_id)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path}")
        return row[1]

    # -- writing ----------------------------------------------------------------------------------
    @_retried
    def new_game(self, tags: dict[str, str] | None = None) -> int:
        """Start a game; returns its id. Other unfinished games stay as they are."""
        with self._transaction() as db:
            cur = db.execute("INSERT INTO games (started, tags) VALUES (?, ?)",
                             (_now(), json.dumps(dict(tags or {}))))
            return cur.lastrowid

    @_retried
    def add_ply(self, game_id: int, ply: Ply, index: int | None = None) -> int:
        """Append `ply` to the game and commit it to disk; returns its 0-based number.

        index: the number the caller expects the ply to get (its board's ply count before the
        push); a mismatch raises StoreError and writes nothing, so a ply is never stored twice.
        """
        with self._transaction() as db:
            n = self._count(db, game_id)
            if index is not None and index != n:
                raise StoreError(f"game {game_id} holds {n} plies: cannot store {ply} as ply "
                                 f"{index + 1}")
            db.execute("INSERT INTO plies (game_id, n, token, at) VALUES (?, ?, ?, ?)",
                       (game_id, n, str(ply), _now()))
            return n

    @_retried
    def undo_ply(self, game_id: int) -> Ply | None:
        """Delete the game's last ply (a takeback) and return it; None if it has none.

        A finished game taken back is unfinished again.
        """
        with self._transaction() as db:
            n = self._count(db, game_id)
            if n == 0:
                return None
            token = db.execute("SELECT token FROM plies WHERE game_id = ? AND n = ?",
                               (game_id, n - 1)).fetchone()[0]
            db.execute("DELETE FROM plies WHERE game_id = ? AND n = ?", (game_id, n - 1))
            db.execute("UPDATE games SET finished = NULL, result = NULL, resigned = NULL "
                       "WHERE id = ?", (game_id,))
            return Ply.parse(token)

    def set_ply_time(self, game_id: int, n: int, spent_s: float, left_s: float) -> None:
        """The game clock's figures for ply `n` (deleted with the ply by a takeback)."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO ply_times (game_id, n, spent_s, left_s) "
                       "VALUES (?, ?, ?, ?)", (game_id, n, float(spent_s), float(left_s)))

    def ply_times(self, game_id: int) -> list[float | None]:
        """Seconds spent on each ply (None where no clock ran); [] for a game without clock."""
        with self._lock:
            n = self._count(self._db, game_id)
            rows = dict(self._db.execute("SELECT n, spent_s FROM ply_times WHERE game_id = ?",
                                         (game_id,)).fetchall())
        return [rows.get(i) for i in range(n)] if rows else []

    def finish(self, game_id: int, result: str | None = None, resigned: int | None = None) -> None:
        """Mark the game finished. result: '1-0', '0-1', '1/2-1/2' or '*' (abandoned); None
        works it out from the stored plies (and `resigned`: WHITE or BLACK)."""
        if result is None:
            result = result_of(self.board(game_id), resigned)
        if result not in ("1-0", "0-1", "1/2-1/2", "*"):
            raise StoreError(f"result: {result!r} is not 1-0, 0-1, 1/2-1/2 or *")
        if resigned not in (None, WHITE, BLACK):
            raise StoreError(f"resigned: {resigned!r} is not 0 (white) or 1 (black)")
        self._retrying(self._finish, game_id, result, resigned)

    def _finish(self, game_id: int, result: str, resigned: int | None) -> None:
        with self._transaction() as db:
            self._count(db, game_id)
            db.execute("UPDATE games SET finished = ?, result = ?, resigned = ? WHERE id = ?",
                       (_now(), result, resigned, game_id))

    @_retried
    def set_tags(self, game_id: int, **tags: str) -> None:
        """Add or change record tags (e.g. White="Ann")."""
        with self._transaction() as db:
            self._count(db, game_id)
            old = json.loads(db.execute("SELECT tags FROM games WHERE id = ?",
                                        (game_id,)).fetchone()[0])
            old.update(tags)
            db.execute("UPDATE games SET tags = ? WHERE id = ?", (json.dumps(old), game_id))

    # -- reading ----------------------------------------------------------------------------------
    _INFO = ("SELECT id, started, finished, result, resigned, tags, "
             "(SELECT COUNT(*) FROM plies WHERE game_id = games.id) FROM games")

    @staticmethod
    def _info(row) -> GameInfo:
        return GameInfo(id=row[0], started=row[1], finished=row[2], result=row[3],
                        resigned=row[4], tags=json.loads(row[5]), ply_count=row[6])

    @_retried
    def games(self) -> list[GameInfo]:
        """Every stored game, oldest first."""
        with self._lock:
            return [self._info(r) for r in self._db.execute(self._INFO + " ORDER BY id")]

    @_retried
    def game(self, game_id: int) -> GameInfo:
        with self._lock:
            row = self._db.execute(self._INFO + " WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path}")
        return self._info(row)

    @_retried
    def unfinished(self) -> GameInfo | None:
        """The most recently started game that has not finished, or None."""
        with self._lock:
            row = self._db.execute(self._INFO + " WHERE finished IS NULL ORDER BY id DESC "
                                   "LIMIT 1").fetchone()
        return None if row is None else self._info(row)

    @_retried
    def plies(self, game_id: int) -> list[Ply]:
        with self._lock:
            self._count(self._db, game_id)
            rows = self._db.execute("SELECT token FROM plies WHERE game_id = ? ORDER BY n",
                                    (game_id,)).fetchall()
        return [Ply.parse(r[0]) for r in rows]

    def board(self, game_id: int) -> Board:
        """The game's position, replayed from its stored plies (history included)."""
        board = Board()
        for n, ply in enumerate(self.plies(game_id)):
            try:
                board.push(ply)
            except IllegalPly as e:
                raise StoreError(f"game {game_id}, ply {n + 1} ({ply}): {e}") from e
        return board

    def record(self, game_id: int) -> GameRecord:
        """The game as a `records.GameRecord` (tags with the start date filled in)."""
        info = self.game(game_id)
        tags = {"Date": info.started[:10].replace("-", "."), **info.tags}
        times = self.ply_times(game_id)
        if times:
            from .time_control import ply_times_tag
            tags["PlyTimes"] = ply_times_tag(times)
        return GameRecord(tags=tags, plies=self.plies(game_id), resigned=info.resigned)

    def export(self, game_id: int) -> str:
        """The game in our record format (see `records.write_record`)."""
        record = self.record(game_id)
        self.board(game_id)  # a clear StoreError if the stored plies do not replay
        return write_record(record)
