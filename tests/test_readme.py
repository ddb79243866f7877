"""The README's console examples are run, in order, against a fresh database; their output must match.

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

from click.testing import CliRunner

README = Path(__file__).parent.parent / "README.md"
EXAMPLES = README.parent / "examples"
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


def test_readme_examples(tmp_path, monkeypatch):
    monkeypatch.setenv("PASUR_DB", str(tmp_path / "pasur.db"))
    for name in ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # English unless --lang says
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    shutil.copytree(EXAMPLES, tmp_path / "examples")  # the README imports its example records
    runner = CliRunner()
    pairs = list(examples(README.read_text()))
    assert len(pairs) >= 15
    for command, expected in pairs:
        assert run(command, runner, expected) == expected.rstrip("\n"), f"README example drifted: $ {command}"


def update() -> None:
    import tempfile
    text = README.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PASUR_DB"] = str(Path(tmp) / "pasur.db")
        os.chdir(tmp)
        shutil.copytree(EXAMPLES, Path(tmp) / "examples")
        runner = CliRunner()

        def fill(block: re.Match) -> str:
            lines = []
            for command, expected in examples(block.group(0)):
                out = run(command, runner, expected)
                lines += ["$ " + command, *([out] if out else [])]
            return "```console\n" + "\n".join(lines) + "\n```"
        README.write_text(BLOCK.sub(fill, text))


if __name__ == "__main__" and "--update" in sys.argv:
    update()
