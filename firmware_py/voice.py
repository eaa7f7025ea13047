"""Speakers: the board's words through a local speech engine (Debian's `espeak-ng`, no
network), short tones instead of words (`cues`), or one WAV file per phrase (`--voice-dir`).

Every speaker speaks from a queue on its own thread: `say()` returns at once, so the controller
never waits for a sentence. A phrase that only describes the moment (a question, a mistake, the
situation asked for) is stale once a newer phrase comes: it is cut off, or dropped unsaid. The
game's events (moves, placements, removals, passes, the end) are always said, in order.

>>> [kind for kind in KINDS if kind in STALE]
['error', 'question', 'notice', 'situation']
"""

from __future__ import annotations

import functools
import io
import logging
import math
import shutil
import struct
import subprocess
import tempfile
import threading
import wave
from collections import deque
from pathlib import Path
from typing import Callable

from .errors import DvonnError
from .i18n import LANGUAGES, _

log = logging.getLogger(__name__)

KINDS = ("move", "placement", "remove", "pass", "takeback", "error", "question", "notice",
         "end", "clock", "hint", "situation")
"""The kinds of phrase, one sound cue each."""
STALE = frozenset({"error", "question", "notice", "situation"})
VOICES = {"en": "en-gb", "de": "de", "fr": "fr-fr", "it": "it", "nl": "nl", "es": "es",
          "pl": "pl"}
"""espeak-ng's voice for each of the rulebook's languages."""
MODES = ("off", "cues", *LANGUAGES)
DEFAULT_VOLUME = 0.5  # espeak-ng's own normal loudness
RATE = 22050  # cue samples per second
WORDS_PER_MINUTE = 150  # a little slower than espeak-ng's 175: spaces like "e3" stay clear


class VoiceError(DvonnError, RuntimeError):
    """The voice asked for cannot speak here (no speech engine, no sound player)."""


def check_volume(volume: float) -> float:
    if not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume {volume}: expected 0..1")
    return volume


# -- the speech engine ----------------------------------------------------------------------------
def espeak() -> str:
    """The speech engine's program, or VoiceError saying how to install it."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise VoiceError(_("no speech engine: install espeak-ng (sudo apt-get install "
                           "espeak-ng), or use --voice cues"))
    return exe


def espeak_command(lang: str, volume: float, out: str | None = None) -> list[str]:
    """espeak-ng reading the text from stdin in `lang`'s voice: to the sound device, to the
    WAV file `out`, or ('-') as a WAV on stdout. Amplitude: 0..200, volume 0.5 = 100."""
    cmd = [espeak(), "-v", VOICES[lang], "-a", str(round(200 * check_volume(volume))),
           "-s", str(WORDS_PER_MINUTE), "--stdin"]
    if out == "-":
        cmd.append("--stdout")
    elif out is not None:
        cmd += ["-w", out]
    return cmd


def render_speech(text: str, lang: str, volume: float = DEFAULT_VOLUME) -> bytes:
    """`text` spoken in `lang`, as the bytes of a WAV file."""
    done = subprocess.run(espeak_command(lang, volume, "-"), input=text.encode(),
                          capture_output=True, timeout=30, check=False)
    if done.returncode != 0 or not done.stdout:
        raise VoiceError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()}")
    return whole_wav(done.stdout)


def whole_wav(data: bytes) -> bytes:
    """A WAV streamed to stdout has 'as long as it takes' for its sizes: write the real ones
    (a browser takes its duration from them)."""
    if data[:4] != b"RIFF" or data[36:40] != b"data":
        return data
    return (data[:4] + struct.pack("<I", len(data) - 8) + data[8:40]
            + struct.pack("<I", len(data) - 44) + data[44:])


# -- cues ----------------------------------------------------------------------------------------
CUES: dict[str, tuple[tuple[float, float], ...]] = {
    # (Hz, seconds) notes; a rest is 0 Hz. Rising: done; falling: take off; low: wrong.
    "move": ((660, 0.12),),
    "placement": ((880, 0.08),),
    "remove": ((880, 0.1), (0, 0.04), (660, 0.1), (0, 0.04), (440, 0.14)),
    "pass": ((330, 0.12), (0, 0.06), (330, 0.12)),
    "takeback": ((660, 0.1), (440, 0.14)),
    "error": ((200, 0.35),),
    "question": ((440, 0.1), (660, 0.16)),
    "notice": ((520, 0.1), (0, 0.06), (520, 0.1)),
    "end": ((523, 0.15), (659, 0.15), (784, 0.3)),
    "clock": ((1200, 0.06), (0, 0.06), (1200, 0.06), (0, 0.06), (1200, 0.06)),
    "hint": ((990, 0.08), (0, 0.04), (1320, 0.08)),
    "situation": ((587, 0.1), (0, 0.04), (740, 0.1)),
}


@functools.lru_cache(maxsize=64)
def render_cue(kind: str, volume: float = DEFAULT_VOLUME) -> bytes:
    """The cue of `kind` (one of KINDS) as the bytes of a WAV file (16-bit mono)."""
    peak = 32767 * min(1.0, 1.6 * check_volume(volume))  # volume 0.5: most of full scale
    fade = int(0.01 * RATE)  # no clicks at the edges of a note
    samples = []
    for hz, seconds in CUES[kind]:
        n = int(seconds * RATE)
        for i in range(n):
            edge = min(1.0, i / fade, (n - 1 - i) / fade)
            samples.append(int(peak * edge * math.sin(2 * math.pi * hz * i / RATE)) if hz else 0)
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return out.getvalue()


def sound_player() -> list[str]:
    """A program that plays a WAV file given after it, or VoiceError."""
    for name, options in (("aplay", ["-q"]), ("paplay", []), ("pw-play", [])):
        exe = shutil.which(name)
        if exe:
            return [exe, *options]
    raise VoiceError(_("sound cues need a sound player: install alsa-utils (sudo apt-get "
                       "install alsa-utils) for aplay"))


# -- speakers ------------------------------------------------------------------------------------
class Speaker:
    """Says phrases in order on a worker thread; a subclass says one in `_speak`."""

    cuts_off = True  # a newer phrase drops stale ones (not when writing files: one per event)

    def __init__(self) -> None:
        self._queue: deque[tuple[str, str]] = deque()
        self._busy = threading.Condition()
        self._speaking: str | None = None  # the kind being said
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str, kind: str) -> None:
        """Queue `text`, a phrase of `kind` (one of KINDS); returns at once."""
        with self._busy:
            if self._closed:
                return
            if self.cuts_off:
                kept = [item for item in self._queue if item[1] not in STALE]
                self._queue.clear()
                self._queue.extend(kept)
                if self._speaking in STALE:
                    self._interrupt()
            self._queue.append((text, kind))
            self._busy.notify_all()

    def close(self) -> None:
        """Say what is queued, then stop the thread (idempotent)."""
        with self._busy:
            self._closed = True
            self._busy.notify_all()
        self._thread.join(timeout=60)

    def _run(self) -> None:
        while True:
            with self._busy:
                while not self._queue and not self._closed:
                    self._busy.wait()
                if not self._queue:
                    return
                text, kind = self._queue.popleft()
                self._speaking = kind
            try:
                self._speak(text, kind)
            except Exception:  # a sound problem must never stop the game
                log.exception("could not say %r", text)
            with self._busy:
                self._speaking = None

    def _speak(self, text: str, kind: str) -> None:
        raise NotImplementedError

    def _interrupt(self) -> None:
        """Stop the phrase being said (called with the queue's lock held)."""


class ProcessSpeaker(Speaker):
    """Runs one program per phrase (espeak-ng to the sound device, or a WAV player)."""

    def __init__(self, command: Callable[[str, str], tuple[list[str], bytes]]):
        self.command = command
        self._process: subprocess.Popen | None = None
        super().__init__()

    def _speak(self, text: str, kind: str) -> None:
        cmd, stdin = self.command(text, kind)
        with self._busy:
            self._process = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        process = self._process
        _, err = process.communicate(stdin)
        if process.returncode not in (0, -15) and err:
            log.warning("%s: %s", cmd[0], err.decode(errors="replace").strip())
        with self._busy:
            self._process = None

    def _interrupt(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()


class FileSpeaker(Speaker):
    """Writes each phrase to DIR/NNNN-KIND.wav (numbered from 1 in order) and its words to
    DIR/NNNN-KIND.txt: for tests, and to hear what the board would say."""

    cuts_off = False

    def __init__(self, directory: str | Path, render: Callable[[str, str], bytes]):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.render = render
        self.count = 0
        super().__init__()

    def _speak(self, text: str, kind: str) -> None:
        self.count += 1
        stem = self.directory / f"{self.count:04d}-{kind}"
        stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
        stem.with_suffix(".wav").write_bytes(self.render(text, kind))


def open_speaker(mode: str, volume: float = DEFAULT_VOLUME,
                 directory: str | Path | None = None) -> Speaker | None:
    """The speaker for `--voice MODE` (off: None; cues; a language of LANGUAGES), to the sound
    device or, with `directory`, to WAV files. VoiceError when it cannot speak here."""
    if mode not in MODES:
        raise VoiceError(f"--voice {mode!r}: choose off, cues or a language "
                         f"({', '.join(LANGUAGES)})")
    check_volume(volume)
    if mode == "off":
        return None
    if mode == "cues":
        if directory is not None:
            return FileSpeaker(directory, lambda text, kind: render_cue(kind, volume))
        player = sound_player()
        cues = Path(tempfile.mkdtemp(prefix="dvonn-cues-"))
        for kind in KINDS:  # rendered once; played by name
            (cues / f"{kind}.wav").write_bytes(render_cue(kind, volume))
        speech = shutil.which("espeak-ng")

        def command(text: str, kind: str) -> tuple[list[str], bytes]:
            if kind == "situation" and speech:  # asked for in words: a tone would not do
                from .i18n import language
                return espeak_command(language(), volume), text.encode()
            return [*player, str(cues / f"{kind}.wav")], b""
        return ProcessSpeaker(command)
    espeak()  # installed? (say so now, not at the first move)
    if directory is not None:
        return FileSpeaker(directory, lambda text, kind: render_speech(text, mode, volume))
    return ProcessSpeaker(lambda text, kind: (espeak_command(mode, volume), text.encode()))
