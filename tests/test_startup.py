"""What a command must not load. Start-up is most of a command's time (bench/cli.py), so a
command loads what it uses and nothing costly that it does not: no other command's module, no
analysis engine, no web server, plotext only for `score --chart`, no tabulate or wcwidth without a
table, no json without JSON, no sqlite3 (no store at all) for `check`, and in English (or the C
locale) no translation machinery: no catalog, so no struct to read one. In another language the
catalog is read (struct), and nothing else more.

Each case runs in a process of its own, forked from one that has imported click (as every `pasur`
process has before it imports pasur_cli), with its database and language set before pasur reads
them; what it loaded is compared with the modules it must not load, not with an exact list.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the probe forks one process a case")

# the parent imports only what a pasur process has before pasur_cli: the cases arrive as argv
# (fields split by \x1f: the database, then NAME=VALUE settings, then the command line after "--")
PROBE = """
import os, sys
import click
before = set(sys.modules)
for case in sys.argv[1:]:
    fields = case.split("\\x1f")
    cut = fields.index("--")
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        for setting in fields[:cut]:
            name, _, value = setting.partition("=")
            os.environ[name] = value
        out = os.dup(1)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        from pasur_cli.cli.app import main
        try:
            main(fields[cut + 1:], standalone_mode=False)
        finally:
            sys.stdout.flush()
            os.write(out, (" ".join(sorted(set(sys.modules) - before)) + "\\n").encode())
            os._exit(0)
    os.waitpid(pid, 0)
"""

LANGUAGE_VARIABLES = ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
COMMANDS = "pasur_cli.cli.commands."
# what no command loads but the one that needs it
COSTLY = {"plotext", "pasur_cli.web", "pasur_cli.engine.advice", "pasur_cli.engine.playout", "platformdirs", "babel", "importlib.metadata",
          "struct", "locale", "starlette", "uvicorn", "segno", "anyio", "asyncio"}
NO_TABLE = {"tabulate", "wcwidth"}
NO_STORE = {"sqlite3", "pasur_cli.store"}
CHECK = ["check", "5S", "--table", "AC 2D 4H 5C"]


def under(module: str, names: set[str]) -> bool:
    """Whether ``module`` is one of ``names`` or inside one of them (a package's submodule)."""
    return any(module == name or module.startswith(name + ".") for name in names)


def loaded(cases: list[tuple[str, dict[str, str], list[str]]]) -> list[set[str]]:
    """For each (database, settings, argv) case, the modules `pasur ARGV` loaded beyond click."""
    base = {k: v for k, v in os.environ.items() if k not in LANGUAGE_VARIABLES}
    argv = ["\x1f".join([f"PASUR_DB={db}", *(f"{k}={v}" for k, v in env.items()), "--", *args])
            for db, env, args in cases]
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120,
                          env=base)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(cases), done.stderr
    return [set(line.split()) for line in lines]


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> dict[str, str]:
    """Three databases: a deal being played, the same after a finished (tallied) deal, so read from
    its snapshot, and none at all."""
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    folder = tmp_path_factory.mktemp("startup")
    paths = {name: str(folder / f"{name}.db") for name in ("playing", "snapshot", "none")}
    tally = ["tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
             "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes"]
    for name, steps in (("playing", [["new", "Ali", "Sara"], ["deal", "5C", "9D", "3H", "KS"]]),
                        ("snapshot", [["new", "Ali", "Sara"], tally, ["deal", "5C", "9D", "3H", "KS"]])):
        for step in steps:
            assert CliRunner().invoke(main, ["--db", paths[name], *step], env={"PASUR_LANG": "en"}).exit_code == 0
    return paths


# (database, language settings, command line, what it must not load besides COSTLY and other commands)
CASES = [
    ("none", {}, CHECK, NO_STORE | NO_TABLE | {"json", "zlib", "pasur_cli.engine.match"}),
    *(("none", env, CHECK, NO_STORE | NO_TABLE | {"json"})
      for env in ({"LANG": "en_US.UTF-8"}, {"LC_ALL": "C"}, {"LANG": "C.UTF-8", "LANGUAGE": "fa"}, {"PASUR_LANG": "xx"})),
    ("playing", {}, ["show"], NO_TABLE | {"json", "pasur_cli.engine.stats", "pasur_cli.store.standings",
                                            "pasur_cli.engine.tally"}),
    ("playing", {}, ["play", "2S"], NO_TABLE | {"json", "pasur_cli.engine.stats", "pasur_cli.store.standings",
                                            "pasur_cli.engine.tally"}),
    ("snapshot", {}, ["show"], NO_TABLE | {"json", "pasur_cli.engine.stats", "pasur_cli.store.standings"}),
    ("snapshot", {}, ["play", "2S"], NO_TABLE | {"json", "pasur_cli.engine.stats", "pasur_cli.store.standings"}),
    ("snapshot", {}, ["score"], set()),
    ("snapshot", {}, ["score", "--csv"], set()),
    ("snapshot", {}, ["stats"], set()),
    ("snapshot", {}, ["log"], set()),
    ("snapshot", {}, ["matches"], set()),
]
# in another language the catalog is read: struct, and nothing else more
LANGUAGES = [
    ("playing", {"PASUR_LANG": "fa"}, ["show"], NO_TABLE | {"json"}),
    ("playing", {}, ["--lang", "de", "show"], NO_TABLE | {"json"}),
    ("none", {"LANG": "es_ES.UTF-8"}, CHECK, NO_STORE | NO_TABLE | {"json"}),
]
CHART = ("snapshot", {}, ["score", "--chart"])


@pytest.fixture(scope="module")
def probed(books) -> list[set[str]]:
    every = [*CASES, *LANGUAGES, CHART]
    return loaded([(books[db], env, args) for db, env, args, *_ in every])


def other_commands(args: list[str], modules: set[str]) -> set[str]:
    command = next(a for a in args if not a.startswith("-") and a not in ("de", "fa", "es"))
    return {m for m in modules if m.startswith(COMMANDS) and m != COMMANDS + command}


@pytest.mark.parametrize("number", range(len(CASES)), ids=[" ".join([*c[2][:2], *c[1].values(), c[0]]) for c in CASES])
def test_a_command_loads_nothing_it_does_not_use(probed, number):
    _db, _env, args, must_not = CASES[number]
    modules = probed[number]
    assert f"{COMMANDS}{args[0]}" in modules  # the probe ran the command
    assert not other_commands(args, modules)
    assert not {m for m in modules if under(m, COSTLY | must_not)}, args


@pytest.mark.parametrize("number", range(len(LANGUAGES)))
def test_another_language_loads_only_the_catalog_reader_more(probed, number):
    _db, _env, args, must_not = LANGUAGES[number]
    modules = probed[len(CASES) + number]
    assert "struct" in modules  # the catalog was read
    assert not other_commands(args, modules)
    assert not {m for m in modules if under(m, COSTLY - {"struct"} | must_not)}, args


def test_only_the_chart_imports_plotext(probed):
    assert "plotext" in probed[-1]
    assert not [m for modules in probed[:-1] for m in modules if under(m, {"plotext"})]


def test_serve_loads_the_web_server_only_to_serve(books):
    """`pasur serve --help` (like every other command) loads none of the serve extra."""
    (modules,) = loaded([(books["none"], {}, ["serve", "--help"])])
    assert "pasur_cli.cli.commands.serve" in modules
    assert not {m for m in modules if under(m, {"pasur_cli.web", "starlette", "uvicorn", "segno", "anyio", "asyncio"})}
