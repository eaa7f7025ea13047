"""Helpers for the voice tests: the speech engine's presence, and what a WAV file holds."""

from __future__ import annotations

import array
import math
import os
import shutil
import wave
from pathlib import Path

import pytest

SILENT_RMS = 200  # of 32767: below this a 16-bit file is silence (or a hiss)


def need_espeak() -> None:
    """Skip without espeak-ng here; on CI (which installs it, .ci/run) fail instead."""
    if shutil.which("espeak-ng"):
        return
    if os.environ.get("CI"):
        pytest.fail("espeak-ng is missing on CI: .ci/run must install it")
    pytest.skip("the voice tests need espeak-ng (sudo apt-get install espeak-ng; .ci/run "
                "installs it)")


def wav_stats(path: Path) -> tuple[float, float]:
    """(seconds, RMS of the 16-bit samples) of a mono or stereo WAV file."""
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2, f"{path.name}: not 16-bit"
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array.array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0
    return seconds, rms


def phrases(directory: Path) -> list[tuple[str, str]]:
    """(kind, words) of each file a FileSpeaker wrote, in order; each WAV checked to be sound."""
    out = []
    wavs = sorted(directory.glob("*.wav"))
    assert len(wavs) == len(list(directory.glob("*.txt")))
    for n, wav in enumerate(wavs, 1):
        number, kind = wav.stem.split("-", 1)
        assert int(number) == n, f"{wav.name}: numbered out of order"
        seconds, rms = wav_stats(wav)
        assert seconds > 0.05 and rms > SILENT_RMS, f"{wav.name}: silent ({seconds} s, RMS {rms})"
        out.append((kind, wav.with_suffix(".txt").read_text(encoding="utf-8").strip()))
    return out
