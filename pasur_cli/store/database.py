"""The record book on disk: the SQLite database that holds every match as its players, rules and log.

``Store`` is one file with every job the commands ask of it, made of one class a job, each its
own module:

    health.StoreFile   the file opened (or made), its header and schema checked, an older one
                       migrated; reopen, close, check_file, hold_little, waiting
    reads.Reads        the queries: load, match, current, deal_actions, match_ids, summary,
                       stored_revision, stored_as, imported_as, rules_of, ...
    standings          every match's standing at once (`matches`, `stats`): Store.standings
    writes.Writes      the writes: transaction, create, delete, changing (a ``Change``)

A match's state is replayed from its log through the engine; each finished deal leaves a snapshot
row (``snapshots``) so that a long match resumes from its newest (``resume``) instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pasur_cli.store.change import Change, checked_text, new_key, now
from pasur_cli.store.records import Expected, MatchRecord, parse_expected
from pasur_cli.store.schema import SCHEMA, SCHEMA_VERSION
from pasur_cli.store.writes import Writes

if TYPE_CHECKING:
    from pasur_cli.engine.stats import Standing
    from pasur_cli.store.errors import DamagedError

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Change", "Expected", "MatchRecord", "Store", "checked_text", "new_key",
           "now", "parse_expected"]


class Store(Writes):
    """One database file, opened for reading, or for writing with ``write``; only ``create`` makes
    a missing file (with its folder). A file migrated to schema 4 or later on opening has its
    snapshots chained again here (``Writes._chain_every_match``). Raises StoreError (or its kinds)
    for a path or file that is not a pasur database this version can read."""

    def __init__(self, path: str | None = None, write: bool = False, create: bool = False,
                 waiting: Any = None) -> None:
        super().__init__(path, write, create, waiting)
        if self._unchained:
            self._chain_every_match()

    def standings(self) -> list[tuple[int, Standing | DamagedError]]:
        """Every match's standing, what `matches` lists and `stats` adds up (``standings.standings``,
        loaded when asked: a command on one match does not load it). Raises StoreError."""
        from pasur_cli.store.standings import standings
        return standings(self)
