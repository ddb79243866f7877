"""Every command and option has help text, and the committed man pages match the app."""

import importlib.util
from pathlib import Path

import click
import pytest

from pasur_cli.cli import main

ROOT = Path(__file__).parent.parent


def all_commands():
    yield "pasur", main
    for name, command in main.load_all().items():
        yield name, command


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
    assert {f"pasur-{c}.1" for c in main.load_all()} | {"pasur.1"} == set(committed)
