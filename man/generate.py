"""Regenerate the man pages in this folder from the click app: python man/generate.py

The date is the package version's, not today's, so regenerating unchanged help changes nothing.
The pages are installed with the package (pyproject.toml: share/man/man1), so `man pasur` and
`man pasur-play` work wherever the `pasur` command is on PATH.
"""

import re
from pathlib import Path

import click
import click_man.core
from click_man.core import write_man_pages

from pasur_cli import __version__
from pasur_cli.cli.app import main
from pasur_cli.text.i18n import set_language

DATE = "2026-11-30"


def _summary(command: click.Command, limit: int = 45) -> str:
    """A command's NAME line: its help's whole first sentence, not click's 45-column cut."""
    if command.short_help:
        return command.short_help
    first = (command.help or "").split("\n\n")[0]
    return " ".join(first.split())


def _verbatim(text: str) -> str:
    """Help paragraphs click keeps as written (marked with \\b) as no-fill blocks in troff."""
    return re.sub(r"\x08\n(.*?)(?=\n\.PP|\n\.SH|\Z)", lambda m: ".nf\n" + m.group(1) + "\n.fi", text, flags=re.S)


ABOUT = """\
Pasur (also called Chahar Barg) is the Iranian fishing card game for two, three or four players
(four play as two teams) with a 52-card deck. Four cards lie face up on the table; each player in
turn plays a card from the hand and captures with it: a numeral takes table numerals that make 11
with it, a king takes a king, a queen a queen, a jack every numeral and jack on the table.
Clearing the table is a sur. At the end of a deal each side scores its clubs, the 2 of clubs,
the 10 of diamonds, aces, jacks and surs; the first side to reach the target (62) wins.

pasur is a referee and scorekeeper for a match played at a real table with a real deck: one
player types each card as it is played. pasur checks that the card can be where it is said to be,
works out what it captures (or asks which capture, when the rules give a choice), tracks surs and
the last capture, gives the table left at the end of a deal to the last capturer, and keeps the
score. It also answers whether a capture is legal without a match (pasur check), scores a deal that
was not entered card by card (pasur tally), and keeps every match in one file (pasur matches,
pasur stats). Rule presets: standard (the default) and pagat; see pasur rules.
"""

# Each page's EXAMPLES: the commands (run on a fresh database when the pages are generated, so
# their output is the program's own), after setting-up commands that are not shown.
EXAMPLES: dict[str, tuple[list[str], list[str]]] = {
    "pasur": ([], ["new Ali Sara --rules pagat", "deal 5C 9D 3H KS", "play 2S", "play 6H", "play 5S",
                   "play 3C", "score"]),
    "check": ([], ["check 5S --table \"AC 2D 4H 5C\" --rules pagat", "check 7D --table \"5C 4H\" --take 5C"]),
    "new": ([], ["new Ali Sara", "new Ali Sara Reza Mina --dealer Sara"]),
    "deal": (["new Ali Sara"], ["deal JC 9D 3H KS", "deal 5C 9D 3H KS"]),
    "play": (["new Ali Sara", "deal 5C 9D 3H KS"], ["play 2S", "play 6H --by Ali", "play 5S --take 3H"]),
    "tally": (["new Ali Sara"], ["tally --count \"Ali: clubs=8 aces=2 jacks=1 2c=yes\""
                                 " --count \"Sara: clubs=5 aces=2 jacks=3 10d=yes\" --surs Sara=1"]),
}


def _run(commands: tuple[list[str], list[str]]) -> str:
    """The shown commands and what they print, run after the set-up ones on a fresh database."""
    import os
    import shlex
    import tempfile

    from click.testing import CliRunner
    with tempfile.TemporaryDirectory() as folder:
        env = {"PASUR_DB": os.path.join(folder, "pasur.db"), "COLUMNS": "68", "NO_COLOR": "1"}
        runner = CliRunner()
        setup, shown = commands
        for line in setup:
            runner.invoke(main, shlex.split(line), env=env, prog_name="pasur")
        out = []
        for line in shown:
            result = runner.invoke(main, shlex.split(line), env=env, prog_name="pasur")
            out += [_fold(f"$ pasur {line}", " \\"), *(_fold(text) for text in result.output.rstrip("\n").split("\n"))]
    return "\n".join(out)


def _fold(line: str, mark: str = "", width: int = 68) -> str:
    """A line of an example broken between words to fit ``width`` columns (a man page at 80
    columns indents examples 11): a command's lines end in `` \\`` so that it can be pasted."""
    import textwrap
    if len(line) <= width:
        return line
    parts = textwrap.wrap(line, width - len(mark), subsequent_indent="    ", break_long_words=False,
                          break_on_hyphens=False)
    return (mark + "\n").join(parts)


def _troff(text: str) -> str:
    """Plain text as troff lines: backslashes and hyphens escaped (a command's - stays a minus
    sign that can be copied), a line starting with . or ' kept as text."""
    lines = text.replace("\\", "\\e").replace("-", "\\-").split("\n")
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line for line in lines)


def _sections(page: str, name: str) -> str:
    """A page with words that break only between words (no hyphenation, ragged right), the
    program's own DESCRIPTION on pasur(1), and EXAMPLES where there are some."""
    page = re.sub(r"^(\.TH .*)$", r"\1\n.nh\n.ad l", page, count=1, flags=re.M)
    if name == "pasur":
        about = "\n.PP\n".join(_troff(" ".join(p.split())) for p in ABOUT.strip().split("\n\n"))
        page = re.sub(r"(\.SH DESCRIPTION\n)(.*?)(?=\n\.SH )", lambda m: m.group(1) + about, page, count=1,
                      flags=re.S)
    if name in EXAMPLES:
        lead = "A first match, as a table enters it:" if name == "pasur" else "For example:"
        page = page.rstrip("\n") + "\n.SH EXAMPLES\n" + lead + "\n.PP\n.nf\n.RS 4\n" + \
            _troff(_run(EXAMPLES[name])) + "\n.RE\n.fi\n"
    return page


def generate(target: Path) -> None:
    set_language("en")  # the man pages stay English, whatever language this process speaks
    main.load_all()  # click-man reads the commands loaded so far
    click_man.core.get_short_help_str = _summary  # type: ignore[assignment]
    write_man_pages("pasur", main, version=__version__, target_dir=str(target), date=DATE)
    for page in Path(target).glob("*.1"):
        name = page.stem.removeprefix("pasur-") if page.stem != "pasur" else "pasur"
        page.write_text(_sections(_verbatim(page.read_text()), name))


if __name__ == "__main__":
    generate(Path(__file__).parent)
