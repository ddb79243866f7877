"""The record book's queries: a stored match read (``load``), resumed and replayed (``match``), the
match every front end means (``current``), one deal's actions (``deal_actions``) and the
questions asked of a match without replaying it (every match's standing: ``standings``). Reads never
change the file.

A match is read from its newest snapshot when that is trusted (``newest_snapshot``: the running
checksums hold), replaying only what came after; else from its whole log, and the stored rows are
compared with it (a deal whose figures do not match is noted in ``mismatched``). A match whose log
no longer replays is *damaged*: reading it raises DamagedError naming the reason, and the other
matches are unaffected.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from pasur_cli.engine.action import Action, read_action, read_line
from pasur_cli.engine.errors import NotationError, Words, shorten
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.reading import N_
from pasur_cli.engine.rules import Rules, rules_lines, stored_rules
from pasur_cli.store.connection import failure, is_busy
from pasur_cli.store.errors import DamagedError, StoreError, check_rows
from pasur_cli.store.health import StoreFile
from pasur_cli.store.records import Expected, MatchRecord, check_id, damage_reason, no_match, unreadable
from pasur_cli.store.resume import newest_snapshot
from pasur_cli.store.snapshots import (
    as_json,
    first_mismatch,
    read_object,
)


class Reads(StoreFile):
    """The queries of one database file (see ``StoreFile`` for opening it). The match last replayed
    is kept, so that a change in the same command need not replay it again."""

    def __init__(self, path: str | None = None, write: bool = False, create: bool = False,
                 waiting: Any = None) -> None:
        super().__init__(path, write, create, waiting)
        self._replayed: tuple[MatchRecord, Match] | None = None
        # match id -> the first deal whose stored figures did not match its log (they were
        # recomputed from the log instead): the commands that show figures say so
        self.mismatched: dict[int, int] = {}

    def load(self, match_id: int, full: bool = False) -> MatchRecord:
        """The stored match: from its newest snapshot and the actions after it, or with ``full``
        its whole log. Raises StoreError when there is no such match or it cannot be read."""
        check_id(match_id)
        try:
            return self._load(match_id, full)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def _load(self, match_id: int, full: bool) -> MatchRecord:
        identity = "key, revision" if self.schema >= 3 else "NULL, -1"
        row = self.db.execute(f"SELECT id, created, players, rules, dealer, touched, {identity} FROM matches"
                              " WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise no_match(match_id)
        mid, created, players, rules, dealer, touched, key, revision = row
        least = 0 if self.schema >= 3 else -1
        if type(revision) is not int or revision < least or (key is not None and not isinstance(key, str)):
            raise DamagedError(mid, Words("its key or revision is not what pasur writes"))
        if not isinstance(players, str) or not isinstance(rules, str):
            raise DamagedError(mid, Words("its players or rules are not text"))
        if not isinstance(created, str):
            raise DamagedError(mid, Words("its date is not text"))
        try:
            players, rules = players.split("\n"), self.rules_of(rules)
        except (ValueError, TypeError) as err:  # NotationError naming the option, or Rules.from_dict's refusal
            raise DamagedError(mid, damage_reason(err)) from None
        if not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise DamagedError(mid, Words("its first dealer is seat {seat}", seat=repr(dealer)))
        snap = None if full or self.legacy else newest_snapshot(self, mid, players, rules, dealer)
        if snap is None:
            log = self.db.execute("SELECT seq, at, action FROM actions WHERE match_id = ? ORDER BY seq",
                                  (mid,)).fetchall()
            check_rows(mid, log)
            if [seq for seq, _, _ in log] != list(range(1, len(log) + 1)):
                raise DamagedError(mid, Words("its actions are not numbered 1 to {count}", count=len(log)))
            return MatchRecord(mid, created, players, rules, dealer, touched, 0, [],
                               [a for _, _, a in log], [t for _, t, _ in log], key=key, revision=revision)
        return MatchRecord(mid, created, players, rules, dealer, touched, snap.start, snap.results,
                           [a for _, _, a in snap.log], [t for _, t, _ in snap.log], snap.totals, snap.completed_at,
                           key, revision)

    def match(self, match_id: int) -> tuple[MatchRecord, Match]:
        """The stored match replayed (kept, so a change in the same command need not replay it
        again). Raises DamagedError when it cannot be replayed."""
        kept = self._replayed
        if kept and kept[0].id == match_id:  # replayed in this process: still the log, unless another wrote
            try:
                row = self.db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()
            except (sqlite3.Error, UnicodeDecodeError) as err:
                if is_busy(err):  # waited already: not a second time through load
                    raise failure(err, self.path, "") from None
                row = None
            if row and row[0] == kept[0].touched:
                return kept
        try:
            record = self.load(match_id)
            match = record.replay()
        except DamagedError:
            self.mismatched.pop(match_id, None)  # damaged, said as such: not merely figures recomputed
            raise
        if not record.start and not self.legacy:  # the snapshots, if any, were not trusted
            self._compare(match_id, match)
        self._replayed = (record, match)
        return record, match

    def current(self, match_id: int | None = None, change: bool = False) -> tuple[int, Match]:
        """The match every front end means when none is named: ``match_id`` when given, else the
        most recently changed match that is not finished, else the most recent one (so a match just
        won is still the one shown), with the match replayed. Raises NoMatchError for a ``match_id``
        that names no match, DamagedError for a damaged match on the way (never skipped silently),
        StoreError when the file holds no match; with ``change`` (the caller means to change it) and
        no ``match_id``, ChooseMatchError when several matches are in play (``tables.in_play``)."""
        if match_id is not None:
            return match_id, self.match(match_id)[1]
        if change:
            from pasur_cli.store.tables import check_one_in_play
            check_one_in_play(self)
        ids = self.match_ids()
        for mid in ids:
            match = self.match(mid)[1]
            if not match.finished:
                return mid, match
        if not ids:
            raise StoreError("there is no match yet: start one with `pasur new NAME NAME`.")
        return ids[0], self.match(ids[0])[1]

    def deal_actions(self, record: MatchRecord, number: int) -> tuple[list[DealResult], int, list[Action]]:
        """What `log --deal N` replays: the results of the deals before deal ``number`` (from the
        snapshots, checked against their deals' actions), how many actions came before it, and
        its own actions (none for a deal not begun). Reads that deal's actions alone. Raises
        DamagedError."""
        count = len(record.results) if record.start else 0
        if not record.start or not 0 < number <= count + 1:
            return [], 0, record.actions if not record.start else []  # no snapshot to start from
        completed = record.completed_at or []
        first = completed[number - 2] if number > 1 else 0
        last = completed[number - 1] if number <= count else record.length
        rows = self.db.execute("SELECT seq, action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                               " ORDER BY seq", (record.id, first, last)).fetchall()
        if [seq for seq, _ in rows] != list(range(first + 1, last + 1)):
            raise DamagedError(record.id, Words("its actions are not numbered 1 to {count}", count=record.length))
        actions = []
        for seq, text in rows:
            try:
                actions.append(read_line(text))
            except (ValueError, TypeError, KeyError):
                raise unreadable(record.id, seq, text) from None
        return list(record.results[:number - 1]), first, actions

    def _compare(self, match_id: int, match: Match) -> None:
        """Note in ``mismatched`` the first deal whose stored snapshot is not what the match, replayed
        from its whole log, makes of it (its figures are shown recomputed)."""
        try:
            number = first_mismatch(self.db, match_id, match, self.schema >= 4)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        if number is not None:
            self.mismatched.setdefault(match_id, number)

    def checked(self, match_id: int) -> tuple[MatchRecord, Match]:
        """``match``: every finished deal's snapshot is trusted at once or the whole log replayed and
        compared with them (a deal that does not match is noted in ``mismatched``). Raises
        DamagedError."""
        return self.match(match_id)


    def expected(self, match_id: int) -> Expected:
        """The match and revision a caller that shows the match now expects when it records (as
        replayed by ``match`` in this command, if it was)."""
        kept = self._replayed
        if kept and kept[0].id == match_id:
            return kept[0].expected
        return self.load(match_id).expected

    def stored_revision(self, match_id: int) -> Expected | None:
        """The match's key and revision as stored, read without replaying it (a damaged match has
        them too); None when there is no such match."""
        identity = "key, revision" if self.schema >= 3 else "NULL, NULL"
        try:
            row = self.db.execute(f"SELECT {identity}, (SELECT count(*) FROM actions WHERE match_id = ?)"
                                  " FROM matches WHERE id = ?", (match_id, match_id)).fetchone()
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        if row is None:
            return None
        key, revision, count = row
        return Expected(key if isinstance(key, str) else None, revision if type(revision) is int else count, count)

    def length(self, match_id: int) -> int:
        """How many actions the match's log holds (as replayed by ``match`` in this command, if it was)."""
        kept = self._replayed
        if kept and kept[0].id == match_id:
            return kept[0].length
        try:
            return int(self.db.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()[0])
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def rules_text(self, rules: Rules) -> str:
        """The rules as this file stores them: the JSON of ``Rules.as_dict`` (NAME=VALUE lines in a
        file of a schema before 5, read without migrating it)."""
        return as_json(rules.as_dict()) if self.schema >= 5 else rules_lines(rules)

    def rules_of(self, text: str) -> Rules:
        """The rules ``rules_text`` stored: the one reader of stored rules (``stored_rules`` reads a
        file of a schema before 5). Raises ValueError (NotationError naming the option) or
        TypeError for a text that is not such rules."""
        if self.schema < 5:
            return stored_rules(text)
        data = read_object(self.db, text)
        if data is None:
            raise NotationError("the rules {rules!r} are not what pasur writes.", rules=shorten(text, 60))
        return Rules.from_dict(data)

    def match_ids(self) -> list[int]:
        """Every match id, most recently changed first."""
        try:
            return [r[0] for r in self.db.execute("SELECT id FROM matches ORDER BY touched DESC, id DESC")]
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def summary(self, match_id: int) -> tuple[list[str], int]:
        """(players, log length) of a match read without replaying it (for a damaged one)."""
        try:
            row = self.db.execute("SELECT players FROM matches WHERE id = ?", (match_id,)).fetchone()
            count, = self.db.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        if row is None:
            return [], 0
        return (row[0].split("\n") if isinstance(row[0], str) else ["?"]), int(count)

    def imported_as(self, fingerprint: str) -> int | None:
        """The match an identical record was imported as, or None."""
        if self.legacy:
            return None
        try:
            return self._imported_as(fingerprint)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def _imported_as(self, fingerprint: str) -> int | None:
        row = self.db.execute("SELECT id FROM matches WHERE fingerprint = ? ORDER BY id LIMIT 1",
                              (fingerprint,)).fetchone()
        return None if row is None else int(row[0])

    def stored_as(self, players: list[str], rules: Rules, dealer: int, actions: Sequence[Action | dict[str, Any]],
                  texts: list[str] | None = None) -> int | None:
        """The first stored match with these players, rules, first dealer and log (a record
        exported from this file, say: the same match by its content), or None. ``texts``: the
        actions' lines, when known."""
        try:
            return same_content(self.db, players, self.rules_text(rules), dealer, actions, texts)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None


def same_content(db: sqlite3.Connection, players: list[str], rules: str, dealer: int,
                  actions: Sequence[Action | dict[str, Any]], texts: list[str] | None = None) -> int | None:
    """See Store.stored_as: the matches of the same players, rules and dealer are found by the
    index of their columns, and only their logs are read and compared (``texts``: the actions'
    lines, when known)."""
    rows = db.execute("SELECT id FROM matches WHERE players = ? AND rules = ? AND dealer = ? ORDER BY id",
                      ("\n".join(players), rules, dealer)).fetchall()
    if rows and texts is None:
        texts = [read_action(a).line for a in actions]
    for (mid,) in rows:
        log = [r[0] for r in db.execute("SELECT action FROM actions WHERE match_id = ? ORDER BY seq", (mid,))]
        if log == texts:
            return int(mid)
    return None

