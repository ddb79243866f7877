"""Regenerate the man pages in this folder from the click app: python man/generate.py

The date is the package version's, not today's, so regenerating unchanged help changes nothing.
"""

from pathlib import Path

from click_man.core import write_man_pages

from pasur_cli import __version__
from pasur_cli.cli import main
from pasur_cli.i18n import set_language

DATE = "2026-11-30"


def generate(target: Path) -> None:
    set_language("en")  # the man pages stay English, whatever language this process speaks
    main.load_all()  # click-man reads the commands loaded so far
    write_man_pages("pasur", main, version=__version__, target_dir=str(target), date=DATE)


if __name__ == "__main__":
    generate(Path(__file__).parent)
