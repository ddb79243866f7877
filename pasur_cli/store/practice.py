"""The results of `pasur practice` in the record book: per position practised (a match, a deal, a
play), whether the last answer found the best option, how many answers in all, and when it was
last practised (a counter). They never touch a match: only the ``practice`` table is written, and
deleting a match deletes its rows (the table's foreign key cascades)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from pasur_cli.engine.cards import Card
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.practice import Key, Practised
from pasur_cli.engine.reading import N_
from pasur_cli.store.connection import failure

if TYPE_CHECKING:
    from pasur_cli.store.database import Store


def practised(store: Store) -> dict[Key, Practised]:
    """Every position practised so far, by (match, deal, play). A row that is not what pasur
    writes (a value of the wrong type, a card that is none) counts as never practised: the next
    answer there writes it again. Raises StoreError when the file cannot be read."""
    try:
        rows = store.db.execute("SELECT match_id, deal, play, card, found, tries, seen FROM practice").fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise failure(err, store.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
    out: dict[Key, Practised] = {}
    for mid, deal, play, code, found, tries, seen in rows:
        if not all(type(v) is int for v in (mid, deal, play, found, tries, seen)) or not isinstance(code, str):
            continue
        try:
            card = Card.parse(code)
        except NotationError:
            continue
        out[(mid, deal, play)] = Practised(card, bool(found), tries, seen)
    return out


def record(store: Store, key: Key, card: Card, found: bool) -> None:
    """Keep one answer at the position ``key`` (match, deal, play) where ``card`` was played: found
    or missed, one try more, practised the most recently. Raises StoreError when the file cannot be
    written (nothing is then kept)."""
    with store.transaction() as db:
        db.execute("INSERT INTO practice (match_id, deal, play, card, found, tries, seen)"
                   " VALUES (?, ?, ?, ?, ?, 1, (SELECT coalesce(max(seen), 0) + 1 FROM practice))"
                   " ON CONFLICT (match_id, deal, play) DO UPDATE SET card = excluded.card, found = excluded.found,"
                   " tries = CASE WHEN card = excluded.card AND typeof(tries) = 'integer' THEN tries + 1 ELSE 1 END,"
                   " seen = excluded.seen", (*key, card.code, int(found)))
