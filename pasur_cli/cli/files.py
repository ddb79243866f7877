"""Writing a file whole or not at all (`pasur export`, `pasur event export`)."""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import suppress

from pasur_cli.engine.errors import NotationError
from pasur_cli.store.errors import StoreError
from pasur_cli.store.paths import check_file


def write_atomically(path: str, text: str, force: bool) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file in the same folder, synced,
    then given the name. Without ``force`` the name is taken only if no file has it at that
    instant (a hard link, which the system refuses when the name exists: two exports at once
    cannot both take it, and neither replaces the other); with ``force`` it is renamed over the
    target. Raises StoreError (an existing file, a folder that cannot be written) or NotationError."""
    if os.path.isdir(check_file(path)):
        raise NotationError("{file} is a folder; name a file to write the record to.", file=path)
    if os.path.lexists(path) and not force:  # said early; the link below is what makes it so
        raise _exists(path)
    target = os.path.realpath(path) if force else os.path.abspath(path)  # --force: through a link, its file
    if os.path.exists(target) and not os.path.isfile(target):
        raise NotationError("{file} is not a regular file; leave out -o to write the record to standard output.",
                            file=path)
    folder = os.path.dirname(target)
    data = text.encode("utf-8")
    try:
        fd, temporary = tempfile.mkstemp(prefix=".pasur-export-", suffix=".tmp", dir=folder)
    except OSError as err:
        raise StoreError("cannot write {file} ({reason}); nothing was written.", file=path,
                         reason=err.strerror or err) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        if force:
            os.replace(temporary, target)
        else:
            _take_name(temporary, target, path)
    except OSError as err:
        raise StoreError("cannot write {file} ({reason}); nothing was written.", file=path,
                         reason=err.strerror or err) from None
    finally:
        with suppress(OSError):
            os.unlink(temporary)  # gone already when it was renamed


def _take_name(temporary: str, target: str, path: str) -> None:
    """Give the written file ``target`` as its name unless a file has it: a hard link (refused by
    the system when the name exists), or where the file system has no hard links, the name taken
    by creating it exclusively and then replaced by the written file. Raises StoreError when the
    name is taken."""
    try:
        os.link(temporary, target)
        return
    except FileExistsError:
        raise _exists(path) from None
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.EXDEV):
            raise
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise _exists(path) from None
    os.replace(temporary, target)  # the empty file this export created is the one replaced


def _exists(path: str) -> StoreError:
    return StoreError("{file} already exists; nothing was written (give --force to replace it).", file=path)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
