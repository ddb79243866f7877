"""Translation: ``_`` marks a sentence for translation and returns it in the chosen language.

Write every sentence a person reads as ``_("{player} plays {card}.").format(player=..., card=...)``
(named fields, never an f-string, so the whole sentence is one message a translator sees), or
through ``Look.say`` in render, which also writes the facts (cards, names, numbers) as the
terminal and the language want them. Plurals: ``ngettext``. Strings defined at import time (help
texts, rule meanings) are marked with ``N_`` and translated where they are shown.

The language is chosen once per command, before anything is written (``setup``): ``--lang``, then
``PASUR_LANG``, then ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English for anything
else. English costs nothing: no catalog is opened and ``_`` returns its argument. Another
language loads one compiled catalog (pasur_cli/text/locale/CODE/LC_MESSAGES/pasur.mo, from the .po
beside it; see i18n_tools) and lends it to click, whose own strings ("Usage:", "Error: ...") go
through the same catalog.

Digits typed with a Persian keyboard are read as ASCII digits (``engine.reading``: reading input
is the engine's), and in a right-to-left language each fact is a Unicode isolate (``isolate``);
see docs/languages.md.

>>> choose({"LANG": "de_DE.UTF-8"}), choose({"LANGUAGE": "fr:es", "LANG": "de_DE"}), choose({"LC_ALL": "C"})
('de', 'es', 'en')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from pasur_cli.engine.reading import PERSIAN_LETTERS

LANGUAGES = ("en", "fa", "de", "es")  # English is the source language: it has no catalog
RIGHT_TO_LEFT = frozenset({"fa"})
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")
DOMAIN = "pasur"

_language = "en"
_catalog: Any = None  # a gettext.GNUTranslations while a language other than English is chosen
_lent = False  # whether click's strings go through _catalog


def _(message: str) -> str:
    """``message`` in the chosen language (``message`` itself when it has no translation)."""
    if _catalog is None:
        return message
    return str(_catalog.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the chosen language."""
    if _catalog is None:
        return singular if n == 1 else plural
    return str(_catalog.ngettext(singular, plural, n))


def catalog_words(message: str) -> list[str]:
    """The words the chosen language's catalog gives for ``message`` (a msgid such as "session
    command word: show", translated as the word or words a player of that language types,
    separated by commas, Latin or Arabic); none in English or while the catalog lacks it."""
    text = _(message)
    if text == message:
        return []
    return [word for word in (w.strip() for w in text.replace("\u060c", ",").split(",")) if word]


# yes and no as a person answers in each language: the words, and their first letters; English
# y, yes, n and no are understood in every language (the question shows the letters, "[y/N]")
ANSWERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (("yes",), ("no",)),
    "de": (("ja",), ("nein",)),
    "es": (("sí", "si"), ("no",)),
    "fa": (("بله", "آره", "اره", "بلی"), ("نه", "خیر")),
}

def answer(text: str, language: str) -> bool | None:
    """What ``text`` answers to a yes/no question asked in ``language``: True, False (also for an
    empty answer, the default), None when it is neither."""
    import unicodedata
    typed = unicodedata.normalize("NFC", text).strip().casefold().translate(PERSIAN_LETTERS).replace("\u200c", "")
    if not typed:
        return False
    own = ANSWERS.get(language, ANSWERS["en"])
    # every word, and the first letter of the first one (the letter the question shows), never
    # the first letter of another: a lone Persian alef must not delete a match
    yes, no = ({*ANSWERS["en"][i], *own[i], ANSWERS["en"][i][0][0], own[i][0][0]} for i in (0, 1))
    if typed in yes - no:
        return True
    if typed in no - yes:
        return False
    return None


def language() -> str:
    """The chosen language's code: en, fa, de or es."""
    return _language


def is_rtl() -> bool:
    """Whether the chosen language is written right to left."""
    return _language in RIGHT_TO_LEFT


def code_of(value: str | None) -> str | None:
    """The language a locale name or code stands for (``fa_IR.UTF-8`` -> ``fa``); ``en`` for the C
    locale; None when pasur does not speak it."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    if code in ("c", "posix"):
        return "en"
    return code if code in LANGUAGES else None


def choose(environ: Mapping[str, str], option: str | None = None) -> str:
    """The language from --lang (``option``), else the environment; English for anything unknown.

    The first of PASUR_LANG, LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set decides, as in
    gettext; LANGUAGE is a list (``fa:en``) whose first known entry counts, and it is ignored
    under the C locale, as GNU gettext does.
    """
    if option:
        return code_of(option) or "en"
    if environ.get("PASUR_LANG"):
        return code_of(environ["PASUR_LANG"]) or "en"
    locale = environ.get("LC_ALL") or environ.get("LC_MESSAGES") or environ.get("LANG") or ""
    if environ.get("LANGUAGE") and code_of(locale) != "en":
        for item in environ["LANGUAGE"].split(":"):
            if code_of(item):
                return code_of(item) or "en"
        return "en"
    return code_of(locale) or "en"


def option_in(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in a command line (before ``--``), if any."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg[len("--lang="):]
    return found


def setup(args: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """Choose the language for one command line; called before click parses it, so --help, usage
    errors and every message are already in that language."""
    return set_language(choose(os.environ if environ is None else environ, option_in(args)))


def set_language(code: str) -> str:
    """Use ``code`` (en, fa, de, es; anything else is English) from now on; returns the code used."""
    global _language, _catalog
    code = code_of(code) or "en"
    catalog = None
    if code != "en":
        catalog = _load(code)
        if catalog is None:  # a catalog missing from a broken install: English rather than a crash
            code = "en"
    _language, _catalog = code, catalog
    _lend_to_click(catalog is not None)
    return code


def english() -> Any:
    """A context in which ``_`` speaks English, for text that must not depend on the language
    (a reason written into JSON): ``with english(): ...``."""
    from contextlib import contextmanager

    @contextmanager
    def scope() -> Any:
        global _language, _catalog
        saved = _language, _catalog
        _language, _catalog = "en", None
        try:
            yield
        finally:
            _language, _catalog = saved
    return scope()


@cache  # each language's catalog, read once a process
def _load(code: str) -> Any:
    """The compiled catalog of language ``code``, or None when it has none."""
    import gettext  # already imported by click; no file is searched, the one path is known
    try:
        with open(os.path.join(LOCALE_DIR, code, "LC_MESSAGES", f"{DOMAIN}.mo"), "rb") as fp:
            return gettext.GNUTranslations(fp)
    except OSError:
        return None


# click marks its own strings with gettext.gettext, bound as ``_`` (and ngettext) in each of its
# modules at import; it has no other hook (pallets/click#2706). Rebinding those two names sends
# click's messages through our catalog, which holds them (i18n_tools.CLICK_MESSAGES); English puts
# gettext's own functions back.
def _lend_to_click(on: bool) -> None:
    global _lent
    if on == _lent:
        return
    _lent = on
    import gettext
    gettext_, ngettext_ = (_, ngettext) if on else (gettext.gettext, gettext.ngettext)
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "click" or name.startswith("click.")):
            continue
        if getattr(module, "_", None) in (_, gettext.gettext):
            module._ = gettext_  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) in (ngettext, gettext.ngettext):
            module.ngettext = ngettext_  # type: ignore[attr-defined]


# -- input and output around the sentences ---------------------------------------------------
FSI, PDI, LRM = "\u2068", "\u2069", "\u200e"


def isolate(text: str) -> str:
    """``text`` as a Unicode isolate (FSI ... PDI) in a right-to-left language, or in any language
    when it holds right-to-left letters (a Persian name in a Spanish sentence); else unchanged.

    A card, a name or a number then keeps its own direction and its place in the sentence in a
    terminal that applies the bidi algorithm (without it, "Surs: مهرانگیز 3, بهرام 1." shows as
    "Surs: 1 بهرام ,3 مهرانگیز"); FSI rather than LRI so that a name written in Persian stays
    right to left. Terminals without bidi draw the marks as nothing (zero width).
    """
    return f"{FSI}{text}{PDI}" if _language in RIGHT_TO_LEFT or has_rtl(text) else text


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter (Hebrew, Arabic and Persian, Syriac, Thaana...)."""
    return not text.isascii() and any("\u0590" <= ch <= "\u08ff" or "\ufb1d" <= ch <= "\ufdff"
                                      or "\ufe70" <= ch <= "\ufefc" for ch in text)
