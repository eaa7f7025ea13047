"""Shared by every test: the board speaks English (the tests read its English words) whatever
the language of the machine running them; tests of other languages choose theirs with --lang
or i18n.use() (and set English back). Each test has a data folder of its own (the games
database, the calibration `play` keeps), never the user's."""

import os

import pytest

os.environ["LANGUAGE"] = "en"  # before LC_ALL and LANG (gettext's order): also for subprocesses


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
