"""The language of every message a player sees or hears: the terminal, the web page, the voice.

Messages are written in English in the code and marked with `_()` (or `ngettext()` where a number
decides the form); `use(lang)` picks the catalogue once at start-up (`--lang`, else the system
locale). A message without a translation falls back to English.

    from firmware_py.i18n import _
    st.message = _("remove the stacks on {spaces}").format(spaces=names)

Keep the placeholders named (`{spaces}`, not `{}`): a translation may put them in another order.
"""

from __future__ import annotations

import gettext
import locale
import os
from pathlib import Path

DOMAIN = "dvonn_board"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "de", "fr", "it", "nl", "es", "pl")
"""The rulebook's seven languages."""

_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def system_language() -> str:
    """The system locale's language if it is one of LANGUAGES, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else "en"
    code = (locale.getlocale()[0] or "en")[:2].lower()
    return code if code in LANGUAGES else "en"


def use(lang: str | None) -> str:
    """Speak `lang` (one of LANGUAGES; None: the system's) from now on; returns the code used."""
    global _current, _lang
    code = system_language() if lang in (None, "", "auto") else lang
    if code not in LANGUAGES:
        raise ValueError(f"language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _lang = code
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    return code


def language() -> str:
    """The language in use (a code from LANGUAGES)."""
    return _lang


def _(message: str) -> str:
    """`message` in the language in use."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the language in use."""
    return _current.ngettext(singular, plural, n)
