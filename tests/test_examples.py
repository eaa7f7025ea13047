"""The sample records in examples/ replay, and every file the READMEs' examples read exists."""

import glob
import re
import shlex
from pathlib import Path

from firmware_py.cli import main

ROOT = Path(__file__).resolve().parent.parent
READMES = (ROOT / "README.md", ROOT / "examples" / "README.md")
READS = {"replay": None, "show": 1, "--script": 1}  # where a command names files it reads


def files_read(readme: Path) -> list[str]:
    """The record files named by `dvonn-board replay|show|... --script` in the shell blocks."""
    names = []
    for block in re.findall(r"```sh\n(.*?)```", readme.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            words = shlex.split(line.split("#")[0])
            if words[:1] != ["dvonn-board"]:
                continue
            for i, w in enumerate(words):
                if w == "replay":
                    names += [a for a in words[i + 1:] if not a.startswith("-")]
                elif w in ("show", "--script"):
                    names.append(words[i + 1])
    return names


def test_every_record_a_readme_example_reads_exists():
    for readme in READMES:
        named = files_read(readme)
        assert named, f"{readme.name}: no example reads a record"
        missing = [n for n in named if not glob.glob(str(ROOT / n))]
        assert missing == [], f"{readme.name} names files that do not exist"


def test_the_sample_records_replay(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    samples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").iterdir()
                     if p.suffix in (".txt", ".json"))
    assert len(samples) == 3
    assert main(["replay", *samples]) == 0
    out = capsys.readouterr().out
    assert "club-night.txt: 82 plies, finished, white wins" in out
    assert "moves.json: 87 plies, finished, black wins" in out
    assert "unfinished.txt: 60 plies, not finished" in out
    assert main(["show", "examples/club-night.txt", "--ply", "60"]) == 0
