"""The man pages say what Pasur and the program are (DESCRIPTION), show a first match (EXAMPLES,
the program's own output), and break lines only between words when read at 80 columns."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest

MAN = Path(__file__).parent.parent / "man"


def section(page: str, name: str) -> str:
    text = page.split(f".SH {name}\n", 1)[1]
    return text.split("\n.SH ", 1)[0]


def test_pasur_1_says_what_pasur_and_the_program_are():
    page = (MAN / "pasur.1").read_text(encoding="utf-8")
    about = section(page, "DESCRIPTION")
    assert "Iranian fishing card game" in about and "captures" in about and "referee and scorekeeper" in about
    assert "pasur check" in about and "pasur tally" in about
    examples = section(page, "EXAMPLES")
    for command in (r"$ pasur new Ali Sara \-\-rules pagat", "$ pasur deal 5C 9D 3H KS", "$ pasur play 2S"):
        assert command in examples, examples
    assert "Sara plays 2♠ and takes 9♦." in examples  # what pasur prints, not a description of it


@pytest.mark.parametrize("name", ["check", "new", "deal", "play", "tally"])
def test_the_commands_a_first_match_uses_have_examples(name):
    page = (MAN / f"pasur-{name}.1").read_text(encoding="utf-8")
    assert f"$ pasur {name} " in section(page, "EXAMPLES")


def test_no_page_hyphenates():
    for page in MAN.glob("*.1"):
        head = page.read_text(encoding="utf-8").split("\n")[:3]
        assert head[1:] == [".nh", ".ad l"], page.name


SHOWN = {"-": "-", "e": "\\", "&": "", "fB": "", "fI": "", "fR": "", "fP": ""}  # troff's escapes as they show


def verbatim_lines(page: str) -> list[tuple[int, str]]:
    """The lines troff shows as they are written (between .nf and .fi), each with the column it
    starts at when read at 80 columns (a section's text at 7, and 4 more inside each .RS 4), its
    escapes (\\-, \\e, \\&, fonts) written as they show."""
    shown, verbatim, indent = [], False, 7
    for line in page.split("\n"):
        if line.startswith(".RS"):
            indent += int(line.split()[1])
        elif line.startswith(".RE"):
            indent = 7
        elif line in (".nf", ".fi"):
            verbatim = line == ".nf"
        elif verbatim:
            shown.append((indent, re.sub(r"\\(f[BIRP]|.)", lambda m: SHOWN.get(m.group(1), m.group(1)), line)))
    return shown


@pytest.mark.parametrize("page", sorted(MAN.glob("*.1")), ids=lambda p: p.stem)
def test_no_line_written_as_it_is_is_wider_than_80_columns(page):
    from wcwidth import wcswidth
    lines = verbatim_lines(page.read_text(encoding="utf-8"))
    wide = [text for indent, text in lines if indent + wcswidth(text) > 80]
    assert not wide, wide


def test_the_verbatim_lines_are_read_where_troff_puts_them():
    lines = verbatim_lines("x\n.nf\nab \\-\\-all\n.fi\n.RS 4\n.nf\n\\&.c \\e&\n.fi\n.RE\n")
    assert lines == [(7, "ab --all"), (11, ".c \\&")]


@pytest.mark.skipif(shutil.which("man") is None or shutil.which("groff") is None, reason="needs man and groff")
@pytest.mark.parametrize("page", sorted(MAN.glob("*.1")), ids=lambda p: p.stem)
def test_read_at_80_columns_lines_break_between_words(page):
    from wcwidth import wcswidth
    env = {**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"}
    shown = subprocess.run(["man", str(page)], capture_output=True, text=True, env=env, check=True).stdout
    lines = re.sub(".\x08", "", shown).splitlines()  # bold and underline drawn by overstriking
    assert len(lines) > 20
    assert all(wcswidth(line) <= 80 for line in lines), [line for line in lines if wcswidth(line) > 80]
    source = page.read_text(encoding="utf-8").replace("\\-", "-")
    broken = [line for line, after in pairwise(lines) if re.search(r"\w[\u2010-]$", line.rstrip())
              and line.split()[-1] + after.split()[0] not in source]
    assert not broken, broken  # no word broken by a hyphen troff put in (head-to-head may break at its own)
