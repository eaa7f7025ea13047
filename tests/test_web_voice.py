"""The page's Say button in real headless Chromium: the server speaks the situation with
espeak-ng (`/say.wav`) and the page loads and plays that audio."""

from __future__ import annotations

from firmware_py.rules import Board
from firmware_py.spaces import INDEX
from firmware_py.state import BoardState
from firmware_py.web.server import WebThread
from firmware_py.web.source import StateSource

from .test_web_browser import browser, expect, needs_chromium, new_page  # noqa: F401
from .voice_files import SILENT_RMS, need_espeak

pytestmark = needs_chromium


def lifted_state() -> BoardState:
    stacks = [()] * 49
    stacks[INDEX["e3"]] = ("B", "W")
    stacks[INDEX["c3"]] = ("W",)
    stacks[INDEX["d3"]] = ("D",)
    state = BoardState(board=Board.from_stacks(stacks))
    state.show_lifted(INDEX["e3"])
    return state


def test_the_say_button_plays_the_situation_in_the_browser(new_page):  # noqa: F811
    need_espeak()
    with WebThread(StateSource(lifted_state()), port=0) as web:
        page = new_page(web.url)
        expect(page.locator("#mode")).to_have_text("lifted")
        with page.expect_response("**/say.wav") as reply:
            page.locator("#btn-say").click()
        response = reply.value
        assert response.status == 200
        assert response.headers["content-type"] == "audio/wav"
        # The page has the sound loaded in its audio element (played, where there is a device).
        page.wait_for_function(
            "() => { const a = document.getElementById('say-audio');"
            " return a.src.startsWith('blob:') && a.readyState >= 1 && a.duration > 1; }")
        # The browser decodes it to speech: long enough, and not silent.
        seconds, rms = page.evaluate("""async () => {
            const a = document.getElementById('say-audio');
            const data = await (await fetch(a.src)).arrayBuffer();
            const sound = await new OfflineAudioContext(1, 1, 22050).decodeAudioData(data);
            const x = sound.getChannelData(0);
            let sum = 0;
            for (const v of x) sum += v * v;
            return [sound.duration, Math.sqrt(sum / x.length)];
        }""")
        assert seconds > 1.0 and rms * 32767 > SILENT_RMS

def test_a_read_only_page_may_listen_too(new_page):  # noqa: F811
    need_espeak()
    with WebThread(StateSource(lifted_state()), port=0, token="secret") as web:
        page = new_page(web.url.split("?")[0])  # without the token: read-only
        expect(page.locator("#access")).to_have_text("read-only")
        expect(page.locator("#btn-say")).to_be_enabled()
        expect(page.locator("#btn-confirm")).to_be_disabled()
        with page.expect_response("**/say.wav") as reply:
            page.locator("#btn-say").click()
        assert reply.value.status == 200
