"""The writes: every change is one ``BEGIN IMMEDIATE`` transaction (``transaction``) that reads
the log, checks the change against the replayed match and appends (or removes) actions, so two
processes never lose or duplicate a play and a crash leaves the old state or the new one.
Everything a write is given is checked before its transaction, and a refused write changes
nothing stored.

A match is one match forever: ids only grow (the highest given is kept in ``meta`` across deletes),
each match has a random ``key`` no other match has, and a ``revision`` that moves with every change
(one an action appended, one an undo) and never goes back. ``--expect`` and the session hold an
``Expected`` (key and revision) and a change is refused (StaleError) unless the match still is that
match at that revision. Each finished deal leaves a snapshot row (``snapshots``); undo deletes the
snapshots it goes behind.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pasur_cli.engine.action import Action
from pasur_cli.engine.arguments import check_type, wrong_type
from pasur_cli.engine.errors import NotationError, Plural
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import ACTIONS_MOST, check_players, check_table_name
from pasur_cli.engine.reading import N_
from pasur_cli.engine.rules import Rules
from pasur_cli.store.change import Change, checked_text, new_key, now
from pasur_cli.store.connection import failure
from pasur_cli.store.errors import AlreadyImported, DamagedError, FullError, StaleError, StoreError
from pasur_cli.store.reads import Reads, same_content
from pasur_cli.store.records import Expected, MatchRecord, check_id, no_match
from pasur_cli.store.snapshots import rebuild_snapshots, write_snapshot


class Writes(Reads):
    """The writes to one database file opened with ``write`` (or ``create``); a store opened
    read-only refuses them (StoreError)."""

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside is committed together or not at all. Inside
        another (an event's round made of several matches), it is part of that one."""
        if not self.write:
            raise StoreError("this store was opened read-only.")
        if self.db.in_transaction and self.nested:
            yield self.db
            return
        self.check_file()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise failure(err, self.path, N_("cannot write to {path}: {reason}; nothing was changed.")) from None
        self.nested = True
        try:
            yield self.db
            self.check_file()  # written into a file no longer at its path, it would be lost: roll back
            self.db.execute("COMMIT")
            self.commits += 1
        except BaseException as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(err, (sqlite3.Error, UnicodeError)):
                raise failure(err, self.path, N_("cannot write to {path}: {reason}; nothing was changed.")) from None
            raise
        finally:
            self.nested = False

    def _touch(self, db: sqlite3.Connection, match_id: int, steps: int = 0) -> None:
        """Mark the match the most recently changed, its revision ``steps`` further on."""
        db.execute("UPDATE matches SET touched = (SELECT coalesce(max(touched), 0) + 1 FROM matches),"
                   " revision = revision + ? WHERE id = ?", (steps, match_id))

    def create(self, players: list[str], rules: Rules, dealer: int, actions: Sequence[Action | dict[str, Any]] = (),
               times: list[str] | None = None, match: Match | None = None, fingerprint: str | None = None,
               created: str | None = None, once: bool = False, texts: list[str] | None = None,
               table: str | None = None) -> int:
        """Store a new match and return its id, one higher than any id this file ever gave (a
        deleted match's id is never given again). An import passes its (canonical) log, the
        times, the match it replays to (for the snapshots of its finished deals), its
        fingerprint and when it was created (else now); with ``once`` it raises AlreadyImported,
        storing nothing, when a match of that fingerprint is stored (checked in the transaction
        that would store it, so imports running at once store a record once). ``texts``: the
        actions' lines already checked to read back as the actions (a CheckedRecord's). ``table``: the
        name of the table it is played at (``check_table_name``; NotationError for a bad one).

        Everything is checked before the transaction: the names (``check_players``), the rules,
        the dealer's seat, the times (one text an action) and the log, which must replay (without
        ``match``, the actions are replayed and stored in their canonical form; a ``match`` given
        must be of these players, rules and dealer, its log these actions). Raises NotationError
        or IllegalPlayError naming what is wrong, FullError for more actions than a match holds
        (ACTIONS_MOST), storing nothing."""
        if isinstance(actions, Sequence) and len(actions) > ACTIONS_MOST:
            raise FullError(Plural("a match holds at most {most} action, and this one has {count}; nothing was"
                                   " stored.",
                                   "a match holds at most {most} actions, and this one has {count}; nothing was"
                                   " stored.", "most"),
                            match=None, most=ACTIONS_MOST, count=len(actions))
        players, actions, match = _new_match(players, rules, dealer, actions, match)
        _check_times(times, len(actions))
        for name, value in (("fingerprint", fingerprint), ("created", created)):
            if value is not None:
                check_type(name, value, str)
        if texts is None or len(texts) != len(actions) or not all(isinstance(text, str) for text in texts):
            texts = [checked_text(a) for a in actions]
        table = None if table is None else check_table_name(table)
        with self.transaction() as db:
            if once and fingerprint is not None:
                earlier = self._imported_as(fingerprint)
                if earlier is not None:
                    raise AlreadyImported("this record was already imported as match {match}; nothing was changed"
                                          " (give --again to import it once more).", match=earlier)
                # a match of this file, by content
                same = same_content(db, players, self.rules_text(rules), dealer, actions, texts)
                if same is not None:
                    raise AlreadyImported("this record is match {match} of this database already (the same players,"
                                          " rules and plays); nothing was changed (give --again to import it as a"
                                          " new match).", match=same)
            mid = self._next_id(db)
            db.execute("INSERT INTO matches (id, created, players, rules, dealer, touched, fingerprint, key, revision)"
                       " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                       (mid, created or now(), "\n".join(players), self.rules_text(rules), dealer, fingerprint,
                        new_key(), len(texts)))
            moments = times if times else [now()] * len(texts)
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)",  # each row made as SQLite takes it
                           ((mid, seq, at, text) for seq, (at, text) in enumerate(zip(moments, texts, strict=True), 1)))
            if match is not None:
                rebuild_snapshots(db, mid, match, texts)
            if table is not None:
                db.execute("UPDATE matches SET table_name = ? WHERE id = ?", (table, mid))
            self._touch(db, mid)
        return mid

    @staticmethod
    def _next_id(db: sqlite3.Connection) -> int:
        """The id of a new match: one more than the highest ever given (kept in meta across
        deletes) or stored, and kept as the highest given."""
        row = db.execute("SELECT value FROM meta WHERE key = 'last_match'").fetchone()
        given = int(row[0]) if row and isinstance(row[0], str) and row[0].isascii() and row[0].isdigit() else 0
        stored = db.execute("SELECT coalesce(max(id), 0) FROM matches").fetchone()[0]
        mid = max(given, stored if isinstance(stored, int) else 0) + 1
        db.execute("INSERT OR REPLACE INTO meta VALUES ('last_match', ?)", (str(mid),))
        return mid

    def delete(self, match_id: int, expect: Expected | None = None) -> int:
        """Remove a match (damaged or not) with its log, snapshots and kept reviews; returns how many actions it had.
        Raises StaleError, deleting nothing, when it is not the match and revision ``expect`` names;
        NoMatchError when there is no such match."""
        check_id(match_id)
        with self.transaction() as db:
            row = db.execute("SELECT key, revision FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise no_match(match_id)
            count = int(db.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()[0])
            _check_expect(expect, match_id, row[0], row[1], count)
            db.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
            db.execute("DELETE FROM reviews WHERE match_id = ?", (match_id,))
            db.execute("DELETE FROM actions WHERE match_id = ?", (match_id,))
            db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        return count

    @contextmanager
    def changing(self, match_id: int, expect: Expected | None = None) -> Iterator[Change]:
        """Open a write transaction on one match and yield a ``Change`` holding it replayed.

        ``expect``: the match and revision the caller last showed; another match, or another
        revision, raises StaleError (see ``_check_expect``).
        Whatever the body records with ``Change.append`` / ``Change.drop`` is committed when it
        ends without an exception; an exception (a refused play, Ctrl-C) rolls everything back.
        Raises NoMatchError for a match id that names no match.
        """
        check_id(match_id)
        after: tuple[MatchRecord, Match] | None = None
        with self.transaction() as db:
            row = db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()
            kept = self._replayed
            if kept and row and kept[0].id == match_id and kept[0].touched == row[0]:
                record, match = kept  # the log has not moved since this command read it
            else:
                record, match = self.match(match_id)
            self._replayed = None  # the change below mutates it
            _check_expect(expect, match_id, record.key, record.revision, record.length)
            change = Change(db, record, match)
            finished = len(match.results)
            yield change
            if change.changed:
                if not record.start and match.results and not change.dropped:
                    # replayed from the whole log (no snapshot, or one from another engine or
                    # not matching the log): make every deal's snapshot afresh
                    rebuild_snapshots(db, match_id, match)
                elif len(match.results) > finished:
                    write_snapshot(db, match_id, match, len(match.results) - 1, match.totals)
                    self._repair(db, match_id, match)
                self._touch(db, match_id, change.steps)
                # the match stays the log's, so the next read needs no replay; not once a deal is over: the
                # next read starts from its snapshot, so a long session holds one deal's actions, not all
                if (not change.dropped or change.undone) and len(match.results) == finished:
                    touched = db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()[0]
                    kept_texts, kept_times = len(record.texts) - change.undone, len(record.times) - change.undone
                    after = record.replace(touched=touched, revision=record.revision + change.steps,
                                           texts=(*record.texts[:kept_texts], *change.texts),
                                           times=(*record.times[:kept_times], *change.times)), match
        self._replayed = after  # set once committed

    def _repair(self, db: sqlite3.Connection, match_id: int, match: Match) -> None:
        """After a change finished a deal of a match resumed from its (trusted) snapshot: when a
        finished deal has no snapshot (rows deleted by hand: the one before still chained, and a deal
        finished in the actions after it), every snapshot is written again from the whole log."""
        count = db.execute("SELECT count(*) FROM snapshots WHERE match_id = ?", (match_id,)).fetchone()[0]
        if match.start and count != len(match.results):
            rebuild_snapshots(db, match_id, self._load(match_id, True).replay())

    def _chain_every_match(self) -> None:
        """After the move to schema 4: every match whose snapshots all check out against its log
        (each match replayed from its whole log: its snapshots have no running checksums yet, and a
        rule changed by hand is in no deal's own checksum) gets them written again with their
        figures and running checksums, in one transaction; until it is committed the file's meta
        says ``unchained``, so an interrupted one is done again by the next command that writes. A
        match that is damaged, or whose figures do not match its log, is left as it is: the commands
        that show it still say so, and its next change writes them."""
        try:
            with self.transaction() as db:
                for (mid,) in db.execute("SELECT DISTINCT match_id FROM snapshots").fetchall():
                    try:
                        _, match = self.checked(mid)
                    except (DamagedError, StoreError):
                        continue
                    if mid not in self.mismatched:
                        rebuild_snapshots(db, mid, match)
                db.execute("DELETE FROM meta WHERE key = 'unchained'")
        finally:
            self._replayed, self.mismatched = None, {}



def _check_expect(expect: Expected | None, match_id: int, key: object, revision: object, length: int) -> None:
    """Raise StaleError unless ``expect`` (None: anything) names this match (its key, when it
    gives one) at this revision. A bare number is the revision; it equals the log's length until
    the match's first undo, so a script that reads "length" is still right until then, and
    refused (never fooled) after it, when one length can stand for two different logs."""
    if expect is None:
        return
    check_type("expect", expect, Expected)
    if expect.key is not None and expect.key != key:
        raise StaleError("match {match} is not the match that was shown (the match key differs: another database"
                         " file, or the match was deleted and made again); nothing was recorded.", match=match_id,
                         revision=revision, length=length, expect=expect.revision)
    if expect.revision == revision:
        return
    facts = {"match": match_id, "revision": revision, "length": length, "expect": expect.revision,
             "shown": expect.length}
    if expect.key is None and expect.revision == length:
        raise StaleError("--expect {expect} is the log's length, but match {match} had an undo, so a length no"
                         " longer tells whether it changed: give its revision from `pasur show --json`"
                         " (now {revision}); nothing was recorded.", **facts)
    raise StaleError("the match changed since it was shown (its revision is {revision}, not {expect}; the"
                     " length of its log is {length}); nothing was recorded. Look again and re-enter.", **facts)



def _new_match(players: object, rules: Rules, dealer: int, actions: object,
               match: object) -> tuple[list[str], Sequence[Action | dict[str, Any]], Match]:
    """What ``Store.create`` stores, checked: the players' names (NFC), the log and the match it
    replays to. A ``match`` given whose log is these actions is taken as it is (an import's,
    replayed as it was read); otherwise the actions are replayed, and must come to the results of
    the ``match`` given. Raises NotationError or IllegalPlayError."""
    if not isinstance(players, list | tuple):
        raise wrong_type("players", players, list, tuple)
    names = check_players(list(players))
    if not isinstance(actions, list | tuple):
        raise wrong_type("actions", actions, list, tuple)
    if match is not None and not isinstance(match, Match):
        raise wrong_type("match", match, Match)
    if (match is not None and match.players == names and match.rules == rules and match.first_dealer == dealer
            and not match.start and match.log == list(actions)):
        return names, actions, match
    replayed = Match.replay(names, rules, dealer, actions)
    if match is not None and (replayed.results != match.results or replayed.totals != match.totals):
        raise NotationError("the match given is not these players, rules, dealer and actions replayed.")
    return names, replayed.log, replayed


def _check_times(times: object, count: int) -> None:
    """Raise NotationError unless ``times`` is None or a list of one text for each of ``count``
    actions."""
    if times is None:
        return
    if not isinstance(times, list | tuple):
        raise wrong_type("times", times, list, tuple)
    if len(times) != count or not all(isinstance(at, str) for at in times):
        raise NotationError(Plural("times must be one text for each of the {count} action.",
                                   "times must be one text for each of the {count} actions.", "count"), count=count)

