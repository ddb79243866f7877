"""Snapshots per finished deal: replaying from one equals replaying the whole log, and a snapshot
that does not match its log is ignored."""

import random
import sqlite3

from pasur_cli.match import Match
from pasur_cli.store import Store
from simulate import enter, new_match, random_match


def state(match: Match) -> tuple:
    deal = match.deal
    return (match.results, match.totals, match.winner, match.deal_number,
            None if deal is None else (deal.table, deal.piles, deal.surs, deal.last_capturer, deal.turn))


def test_replay_from_snapshots_equals_full_replay(pasur, db):
    rng = random.Random(11)
    engine = new_match(pasur, ["Ali", "Sara", "Reza"], "pagat", ["fixed_deals=4"])
    for number, action in enumerate(random_match(rng, engine)):
        assert enter(pasur, action).exit_code == 0
        engine.apply(action)
        if number % 37 == 0 or engine.deal is None:
            store = Store(db)
            record, full = store.load(1), store.load(1, full=True)
            store.close()
            assert state(record.replay()) == state(full.replay()) == state(engine)
            assert record.start == (engine.completed_at[-1] if engine.results else 0)
            assert len(record.texts) == len(full.texts) - record.start  # only the deal in progress is read
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 4  # one row per deal
    con.close()


def test_undo_behind_a_snapshot_removes_it(pasur, db):
    rng = random.Random(12)
    engine = new_match(pasur, ["Ali", "Sara"], "pagat", ["fixed_deals=2"])
    actions = []
    for action in random_match(rng, engine):
        engine.apply(action)
        actions.append(action)
        enter(pasur, action)
        if len(engine.results) == 1:
            break
    assert pasur("undo", "2").exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0
    con.close()
    for action in actions[-2:]:
        assert enter(pasur, action).exit_code == 0
    store = Store(db)
    assert store.load(1).start == len(actions)
    store.close()


def test_a_snapshot_that_does_not_match_is_ignored(pasur, db):
    rng = random.Random(13)
    engine = new_match(pasur, ["Ali", "Sara"], "pagat", ["fixed_deals=3"])
    for action in random_match(rng, engine):
        enter(pasur, action)
        engine.apply(action)
        if len(engine.results) == 2:
            break
    before = pasur("score", "--json").output
    con = sqlite3.connect(db)
    # forge the newest result: its CRC no longer matches, so the whole log is replayed instead
    con.execute("UPDATE snapshots SET result = replace(result, '\"tallied\": false', '\"tallied\": true')"
                " WHERE seq = (SELECT max(seq) FROM snapshots)")
    con.commit()
    assert pasur("score", "--json").output == before
    store = Store(db)
    assert store.load(1).start == 0
    store.close()
    # an action of the newest deal changed behind the snapshot: replayed from the log as well
    con.execute("UPDATE snapshots SET result = replace(result, '\"tallied\": true', '\"tallied\": false')")
    con.execute("UPDATE actions SET at = 'x' WHERE seq = 1")  # times are not part of the check
    con.commit()
    store = Store(db)
    assert store.load(1).start == engine.completed_at[1]
    store.close()
    con.execute("DELETE FROM snapshots")
    con.commit()
    con.close()
    assert pasur("score", "--json").output == before
