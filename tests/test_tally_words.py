"""Tally counts typed in the reader's language (count words from the catalog, yes/no from
ANSWERS), names compared without accents or spaces, and export -o saying where it wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.names import COUNT_KEYS, check_players, name_key
from pasur_cli.text import i18n
from pasur_cli.text.tally_input import KEY_MESSAGES, count_keys, parse_counts, yes_no_words

LANGUAGES = ["de", "es", "fa"]


@pytest.fixture(params=LANGUAGES)
def speaking(request):
    """The language in use (the catalog's count words with it); the autouse fixture puts English back."""
    i18n.set_language(request.param)
    return request.param


def words(key: str) -> list[str]:
    """The words the language in use gives for a count ``key``."""
    found = i18n.catalog_words(KEY_MESSAGES[key])
    assert found, f"the {i18n.language()} catalog has no word for {key}"
    return found


def first(code: str, key: str) -> str:
    assert i18n.language() == code
    return words(key)[0]


def test_counts_take_the_languages_words_and_english(speaking):
    code = speaking
    yes, no = i18n.ANSWERS[code][0][0], i18n.ANSWERS[code][1][0]
    text = (f"{first(code, 'clubs')}=7 {first(code, 'aces')}=2 {first(code, 'jacks')}=3 "
            f"{first(code, 'two_clubs')}={yes} ten_diamonds={no}")
    assert parse_counts(text) == {"clubs": 7, "aces": 2, "jacks": 3, "two_clubs": True, "ten_diamonds": False,
                                  "seven_diamonds": False}
    assert parse_counts("clubs=7 two_clubs=yes aces=1")["two_clubs"] is True  # English always works
    assert parse_counts(f"{first(code, 'clubs').upper()}=2")["clubs"] == 2  # any case, as names


def test_persian_keyboards_variants():
    i18n.set_language("fa")
    assert parse_counts("دو\u200cخاج=بله")["two_clubs"] is True  # non-joiner, as name_key ignores it  # noqa: RUF001
    assert parse_counts("دوخاج=آره")["two_clubs"] is True
    assert parse_counts("\u062e\u0627\u062c=\u06f8")["clubs"] == 8  # Persian digits
    assert parse_counts("two_clubs=خیر")["two_clubs"] is False


def test_the_refusal_lists_the_languages_keys_without_four_dots(speaking):
    with pytest.raises(NotationError) as caught:
        parse_counts("hearts=3")
    keys = caught.value.facts["keys"]
    assert keys.split() == [first(speaking, k) + "=..." for k in COUNT_KEYS]
    assert not caught.value.template.endswith(".")


def test_spanish_yes_is_a_value():
    i18n.set_language("es")
    assert parse_counts("two_clubs=sí")["two_clubs"] is True
    assert parse_counts("two_clubs=si")["two_clubs"] is True
    with pytest.raises(NotationError):
        parse_counts("two_clubs=quizá")


def test_no_key_is_another_key_or_a_yes_no_word(speaking):
    keys = count_keys()
    for key in COUNT_KEYS:
        for word in words(key):
            assert keys[name_key(word)] == key
    yes, no = yes_no_words()
    assert not (set(keys) & (yes | no))


@pytest.mark.parametrize("code", ["fa", "de", "es"])
def test_the_catalogs_words_collide_with_nothing(code):
    """The words the real catalog gives (skipped for a language whose catalog lacks them)."""
    previous = i18n.language()
    i18n.set_language(code)
    try:
        words = [w for k in COUNT_KEYS for w in i18n.catalog_words(KEY_MESSAGES[k])]
        if not words:
            pytest.skip(f"the {code} catalog lacks the tally count words")
        keys = [name_key(w) for k in COUNT_KEYS for w in i18n.catalog_words(KEY_MESSAGES[k])]
        assert len(set(keys)) == len(keys) and not set(keys) & {name_key(k) for k in COUNT_KEYS}
        yes, no = yes_no_words()
        assert not set(keys) & (yes | no)
    finally:
        i18n.set_language(previous)


NAME_TEXT = st.text(st.characters(categories=("Lu", "Ll", "Lo", "Mn")), min_size=1, max_size=8)


@given(NAME_TEXT, st.lists(st.tuples(st.integers(0, 8), st.sampled_from([" ", "\u200c", "\u0301", "\u0308"])),
                           max_size=4))
def test_accents_and_spaces_do_not_change_a_names_key(name, extra):
    spelt = name
    for at, ch in extra:
        spelt = spelt[:at] + ch + spelt[at:]
    assert name_key(spelt) == name_key(name)


def test_names_equal_once_compared_are_named_twice():
    from pasur_cli.engine.errors import IllegalPlayError
    with pytest.raises(IllegalPlayError, match="are the same name"):
        check_players(["José", "Jose"])
    with pytest.raises(IllegalPlayError, match="are the same name"):
        check_players(["مهر انگیز", "مهر\u200cانگیز"])  # noqa: RUF001
    assert check_players(["José", "Sara"], dealer="jose") == ["José", "Sara"]  # kept as typed


def test_typed_names_find_players(pasur):
    assert pasur("new", "José", "مهر\u200cانگیز", "--dealer", "jose").exit_code == 0  # noqa: RUF001
    assert "José" in pasur("show").output
    found = pasur("matches", "--player", "مهر انگیز")
    assert found.exit_code == 0 and "José" in found.output


def test_export_says_where_it_wrote(pasur, tmp_path):
    pasur("new", "Ali", "Sara")
    path = tmp_path / "m.json"
    result = pasur("export", "-o", str(path))
    assert result.exit_code == 0 and result.output == f"Wrote match 1 to {path}.\n"
    assert json.loads(Path(path).read_text())["players"]
