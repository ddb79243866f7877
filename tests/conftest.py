import pytest
from click.testing import CliRunner


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A fresh database path, also in PASUR_DB for commands run in-process and in subprocesses."""
    path = tmp_path / "pasur.db"
    monkeypatch.setenv("PASUR_DB", str(path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name in ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # English, unless a test says
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture(autouse=True)
def english():
    """Every test starts in English: the language is chosen per process, and tests share one."""
    from pasur_cli import i18n
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def pasur(db):
    """Run `pasur ARGS...` in-process against the test database; returns click's Result."""
    from pasur_cli.cli import main

    def run(*args, input=None):
        return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return run
