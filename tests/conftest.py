"""Shared by every test: the board speaks English (the tests read its English words) whatever
the language of the machine running them; tests of other languages choose theirs with --lang
or i18n.use() (and set English back)."""

import os

os.environ["LANGUAGE"] = "en"  # before LC_ALL and LANG (gettext's order): also for subprocesses
