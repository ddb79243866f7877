"""Where the record book lives: the default path (``PASUR_DB``, else the user data folder), and
the checks that a path names one file on disk."""

from __future__ import annotations

import os
import sys

from pasur_cli.store.errors import PathError

APP = "pasur"


def default_path() -> str:
    """``PASUR_DB`` if set, else pasur/pasur.db in the user data folder."""
    if "PASUR_DB" in os.environ:
        return os.environ["PASUR_DB"]
    return os.path.join(user_data_dir(), "pasur.db")


def check_path(path: str) -> str:
    """``path`` when it names one file on disk; raises PathError (exit 2) for an empty path,
    ``:memory:``, a ``file:`` URI or text the file system cannot hold."""
    if not path.strip():
        raise PathError("the database path is empty: name a file, e.g. --db pasur.db.")
    if path == ":memory:" or path.lower().startswith("file:"):
        raise PathError("{path}: pasur keeps its matches in a file; name the file itself"
                        " (not :memory: or a file: URI).", path=path)
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise PathError("the database path {path} is not valid text; rename the file or choose another.",
                        path=ascii(path)) from None
    if "\x00" in path:
        raise PathError("the database path holds a NUL character.")
    return path


def check_file(path: str) -> str:
    """``path`` when a file may have that name (a record to import or write); raises PathError
    (exit 2) for a NUL character, which no file name holds (the system would refuse it with a
    ValueError rather than an OSError)."""
    if "\x00" in path:
        raise PathError("{file}: a file name cannot hold a NUL character.", file=path)
    return path


def user_data_dir(platform: str = sys.platform) -> str:
    """pasur's folder in the user data folder: the folder platformdirs' ``user_data_dir("pasur",
    appauthor=False)`` names (tests hold the two equal), without importing platformdirs at the
    start of every command."""
    if platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser(r"~\AppData\Local")
    elif platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
    return os.path.join(base, APP)


def sqlite_uri(path: str) -> str:
    """A file: URI for SQLite (percent-escaping the characters a URI path cannot hold)."""
    escaped = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return "file:" + escaped
