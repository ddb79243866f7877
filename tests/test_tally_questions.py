"""`pasur tally` asked at a real terminal (pexpect, 80x24): the short words a table uses for the
counts, the earlier answer offered when one is corrected, the surs question naming whose surs,
and Ctrl-C / Ctrl-D ending a question as the session ends it. Also Ctrl-D at the session's
capture question."""

from __future__ import annotations

import json
import os
import sys

import pexpect
import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")


def spawn(db, *args: str, lang: str | None = None, term: str = "xterm") -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1", TERM=term, **({"PASUR_LANG": lang} if lang else {}))
    return pexpect.spawn(sys.executable, ["-m", "pasur_cli", *args], env=env, encoding="utf-8", timeout=20,
                         dimensions=(24, 80))


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    return child.before.replace("\r\n", "\n")


def length(pasur) -> int:
    return json.loads(pasur("show", "--json").output)["length"]


@pytest.mark.parametrize("key", ["intr", "eof"])
def test_ctrl_c_or_d_at_a_tally_question_cancels_as_the_session_does(pasur, db, key):
    pasur("new", "Ali", "Reza")
    before = length(pasur)
    child = spawn(db, "tally")
    child.expect("Ali: pile or counts: ")
    if key == "intr":
        child.send("clubs=8")
        child.sendintr()
    else:
        child.sendeof()
    shown = finish(child)
    assert "Cancelled: nothing was recorded." in shown and "Aborted" not in shown, shown
    assert shown.rstrip().endswith("Cancelled: nothing was recorded.")
    assert "\nCancelled" in shown  # the question's line was ended first
    assert child.exitstatus == 1 and length(pasur) == before


def test_counts_take_card_names_and_the_languages_words(pasur, db):
    pasur("new", "Ali", "Reza")
    child = spawn(db, "tally", lang="de")
    child.expect(r"Kreuz=8 Asse=2 Buben=1 2c=ja\s+10d=nein")  # the example in the reader's words (broken at the width)
    child.expect("Ali: Stapel oder Zählungen: ")
    child.sendline("Kreuz=8 Asse=2 Buben=2 2c=ja 10d=nein 7d=nein")
    child.expect(r"Surs von Ali am Ende der Runde \[0\]: ")
    child.sendline("")
    child.expect("Reza: Stapel oder Zählungen: ")
    child.sendline("clubs=5 aces=2 jacks=2 2♣=n 10♦=yes")
    child.expect(r"Surs von Reza am Ende der Runde \[0\]: ")
    child.sendline("0")
    finish(child)
    scores = json.loads(pasur("score", "--json").output)["deals"][0]["scores"]
    assert scores["Ali"]["two_clubs"] == 2 and scores["Reza"]["ten_diamonds"] == 3, scores
    one_shot = pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=2 2c=yes 10d=no",
                     "--count", "Reza: clubs=5 aces=2 jacks=2 2c=no 10d=yes")
    assert one_shot.exit_code == 0, one_shot.output


@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_a_corrected_answer_is_offered_and_only_what_is_typed_changes(pasur, db, term):
    """With line editing (readline) the earlier answer is on the line to edit; without it (TERM=dumb)
    it is the default in brackets, and counts typed replace only those counts."""
    pasur("new", "Ali", "Reza")
    child = spawn(db, "tally", term=term)
    child.expect("Ali: pile or counts: ")
    child.sendline("clubs=8 aces=2 jacks=2 2c=yes 10d=no")
    child.expect(r"Surs held by Ali at the end of the deal \[0\]: ")
    child.sendline("1")
    child.expect("Reza: pile or counts: ")
    child.sendline("clubs=5 aces=2 jacks=1 2c=no 10d=yes")  # 3 jacks in all: refused
    child.expect(r"Surs held by Reza at the end of the deal \[0\]: ")
    child.sendline("")
    child.expect("Which side's answer to correct")
    child.sendline("reza")
    if term == "xterm":
        child.expect_exact("Reza: pile or counts: clubs=5 aces=2 jacks=1 2c=no 10d=yes")
        child.send("\x17\x17\x17")  # Ctrl-W three times: the last three words go
        child.sendline("jacks=2 2c=no 10d=yes")
    else:
        child.expect_exact("Reza: pile or counts [clubs=5 aces=2 jacks=1 2c=no 10d=yes]: ")
        child.sendline("jacks=2")  # only the count that was wrong
    child.expect_exact("Surs held by Reza at the end of the deal [0]: ")
    child.sendline("")
    finish(child)
    scores = json.loads(pasur("score", "--json").output)["deals"][0]["scores"]
    assert scores["Reza"]["jacks"] == 2 and scores["Reza"]["clubs"] == 5 and scores["Ali"]["surs"] == 1


def test_counts_typed_at_the_surs_question_are_refused_with_a_hint(pasur, db):
    pasur("new", "Ali", "Reza")
    child = spawn(db, "tally")
    child.expect("Ali: pile or counts: ")
    child.sendline("clubs=8 aces=2 jacks=2 2c=yes 10d=no")
    child.expect(r"Surs held by Ali at the end of the deal \[0\]: ")
    child.sendline("aces=3")
    child.expect(r"'aces=3' is a pile or counts; this question asks only how\s+many\s+surs\s+Ali\s+holds")
    child.expect(r"Surs held by Ali at the end of the deal \[0\]: ")
    child.sendintr()
    assert "Cancelled: nothing was recorded." in finish(child)


def test_ctrl_d_at_the_capture_question_ends_the_line_first(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    pasur("play", "QS")  # Sara trails Q♠
    child = spawn(db, "session", term="dumb")  # the terminal's own line mode (readline's is asked in test_session*)
    child.expect("Ali to play .* › ")
    child.sendline("5s")  # RULES.md example 2: 5♠ takes 5+A or 4+2, the player chooses
    child.expect("Which one\\? ")
    child.sendeof()
    child.expect("Cancelled: nothing was recorded.")
    assert child.before.endswith("\r\n"), repr(child.before)  # "Which one? " ended before the sentence
    child.sendeof()
    finish(child)
