"""The click layer in every language: yes/no questions answered in the reader's words, counts
refused in the reader's sentences (never click's "integer range"), option descriptions offered
to shell completion in the reader's language, and a record that is not JSON said with facts."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_i18n import assert_no_english

from pasur_cli.cli import main


# -- shell completion ----------------------------------------------------------------------------
def completions(shell: str, words: str, code: str) -> list[tuple[str, str]]:
    """(value, description) of each completion `shell` is offered for the command line ``words``."""
    env = {"_PASUR_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "PASUR_LANG": code,
           "COMP_CWORD": words.rsplit(" ", 1)[-1] if shell == "fish" else str(len(words.split(" ")) - 1)}
    output = CliRunner().invoke(main, [], env=env, prog_name="pasur", complete_var="_PASUR_COMPLETE").output
    if shell == "fish":
        return [tuple([*line.split(",", 1)[1].split("\t", 1), ""])[:2] for line in output.splitlines()]
    lines = output.splitlines()
    return [(lines[i + 1], lines[i + 2]) for i in range(0, len(lines), 3)]


@pytest.mark.parametrize("shell", ["fish", "zsh"])
@pytest.mark.parametrize("words", ["pasur play --", "pasur --", "pasur ", "pasur undo --", "pasur check 5C --r"])
def test_completion_describes_options_in_the_language(db, shell, words):
    english = dict(completions(shell, words, "en"))
    german = dict(completions(shell, words, "de"))
    assert english.keys() == german.keys() and english
    described = [text for name, text in german.items() if english[name]]
    assert described and all(text != english[name] for name, text in german.items() if english[name])
    assert_no_english("\n".join(described), "de")
