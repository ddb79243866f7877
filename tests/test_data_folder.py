"""The database's default place is platformdirs' user data folder for "pasur"."""

import json
import os
import subprocess
import sys

import pytest

from pasur_cli.store.paths import default_path, user_data_dir

ASK = """
import json, sys
from platformdirs import user_data_dir as reference
from pasur_cli.store.paths import user_data_dir
print(json.dumps([reference("pasur", appauthor=False), user_data_dir()]))
"""


@pytest.mark.parametrize("xdg", [None, "", "/srv/data"])
def test_same_folder_as_platformdirs_here(xdg, tmp_path):
    env = dict(os.environ, HOME=str(tmp_path))
    env.pop("XDG_DATA_HOME", None)
    if xdg is not None:
        env["XDG_DATA_HOME"] = xdg
    reference, ours = json.loads(subprocess.run([sys.executable, "-c", ASK], env=env, capture_output=True,
                                                text=True, check=True).stdout)
    assert ours == reference
    assert not os.listdir(tmp_path)  # asking creates nothing


def test_same_folder_as_platformdirs_on_macos(monkeypatch, tmp_path):
    from platformdirs.macos import MacOS
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_data_dir("darwin") == MacOS("pasur", appauthor=False).user_data_dir


def test_same_folder_as_platformdirs_on_windows(monkeypatch):
    """platformdirs asks the Windows shell for the local application data folder; here it is told to
    read it from LOCALAPPDATA, as platformdirs itself does where the shell cannot be asked."""
    from platformdirs import windows
    monkeypatch.setattr(windows, "get_win_folder", windows.get_win_folder_from_env_vars)
    monkeypatch.setenv("LOCALAPPDATA", r"C:\Users\ali\AppData\Local")
    assert user_data_dir("win32") == windows.Windows("pasur", appauthor=False).user_data_dir


def test_pasur_db_wins(monkeypatch):
    monkeypatch.setenv("PASUR_DB", "/tmp/elsewhere.db")
    assert default_path() == "/tmp/elsewhere.db"
    monkeypatch.delenv("PASUR_DB")
    assert default_path() == os.path.join(user_data_dir(), "pasur.db")
