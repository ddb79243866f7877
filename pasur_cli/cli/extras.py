"""The optional extras (``serve``: the scoreboard's web server; ``event``: the pairing engine): the
command that adds one where this pasur was installed from, for a command that finds it missing."""

from __future__ import annotations


def installed_origin() -> str | None:
    """Where this pasur was installed from, as pip recorded it (PEP 610's direct_url.json: a folder,
    an archive, a repository); None when it came from the package index (or nothing says)."""
    from importlib.metadata import distributions
    return next((text for dist in distributions(name="pasur") if (text := dist.read_text("direct_url.json"))), None)


def extra_command(origin: str | None, extra: str) -> str:
    """The command that adds ``extra`` where pasur came from: ``origin`` is its direct_url.json.
    From a folder (a checkout; editable or not) that folder with the extra, else the package
    index's pasur.

    >>> extra_command('{"url": "file:///home/ali/pasur", "dir_info": {"editable": true}}', "serve")
    "pip install -e '/home/ali/pasur[serve]'"
    >>> extra_command('{"url": "file:///home/ali/pasur", "dir_info": {}}', "event")
    "pip install '/home/ali/pasur[event]'"
    >>> extra_command(None, "serve")
    "pip install 'pasur[serve]'"
    """
    import json
    import shlex
    from urllib.parse import urlsplit
    from urllib.request import url2pathname
    try:
        record = json.loads(origin or "{}")
    except ValueError:
        record = {}
    where = record.get("dir_info") if isinstance(record, dict) else None
    url = record.get("url") if isinstance(record, dict) else None
    if isinstance(where, dict) and isinstance(url, str) and url.startswith("file://"):
        folder = url2pathname(urlsplit(url).path)
        return f"pip install {'-e ' if where.get('editable') else ''}{shlex.quote(f'{folder}[{extra}]')}"
    return f"pip install 'pasur[{extra}]'"
