"""The speakers (firmware_py.voice): real espeak-ng rendering to WAV files, the sound cues, the
queue that never makes the game wait, and the profile's volume."""

from __future__ import annotations

import io
import threading

import pytest

from firmware_py import voice
from firmware_py.errors import ProfileError
from firmware_py.i18n import LANGUAGES
from firmware_py.voice import KINDS, STALE, Speaker, open_speaker, render_cue, render_speech

from .voice_files import SILENT_RMS, need_espeak, phrases, wav_stats


def test_doctests():
    import doctest
    assert doctest.testmod(voice).failed == 0


def test_every_kind_of_event_has_its_own_audible_cue(tmp_path):
    cues = {kind: render_cue(kind) for kind in KINDS}
    assert len(set(cues.values())) == len(KINDS)  # one sound per kind
    for kind, data in cues.items():
        path = tmp_path / f"{kind}.wav"
        path.write_bytes(data)
        seconds, rms = wav_stats(path)
        assert 0.05 < seconds < 1.0 and rms > SILENT_RMS, kind
    quiet, loud = tmp_path / "quiet.wav", tmp_path / "loud.wav"
    quiet.write_bytes(render_cue("move", 0.1))
    loud.write_bytes(render_cue("move", 0.5))
    assert wav_stats(quiet)[1] < wav_stats(loud)[1] / 3  # the volume scales the cue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_engine_speaks_each_of_the_seven_languages(tmp_path, lang):
    need_espeak()
    path = tmp_path / "said.wav"
    path.write_bytes(render_speech("e3, f3, 5", lang))
    seconds, rms = wav_stats(path)
    assert seconds > 0.5 and rms > SILENT_RMS


def test_the_volume_sets_the_engine_s_loudness(tmp_path):
    need_espeak()
    stats = []
    for volume in (0.1, 0.5):
        path = tmp_path / f"{volume}.wav"
        path.write_bytes(render_speech("white to move", "en", volume))
        stats.append(wav_stats(path)[1])
    assert stats[0] < stats[1] / 2


def test_a_file_speaker_writes_one_sound_file_per_phrase_in_order(tmp_path):
    need_espeak()
    speaker = open_speaker("de", directory=tmp_path)
    for text, kind in [("Weiß setzt auf e3", "placement"), ("e3 nach f3", "move"),
                       ("falsches Feld", "error"), ("welches Feld?", "question")]:
        speaker.say(text, kind)
    speaker.close()  # says what is queued first
    assert phrases(tmp_path) == [("placement", "Weiß setzt auf e3"), ("move", "e3 nach f3"),
                                 ("error", "falsches Feld"), ("question", "welches Feld?")]


def test_cues_to_files_for_tests(tmp_path):
    speaker = open_speaker("cues", directory=tmp_path)
    speaker.say("White places a piece on e3", "placement")
    speaker.say("game over", "end")
    speaker.close()
    assert [kind for kind, _ in phrases(tmp_path)] == ["placement", "end"]


class HeldSpeaker(Speaker):
    """Says a phrase by writing it down, but only once the test lets it (no timing)."""

    def __init__(self):
        self.said, self.started = [], threading.Event()
        self.go = threading.Event()
        super().__init__()

    def _speak(self, text, kind):
        self.started.set()
        self.go.wait()
        self.said.append(text)


def test_say_returns_at_once_and_a_newer_phrase_drops_stale_ones_but_never_a_move():
    speaker = HeldSpeaker()
    speaker.say("White, e3 to f3", "move")
    assert speaker.started.wait(10)  # being said, held: say() below must not wait for it
    speaker.say("d4: not a legal destination", "error")
    speaker.say("Black places a piece on a1", "placement")
    speaker.say("which did you land on?", "question")
    speaker.say("Black, c3 to d3", "move")
    speaker.go.set()
    speaker.close()
    assert "error" in STALE and "move" not in STALE
    assert speaker.said == ["White, e3 to f3", "Black places a piece on a1", "Black, c3 to d3"]


def test_unknown_modes_and_volumes_are_refused_with_their_range(tmp_path):
    with pytest.raises(voice.VoiceError, match="choose off, cues or a language"):
        open_speaker("klingon")
    with pytest.raises(ValueError, match="0..1"):
        open_speaker("cues", volume=2.0, directory=tmp_path)
    assert open_speaker("off") is None


def test_without_the_engine_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(voice.shutil, "which", lambda name: None)
    with pytest.raises(voice.VoiceError, match="apt-get install espeak-ng"):
        open_speaker("en")
    with pytest.raises(voice.VoiceError, match="alsa-utils"):
        open_speaker("cues")


def profile_text(extra: str) -> str:
    """The default profile with its [voice] table replaced by `extra`."""
    import re
    from importlib import resources
    text = resources.files("dvonn_hw.profiles").joinpath("default.toml").read_text()
    text, n = re.subn(r"\n\[voice\][^\n]*\nvolume[^\n]*\n", "\n", text)
    assert n == 1
    return text + extra


def test_the_profile_s_volume_and_its_range():
    from dvonn_hw.profile import load_profile, parse_profile
    assert load_profile("default").voice.volume == 0.5
    assert parse_profile(profile_text("\n[voice]\nvolume = 0.8\n")).voice.volume == 0.8
    with pytest.raises(ProfileError, match=r"voice\.volume: expected a loudness 0\.\.1, got 1\.5"):
        parse_profile(profile_text("\n[voice]\nvolume = 1.5\n"))
    with pytest.raises(ProfileError, match=r"voice\.loudness"):
        parse_profile(profile_text("\n[voice]\nloudness = 1\n"))


def test_a_profile_may_give_the_say_button_a_pin():
    from dvonn_hw.profile import parse_profile
    text = profile_text("").replace("# say = 23", "say = 23")
    assert parse_profile(text).buttons.pins["say"] == 23


def test_render_cue_is_a_wav_file():
    import wave
    with wave.open(io.BytesIO(render_cue("clock")), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, voice.RATE)


def test_the_page_s_say_without_the_engine_is_a_503_saying_how_to_install_it(monkeypatch):
    import urllib.error
    import urllib.request

    from firmware_py.rules import Board
    from firmware_py.state import BoardState
    from firmware_py.web.server import WebThread
    from firmware_py.web.source import StateSource
    monkeypatch.setattr(voice.shutil, "which", lambda name: None)
    with WebThread(StateSource(BoardState(board=Board(), mode="idle")), port=0) as web:
        url = web.url.split("?")[0].rstrip("/") + "/say.wav"
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url)
        assert e.value.code == 503
        assert "apt-get install espeak-ng" in e.value.read().decode()
