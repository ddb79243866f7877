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


def generate(target: Path) -> None:
    set_language("en")  # the man pages stay English, whatever language this process speaks
    main.load_all()  # click-man reads the commands loaded so far
    click_man.core.get_short_help_str = _summary  # type: ignore[assignment]
    write_man_pages("pasur", main, version=__version__, target_dir=str(target), date=DATE)
    for page in Path(target).glob("*.1"):
        page.write_text(_verbatim(page.read_text()))


if __name__ == "__main__":
    generate(Path(__file__).parent)
