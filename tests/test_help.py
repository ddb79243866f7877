"""Every command and option has help text, and the committed man pages match the app."""

import importlib.util
from pathlib import Path

import click
import pytest

from pasur_cli.cli.app import main

ROOT = Path(__file__).parent.parent


def all_commands():
    yield "pasur", main
    yield from main.load_all().items()


@pytest.mark.parametrize("name,command", list(all_commands()))
def test_every_command_and_option_has_help(name, command):
    assert (command.help or "").strip(), f"{name} has no help text"
    for param in command.params:
        if isinstance(param, click.Option):
            assert (param.help or "").strip(), f"{name} {param.opts} has no help text"


def test_man_pages_have_not_drifted(tmp_path):
    spec = importlib.util.spec_from_file_location("generate", ROOT / "man" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    generate.generate(tmp_path)
    fresh = {p.name: p.read_text() for p in tmp_path.glob("*.1")}
    committed = {p.name: p.read_text() for p in (ROOT / "man").glob("*.1")}
    assert set(fresh) == set(committed), "man pages added or removed: run python man/generate.py"
    for name, text in fresh.items():
        assert committed[name] == text, f"man/{name} is stale: run python man/generate.py"
    commands = main.load_all()
    subcommands = {f"pasur-{c}-{s}.1" for c, command in commands.items() for s in getattr(command, "commands", {})}
    assert {f"pasur-{c}.1" for c in commands} | subcommands | {"pasur.1"} == set(committed)


def test_man_pages_name_lines_are_whole_sentences():
    for page in (ROOT / "man").glob("*.1"):
        name = page.read_text().split(".SH NAME\n", 1)[1].split("\n", 1)[0]
        assert not name.endswith("...") and name.endswith("."), f"{page.name}: {name}"


def test_the_session_help_and_page_list_every_session_command():
    from click.testing import CliRunner

    from pasur_cli.cli.commands.session import COMMANDS
    shown = CliRunner().invoke(main, ["session", "--help"], env={"PASUR_LANG": "en"}).output
    page = (ROOT / "man" / "pasur-session.1").read_text()
    listed = shown.split("In the session, type:\n", 1)[1].split("\n\n", 1)[0]
    words = {word.rstrip(",") for line in listed.splitlines() for word in line.split()[:2]}
    # every command but deal (its table is typed as four cards, the first line's example)
    assert {c for c in COMMANDS if c != "deal"} <= words, listed
    for word in ("7c 4d", "undo [N]", "hint CARDS", "review", "help, quit", "Ctrl-C"):
        assert word in listed and word in page, word


def test_man_pages_are_installed_with_the_package():
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["data-files"] == {"share/man/man1": ["man/*.1"]}


@pytest.mark.parametrize("columns", [60, 80, 200])
@pytest.mark.parametrize("preset", [[], ["pagat"]])
def test_rules_fit_the_terminal(columns, preset, monkeypatch):
    from click.testing import CliRunner
    from wcwidth import wcswidth

    from pasur_cli.engine.rules import MEANINGS
    monkeypatch.setenv("COLUMNS", str(columns))
    text = CliRunner().invoke(main, ["rules", *preset]).output
    lines = text.splitlines()
    assert max(wcswidth(line) for line in lines) < columns or columns < 70
    start = lines[1].rindex(" ") + 1  # where the meaning column starts
    meanings, current = [], None
    for line in lines[2:]:
        if line[:start].strip():
            current = [line[start:].strip()]
            meanings.append(current)
        else:
            current.append(line[start:].strip())
    # every meaning whole, words never cut
    assert [" ".join(m) for m in meanings] == list(MEANINGS.values())
    if columns == 200:
        assert len(lines) == 2 + len(MEANINGS)


def test_rules_json_does_not_depend_on_the_width(monkeypatch):
    import json

    from click.testing import CliRunner
    outputs = set()
    for columns in ("40", "80", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        outputs.add(CliRunner().invoke(main, ["rules", "--json"]).output)
    assert len(outputs) == 1 and json.loads(outputs.pop())["meanings"]["target"].startswith("a match ends")


@pytest.mark.parametrize("lang", ["en", "de", "es", "fa"])
def test_the_session_help_fits_80_columns_in_every_language(lang):
    from click.testing import CliRunner
    from wcwidth import wcswidth
    shown = CliRunner().invoke(main, ["--lang", lang, "session", "--help"], env={"COLUMNS": "80"}).output
    assert "7c 4d" in shown and "review" in shown and "hint" in shown
    assert max(map(wcswidth, shown.splitlines())) <= 80, shown  # the session's lines are written as they are
