"""The click layer in every language: yes/no questions answered in the reader's words, counts
refused in the reader's sentences (never click's "integer range"), option descriptions offered
to shell completion in the reader's language, and a record that is not JSON said with facts."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from test_i18n import OTHERS, assert_no_english

from pasur_cli import i18n
from pasur_cli.cli import BIGGEST, Count, main


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
    assert "'-1' is not a whole number of 0 or more." in pasur("undo", "--expect", "-1").output
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
