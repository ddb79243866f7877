"""The store's parts used alone (issue 30): the file's health (``health.StoreFile``) opens and
checks a file and knows no match; the queries (``reads.Reads``, ``standings.standings``) answer
without writing; the writes (``writes.Writes``, and ``Store`` made of them all) change nothing
stored when they refuse. And the chains a connection keeps (``chains.Chains``): a store that
reads a match after every change of another (the scoreboard, the session) sees what a store
opened afresh sees, checks the whole chain once, and still notices a snapshot row edited by hand."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli import Match, enter_tally, parse_rules, take_back
from pasur_cli.engine.errors import PasurError
from pasur_cli.store.database import Expected, Store
from pasur_cli.store.errors import NoMatchError, StaleError, StoreError
from pasur_cli.store.health import StoreFile
from pasur_cli.store.reads import Reads
from pasur_cli.store.schema import SCHEMA_VERSION
from pasur_cli.store.standings import standings
from pasur_cli.store.writes import Writes

PLAYERS = ["Ali", "Sara"]
RULES = parse_rules("standard", ["fixed_deals=60"])


def tally(rng: random.Random) -> dict:
    """A whole deal tallied by counts, random but adding up."""
    clubs, aces, jacks = rng.randint(1, 12), rng.randint(0, 4), rng.randint(0, 4)
    two, ten = rng.random() < .5, rng.random() < .5
    counts = {"Ali": {"clubs": clubs, "aces": aces, "jacks": jacks, "two_clubs": two, "ten_diamonds": ten},
              "Sara": {"clubs": 13 - clubs, "aces": 4 - aces, "jacks": 4 - jacks, "two_clubs": not two,
                       "ten_diamonds": not ten}}
    return {"type": "tally", "piles": {}, "counts": counts, "partial": False,
            "surs": {"Ali": rng.randint(0, 1), "Sara": rng.randint(0, 1)}}


def tallied(path: Path, deals: int, seed: int = 1) -> int:
    """A new file holding one match of ``deals`` tallied deals; its id."""
    rng = random.Random(seed)
    store = Store(str(path), create=True)
    mid = store.create(PLAYERS, RULES, 0, [tally(rng) for _ in range(deals)])
    store.close()
    return mid


def view(match: Match) -> tuple:
    """What a reader shows of a match."""
    return list(match.results), dict(match.totals), match.length, match.finished


def test_the_files_health_alone_opens_checks_and_refuses(tmp_path):
    made = StoreFile(str(tmp_path / "new.db"), create=True)
    assert made.schema == SCHEMA_VERSION and not hasattr(made, "match")  # a file, no match read here
    made.close()
    other = tmp_path / "notes.db"
    other.write_bytes(b"not a database at all, just notes\n")
    with pytest.raises(StoreError, match="not SQLite at all"):
        StoreFile(str(other), write=True)
    assert other.read_bytes() == b"not a database at all, just notes\n"
    with pytest.raises(StoreError, match="no database at"):
        StoreFile(str(tmp_path / "missing.db"))
    assert not (tmp_path / "missing.db").exists()


def test_the_reads_alone_answer_as_the_store_does_and_change_nothing(tmp_path):
    path = tmp_path / "pasur.db"
    mid = tallied(path, 4)
    before = path.read_bytes()
    reads, store = Reads(str(path)), Store(str(path))
    assert not hasattr(reads, "transaction")  # the queries hold no write
    assert view(reads.match(mid)[1]) == view(store.match(mid)[1])
    assert reads.current()[0] == mid and reads.summary(mid) == (PLAYERS, 4)
    assert [s.totals for _, s in standings(reads)] == [s.totals for _, s in store.standings()] != []
    with pytest.raises(NoMatchError):
        reads.match(mid + 1)
    reads.close()
    store.close()
    assert path.read_bytes() == before


@pytest.mark.parametrize("refused", ["players", "actions", "stale delete", "stale change", "read-only"])
def test_a_refused_write_changes_nothing_stored(tmp_path, refused):
    path = tmp_path / "pasur.db"
    mid = tallied(path, 2)
    before = path.read_bytes()
    writes = Writes(str(path), write=True)
    stale = Expected(writes.load(mid).key, 0)
    attempts = {
        "players": (PasurError, lambda: writes.create(["Ali", "Ali"], RULES, 0)),
        "actions": (PasurError, lambda: writes.create(PLAYERS, RULES, 0, [{"type": "tally"}])),
        "stale delete": (StaleError, lambda: writes.delete(mid, stale)),
        "stale change": (StaleError, lambda: take_back(Store(str(path), write=True), mid, 1, stale)),
        "read-only": (StoreError, lambda: Store(str(path)).create(PLAYERS, RULES, 0)),
    }
    kind, attempt = attempts[refused]
    with pytest.raises(kind):
        attempt()
    writes.close()
    assert path.read_bytes() == before


@sized(20)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(-3, 3), min_size=1, max_size=12))
def test_a_reader_that_stays_sees_what_a_fresh_store_sees(tmp_path_factory, seed, steps):
    """A positive step tallies that many deals, a negative one takes that many back (behind the
    snapshots, or all of them); after each, one store kept open (its chains continued from what it
    checked before) and one opened afresh read the same match, resumed from its newest snapshot."""
    path = tmp_path_factory.mktemp("follow") / "pasur.db"
    rng = random.Random(seed)
    mid = tallied(path, 2, seed)
    writer, reader = Store(str(path), write=True), Store(str(path))
    for step in steps:
        if step > 0:
            for _ in range(step):
                enter_tally(writer, mid, tally(rng))
        elif step and writer.length(mid) > -step:
            take_back(writer, mid, -step)
        fresh = Store(str(path))
        kept, again = reader.match(mid)[1], fresh.match(mid)[1]
        assert view(kept) == view(again) == view(fresh.load(mid, full=True).replay())
        assert reader.load(mid).start == again.start == len(again.results)  # resumed from the snapshot
        fresh.close()
    writer.close()
    reader.close()


def test_a_snapshot_row_edited_by_hand_is_noticed_by_a_reader_that_stays(tmp_path):
    """The newest deal's row is checked at every read, also by a reader that checked it before:
    edited by hand (and the match marked changed), the reader that stays replays the whole log and
    says the figures were recomputed, as a store opened afresh does."""
    path = tmp_path / "pasur.db"
    mid = tallied(path, 5)
    writer, reader = Store(str(path), write=True), Store(str(path))
    rng = random.Random(9)
    enter_tally(writer, mid, tally(rng))
    assert reader.load(mid).start == 6
    enter_tally(writer, mid, tally(rng))
    assert reader.match(mid)[0].start == 7  # continued from the row it checked before
    con = sqlite3.connect(path)
    with con:
        (totals,) = con.execute("SELECT totals FROM snapshots WHERE seq = 7").fetchone()
        edited = {side: total + 1 for side, total in json.loads(totals).items()}  # still totals, not these
        con.execute("UPDATE snapshots SET totals = ? WHERE seq = 7", (json.dumps(edited),))
        con.execute("UPDATE matches SET touched = touched + 1")
    con.close()
    record, match = reader.match(mid)
    assert record.start == 0 and reader.mismatched == {mid: 7}
    fresh = Store(str(path))
    assert fresh.match(mid)[0].start == 0 and fresh.mismatched == {mid: 7}
    assert view(match) == view(fresh.load(mid, full=True).replay())
    for store in (writer, reader, fresh):
        store.close()


def test_a_reader_that_stays_checks_the_whole_chain_once(tmp_path):
    """The first read checks the whole chain in SQLite (``pasur_crc`` over every line and row);
    the reads after each change check only what came after the row kept, in Python."""
    path = tmp_path / "pasur.db"
    mid = tallied(path, 30)
    writer, reader = Store(str(path), write=True), Store(str(path))
    statements: list[str] = []
    reader.db.set_trace_callback(statements.append)
    reader.match(mid)
    assert any("pasur_crc" in statement for statement in statements)
    statements.clear()
    rng = random.Random(3)
    for deals in range(31, 35):
        enter_tally(writer, mid, tally(rng))
        assert reader.match(mid)[0].start == deals
    assert statements and not any("pasur_crc" in statement for statement in statements)
    writer.close()
    reader.close()


def test_a_store_parses_each_finished_deal_once_and_again_when_its_row_changes(tmp_path, monkeypatch):
    """``Results``: a store reading a match after each change parses only the deals it has not
    read; a deal taken back and ended otherwise is parsed again; a store that holds little (the
    session) keeps none."""
    from pasur_cli.store import snapshots
    parsed: list[object] = []
    real = snapshots.read_result
    monkeypatch.setattr(snapshots, "read_result", lambda text, sides: parsed.append(text) or real(text, sides))
    path = tmp_path / "pasur.db"
    mid = tallied(path, 5)
    writer, reader, little = Store(str(path), write=True), Store(str(path)), Store(str(path))
    little.hold_little()
    rng = random.Random(4)

    def counted(store: Store) -> int:
        parsed.clear()
        assert view(store.match(mid)[1]) == view(Store(str(path)).load(mid, full=True).replay())
        return len(parsed)

    assert (counted(reader), counted(little)) == (5, 5)
    enter_tally(writer, mid, tally(rng))
    assert (counted(reader), counted(little)) == (1, 6)
    take_back(writer, mid, 1)
    enter_tally(writer, mid, {**tally(rng), "surs": {"Ali": 3, "Sara": 0}})  # another ending of deal 6
    assert (counted(reader), counted(little)) == (1, 6)
    for store in (writer, reader, little):
        store.close()
