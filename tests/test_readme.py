"""The console examples of the README and of docs/*.md are run, in order, against a fresh database
(one for each file); their output must match.

Each ```console block holds `$ pasur ...` lines, each followed by the output it prints. To refresh
the outputs after a deliberate change: python tests/test_readme.py --update

`$ pasur session` is shown as a terminal shows it: each prompt followed by what was typed there
(after `› ` or `Which one? `); the test types those lines and the screen must match.
"""

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

README = Path(__file__).parent.parent / "README.md"
EXAMPLES = README.parent / "examples"
DOCS = sorted((README.parent / "docs").glob("*.md"))
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples(text: str):
    """(command, expected output) pairs from every console block, in order."""
    for block in BLOCK.findall(text):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    yield command, "\n".join(output)
                command, output = line[2:], []
            else:
                output.append(line)
        if command:
            yield command, "\n".join(output)


PROMPTED = re.compile(r"(?: › |Which one\? )(.*)$")


def typed(output: str) -> list[str]:
    """What was typed at the prompts of a session transcript."""
    return [m.group(1) for line in output.splitlines() if (m := PROMPTED.search(line))]


def run(command: str, runner: CliRunner, expected: str = "") -> str:
    import functools

    import click

    from pasur_cli.cli.app import main
    from pasur_cli.cli.commands import session
    words = shlex.split(command)
    assert words[0] == "pasur", f"README examples run pasur only: {command}"
    lines = iter(typed(expected))

    def read(prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        click.echo(prompt + line)  # as the terminal shows it
        return line
    original = session.run
    session.run = functools.partial(original, read=read)
    try:
        result = runner.invoke(main, words[1:], prog_name="pasur", catch_exceptions=False)
    finally:
        session.run = original
    return result.output.rstrip("\n")


def english(monkeypatch) -> None:
    """English unless a command's --lang says otherwise."""
    for name in ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def check_examples(path: Path, folder: Path, monkeypatch) -> int:
    """Run the console examples of ``path`` in ``folder`` against a fresh database; each must
    print what the file shows. Returns how many there were."""
    monkeypatch.setenv("PASUR_DB", str(folder / "pasur.db"))
    english(monkeypatch)
    monkeypatch.chdir(folder)
    shutil.copytree(EXAMPLES, folder / "examples")  # the README imports its example records
    runner = CliRunner()
    pairs = list(examples(path.read_text()))
    for command, expected in pairs:
        assert run(command, runner, expected) == expected.rstrip("\n"), f"{path.name} example drifted: $ {command}"
    return len(pairs)


def test_readme_examples(tmp_path, monkeypatch):
    assert check_examples(README, tmp_path, monkeypatch) >= 15


@pytest.mark.parametrize("path", [p for p in DOCS if BLOCK.search(p.read_text())], ids=lambda p: p.name)
def test_docs_examples(path, tmp_path, monkeypatch):
    assert check_examples(path, tmp_path, monkeypatch) >= 1


def test_docs_hold_examples():
    """The docs that show commands are checked: at least the languages page has console examples."""
    assert any(p.name == "languages.md" and BLOCK.search(p.read_text()) for p in DOCS)


def refreshed(text: str, runner: CliRunner) -> str:
    """``text`` with every console block's outputs as the commands print them now."""
    def fill(block: re.Match) -> str:
        lines = []
        for command, expected in examples(block.group(0)):
            out = run(command, runner, expected)
            lines += ["$ " + command, *([out] if out else [])]
        return "```console\n" + "\n".join(lines) + "\n```"
    return BLOCK.sub(fill, text)


def update() -> None:
    import tempfile
    for path in (README, *DOCS):
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["PASUR_DB"] = str(Path(tmp) / "pasur.db")
            os.chdir(tmp)
            shutil.copytree(EXAMPLES, Path(tmp) / "examples")
            path.write_text(refreshed(path.read_text(), CliRunner()))


if __name__ == "__main__" and "--update" in sys.argv:
    update()
