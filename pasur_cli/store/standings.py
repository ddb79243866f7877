"""Every match's standing, what `matches` lists and `stats` adds up: read with three queries for
the whole file rather than a dozen a match. A
match whose snapshots all check out at once (``chain_holds``) is read from its newest snapshot,
with the deal in progress replayed; any other is read alone, by ``Reads.checked``, which says what
is wrong."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.names import side_names, sides_of
from pasur_cli.engine.reading import N_
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import match_winner
from pasur_cli.store.connection import failure
from pasur_cli.store.errors import DamagedError, NoMatchError
from pasur_cli.store.reads import Reads
from pasur_cli.store.snapshots import EVERY_BOOK, EVERY_LOG, chain_holds, figures_from, json_totals

if TYPE_CHECKING:
    from pasur_cli.engine.stats import Standing  # imported where used: a store that lists no matches loads no stats


def standings(store: Reads) -> list[tuple[int, Standing | DamagedError]]:
    """Every match's standing (what `matches` lists and `stats` adds up), most recently changed
    first, or the DamagedError that says why it cannot be replayed: a match whose snapshots all
    check out at once (``chain_holds``) is read from its newest snapshot, with the deal in
    progress replayed; any other is read alone, by ``checked`` (every snapshot checked deal by
    deal), which says what is wrong. Raises StoreError when the file cannot be read."""
    from pasur_cli.engine.stats import standing_of
    try:
        identity = "key, revision" if store.schema >= 3 else "NULL, -1"
        heads = store.db.execute(f"SELECT id, created, players, rules, dealer, touched, {identity} FROM matches"
                                " ORDER BY touched DESC, id DESC").fetchall()
        held: dict[int, Any] = {}  # the matches whose snapshots all check out: their newest
        if store.schema >= 4 and not store.legacy:
            stored = {head[0]: (head[2], head[3], head[4]) for head in heads}
            books = {row[0]: row[1:] for row in store.db.execute(EVERY_BOOK)}
            for mid, *log in store.db.execute(EVERY_LOG):  # each match's log checked as it comes
                book, head = books.pop(mid, None), stored.get(mid)
                if book is not None and head is not None and chain_holds(head, book, log):
                    held[mid] = (*book[:-1], log[0] - book[1])  # the rows' text no longer needed
            del books
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise failure(err, store.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
    rules_read: dict[object, Rules] = {}
    out: list[tuple[int, Standing | DamagedError]] = []
    for head in heads:
        mid = head[0]
        try:
            quick = _standing(store, head, held.get(mid), rules_read)
        except Exception:  # anything that does not check out: read alone, the careful way
            quick = None
        read: Standing | DamagedError
        try:
            if quick is None:
                record, match = store.checked(mid)
                quick = standing_of(mid, record.created, match)
            read = quick
        except DamagedError as err:
            store.mismatched.pop(mid, None)  # damaged, said as such
            read = err
        except NoMatchError:
            continue  # deleted by another program since the list was read: not listed, as after it
        out.append((mid, read))
    return out

def _standing(store: Reads, head: Any, book: Any, rules_read: dict[object, Rules]) -> Standing | None:
    """One match's standing from its row and its newest snapshot (``book``: the row of EVERY_BOOK
    whose chain held, with the number of actions after it in place of the rows' text), or None
    when anything does not check out (or there is no such snapshot)."""
    from pasur_cli.engine.stats import Standing
    if book is None:
        return None
    mid, created, players, rules_text, dealer, _, key, revision = head
    if (not isinstance(created, str) or type(revision) is not int or revision < (0 if store.schema >= 3 else -1)
            or (key is not None and not isinstance(key, str))):
        return None
    if rules_text not in rules_read:
        rules_read[rules_text] = store.rules_of(rules_text)
    names, rules = players.split("\n"), rules_read[rules_text]
    if not 0 <= dealer < len(names):
        return None
    deals, _, _, _, _, totals_text, figures_text, after = book
    seats, sides = side_names(names, rules.teams), sides_of(names, rules.teams)
    stored = json_totals(store.db, totals_text)
    figures = figures_from(figures_text, sides)
    if stored is None or figures is None or sorted(stored) != sorted(sides):
        return None
    totals = {side: stored[side] for side in sides}
    if after:  # a deal going on: replayed, and it must not have finished one (else: read alone)
        _, match = store.match(mid)
        if len(match.results) != deals:
            return None
        totals = dict(match.totals)
    return Standing(mid, created, tuple(names), tuple(seats), rules.preset, deals, totals,
                    match_winner(totals, deals, rules), figures)
