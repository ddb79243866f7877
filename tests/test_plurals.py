"""Counts in sentences take the language's plural form ("Mina holds 1 card", never "1 cards"):
every sentence that puts a number beside a counted noun has both English forms, each catalog
chooses among its own forms by its language's rule, and each form has the noun in the number it
is used for."""

from __future__ import annotations

import functools
import gettext
import re

import pytest
from babel import Locale
from test_i18n import catalog, forms, plain

from pasur_cli.engine.errors import IllegalPlayError, Plural
from pasur_cli.text import i18n, i18n_tools
from pasur_cli.text.render import Look, message

# a field that holds a whole number, as the code names them ({lost} is a decimal: "1.0 points")
COUNT = r"\{(?:n|count|total|most|least|have|found|digits|ways|sets|players|deals|choices|points|played|shown|" \
        r"hands|stock|unseen|given|clubs|finished|playing|more|min)(?:![rs])?\}"
# each language's counted nouns, singular and plural (one word may stand between number and noun:
# "{have} recorded actions", "{have} aufgezeichnete Aktionen"); a noun alike in both forms is left out
NOUNS = {
    "en": [("card", "cards"), ("deal", "deals"), ("play", "plays"), ("match", "matches"), ("sur", "surs"),
           ("point", "points"), ("table", "tables"), ("player", "players"), ("action", "actions"),
           ("character", "characters"), ("digit", "digits"), ("level", "levels"), ("item", "items"),
           ("side", "sides"), ("set", "sets"), ("way", "ways"), ("choice", "choices"), ("capture", "captures"),
           ("hand", "hands"), ("snapshot", "snapshots")],
    "de": [("Karte", "Karten"), ("Runde", "Runden"), ("Zug", "Züge"), ("Sur", "Surs"), ("Punkt", "Punkte"),
           ("Aktion", "Aktionen"), ("Ziffer", "Ziffern"), ("Ebene", "Ebenen"), ("Eintrag", "Einträge"),
           ("Seite", "Seiten"), ("Gruppe", "Gruppen"), ("Art", "Arten"), ("Entscheidung", "Entscheidungen"),
           ("Aufnahme", "Aufnahmen"), ("Rundenabbild", "Rundenabbilder"), ("Partie", "Partien")],
    "es": [("carta", "cartas"), ("ronda", "rondas"), ("jugada", "jugadas"), ("partida", "partidas"),
           ("sur", "surs"), ("punto", "puntos"), ("acción", "acciones"), ("cifra", "cifras"), ("nivel", "niveles"),
           ("elemento", "elementos"), ("bando", "bandos"), ("grupo", "grupos"), ("manera", "maneras"),
           ("decisión", "decisiones"), ("captura", "capturas"), ("instantánea", "instantáneas"),
           ("carácter", "caracteres"), ("jugador", "jugadores")],
}


def beside(nouns: list[str], fields: str = COUNT) -> re.Pattern[str]:
    """A count followed by one of ``nouns`` (one word may stand between), not as the first half of
    a compound ("{found} deal snapshots")."""
    every = "|".join(re.escape(w) for pairs in NOUNS.values() for pair in pairs for w in pair)
    return re.compile(fields + r"\s+(?:\w+\s+)?(" + "|".join(map(re.escape, nouns)) + r")\b(?!\s+(?:" + every + r")\b)")


PLURAL_NOUN = beside([plural for _, plural in NOUNS["en"]])
SINGULAR_NOUN = beside([singular for singular, _ in NOUNS["en"]])


@functools.cache
def counted() -> dict[str, str]:
    """Every sentence the code counts with: singular -> plural."""
    return {k: v for k, v in i18n_tools.messages().items() if v is not None}


def chooser(singular: str) -> str:
    """A pattern for the fields whose number chooses the form: those beside the singular noun."""
    names = {m.group(0).split("}")[0].strip("{").split("!")[0] for m in SINGULAR_NOUN.finditer(singular)}
    return r"\{(?:" + "|".join(sorted(names)) + r")(?:![rs])?\}" if names else r"(?!)"


def test_a_count_beside_a_plural_noun_is_never_a_plain_message():
    clicks = set(i18n_tools.CLICK_MESSAGES)  # click's own (an argument "takes {nargs} values", always several)
    plain_ones = [k for k, v in i18n_tools.messages().items() if v is None and k not in clicks]
    assert not [k for k in plain_ones if PLURAL_NOUN.search(k)]
    assert PLURAL_NOUN.search("Mina holds {count} cards.")  # the check itself finds what it is for


def test_the_english_singular_is_singular():
    found = [s for s in counted() if PLURAL_NOUN.search(s)]
    assert not found
    assert len(counted()) >= 30  # the counted sentences are found at all


@pytest.mark.parametrize("code", ["de", "es", "fa"])
def test_each_catalog_chooses_forms_by_its_languages_rule(code):
    """The catalog's Plural-Forms choose the form CLDR gives the language (babel's data), for every
    number a sentence can hold; its forms are in CLDR's order (one, many, other)."""
    rule = Locale.parse(code).plural_form
    order = [tag for tag in ("zero", "one", "two", "few", "many", "other") if tag in rule.tags | {"other"}]
    index = gettext.c2py(catalog(code).plural_expr)
    numbers = [*range(0, 3000), 10**6, 2 * 10**6, 10**6 + 1, 2**63 - 1]
    assert [index(n) for n in numbers] == [order.index(rule(n)) for n in numbers]


def form_for(code: str, singular: str, n: int) -> str:
    i18n.set_language(code)
    try:
        return i18n.ngettext(singular, counted()[singular], n)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("code", ["en", "de", "es"])
@pytest.mark.parametrize("n", [1, 2, 7, 1_000_000])
def test_each_counted_sentence_has_the_noun_in_the_number_it_is_said_for(code, n):
    """Rendered for 1 no plural noun follows a count; for more, no singular one."""
    nouns = [plural if n == 1 else singular for singular, plural in NOUNS[code]]
    said = {singular: form_for(code, singular, n) for singular in counted()}
    bad = {s: text for s, text in said.items() if beside(nouns, chooser(s)).search(text)}
    assert not bad, f"{code}, n={n}: {bad}"


def test_persian_keeps_the_noun_after_a_number_singular():
    """In Persian a noun after a number is singular in every form: "2 cards" is 2 and the noun for
    card, without the plural ending (ZWNJ, heh, alef)."""
    plural_noun = re.compile(COUNT + r"\s+\S+\u200c\u0647\u0627\b")
    bad = [forms(m.string) for m in catalog("fa") if isinstance(m.id, tuple)
           and any(plural_noun.search(text) for text in forms(m.string))]
    assert not bad


@pytest.mark.parametrize("code,one,two", [("en", "Mina holds 1 card ", "Mina holds 2 cards "),
                                          ("de", "1 Karte", "2 Karten"), ("es", "1 carta", "2 cartas")])
def test_an_error_with_a_count_is_said_in_its_form(code, one, two):
    template = Plural("{player} holds {count} card at this point of hand {hand}, not {given}.",
                      "{player} holds {count} cards at this point of hand {hand}, not {given}.", "count")
    i18n.set_language(code)
    said = [plain(message(IllegalPlayError(template, player="Mina", count=n, hand=2, given=3), Look()))
            for n in (1, 2)]
    assert one in said[0] and two in said[1]


def test_english_text_of_an_error_takes_its_form():
    template = Plural("{side} cannot hold {count} sur.", "{side} cannot hold {count} surs.", "count")
    assert [str(IllegalPlayError(template, side="Ali", count=n)) for n in (0, 1, 5)] == [
        "Ali cannot hold 0 surs.", "Ali cannot hold 1 sur.", "Ali cannot hold 5 surs."]


@pytest.mark.parametrize("code,said", [("en", "has 1 recorded action;"), ("de", "hat 1 aufgezeichnete Aktion;"),
                                       ("es", "tiene 1 acción registrada;")])
def test_undo_beyond_one_action_counts_in_the_singular(pasur, code, said):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("--lang", code, "undo", "3")
    assert result.exit_code == 1 and said in plain(result.output), result.output


@pytest.mark.parametrize("code,said", [("en", "Matches: 1 finished, 1 still being played."),
                                       ("de", "1 beendet, 1 läuft noch"), ("es", "1 terminada, 1 todavía en juego")])
def test_stats_count_each_kind_of_match_in_its_form(pasur, code, said):
    pasur("new", "Ali", "Sara", "--rule", "fixed_deals=1")
    pasur("tally", "--count", "Ali: clubs=8 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes",
          "--count", "Sara: clubs=5 aces=1 jacks=2 two_clubs=no ten_diamonds=no")
    pasur("new", "Ali", "Sara")
    assert said in plain(pasur("--lang", code, "stats").output)
