"""Every refusal of the match commands: its exit code, its message, and a database left byte for byte.
(A damaged, foreign or newer database file: tests/test_damaged.py.)"""

import pytest


@pytest.fixture
def started(pasur, db):
    """Ali and Sara (pagat); deal 1's table entered and three plays made."""
    assert pasur("new", "Ali", "Sara", "--rules", "pagat").exit_code == 0
    assert pasur("deal", "5C", "9D", "3H", "KS").exit_code == 0
    assert pasur("play", "2S").exit_code == 0          # Sara takes 9D
    assert pasur("play", "6H").exit_code == 0          # Ali takes 5C
    assert pasur("play", "AD").exit_code == 0          # Sara trails AD
    return db


REFUSALS = [
    (["play", "3H"], 1, "3♥ is on the initial table"),
    (["play", "9D"], 1, "9♦ was captured by Sara in hand 1"),
    (["play", "6H"], 1, "6♥ was played by Ali in hand 1"),
    (["play", "AD"], 1, "A♦ is on the table (trailed by Sara in hand 1)"),
    (["play", "7C", "--by", "Sara"], 1, "it is Ali's turn, not Sara's"),
    (["play", "7C", "--by", "Nobody"], 1, "'Nobody' is not playing"),
    (["play", "8C", "--take", "3H AD KS"], 1, "cannot be taken by a sum"),
    (["play", "8C", "--take", "AD"], 1, "8♣ + A♦ = 9, not 11"),
    (["play", "8C", "--take", ""], 1, "must capture"),
    (["play", "8C", "--take", "2C"], 1, "2♣ is not on the table"),
    (["play", "7X"], 2, "'7X' is not a card"),
    (["play", "7C", "--take", "AD AD"], 2, "named twice"),
    (["deal", "2C", "3C", "4C", "5C"], 1, "deal 1 is still being played"),
    (["deal", "2C", "3C"], 2, "the initial table is 4 cards; 2 were given"),
    (["undo", "99"], 1, "cannot undo 99"),
    (["undo", "0"], 2, "0"),
    (["show", "--match", "42"], 1, "there is no match 42"),
    (["play", "7C", "--match", "42"], 1, "there is no match 42"),
    (["play", "7C", "--expect", "1"], 1, "changed since it was shown"),
    (["new", "Ali"], 1, "2, 3 or 4 players"),
    (["new", "A", "B", "C", "D", "E"], 1, "2, 3 or 4 players"),
    (["new", "Ali", "ali"], 1, "are the same name"),
    (["new", "Ali", " "], 1, "cannot be empty"),
    (["new", "Ali", "Sara", "--dealer", "Reza"], 1, "'Reza' is not playing"),
    (["new", "Ali", "Sara", "--rule", "target=lots"], 2, "whole number"),
    (["new", "Ali", "Sara", "--solo"], 2, "--solo is for 4 players"),
    # a NUL cannot come from a shell, but can from a program calling pasur's commands
    (["import", "match\x00.json"], 2, "a file name cannot hold a NUL character"),
    (["export", "-o", "match\x00.json"], 2, "a file name cannot hold a NUL character"),
]


@pytest.mark.parametrize("args,code,words", REFUSALS)
def test_refusal_changes_nothing(pasur, started, args, code, words):
    before = started.read_bytes()
    result = pasur(*args)
    assert result.exit_code == code, result.output
    assert words in result.output
    assert "Traceback" not in result.output
    assert started.read_bytes() == before


def test_ambiguous_play_lists_numbered_choices(pasur, started):
    assert pasur("undo", "4").exit_code == 0  # back to before deal 1's table
    pasur("deal", "AC", "2D", "4H", "5C")
    before = started.read_bytes()
    result = pasur("play", "5S")
    assert result.exit_code == 1
    assert "1. --take \"AC 5C\"" in result.output and "2. --take \"2D 4H\"" in result.output
    assert started.read_bytes() == before
    assert pasur("play", "5S", "--take", "2D 4H").exit_code == 0


@pytest.mark.parametrize("table,words", [
    (["JC", "5D", "9H", "QS"], "J♣ on the initial table: put it back"),
    (["JC", "JD", "9H", "QS"], "misdeal"),
    (["QC", "QD", "QH", "5S"], "misdeal"),
    (["2C", "2C", "9H", "QS"], "named twice"),
])
def test_failing_initial_table_says_what_to_do(pasur, db, table, words):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    before = db.read_bytes()
    result = pasur("deal", *table)
    assert result.exit_code in (1, 2) and words in result.output
    assert db.read_bytes() == before


def test_play_before_the_table(pasur, db):
    pasur("new", "Ali", "Sara")
    before = db.read_bytes()
    result = pasur("play", "7C")
    assert result.exit_code == 1 and "enter the table of deal 1 first" in result.output
    assert db.read_bytes() == before


def test_no_database_yet(pasur, db):
    for args in (["show"], ["score"], ["play", "7C"], ["undo"], ["deal", "2C", "3C", "4C", "5C"], ["export"]):
        result = pasur(*args)
        assert result.exit_code == 1 and "pasur new" in result.output
    result = pasur("matches")
    assert result.exit_code == 0 and "No matches yet" in result.output
    assert pasur("matches", "--json").output.strip() == "[]"
    assert not db.exists()


def plain(text: str) -> str:
    """Output without the isolates and marks around facts (Persian)."""
    return "".join(ch for ch in text if ch not in "\u2068\u2069\u200e")


def in_language(code: str, template: str, **facts: object) -> str:
    """``template`` in the language ``code``, its facts filled in as plain text."""
    from pasur_cli.text import i18n
    i18n.set_language(code)
    try:
        return i18n._(template).format(**facts)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("code", ["en", "fa", "de", "es"])
@pytest.mark.parametrize("override,number,least", [("target=0", 0, 1), ("sur_points=1000001", 1000001, 0)])
def test_a_number_out_of_range_is_shown_as_typed_with_the_range(pasur, db, code, override, number, least):
    """A number is a number: target=0, not target='0', and the sentence says which numbers fit."""
    result = pasur("--lang", code, "new", "Ali", "Sara", "--rule", override)
    assert result.exit_code == 2 and not db.exists()
    expected = in_language(code, "{name}={number} is not allowed: write a whole number from {least} to {most}.",
                           name=override.split("=")[0], number=number, least=least, most=1000000)
    assert expected in plain(result.output), result.output
    assert f"'{number}'" not in result.output


@pytest.mark.parametrize("code", ["en", "fa", "de", "es"])
def test_a_stale_expect_says_the_logs_length_in_each_language(started, pasur, code):
    """--expect 3 against a log of 4 actions: the two lengths, in a sentence that reads right for any
    count (never "1 actions")."""
    before = started.read_bytes()
    result = pasur("--lang", code, "play", "7C", "--expect", "3")
    assert result.exit_code == 1 and started.read_bytes() == before
    expected = in_language(code, "the match changed since it was shown (its revision is {revision}, not {expect};"
                           " the length of its log is {length}); nothing was recorded. Look again and re-enter.",
                           revision=4, length=4, expect=3)
    assert expected in plain(result.output), result.output
