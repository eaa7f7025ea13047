"""The seven languages: the catalogues are complete and current, and the board speaks them.

The catalogue checks read the committed files with Babel (a test and developer dependency; the
board reads the compiled .mo files with the standard library's gettext).
"""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py import i18n
from firmware_py.cli import main
from firmware_py.controller import Controller
from firmware_py.i18n import _
from firmware_py.state import BoardState
from firmware_py.spaces import INDEX, SPACES
from tests.simgames import placed_board, run

pytest.importorskip("babel")
from firmware_py.tools import catalogues  # noqa: E402  (needs Babel)

RECORD = Path(__file__).parent / "data" / "games" / "littlegolem_dvonn_mc_2014_may_1_1.txt"
OTHERS = i18n.LANGUAGES[1:]  # English is the code's own words
PLACEHOLDER = re.compile(r"\{(\w*)\}")
TAG = re.compile(r"</?\w+>")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def texts(message) -> tuple[list[str], list[str]]:
    """(the msgid's forms, the translation's forms) of a catalogue entry."""
    ids = list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]
    strings = (list(message.string) if isinstance(message.string, (tuple, list))
               else [message.string])
    return ids, strings


def test_the_template_holds_exactly_the_messages_marked_in_the_code():
    """A new or changed _() message fails here until `python -m firmware_py.tools.catalogues`."""
    in_code = catalogues.msgids(catalogues.template())
    committed = catalogues.msgids(catalogues.read(catalogues.TEMPLATE))
    assert sorted(in_code - committed, key=str) == [], "run python -m firmware_py.tools.catalogues"
    assert sorted(committed - in_code, key=str) == [], "run python -m firmware_py.tools.catalogues"
    assert len(in_code) > 250


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_has_a_translation_with_the_same_placeholders(lang):
    template = catalogues.msgids(catalogues.read(catalogues.TEMPLATE))
    catalog = catalogues.read(catalogues.po_path(lang), lang)
    assert catalogues.msgids(catalog) == template
    assert catalogues.untranslated(catalog) == []  # none empty, none fuzzy
    for message in catalog:
        if not message.id:
            continue
        ids, strings = texts(message)
        for text in strings:
            # The same {names} (in any order), the same markup, and no double quote where the
            # English has none (page text may stand in an HTML attribute).
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(ids[0])), \
                (lang, ids[0], text)
            assert TAG.findall(text) == TAG.findall(ids[0]), (lang, ids[0], text)
            assert '"' not in text or '"' in ids[0], (lang, ids[0], text)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_compiled_catalogue_is_the_translated_one(lang):
    po = catalogues.po_path(lang)
    with open(po.with_suffix(".mo"), "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for message in catalogues.read(po, lang):
        if not message.id:
            continue
        ids, strings = texts(message)
        if len(ids) == 1:
            assert compiled.gettext(ids[0]) == strings[0], (lang, ids[0])
        else:  # every plural form is reached by some count, and only those
            forms = {compiled.ngettext(ids[0], ids[1], n) for n in range(200)}
            assert forms == set(strings), (lang, ids[0])


def test_a_language_is_picked_by_its_code_or_the_system_locale(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    assert i18n.system_language() == "nl"
    assert i18n.use(None) == "nl" and _("the computer") == "de computer"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert i18n.system_language() == "en"  # not a language of the rulebook: English
    assert i18n.use("es") == "es" and _("the computer") == "el ordenador"
    assert i18n.use("en") == "en" and _("the computer") == "the computer"
    with pytest.raises(ValueError, match="choose one of en, de, fr, it, nl, es, pl"):
        i18n.use("xx")


def test_the_board_state_speaks_german_and_polish():
    board = placed_board(3)
    state = BoardState(board=board)
    i18n.use("de")
    state.show_settled({INDEX["c3"]: ("W",), INDEX["d3"]: ("B",)})
    assert state.message == "entferne die Stapel auf c3, d3"
    state.show_lifted(board.legal_plies()[0].src)
    assert "angehoben: setze ihn auf " in state.message
    i18n.use("pl")
    state.show_settled({INDEX["c3"]: ("W",)})
    assert state.message == "zdejmij stosy z c3"


def test_the_controller_speaks_polish_on_a_simulated_board():
    """A real lift on the simulated board, read through the whole pipeline."""
    from dvonn_sim.board import SimBoard
    from dvonn_sim.params import Params

    i18n.use("pl")
    board = placed_board(7)
    sim = SimBoard(Params.from_noise("default", hover_chance=0.0), seed=7)
    sim.setup(board)
    c = Controller(board=board.copy())
    run(sim, c, 0.5)
    assert c.state.mode == "idle"
    ply = board.legal_plies()[0]
    sim.hand.lift(ply.src)
    run(sim, c, 1.5)
    assert c.state.mode == "lifted"
    assert c.state.message.startswith(f"podniesiono {SPACES[ply.src]}: postaw go na ")
    i18n.use("de")
    c.link_lost()
    assert c.state.message == "Verbindung zum Scanner verloren: Spiel angehalten"


def test_show_and_replay_speak_the_language_asked_for():
    out = subprocess.run([sys.executable, "-m", "firmware_py", "show", str(RECORD), "--ply", "30",
                          "--lang", "de"], capture_output=True, text=True, check=True).stdout
    assert "Weiß setzt einen weißen Stein · Zug 30 · Weiß 13, Schwarz 14" in out.replace("\n", " ")
    assert "letzter Zug: g3" in out
    out = subprocess.run([sys.executable, "-m", "firmware_py", "replay", str(RECORD),
                          "--lang", "pl"], capture_output=True, text=True, check=True).stdout
    assert "75 ruchów, białe poddały się (Białe 5, Czarne 29)" in out


@pytest.mark.parametrize("command", [["play"], ["sim"], ["review", str(RECORD)],
                                     ["show", str(RECORD)], ["replay", str(RECORD)]])
def test_an_unknown_language_is_refused_naming_the_seven(command, capsys):
    with pytest.raises(SystemExit) as e:
        main([*command, "--lang", "xx"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--lang: 'xx' is not a language of the board: choose one of en, de, fr, it, nl, es, pl" \
        in err
    assert "Traceback" not in err


def test_the_wheel_needs_no_babel_to_speak():
    """The runtime reads the .mo files with the standard library alone."""
    code = ("import sys; sys.modules['babel'] = None\n"
            "from firmware_py import i18n; i18n.use('fr')\n"
            "from firmware_py.state import BoardState; from firmware_py.rules import Board\n"
            "s = BoardState(board=Board()); s.show_settled({23: ('W',)}); print(s.message)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "retirez les piles sur e3"  # space 23
