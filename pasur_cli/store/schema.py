"""The database's schema (tables and columns) and the migration from each older one, step by step."""

from __future__ import annotations

import sqlite3

from pasur_cli.engine.rules import stored_rules
from pasur_cli.store.snapshots import as_json

SCHEMA_VERSION = 9
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    players TEXT NOT NULL,          -- one name per line, in playing order
    rules TEXT NOT NULL,            -- the JSON of Rules.as_dict (from schema 5, NAME=VALUE lines before)
    dealer INTEGER NOT NULL,        -- seat of the first deal's dealer
    touched INTEGER NOT NULL,       -- a counter: the match changed most recently has the highest
    fingerprint TEXT,               -- of the imported record it came from (see pasur_cli.engine.record)
    key TEXT,                       -- random, given when the match is made: no other match has it
    revision INTEGER NOT NULL DEFAULT 0,  -- +1 for each action appended and for each undo, never back
    table_name TEXT                 -- the table it is played at (`new --table`), NULL: none given
);
CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3 ... within the match
    at TEXT NOT NULL,               -- UTC time it was recorded
    action TEXT NOT NULL,           -- one line, see pasur_cli.engine.action (Action.line)
    PRIMARY KEY (match_id, seq)
);
""" + """
CREATE TABLE snapshots (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,           -- a deal finished with this action
    engine INTEGER NOT NULL,        -- ENGINE_VERSION of the pasur that computed it
    crc INTEGER NOT NULL,           -- CRC-32 of the deal's action lines, its result and the totals
    result TEXT NOT NULL,           -- the deal's result as JSON, see result_text
    totals TEXT NOT NULL,           -- JSON {side: match total after this deal}
    figures TEXT,                   -- JSON {side: [deals, points, surs, clubs, two_clubs, ten_diamonds, best,
                                    --   best_deal]} after this deal (pasur_cli.engine.stats.SideFigures)
    log_crc INTEGER,                -- CRC-32 of the match's action lines up to this deal's last
    book_crc INTEGER,               -- CRC-32 of the match's players, rules, dealer and snapshots up to this one
                                    -- (NULL in these three: written before schema 4, checked deal by deal)
    PRIMARY KEY (match_id, seq)
);
""" + """
CREATE TABLE reviews (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    deal INTEGER NOT NULL,          -- the finished deal reviewed, from 1
    seq INTEGER NOT NULL,           -- the action that finished it
    engine INTEGER NOT NULL,        -- ANALYSIS_VERSION of the pasur that reviewed it
    log_crc INTEGER NOT NULL,       -- CRC-32 of the match's action lines up to seq: the log it reviewed
    crc INTEGER NOT NULL,           -- CRC-32 of the row's other columns (pasur_cli.store.reviews.row_crc)
    review TEXT NOT NULL,           -- the JSON of the deal's DealReview.as_dict
    accuracy TEXT NOT NULL,         -- JSON {player: [decisions, lost]} of that review (engine.stats.deal_accuracy)
    PRIMARY KEY (match_id, deal)
);
CREATE TABLE practice (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,          -- a reviewed deal of the match (from 1)
    play INTEGER NOT NULL,          -- the practised play's place in the deal's plays (from 1)
    card TEXT NOT NULL,             -- its card's code: another card there is another position (the match changed)
    found INTEGER NOT NULL,         -- 1: the last answer was the best option or within half a point of it
    tries INTEGER NOT NULL,         -- answers given in all
    seen INTEGER NOT NULL,          -- a counter: the position practised most recently has the highest
    PRIMARY KEY (match_id, deal, play)
);
"""
_SNAPSHOTS = SCHEMA[SCHEMA.index("CREATE TABLE snapshots"):SCHEMA.index("CREATE TABLE reviews")]
_REVIEWS = SCHEMA[SCHEMA.index("CREATE TABLE reviews"):SCHEMA.index("CREATE TABLE practice")]
_PRACTICE = SCHEMA[SCHEMA.index("CREATE TABLE practice"):]
EVENTS = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    pairing TEXT NOT NULL,          -- swiss or round-robin
    rounds INTEGER NOT NULL,        -- how many rounds it has
    rules TEXT NOT NULL             -- the JSON of Rules.as_dict, of every match it makes
);
CREATE TABLE IF NOT EXISTS entrants (
    event_id INTEGER NOT NULL REFERENCES events(id),
    number INTEGER NOT NULL,        -- 1, 2, 3 ... in the order of entry
    name TEXT NOT NULL,             -- a player, or a team "A & B"
    players TEXT NOT NULL,          -- one name per line (one, or two for a team)
    joined INTEGER NOT NULL,        -- the first round it is paired in
    dropped INTEGER,                -- the first round it is not paired in any more (NULL: it plays on)
    PRIMARY KEY (event_id, number)
);
CREATE TABLE IF NOT EXISTS pairings (
    event_id INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,      -- 1, 2 ... in the round, 0 for the bye
    first INTEGER NOT NULL,         -- entrant number: leads (its side sits first)
    second INTEGER,                 -- entrant number (NULL: the bye)
    match_id INTEGER,               -- the match made for the table (NULL: the bye, or deleted)
    paper TEXT,                     -- JSON [first's points, second's points] given by `event result`
    PRIMARY KEY (event_id, round, table_no)
);
"""
SCHEMA += EVENTS


def _to_2(db: sqlite3.Connection) -> None:
    """Schema 1 to 2: snapshots by field name with the engine version (the old rows are dropped;
    each match's next change rebuilds them from its log), and the import fingerprint."""
    db.execute("DROP TABLE snapshots")
    db.execute(_SNAPSHOTS)
    db.execute("ALTER TABLE matches ADD COLUMN fingerprint TEXT")


def _to_3(db: sqlite3.Connection) -> None:
    """Schema 2 to 3: each match's key (made now) and revision (its log's length, which is what
    ``--expect`` compared before), and the highest match id given so far, so that no id is given
    twice from now on."""
    db.execute("ALTER TABLE matches ADD COLUMN key TEXT")
    db.execute("ALTER TABLE matches ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE matches SET key = lower(hex(randomblob(8))),"
               " revision = (SELECT count(*) FROM actions WHERE match_id = matches.id)")
    db.execute("INSERT OR REPLACE INTO meta VALUES ('last_match', (SELECT CAST(coalesce(max(id), 0) AS TEXT)"
               " FROM matches))")


def _to_4(db: sqlite3.Connection) -> None:
    """Schema 3 to 4: each snapshot's figures and running checksums (columns made here, written
    once the file is open: ``Store._chain_every_match``)."""
    have = {row[1] for row in db.execute("PRAGMA table_info(snapshots)")}
    for column in ("figures TEXT", "log_crc INTEGER", "book_crc INTEGER"):
        if column.split()[0] not in have:  # a schema-1 file's snapshots were made afresh with them
            db.execute(f"ALTER TABLE snapshots ADD COLUMN {column}")


def _to_5(db: sqlite3.Connection) -> None:
    """Schema 4 to 5: each match's rules stored as the JSON of ``Rules.as_dict`` (read by the
    NAME=VALUE reader of the schema before; rules it refuses are left as they are, and the match
    stays damaged). The running checksums start from the rules' text, so every match's are written
    again once the file is open (``unchained``)."""
    for mid, text in db.execute("SELECT id, rules FROM matches").fetchall():
        try:
            rules = stored_rules(text)
        except (ValueError, TypeError, AttributeError):
            continue
        db.execute("UPDATE matches SET rules = ? WHERE id = ?", (as_json(rules.as_dict()), mid))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('unchained', '1')")  # until _chain_every_match


def _to_6(db: sqlite3.Connection) -> None:
    """Schema 5 to 6: the table a match is played at (a club night's several tables), none for the
    matches already stored (a file made by a newer pasur and marked older has the column already)."""
    if "table_name" not in {row[1] for row in db.execute("PRAGMA table_info(matches)")}:
        db.execute("ALTER TABLE matches ADD COLUMN table_name TEXT")


def _to_7(db: sqlite3.Connection) -> None:
    """Schema 6 to 7: the tables of club events (events, their entrants and their rounds' tables);
    nothing else changes."""
    for statement in EVENTS.split(";\n"):  # one by one: executescript would commit the migration's transaction
        if statement.strip():
            db.execute(statement)


def _to_8(db: sqlite3.Connection) -> None:
    """Schema 7 to 8: the kept reviews (a new table, empty: `pasur review` and `review --all` fill it;
    a file that has it already keeps it)."""
    db.execute(_REVIEWS.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1))


def _to_9(db: sqlite3.Connection) -> None:
    """Schema 8 to 9: the results of `pasur practice`, one row a position practised (a new
    table; nothing else changes). A file made with it already (an older schema version written
    over a newer file, as tests make one) keeps it."""
    db.execute(_PRACTICE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1))


# MIGRATIONS[v:]: the steps from schema v (0 is none such)
MIGRATIONS = (_to_2, _to_2, _to_3, _to_4, _to_5, _to_6, _to_7, _to_8, _to_9)
