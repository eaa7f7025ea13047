"""The joining board's WebSocket (`remote.channel.Channel`) on its own: a question asked while
no host answers is refused at once (and a late answer settles nothing), a link without a token
is refused, and a closed channel leaves no thread behind. (Answers from a real host:
tests/test_remote_ending.py; whole games over it: tests/test_remote_boards.py.)"""

from __future__ import annotations

import pytest

from firmware_py.remote.channel import Channel, JoinError, channel_url
from firmware_py.remote.game import Refused

NOBODY = channel_url("http://127.0.0.1:1/play?token=abc")  # no host listens on port 1


@pytest.fixture
def channel():
    seen = []
    channel = Channel(NOBODY, seen.append, talk=None)
    channel.seen = seen
    yield channel
    channel.close()


def test_a_question_asked_while_not_connected_is_refused(channel):
    channel.start()
    answer = channel.ask("offer", {"what": "draw", "n": 0})
    with pytest.raises(Refused, match="not connected to the host"):
        answer.result(5)
    assert channel.fatal is None and not channel.answered.is_set()  # still trying, not refused
    assert channel.seen == [] and channel.connections == 0
    # refused, it is no longer awaited: a late answer with its id settles nothing
    assert not channel.answer({"type": "ok", "id": 1, "message": "too late"})


def test_a_link_without_a_token_is_refused_before_any_connection():
    with pytest.raises(JoinError, match="no token"):
        channel_url("http://127.0.0.1:8090/play")


def test_close_ends_the_network_thread(channel):
    channel.start()
    channel.close()
    assert channel.loop.is_closed()  # (the thread closes it as it ends; close() joins it)
