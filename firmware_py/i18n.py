"""The language of every message a player sees or hears: the terminal, the web page, the voice.

Messages are written in English in the code and marked with `_()` (or `ngettext()` where a number
decides the form); `use(lang)` picks the catalogue once at start-up (`--lang`, else the system
locale). A message without a translation falls back to English.

    from firmware_py.i18n import _
    st.message = _("remove the stacks on {spaces}").format(spaces=names)

Keep the placeholders named (`{spaces}`, not `{}`): a translation may put them in another order.
Text fixed at import time (a table of names) is marked with `N_()` and translated where it is shown
with `_()`. The catalogues are under locale/<lang>/LC_MESSAGES/dvonn_board.(po|mo); the developer
command `python -m firmware_py.tools.catalogues` extracts, updates and compiles them (Babel is
needed only there: the runtime reads the .mo files with the standard library).
"""

from __future__ import annotations

import os
from pathlib import Path

DOMAIN = "dvonn_board"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "de", "fr", "it", "nl", "es", "pl")
"""The rulebook's seven languages."""

_current = None  # a gettext.GNUTranslations once a language other than English is used
_lang = "en"


def system_language() -> str:
    """The system locale's language if it is one of LANGUAGES, else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # gettext's order
        value = os.environ.get(var, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else "en"
    import locale
    code = (locale.getlocale()[0] or "en")[:2].lower()
    return code if code in LANGUAGES else "en"


def use(lang: str | None) -> str:
    """Speak `lang` (one of LANGUAGES; None: the system's) from now on; returns the code used."""
    global _current, _lang
    code = system_language() if lang in (None, "", "auto") else lang
    if code not in LANGUAGES:
        raise ValueError(f"language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _lang = code
    if code == "en":  # the code's own words
        _current = None
    else:
        import gettext
        _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    return code


def language_argument(text: str) -> str:
    """`--lang` for argparse: a code from LANGUAGES, or a sentence naming the allowed values."""
    import argparse

    code = text.strip().lower()
    if code not in LANGUAGES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a language of the board: choose one of {', '.join(LANGUAGES)}")
    return code


def language() -> str:
    """The language in use (a code from LANGUAGES)."""
    return _lang


def _(message: str) -> str:
    """`message` in the language in use."""
    return message if _current is None else _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the language in use."""
    if _current is None:
        return singular if n == 1 else plural
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for translation without translating it yet (text fixed at import time:
    translate it with `_()` where it is shown)."""
    return message


def catalogue() -> dict[str, str]:
    """Every translated message of the language in use, msgid -> text (for the web pages,
    which translate their own text with it; empty for English)."""
    table = getattr(_current, "_catalog", {})
    return {k: v for k, v in table.items() if isinstance(k, str) and k and v}


def page_text(text: str) -> str:
    """Text marked `{{...}}` in a page's HTML as its msgid: whitespace folded to single spaces."""
    return " ".join(text.split())


def render_page(template: str) -> str:
    """A page's HTML in the language in use: every `{{text}}` translated (its markup, if any, is
    part of the message), `{{=lang}}` the language's code and `{{=catalogue}}` a script element
    holding `catalogue()` as JSON, from which the page's script translates its own text."""
    import json
    import re

    def fill(m) -> str:
        key = m.group(1)
        if key == "=lang":
            return _lang
        if key == "=catalogue":
            data = json.dumps(catalogue(), ensure_ascii=False).replace("</", "<\\/")
            return f'<script id="catalogue" type="application/json">{data}</script>'
        return _(page_text(key))

    return re.sub(r"\{\{(.+?)\}\}", fill, template, flags=re.S)
