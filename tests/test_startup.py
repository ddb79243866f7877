"""What a command loads beyond click: its own command module and the engine parts it uses, never
another command, the store for `check`, tabulate, json or platformdirs on these paths
(start-up is most of a command's time; see bench/cli.py). In English (or the C locale) no
translation machinery either: no catalog, no locale or struct module; in Persian only struct,
which reads the compiled catalog."""

import os
import subprocess
import sys

import pytest

PROBE = """
import sys
import click
before = set(sys.modules)
from pasur_cli.cli.app import main
main(sys.argv[1:], standalone_mode=False)
print(" ".join(sorted(set(sys.modules) - before)))
"""
COMMON = {"pasur_cli", "pasur_cli.cli", "pasur_cli.engine", "pasur_cli.text", "pasur_cli.cli.app", "pasur_cli.cli.commands", "pasur_cli.engine.errors", "pasur_cli.engine.cards",
          "pasur_cli.engine.rules", "pasur_cli.engine.captures", "pasur_cli.text.render", "pasur_cli.engine.values", "pasur_cli.text.i18n"}
ENGLISH = [{"LANG": "en_US.UTF-8"}, {"LC_ALL": "C"}, {"LANG": "C.UTF-8", "LANGUAGE": "fa"}, {"PASUR_LANG": "xx"}, {}]
MATCH = COMMON | {"pasur_cli.engine.deal", "pasur_cli.engine.scoring", "pasur_cli.engine.match", "pasur_cli.store", "pasur_cli.store.database",
                  "sqlite3", "sqlite3.dbapi2", "_sqlite3"}


def loaded(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules `pasur ARGS` loads beyond click, in English unless ``env`` sets a language."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60,
                          env={**base, **(env or {})})
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split("\n")[-2].split())


@pytest.mark.parametrize("args,expected", [
    (["check", "5S", "--table", "AC 2D 4H 5C"], COMMON | {"pasur_cli.cli.commands.check"}),
    (["show"], MATCH | {"pasur_cli.cli.commands.show"}),
    (["play", "2S"], MATCH | {"pasur_cli.cli.commands.play", "pasur_cli.store.actions"}),
])
def test_a_command_loads_only_what_it_uses(pasur, args, expected):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    assert loaded(*args) == expected


@pytest.mark.parametrize("args,expected", [
    (["show"], MATCH | {"pasur_cli.cli.commands.show"}),
    (["play", "2S"], MATCH | {"pasur_cli.cli.commands.play", "pasur_cli.store.actions"}),
])
def test_reading_a_snapshot_loads_no_more(pasur, args, expected):
    """After a finished deal show and play start from its snapshot: its checksum and totals are
    read without zlib or json."""
    pasur("new", "Ali", "Sara")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    pasur("deal", "5C", "9D", "3H", "KS")
    assert loaded(*args) == expected


@pytest.mark.parametrize("env", ENGLISH)
def test_english_loads_no_translation_machinery(pasur, env):
    assert loaded("check", "5S", "--table", "AC 2D 4H 5C", env=env) == COMMON | {"pasur_cli.cli.commands.check"}


def test_another_language_loads_only_the_catalog_reader(pasur):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    expected = MATCH | {"pasur_cli.cli.commands.show", "struct", "_struct"}
    assert loaded("show", env={"PASUR_LANG": "fa"}) == expected
    assert loaded("--lang", "de", "show") == expected


def test_only_the_chart_imports_plotext(pasur):
    pasur("new", "Ali", "Sara")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    for args in (["score"], ["score", "--csv"], ["stats"], ["log"], ["matches"]):
        assert not any(m.split(".")[0] == "plotext" for m in loaded(*args)), args
    assert "plotext" in loaded("score", "--chart")
