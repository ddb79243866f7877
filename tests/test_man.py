"""The man pages say what Pasur and the program are (DESCRIPTION), show a first match (EXAMPLES,
the program's own output), and break lines only between words when read at 80 columns."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
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


@pytest.mark.skipif(shutil.which("man") is None or shutil.which("groff") is None, reason="needs man and groff")
@pytest.mark.parametrize("name", ["pasur", "pasur-tally", "pasur-check", "pasur-play", "pasur-deal", "pasur-new"])
def test_read_at_80_columns_lines_break_between_words(name):
    env = {**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"}
    shown = subprocess.run(["man", str(MAN / f"{name}.1")], capture_output=True, text=True, env=env,
                           check=True).stdout
    lines = re.sub(".\x08", "", shown).splitlines()  # bold and underline drawn by overstriking
    assert len(lines) > 20
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    broken = [line for line in lines if re.search(r"\w[\u2010-]$", line.rstrip())]
    assert not broken, broken  # no word broken by a hyphen
