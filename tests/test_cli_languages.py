"""The click layer in every language: yes/no questions answered in the reader's words, counts
refused in the reader's sentences (never click's "integer range"), option descriptions offered
to shell completion in the reader's language, and a record that is not JSON said with facts."""

from __future__ import annotations

import json
import unicodedata

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from test_i18n import OTHERS, assert_no_english, plain

from pasur_cli.cli.app import BIGGEST, Count, main
from pasur_cli.text import i18n
from pasur_cli.text.i18n import ANSWERS, answer

# -- yes or no -----------------------------------------------------------------------------------
YES = {"en": ["y", "yes", "Y", "YES", " yes "], "de": ["j", "ja", "J", "Ja", "JA", "y", "yes"],
       "es": ["s", "sí", "si", "S", "Sí", "SÍ", "SI", "yes", "y", unicodedata.normalize("NFD", "sí")],
       "fa": ["ب", "بله", "آره", "اره", "بلی", "بلي", "y", "Yes"]}
NO = {"en": ["n", "no", "N", "No", "", "  "], "de": ["n", "nein", "Nein", "NEIN", "no", ""],
      "es": ["n", "no", "No", "NO", ""], "fa": ["ن", "نه", "خیر", "خير", "n", "no", ""]}
NEITHER = {"en": ["j", "ja", "si", "nein", "yess", "maybe", "ب"], "de": ["s", "sí", "nee", "jo", "ن x"],
           "es": ["j", "ja", "nein", "sii"], "fa": ["j", "ja", "sí", "بل", "نخیر", "آ", "\u0627", "خ"]}  # \u0627: a lone alef


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_yes_and_no_in_each_language_and_in_english(code):
    assert [answer(text, code) for text in YES[code]] == [True] * len(YES[code])
    assert [answer(text, code) for text in NO[code]] == [False] * len(NO[code])
    assert [answer(text, code) for text in NEITHER[code]] == [None] * len(NEITHER[code])


KNOWN = {form for yes, no in ANSWERS.values() for word in (*yes, *no) for form in (word, word[0])}


def forms(words: tuple[str, ...]) -> set[str]:
    """The words, and the first letter of the first one: the letter the question shows."""
    return {*words, words[0][0]}


@given(st.sampled_from(i18n.LANGUAGES),
       st.one_of(st.text(max_size=6), st.sampled_from(sorted(KNOWN)).map(str.upper), st.sampled_from(sorted(KNOWN))))
def test_an_answer_is_yes_or_no_only_when_it_is_one_of_the_words(code, text):
    """Whatever is typed: no for nothing typed; yes or no exactly for the words (or the first
    letter of the first word, which the question shows) of English and the question's language
    that are not both, in any case and spacing; a lone Persian alef is neither."""
    said = answer(text, code)
    assert answer(f" {text}\t", code) == said
    if text.swapcase().casefold() == text.casefold():
        assert answer(text.swapcase(), code) == said
    typed = unicodedata.normalize("NFC", text).strip().casefold().translate(str.maketrans("يىك", "ییک", "\u200c"))
    yes, no = (forms(ANSWERS["en"][i]) | forms(ANSWERS[code][i]) for i in (0, 1))
    expected = False if not typed else True if typed in yes - no else False if typed in no - yes else None
    assert said is expected


@given(st.sampled_from(sorted(KNOWN)))
def test_english_is_understood_whatever_the_language(word):
    for code in i18n.LANGUAGES:
        if word in ("y", "yes", "n", "no"):
            assert answer(word, code) is answer(word, "en") is (word[0] == "y")


def asked(monkeypatch, module_name: str) -> None:
    import importlib
    module = importlib.import_module(f"pasur_cli.cli.commands.{module_name}")
    monkeypatch.setattr(module, "at_terminal", lambda: True)


@pytest.mark.parametrize("code,no,yes", [("en", "no", "Y"), ("de", "nein", "Ja"), ("es", "N", "sí"),
                                         ("fa", "نه", "آره"), ("fa", "خ", "ب"), ("es", "", "s"), ("de", "n", "j")])
def test_delete_takes_the_languages_yes_and_no(pasur, db, monkeypatch, code, no, yes):
    asked(monkeypatch, "delete")
    pasur("new", "Ali", "Sara")
    before = db.read_bytes()
    refused = pasur("--lang", code, "delete", "--match", 1, input=f"{no}\n")
    assert refused.exit_code == 1, refused.output
    assert db.read_bytes() == before
    done = pasur("--lang", code, "delete", "--match", 1, input=f"{yes}\n")
    assert done.exit_code == 0, done.output
    assert json.loads(pasur("matches", "--json").output) == []


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_a_question_asks_again_until_answered_and_the_end_of_input_is_no(pasur, db, monkeypatch, code):
    asked(monkeypatch, "delete")
    pasur("new", "Ali", "Sara")
    before = db.read_bytes()
    result = pasur("--lang", code, "delete", "--match", 1, input="maybe\nperhaps\n")  # then the input ends
    assert result.exit_code == 1, result.output
    assert db.read_bytes() == before
    lines = plain(result.output).splitlines()  # asked, told how to answer, asked again ...; then refused
    assert len(lines) == 6 and lines[1] == lines[3] and lines[4] == lines[0].removesuffix("maybe"), result.output
    assert lines[2].endswith("perhaps")
    result = pasur("--lang", code, "delete", "--match", 1, input="maybe\ny\n")
    assert result.exit_code == 0, result.output


def test_importing_again_takes_the_languages_yes_and_no(pasur, db, tmp_path, monkeypatch):
    asked(monkeypatch, "import_")
    pasur("new", "Ali", "Sara")
    record = tmp_path / "match.json"
    record.write_text(pasur("export").output)
    assert pasur("import", record, "--again").exit_code == 0  # into the file it came from
    before = db.read_bytes()
    assert pasur("--lang", "de", "import", record, input="nein\n").exit_code == 1
    assert pasur("--lang", "fa", "import", record, input="نه\n").exit_code == 1
    assert db.read_bytes() == before
    assert pasur("--lang", "es", "import", record, input="si\n").exit_code == 0
    assert pasur("--lang", "fa", "import", record, input="بله\n").exit_code == 0
    assert [row["match"] for row in json.loads(pasur("matches", "--json").output)] == [4, 3, 2, 1]


SUFFIX = {"en": "[y/N]", "de": "[j/N]", "es": "[s/N]", "fa": "[ب/ن"}


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_a_question_shows_the_languages_letters(pasur, db, monkeypatch, code):
    asked(monkeypatch, "delete")
    pasur("new", "Ali", "Sara")
    result = pasur("--lang", code, "delete", "--match", 1, input="?\n")
    assert SUFFIX[code] in plain(result.output), result.output
    if code != "en":
        assert "[y/N]" not in result.output
        assert_no_english(result.output, code)


# -- counts --------------------------------------------------------------------------------------
def convert(least: int, text: str) -> int | None:
    try:
        return Count(least).convert(text, None, None)
    except click.BadParameter:
        return None


@given(st.integers(0, 1), st.one_of(st.text(max_size=6), st.integers(-5, 2**64).map(str),
                                    st.integers(0, 2**70).map(lambda n: str(n).translate(
                                        str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))),
                                    st.integers(1, 60).map(lambda n: "0" * n + "7"),
                                    st.integers(1, 6000).map(lambda n: "9" * n)))
def test_a_count_is_read_as_int_reads_it_within_its_bounds(least, text):
    """Every whole number from ``least`` to BIGGEST, in any script's decimal digits, is read as int
    reads it; anything else (a sign, a fraction, ², a number SQLite cannot hold, 6,000 digits) is
    refused as a usage error, never a traceback."""
    number = convert(least, text)
    stripped = text.strip()
    if stripped.isdecimal() and len(stripped) <= 40 and least <= int(stripped) <= BIGGEST:
        assert number == int(stripped)
    else:
        assert number is None


@pytest.mark.parametrize("args", [["--match", "x", "show"], ["show", "--match", "0"], ["undo", "-1"],
                                  ["undo", "1.5"], ["play", "7C", "--expect", "x"], ["log", "--deal", "0"],
                                  ["log", "--deal", "²"], ["--match", "9" * 5000, "show"],
                                  ["delete", "--match", "99999999999999999999"]])
@pytest.mark.parametrize("code", OTHERS)
def test_a_bad_count_is_refused_in_each_language(pasur, db, code, args):
    pasur("new", "Ali", "Sara")
    before = db.read_bytes()
    result = pasur("--lang", code, *args)
    assert result.exit_code == 2
    assert db.read_bytes() == before
    assert "integer" not in result.output and "range" not in result.output
    assert len(result.output) < 400, result.output  # a long number is cut short
    assert_no_english(result.output, code)


def test_a_bad_count_names_the_value_and_the_bounds(pasur):
    assert "'x' is not a whole number of 1 or more." in pasur("--match", "x", "show").output
    assert "'-1' is not a revision: give \"revision\" from `pasur show --json`, or a number." in \
        pasur("undo", "--expect", "-1").output
    assert "is too large: the largest number pasur takes is 9223372036854775807." in \
        pasur("undo", "9223372036854775808").output


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_no_help_shows_clicks_range(pasur, code):
    for name in ["", *sorted(main.load_all())]:
        output = pasur("--lang", code, *([name] if name else []), "--help").output
        assert "9223372036854775807" not in output and "<=x" not in output and "x>=" not in output, output


# -- shell completion ----------------------------------------------------------------------------
def completions(shell: str, words: str, code: str) -> list[tuple[str, str]]:
    """(value, description) of each completion `shell` is offered for the command line ``words``."""
    env = {"_PASUR_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "PASUR_LANG": code,
           "COMP_CWORD": words.rsplit(" ", 1)[-1] if shell == "fish" else str(len(words.split(" ")) - 1)}
    output = CliRunner().invoke(main, [], env=env, prog_name="pasur", complete_var="_PASUR_COMPLETE").output
    if shell == "fish":
        return [tuple([*line.split(",", 1)[1].split("\t", 1), ""])[:2] for line in output.splitlines()]
    lines = output.splitlines()
    return [(lines[i + 1], lines[i + 2]) for i in range(0, len(lines), 3)]


@pytest.mark.parametrize("shell", ["fish", "zsh"])
@pytest.mark.parametrize("words", ["pasur play --", "pasur --", "pasur ", "pasur undo --", "pasur check 5C --r"])
def test_completion_describes_options_in_the_language(db, shell, words):
    english = dict(completions(shell, words, "en"))
    german = dict(completions(shell, words, "de"))
    assert english.keys() == german.keys() and english
    described = [text for name, text in german.items() if english[name]]
    assert described and all(text != english[name] for name, text in german.items() if english[name])
    assert_no_english("\n".join(described), "de")


# -- a record that is not JSON -------------------------------------------------------------------
@pytest.mark.parametrize("text,english", [
    ("", "the record is empty."), ("  \n", "the record is empty."), ("\ufeff", "the record is empty."),
    ('{"format": "pasur-match", x}', "the record is not JSON (line 1, column 27)."),
    ('{\n  "a": 1,\n}', "the record is not JSON (line 3, column 1)."),
    ("{not json", "the record is not JSON (line 1, column 2)."),
])
def test_a_record_that_is_not_json_is_said_with_facts(pasur, db, tmp_path, text, english):
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    result = pasur("import", path)
    assert result.exit_code == 2 and result.output == f"Error: {english}\n"
    for code in OTHERS:
        result = pasur("--lang", code, "import", path)
        assert result.exit_code == 2 and "Expecting" not in result.output
        assert_no_english(result.output, code)
    assert not db.exists()


@pytest.mark.parametrize("code", OTHERS)
def test_a_records_rules_are_named_in_each_language(pasur, db, tmp_path, code):
    pasur("new", "Ali", "Sara")
    doc = json.loads(pasur("export").output)
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**doc, "rules": ["standard"]}))
    assert 'the record\'s "rules" must be an object' in pasur("import", path).output
    result = pasur("--lang", code, "import", path)
    assert result.exit_code == 2
    assert_no_english(result.output.replace('["standard"]', ""), code)


# -- "custom" rules ------------------------------------------------------------------------------
@pytest.mark.parametrize("code", OTHERS)
def test_custom_rules_are_named_in_each_language(pasur, db, code):
    pasur("new", "Ali", "Sara", "--rule", "target=100")
    check = pasur("--lang", code, "check", "5C", "--table", "6D", "--rule", "target=100").output
    listed = pasur("--lang", code, "matches").output
    assert "custom" in pasur("check", "5C", "--table", "6D", "--rule", "target=100").output
    assert "custom" in pasur("matches").output
    for output in (check, listed):
        assert "custom" not in output
        assert_no_english(output, code)
    assert json.loads(pasur("--lang", code, "matches", "--json").output)[0]["rules"] == "custom"
    check_json = pasur("--lang", code, "check", "5C", "--table", "6D", "--rule", "target=100", "--json").output
    assert json.loads(check_json)["rules"] == "custom"
