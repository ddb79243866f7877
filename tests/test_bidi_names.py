"""A Persian name beside another name in an English, German or Spanish sentence is its own
isolate (FSI ... PDI), so that a terminal applying the bidi algorithm keeps the names in their
places: one isolate around "مهر‌انگیز against سارا" shows them swapped. Checked on the text's
structure, and with GNU FriBidi's `fribidi` command (as docs/languages.md's check) where it is installed."""

from __future__ import annotations

import shutil
import subprocess
import unicodedata

import pytest

from pasur_cli.text import i18n

MEHR, SARA = "مهر\u200cانگیز", "سارا"  # noqa: RUF001


def spans(line: str) -> list[str]:
    """The outermost isolates of a line, each with what it holds."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        if ch == i18n.FSI:
            if depth == 0:
                start = i
            depth += 1
        elif ch == i18n.PDI and depth:
            depth -= 1
            if depth == 0:
                out.append(line[start:i + 1])
    return out


def lines_of(pasur, lang: str) -> list[str]:
    pasur("new", MEHR, SARA, "Reza")
    pasur("deal", "2C", "5H", "9D", "3S")
    pasur("play", "KS")  # Sara trails
    return [line for args in (["show"], ["score"], ["new", MEHR, SARA]) for line in
            pasur("--lang", lang, *args).output.splitlines() if MEHR in line and SARA in line]


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_no_isolate_holds_two_persian_names(pasur, lang):
    found = lines_of(pasur, lang)
    assert len(found) >= 3, found  # the match line of show and new, the status and race lines
    for line in found:
        for span in spans(line):
            assert not (MEHR in span and SARA in span), (line, span)


@pytest.mark.skipif(shutil.which("fribidi") is None, reason="GNU FriBidi's fribidi command is not installed")
@pytest.mark.parametrize("lang,word", [("en", "against"), ("de", "gegen"), ("es", "contra")])
def test_a_bidi_terminal_shows_the_names_in_their_places(pasur, lang, word):
    line = next(line for line in lines_of(pasur, lang) if f" {word} " in line)
    shown = subprocess.run(["fribidi", "--nopad", "--nobreak"], input=line, capture_output=True, text=True,
                           check=True).stdout
    plain = unicodedata.normalize("NFKC", shown).replace("\u200c", "")  # fribidi draws shaped letters
    first, second = (plain.find(name.replace("\u200c", "")[::-1]) for name in (MEHR, SARA))
    assert -1 not in (first, second), shown
    assert first < plain.find(word) < second, shown  # left to right: Mehrangiz, against, Sara
