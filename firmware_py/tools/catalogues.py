"""The translation catalogues: extract every marked message, update the languages, compile.

    python -m firmware_py.tools.catalogues          # after adding or changing a message
    python -m firmware_py.tools.catalogues --check  # exit 1 if the template is out of date

Reads babel.cfg (what is extracted from where), writes firmware_py/locale/dvonn_board.pot, merges
it into each language's locale/<lang>/LC_MESSAGES/dvonn_board.po (new messages come out empty,
for a translator; messages no longer in the code are dropped) and compiles the .mo files the
board reads with the standard library. Needs Babel (`pip install -e '.[i18n]'`); the board does
not. It prints how many messages each language still lacks.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

from ..i18n import DOMAIN, LANGUAGES, LOCALE_DIR, page_text

ROOT = LOCALE_DIR.parent.parent  # the checkout: babel.cfg and firmware_py/
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
PAGE_MARK = re.compile(r"\{\{(?!=)(.+?)\}\}", re.S)


def extract_page(fileobj, keywords, comment_tags, options):
    """Babel extractor for the pages' HTML: every `{{text}}` (whitespace folded, as the server
    looks it up: `i18n.render_page`)."""
    text = fileobj.read().decode("utf-8")
    for m in PAGE_MARK.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, None, page_text(m.group(1)), []


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def template():
    """A Babel catalogue of every message marked in the code now."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="dvonn-board", msgid_bugs_address="", fuzzy=False,
                      creation_date=None)
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def msgids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def read(path: Path, lang: str | None = None):
    from babel.messages.pofile import read_po
    with open(path, "rb") as f:
        return read_po(f, locale=lang)


def write(path: Path, catalog) -> None:
    from babel.messages.pofile import write_po
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, ignore_obsolete=True,
             omit_header=False, sort_output=True)
    # Without the dates that change on every run, an unchanged catalogue is an unchanged file.
    text = re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*\\n"\n', b"", out.getvalue())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)


def compile_mo(catalog, path: Path) -> None:
    """Write `catalog`'s .mo file (fuzzy translations left out), the same bytes for the same
    translations: its header's dates are fixed rather than the time of the run."""
    from datetime import datetime, timezone

    from babel.messages.mofile import write_mo
    catalog.creation_date = catalog.revision_date = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with open(path, "wb") as f:
        write_mo(f, catalog)


def untranslated(catalog) -> list[str]:
    """The messages of `catalog` that lack a usable translation (empty or fuzzy)."""
    out = []
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, (tuple, list)) else [m.string]
        if m.fuzzy or not all(strings):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def update() -> dict[str, int]:
    """Extract, merge and compile; returns the number of untranslated messages per language."""
    from babel.messages.catalog import Catalog

    pot = template()
    write(TEMPLATE, pot)
    missing = {}
    for lang in LANGUAGES[1:]:  # English is the code's own
        path = po_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang, project="dvonn-board")
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.fuzzy = False
        write(path, catalog)
        compile_mo(catalog, path.with_suffix(".mo"))
        missing[lang] = len(untranslated(catalog))
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py.tools.catalogues",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare the code's messages with the template")
    args = parser.parse_args(argv)
    if args.check:
        new, old = msgids(template()), msgids(read(TEMPLATE))
        for m in sorted(new - old, key=str):
            print(f"not in the template: {m!r}")
        for m in sorted(old - new, key=str):
            print(f"no longer in the code: {m!r}")
        return 1 if new != old else 0
    missing = update()
    print(f"{len(msgids(template()))} messages; untranslated: "
          + ", ".join(f"{lang} {n}" for lang, n in missing.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
