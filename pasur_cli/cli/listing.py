"""The rows of `pasur matches`, shared by the command and the session's `matches`."""

from __future__ import annotations

from pasur_cli.engine.names import name_key
from pasur_cli.store.database import DamagedError, Store
from pasur_cli.text import render


def listing(store: Store, player: str | None = None, unfinished: bool = False) -> list[dict[str, object]]:
    """The rows of `matches` (and of the session's `matches`): every match, most recent first, a
    damaged one with its reason whatever ``unfinished`` says (it needs looking at)."""
    rows: list[dict[str, object]] = []
    name = None if player is None else name_key(player)
    for mid, read in store.all_checked():  # every snapshot checked, as score checks them
        if isinstance(read, DamagedError):
            players = store.summary(mid)[0]
            if name is None or any(name_key(p) == name for p in players):
                rows.append(render.damaged_row(mid, players, read.reason))
            continue
        record, match = read
        if name is not None and not any(name_key(p) == name for p in match.players):
            continue
        if unfinished and match.finished:
            continue
        rows += render.matches_rows([(mid, record.created, match)])
    return rows
