"""The rows of `pasur matches`, shared by the command and the session's `matches`."""

from __future__ import annotations

from pasur_cli.engine.names import name_key
from pasur_cli.store.database import Store
from pasur_cli.store.errors import DamagedError
from pasur_cli.store.tables import table_names
from pasur_cli.text import shapes


def listing(store: Store, player: str | None = None, unfinished: bool = False) -> list[dict[str, object]]:
    """The rows of `matches` (and of the session's `matches`): every match, most recent first, a
    damaged one with its reason whatever ``unfinished`` says (it needs looking at)."""
    rows: list[dict[str, object]] = []
    for mid, read in store.standings():  # every snapshot checked, as score checks them
        if isinstance(read, DamagedError):
            rows.append(shapes.damaged_row(mid, store.summary(mid)[0], read.reason))
            continue
        rows += shapes.matches_rows([read])
    tables = table_names(store)
    for row in rows:
        row["table"] = tables.get(row["match"])  # type: ignore[call-overload]
    return filtered(rows, player, unfinished)


def filtered(rows: list[dict[str, object]], player: str | None, unfinished: bool) -> list[dict[str, object]]:
    """The ``rows`` with ``player`` (compared as names are), not finished when ``unfinished``."""
    name = None if player is None else name_key(player)
    return [r for r in rows
            if (name is None or any(name_key(p) == name for p in r["players"]))  # type: ignore[attr-defined]
            and not (unfinished and r["finished"])]
