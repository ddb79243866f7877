"""Placeholders (click's metavars: CARD, NAME, FILE, N ...) in the reader's language wherever they
are shown: the usage line, the option column of help, an error that names an argument, and
pasur's own sentences and help texts that show a usage. What a person types (commands, options,
NAME=VALUE's rule names) stays English, and so does the English help."""

from __future__ import annotations

import re

import pytest
from test_i18n import OTHERS, catalog, forms, plain

from pasur_cli.cli.app import PLACEHOLDERS, main
from pasur_cli.text import i18n

UPPER = r"(?<![\w$_-])[A-Z]+(?![\w_])"  # a word in capitals, not part of $PASUR_DB, NO_COLOR or --opt


def english_in(code: str) -> frozenset[str]:
    """The placeholders whose word in ``code`` differs from the English one."""
    i18n.set_language(code)
    try:
        return frozenset(word for word in PLACEHOLDERS if i18n._(word) != word)
    finally:
        i18n.set_language("en")


def shown(help_text: str) -> list[str]:
    """Where click writes placeholders in a help: the usage line and each option's names and metavar."""
    lines = plain(help_text).splitlines()
    terms = [re.split(r"\s{2,}", line.strip())[0] for line in lines if re.match(r"\s+-", line)]
    return [lines[0], *terms]


COMMANDS = [[], *([name] for name in sorted(main.load_all()))]


@pytest.mark.parametrize("code", OTHERS)
def test_help_shows_no_english_placeholder(pasur, code):
    english = english_in(code)
    assert {"CARD", "CARDS", "OPTIONS"} <= english  # every language has its own words for these
    for args in COMMANDS:
        text = pasur("--lang", code, *args, "--help").output
        for place in shown(text):
            assert not set(re.findall(UPPER, place)) & english, f"{args}: {place!r}\n{text}"
        long_words = {w for w in re.findall(UPPER, plain(text)) if len(w) > 1}  # not card ranks (J Q K)
        assert not long_words & english, f"{args}: {sorted(long_words & english)}\n{text}"


@pytest.mark.parametrize("code", OTHERS)
def test_placeholders_keep_what_is_typed(pasur, code):
    usage = pasur("--lang", code, "deal", "--help").output.splitlines()[0]
    assert " deal [" in usage and usage.endswith("...") and "CARDS" not in usage  # the program is "main" here
    tally = plain(pasur("--lang", code, "tally", "--help").output)
    assert "--pile " in tally and "--count " in tally and "--surs " in tally


def test_english_help_keeps_its_placeholders(pasur):
    assert pasur("deal", "--help").output.splitlines()[0].endswith(" deal [OPTIONS] CARDS...")
    assert pasur("--help").output.splitlines()[0].endswith(" [OPTIONS] COMMAND [ARGS]...")
    tally = pasur("tally", "--help").output
    assert "--pile SIDE=CARDS" in tally and "--count SIDE: K=V ..." in tally and "--surs SIDE=N" in tally
    assert "--rule NAME=VALUE" in pasur("new", "--help").output


@pytest.mark.parametrize("code,args,english", [
    ("fa", ["deal"], "'CARDS...'"), ("de", ["deal"], "'CARDS...'"), ("es", ["play"], "'CARD'"),
    ("de", ["undo", "x"], "'[COUNT]'"), ("es", ["undo", "0"], "'[COUNT]'"), ("fa", ["undo", "x"], "'[COUNT]'"),
])
def test_an_error_names_the_argument_in_the_language(pasur, code, args, english):
    said = pasur(*args)
    assert said.exit_code == 2 and english in said.output
    result = pasur("--lang", code, *args)
    assert result.exit_code == 2
    assert english not in result.output and not set(re.findall(UPPER, plain(result.output))) & english_in(code)
    word = english.strip("'[].")
    i18n.set_language(code)
    assert i18n._(word) in result.output  # the argument is still named, in the reader's word


@pytest.mark.parametrize("code", OTHERS)
def test_no_translation_keeps_an_english_placeholder(code):
    english = {word for word in english_in(code) if len(word) > 1} | {"NAMES"}  # letters are card ranks too
    for message in catalog(code):
        if not message.id or forms(message.id)[0] in PLACEHOLDERS:
            continue
        for text in forms(message.string):
            left = set(re.findall(UPPER, text)) & english
            assert not left, f"{code}: {sorted(left)} in {text!r}"


@pytest.mark.parametrize("code", OTHERS)
def test_a_sentence_that_shows_a_usage_uses_the_placeholder(pasur, code):
    result = pasur("--lang", code, "new", "Ali", "Sara")
    assert result.exit_code == 0
    i18n.set_language(code)
    assert "pasur deal " + " ".join([i18n._("CARD")] * 4) in plain(result.output)
