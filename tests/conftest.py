import gc
import os
import signal
import sys
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import settings

# Temporary folders (tmp_path, hence every test database) in memory where the system has one and
# TMPDIR does not say otherwise: each command commits with fsync, and on a disk shared with other
# work that made the quick suite twice as slow. Nothing a test
# checks depends on the disk: a killed process's committed writes are in the page cache either way.
if "TMPDIR" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    tempfile.tempdir = "/dev/shm"

# The processes a test starts run pasur as a user's Python does, with its bytecode cache: where the
# environment turns the cache off (PYTHONDONTWRITEBYTECODE), every pasur process and every test
# worker would compile every module again. The workers start after this file is read.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# A suite started in the background (`pytest &` in a script, nohup) inherits SIGINT ignored, and so
# would every pasur it starts: the tests that press Ctrl-C at a terminal would wait for ever. The
# processes a test starts get SIGINT's default, as at a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Property tests: the README's quick command runs the "quick" profile, each test its smoke sample
# (tier.sized) drawn the same way every run (derandomized: no luck); .ci/run runs every property
# test again with `--hypothesis-profile=thorough`, twenty times the examples, drawn afresh.
# Not named "ci": hypothesis loads its own "ci" profile by itself whenever CI=true, and under that
# name this one made the README's quick command in CI run ten times the examples.
settings.register_profile("quick", max_examples=25, derandomize=True)  # half of tier.BASE
settings.register_profile("thorough", max_examples=500)
settings.load_profile("quick")  # --hypothesis-profile, read after this file, overrides it


def pytest_collection_finish(session):
    """What collection made (every test module, hypothesis, the package) lives to the end: frozen,
    Python's cycle collector stops walking it again at every full collection."""
    gc.freeze()


def pytest_ignore_collect(collection_path, config):
    """The browser tests' file is not even imported where the mark expression leaves them out (the
    README's command): Selenium is slow to import, and every worker would import it."""
    if collection_path.name == "test_serve_browser.py" and "not browser" in (config.getoption("markexpr") or ""):
        return True
    return None


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A fresh database path, also in PASUR_DB for commands run in-process and in subprocesses."""
    path = tmp_path / "pasur.db"
    monkeypatch.setenv("PASUR_DB", str(path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name in ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # English, unless a test says
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("PASUR_MATCH", raising=False)  # the match a shell chose is not the test's
    return path


@pytest.fixture(autouse=True)
def english():
    """Every test starts in English: the language is chosen per process, and tests share one."""
    from pasur_cli.text import i18n
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def pasur(db):
    """Run `pasur ARGS...` in-process against the test database; returns click's Result."""
    from pasur_cli.cli.app import main

    def run(*args, input=None):
        return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return run
