"""The study options of `play` and `sim`: `--from FILE [--ply N]` and `--replay FILE`.

`_options.add_study_arguments(parser)` adds them; `Study.from_args(args)` reads the record (a
clear error naming the file, line and token otherwise); `study.prepare(store)` writes a
`--from` position to the store as a new game to resume. The session then takes
`study.computer` (the record's players when replaying), `study.resume` and `study.rebuild`
(the stacks to set up).
"""

from __future__ import annotations

from dataclasses import dataclass, field


class StudyError(ValueError):
    """A study option that cannot be used: the message says which and why."""


@dataclass
class Study:
    record: object | None = None   # records.GameRecord
    replay: bool = False
    ply: int | None = None
    rebuild: list[str] = field(default_factory=list)

    @classmethod
    def from_args(cls, args) -> "Study":
        from_file, replay = getattr(args, "from_file", None), getattr(args, "replay", None)
        ply = getattr(args, "ply", None)
        if from_file and replay:
            raise StudyError("--from and --replay: choose one")
        if ply is not None and not from_file:
            raise StudyError("--ply goes with --from FILE")
        if replay and getattr(args, "ai", None):
            raise StudyError("--replay plays the record's plies for both sides: no --ai")
        path = from_file or replay
        if not path:
            return cls()
        from ..errors import RecordError
        from ..records import read_file
        from ..study import position_at
        try:
            games = read_file(path)
            if not games:
                raise RecordError("no game in the file")
            if from_file:
                position_at(games[0].plies, ply)  # a bad --ply is told before anything opens
        except (OSError, UnicodeDecodeError, RecordError) as e:
            raise StudyError(f"{path}: {e}") from None
        return cls(record=games[0], replay=bool(replay), ply=ply)

    @property
    def active(self) -> bool:
        return self.record is not None

    @property
    def resume(self) -> bool | None:
        """Resume the store's latest game (the position set up by `prepare`), start a new one
        (a replay), or None: as the command would anyway."""
        if not self.active:
            return None
        return not self.replay

    @property
    def computer(self) -> list:
        if not self.replay:
            return []
        from ..study import RecordPlayer
        return [RecordPlayer(colour, self.record.plies) for colour in (0, 1)]

    def tags(self) -> dict[str, str]:
        if not self.replay:
            return {}
        tags = {k: v for k, v in self.record.tags.items() if k not in ("Result", "PlyTimes")}
        tags["Event"] = "replay: " + tags.get("Event", "a record")
        return tags

    def prepare(self, store) -> None:
        """--from: the record's position as a new game in `store` (resumed by the session)."""
        if self.active and not self.replay:
            from ..study import setup_lines, start_from
            game = start_from(store, self.record, self.ply)
            self.rebuild = setup_lines(store.board(game))
