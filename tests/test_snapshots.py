"""Snapshots per finished deal: replaying from one equals replaying the whole log, and a snapshot
that does not match its log is ignored."""

import json
import random
import sqlite3

import pytest
from matchbook import rules_as_lines, stored_match
from simulate import enter, new_match, random_match
from tier import some

from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import DECK
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import SCHEMA_VERSION, Store
from pasur_cli.store.snapshots import EVERY_BOOK, EVERY_LOG, chain_holds, chained, crc, sql_crc


def state(match: Match) -> tuple:
    deal = match.deal
    return (match.results, match.totals, match.winner, match.deal_number,
            None if deal is None else (deal.table, deal.piles, deal.surs, deal.last_capturer, deal.turn))


@pytest.mark.parametrize("deals", some([2, 4]))
def test_replay_from_snapshots_equals_full_replay(pasur, db, deals):
    rng = random.Random(11)
    engine = new_match(pasur, ["Ali", "Sara", "Reza"], "pagat", [f"fixed_deals={deals}"])
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
    assert con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == deals  # one row per deal
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
    before = pasur("score", "--json").stdout
    con = sqlite3.connect(db)
    # forge the newest result: its CRC no longer matches, so the whole log is replayed instead
    con.execute("UPDATE snapshots SET result = replace(result, '\"tallied\": false', '\"tallied\": true')"
                " WHERE seq = (SELECT max(seq) FROM snapshots)")
    con.commit()
    forged_result = pasur("score", "--json")
    assert forged_result.stdout == before
    assert "Match 1: the stored figures of deal 2 do not match its log" in forged_result.stderr
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
    assert pasur("score", "--json").stdout == before


def stored(db, deals: int, seed: int, extra_plays: int = 0, players=("Ali", "Sara")) -> Match:
    """A pagat match stored directly (as an import does): ``deals`` finished deals, then the next
    deal's table and ``extra_plays`` plays; returns the engine's twin."""
    rules = parse_rules("pagat", [f"fixed_deals={deals + 1}"])
    return stored_match(db, list(players), rules, seed, deals, extra_plays)


def test_snapshots_of_another_engine_version_are_recomputed(pasur, db, monkeypatch):
    """A snapshot records the engine that computed it; another version's is not trusted: the
    deal is replayed from the log (reading changes nothing), and the next change writes every
    snapshot afresh with this version."""
    from pasur_cli.store import snapshots as module
    engine = stored(db, 2, 14)
    score = pasur("score", "--json").output
    monkeypatch.setattr(module, "ENGINE_VERSION", module.ENGINE_VERSION + 1)
    before = db.read_bytes()
    assert pasur("score", "--json").output == score
    assert db.read_bytes() == before
    store = Store(db)
    assert store.load(1).start == 0  # not trusted: the whole log is replayed
    store.close()
    deal = engine.deal
    card = next(c for c in DECK if c not in deal.where)
    take = legal_captures(card, deal.table, engine.rules).options
    assert pasur("play", card.code, "--take", " ".join(c.code for c in (take[0] if take else ()))).exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT engine, count(*) FROM snapshots GROUP BY engine").fetchall() == \
        [(module.ENGINE_VERSION, 2)]
    con.close()
    store = Store(db)
    record, full = store.load(1), store.load(1, full=True)
    store.close()
    assert record.start == engine.completed_at[1]
    assert state(record.replay()) == state(full.replay())
    import json
    assert json.loads(pasur("score", "--json").output)["deals"][:2] == json.loads(score)["deals"][:2]


def test_a_long_match_parses_no_finished_deal_for_show(pasur, db, monkeypatch):
    """show and play read the newest snapshot's totals, however long the match, and parse no
    deal's result (score parses them all)."""
    from pasur_cli.store import snapshots as module  # the reader, behind the store's Results
    stored(db, 40, 16, extra_plays=1)
    parsed = []
    real = module.read_result  # the one reader of a stored result
    monkeypatch.setattr(module, "read_result", lambda text, *rest: parsed.append(text) or real(text, *rest))
    assert pasur("show").exit_code == 0
    assert parsed == []
    assert pasur("score").exit_code == 0
    assert len(set(parsed)) == 40  # every deal's table


@pytest.mark.parametrize("totals", ['{"Ali": 3, "Sara": 1.5}', '{"Ali": 3, "Sara": true}', '[3, 4]', '7',
                                    '{"Ali": 3, "Sara": ', "", "null"])
def test_totals_that_are_not_whole_numbers_by_name_are_not_trusted(pasur, db, totals):
    engine = stored(db, 2, 17, extra_plays=1)
    score = pasur("score", "--json").stdout
    con = sqlite3.connect(db)
    con.execute("UPDATE snapshots SET totals = ? WHERE seq = (SELECT max(seq) FROM snapshots)", (totals,))
    con.commit()
    con.close()
    store = Store(db)
    assert store.load(1).start == 0  # replayed from the whole log
    store.close()
    assert pasur("score", "--json").stdout == score
    assert engine.results


class NoJsonFunctions:
    """A connection as an SQLite built without its JSON functions answers."""

    def __init__(self, db):
        self.db = db

    def execute(self, sql, *args):
        if "json_" in sql:
            raise sqlite3.OperationalError("no such function: json_type")
        return self.db.execute(sql, *args)


@pytest.mark.parametrize("totals", [None, '{"Ali": 3, "Sara": true}', "{", "[1]"])
def test_totals_are_read_without_sqlites_json_functions_too(db, totals):
    stored(db, 2, 18, extra_plays=1)
    if totals is not None:
        con = sqlite3.connect(db)
        con.execute("UPDATE snapshots SET totals = ?", (totals,))
        con.commit()
        con.close()
    store = Store(db)
    with_functions = store.load(1)
    store.db = NoJsonFunctions(store.db)
    without = store.load(1)
    assert (without.start, without.totals) == (with_functions.start, with_functions.totals)
    assert (without.start > 0) == (totals is None)


def test_the_snapshot_checksum_is_crc32_of_the_lines():
    """CRC-32's check value (of "123456789"), and the lines joined by newlines: the checksums
    stored so far were written so."""
    assert crc(["123456789"]) == 0xCBF43926
    assert crc(["play\t2S", "{}", ""]) == crc(["play\t2S\n{}\n"]) != crc(["play\t2S", "{}"])


TEAMS = ("Ali", "Sara", "Reza", "Mina")
NEWEST = "WHERE seq = (SELECT max(seq) FROM snapshots)"
OLDEST = "WHERE seq = (SELECT min(seq) FROM snapshots)"
FORGED = [  # a snapshot that does not fit its match is not trusted: the same answers, from the whole log
    f"""UPDATE snapshots SET totals = '{{"Ali & Reza": 17}}' {NEWEST}""",  # a side missing
    f"""UPDATE snapshots SET totals = json_set(totals, '$.Zoë', 4) {NEWEST}""",  # one too many
    f"UPDATE snapshots SET totals = X'ff' {NEWEST}", f"UPDATE snapshots SET totals = 5 {NEWEST}",
    f"UPDATE snapshots SET totals = CAST(totals AS BLOB) {NEWEST}",
    f"UPDATE snapshots SET result = X'ff' {NEWEST}", f"UPDATE snapshots SET result = 5 {NEWEST}",
    f"UPDATE snapshots SET result = X'ff' {OLDEST}", f"UPDATE snapshots SET result = 5 {OLDEST}",
    f"UPDATE snapshots SET result = CAST(result AS BLOB) {OLDEST}",
    f"UPDATE snapshots SET result = replace(result, 'Ali & Reza', 'Ali & Zoë') {OLDEST}",  # other sides
    f"UPDATE snapshots SET result = json_set(result, '$.number', 7) {OLDEST}",
    f"UPDATE snapshots SET result = json_set(result, '$.dealer', 'Mina') {OLDEST}",
    f"UPDATE snapshots SET seq = 'x' {OLDEST}", f"UPDATE snapshots SET seq = X'00' {NEWEST}",
    f"DELETE FROM snapshots {OLDEST}",  # the newest deal's number is no longer the count of snapshots
]
CHANGED = [  # the match's players or rules changed under its snapshots: replayed, or damaged with a reason
    "UPDATE matches SET rules = replace(rules, 'teams=true', 'teams=false')",
    "UPDATE matches SET players = 'Ali' || char(10) || 'Sara' || char(10) || 'Reza'",
    "UPDATE matches SET players = players || char(10) || 'Zoë'",
    "UPDATE matches SET players = replace(players, 'Mina', 'Dara')",
]
READERS = [["show"], ["show", "--json"], ["score"], ["score", "--json"], ["score", "--csv"], ["log"], ["export"],
           ["matches"], ["matches", "--json"], ["stats"], ["stats", "--json"], ["undo", "--expect", 1]]


def forged(db, sql: str) -> None:
    con = sqlite3.connect(db)
    con.execute(sql)
    con.commit()
    con.close()


def shown_as_the_log_shows(pasur, db, views, *args, why=()) -> dict:
    """Each view (``pasur *view *args``) read from the file as it is, which reading leaves as it
    was, then held to the same view read from the log alone (every snapshot deleted): the same
    exit code and output. Returns what was read first, by the view's words."""
    file = db.read_bytes()
    shown = {tuple(map(str, view)): pasur(*view, *args) for view in views}
    assert db.read_bytes() == file
    forged(db, "DELETE FROM snapshots")  # the log alone
    for view, result in shown.items():
        truth = pasur(*view, *args)
        assert (result.exit_code, result.stdout) == (truth.exit_code, truth.stdout), (view, *why)
    return shown


@pytest.fixture(scope="module")
def teams_book(tmp_path_factory) -> tuple[bytes, dict[tuple, str]]:
    """A four-player match with three finished deals, stored once for every forgery: the file's
    bytes and what each reader prints from it before anything is forged."""
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    path = tmp_path_factory.mktemp("teams") / "pasur.db"
    stored(path, 3, 21, extra_plays=1, players=TEAMS)
    runner = CliRunner()
    before = {tuple(args): runner.invoke(main, ["--db", str(path), *map(str, args)], env={"NO_COLOR": "1"}).output
              for args in READERS[:-1]}
    return path.read_bytes(), before


def readers_for(number: int, every: bool) -> list[list]:
    """The readers run on forgery ``number``: every one under soak; in the quick suite show and
    score as JSON and two others in turn (each reader meets several forgeries)."""
    others = [r for r in READERS[:-1] if r not in (["show", "--json"], ["score", "--json"])]
    if every:
        return READERS[:-1]
    return [["show", "--json"], ["score", "--json"], others[number % len(others)], others[(number + 4) % len(others)]]


@pytest.mark.parametrize("every", [False, pytest.param(True, marks=pytest.mark.soak)])
@pytest.mark.parametrize("number", [n if n % 2 == 0 else pytest.param(n, marks=pytest.mark.soak) for n in range(len(FORGED))],
                         ids=[f"forged{n}" for n in range(len(FORGED))])  # every other forgery quick, each under soak
def test_a_snapshot_that_does_not_fit_its_match_is_not_trusted(pasur, db, teams_book, number, every):
    sql = FORGED[number]
    file, before = teams_book
    db.write_bytes(file)
    forged(db, sql)
    store = Store(db)
    record = store.load(1)
    assert state(record.replay()) == state(store.load(1, full=True).replay())
    store.close()
    for args in readers_for(number, every):
        assert pasur(*args).stdout == before[tuple(args)], (sql, args)
    assert "not 1" in pasur(*READERS[-1]).output


@pytest.mark.parametrize("sql", some(CHANGED, 2))
def test_players_or_rules_changed_under_the_snapshots(pasur, db, sql):
    import json
    stored(db, 2, 22, extra_plays=1, players=TEAMS)
    stored(db, 2, 23, extra_plays=1)
    forged(db, sql + " WHERE id = 1")
    file = db.read_bytes()
    for args in READERS:
        every = args[0] in ("matches", "stats")
        for match in (1, 2):
            result = pasur(*args) if every else pasur(*args, "--match", match)
            assert result.exit_code == 0 or (match == 1 and "match 1 is damaged:" in result.output) or \
                (args[0] == "undo" and "not 1" in result.output), (args, match, result.output)
            assert db.read_bytes() == file
    stats = json.loads(pasur("stats", "--json").stdout)
    assert stats["unfinished"] + len(stats["damaged"]) == 2  # the other match is counted whatever this one is


def test_finished_deals_read_back_in_seat_order(pasur):
    """A snapshot stores a deal's scores by name, sorted; read back they are in seat order again,
    as the deal just played shows them (Sara before Ali)."""
    pasur("new", "Sara", "Reza", "Ali", "--rule", "teams=no")
    for _ in range(2):
        assert pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count", "Reza: clubs=0",
                     "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes").exit_code == 0
    import json
    deals = json.loads(pasur("score", "--json").output)["deals"]
    assert [list(deal["scores"]) for deal in deals] == [["Sara", "Reza", "Ali"]] * 2
    rows = [line.split()[0] for line in pasur("score").output.split("\n\n")[0].splitlines()[3:6]]
    assert rows == ["Sara", "Reza", "Ali"]


@pytest.mark.parametrize("edit", [
    "UPDATE snapshots SET totals = replace(totals, ': ', ': 4') WHERE seq = (SELECT max(seq) FROM snapshots)",
    "UPDATE snapshots SET totals = replace(totals, ': ', ': -') WHERE seq = (SELECT max(seq) FROM snapshots)",
    "UPDATE snapshots SET result = replace(result, '\"total\": ', '\"total\": 1e400, \"x\": ') WHERE seq = "
    "(SELECT min(seq) FROM snapshots)",
    "UPDATE snapshots SET result = replace(result, '\"total\": ', '\"total\": true, \"x\": ') WHERE seq = "
    "(SELECT min(seq) FROM snapshots)",
])
def test_edited_figures_in_a_snapshot_are_not_believed(pasur, db, edit):
    """The CRC covers the totals as well as the result; an older result's figures must be whole
    numbers. Either way the whole log says what the figures are (no traceback, nothing changed)."""
    stored(db, 3, 19, extra_plays=1)
    before = {cmd: pasur(cmd, "--json").stdout for cmd in ("show", "score")}
    stats = pasur("stats", "--json").stdout
    con = sqlite3.connect(db)
    con.execute(edit)
    con.commit()
    con.close()
    assert {cmd: pasur(cmd, "--json").stdout for cmd in ("show", "score")} == before
    assert pasur("stats", "--json").stdout == stats


SHOWN = [["score"], ["score", "--json"], ["score", "--csv"], ["stats"], ["stats", "--json"], ["matches"],
         ["matches", "--json"]]


def test_one_changed_digit_in_an_older_deals_total_is_never_shown(pasur, db):
    """The issue's example: one digit changed in an older deal's stored total was printed as fact by
    `score`, `score --json`, `score --csv` and `stats`, and `matches` called the match healthy.
    Every command shows the log's figures and says the snapshot did not match; the next change
    that finishes a deal stores them again."""
    engine = stored(db, 3, 31, extra_plays=0)
    truth = {tuple(args): pasur(*args).stdout for args in SHOWN}
    total = engine.results[0].scores["Ali"].total
    forged(db, f"UPDATE snapshots SET result = replace(result, '\"total\": {total}', '\"total\": {total + 10}')"
               " WHERE seq = (SELECT min(seq) FROM snapshots)")
    for args in SHOWN:
        result = pasur(*args)
        assert result.exit_code == 0 and result.stdout == truth[tuple(args)], args
        assert "Match 1: the stored figures of deal 1 do not match its log" in result.stderr, args
    assert pasur("log", "--deal", 2).stderr  # log --deal 2 starts from deal 1's snapshot: checked too
    twin = Match(engine.players, engine.rules)
    for action in random_match(random.Random(31), twin):  # as stored() made them, then deal 4 to its end
        twin.apply(action)
        if twin.length > engine.length:
            engine.apply(action)
            assert enter(pasur, action).exit_code == 0
        if len(engine.results) == 4:
            break
    for args in SHOWN:
        assert not pasur(*args).stderr, args  # repaired
    assert json.loads(pasur("score", "--json").stdout)["totals"] == engine.totals


@pytest.mark.parametrize("seed", some(range(8), 2))
def test_any_changed_figure_of_any_finished_deal_is_caught(pasur, db, seed):
    """Generated: one stored figure (a score field, a total, a running total, the tallied flag)
    of a random finished deal changed; every command that shows figures shows the log's and
    reports the deal."""
    rng = random.Random(seed)
    engine = stored(db, rng.randint(2, 5), 40 + seed, extra_plays=rng.choice([0, 2]))
    truth = {tuple(args): pasur(*args).stdout for args in SHOWN}
    con = sqlite3.connect(db)
    rows = con.execute("SELECT seq, result, totals FROM snapshots ORDER BY seq").fetchall()
    number = rng.randrange(len(rows))
    seq, result, totals = rows[number]
    if rng.random() < 0.3:
        data = json.loads(totals)
        side = rng.choice(sorted(data))
        data[side] += rng.choice([-3, -1, 1, 7])
        con.execute("UPDATE snapshots SET totals = ? WHERE seq = ?", (json.dumps(data, ensure_ascii=False), seq))
    else:
        data = json.loads(result)
        score = data["scores"][rng.choice(sorted(data["scores"]))]
        field = rng.choice(sorted(score))
        score[field] += rng.choice([1, 2]) if score[field] < 3 else -1
        con.execute("UPDATE snapshots SET result = ? WHERE seq = ?",
                    (json.dumps(data, ensure_ascii=False, sort_keys=True), seq))
    con.commit()
    con.close()
    for args in SHOWN:
        shown = pasur(*args)
        assert shown.stdout == truth[tuple(args)], (args, number)
        assert f"the stored figures of deal {number + 1} do not match its log" in shown.stderr, (args, number)
    assert engine.results and pasur("show").exit_code == 0


SCHEMA_3 = """
    ALTER TABLE snapshots DROP COLUMN figures;
    ALTER TABLE snapshots DROP COLUMN log_crc;
    ALTER TABLE snapshots DROP COLUMN book_crc;
    UPDATE meta SET value = '3' WHERE key = 'schema_version';
"""


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_a_schema_3_file_gets_its_running_checksums_from_the_first_write(pasur, db, seed):
    """Generated: a file of the previous schema (random matches, finished and not, one with a
    forged figure in a random deal, one damaged) reads as it did; the first write gives every
    match whose snapshots check out their figures and running checksums (they then check out all
    at once), leaves the forged and the damaged ones as they are (still reported), and every
    command shows the same figures as before."""
    from matchbook import random_match as whole_match
    from matchbook import stored as store_all
    rng = random.Random(seed)
    made = [whole_match(rng, finished=rng.random() < .7) for _ in range(6)]
    made = [m for m in made if m[4].results] or [whole_match(rng)]
    store_all(db, made)
    forgery = rng.randrange(len(made)) + 1
    damaged = rng.choice([n for n in range(1, len(made) + 1) if n != forgery] or [0])
    con = sqlite3.connect(db)
    con.executescript(SCHEMA_3)
    rules_as_lines(con)
    con.execute("UPDATE actions SET action = 'play\tNobody\tZZ\t' WHERE match_id = ? AND seq = 1", (damaged,))
    deals = con.execute("SELECT seq FROM snapshots WHERE match_id = ? ORDER BY seq", (forgery,)).fetchall()
    seq = rng.choice(deals)[0]
    con.execute("UPDATE snapshots SET totals = replace(totals, ':', ': 1') WHERE match_id = ? AND seq = ?",
                (forgery, seq))
    con.commit()
    con.close()
    views = [["stats", "--json"], ["matches", "--json"], *(["score", "--json", "--match", n]
                                                         for n in range(1, len(made) + 1))]
    before = {tuple(map(str, v)): pasur(*v) for v in views}
    assert pasur("new", "Ali", "Sara").exit_code == 0  # the first write: the file moves to schema 4
    assert pasur("delete", "--match", len(made) + 1, "--yes").exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    assert con.execute("SELECT count(*) FROM meta WHERE key = 'unchained'").fetchone()[0] == 0
    con.create_function("pasur_crc", 1, sql_crc)
    books = {row[0]: row[1:] for row in con.execute(EVERY_BOOK)}
    logs = {row[0]: row[1:] for row in con.execute(EVERY_LOG)}
    for mid in range(1, len(made) + 1):
        head = con.execute("SELECT players, rules, dealer FROM matches WHERE id = ?", (mid,)).fetchone()
        assert chain_holds(head, books[mid], logs[mid]) == chained(con, mid) == (mid not in (forgery, damaged)), mid
    con.close()
    for view, shown in before.items():
        now = pasur(*view)
        assert now.stdout == shown.stdout, view
        assert now.stderr == shown.stderr, view  # the forged match still said to be recomputed
    assert any("do not match its log" in shown.stderr for shown in before.values())


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_a_finished_deal_whose_snapshot_is_missing_does_not_stop_play(pasur, db, seed):
    """Generated: the newest snapshot rows (one or two) deleted by hand, as a cache may lose
    them. The log still replays, so the match is not damaged: the next plays through a deal's end
    are recorded (they were refused with "match 1 is damaged: 4 deal snapshots, not 3"), every
    finished deal gets its snapshot again, the running checksums hold, and every view shows what
    the log replays to."""
    rng = random.Random(seed)
    deals = rng.randint(2, 4)
    rules = parse_rules("pagat", [f"fixed_deals={deals + 3}"])
    engine, actions = Match(["Ali", "Sara"], rules), []
    plays = random_match(random.Random(70 + seed), engine)
    for action in plays:
        engine.apply(action)
        actions.append(action)
        if len(engine.results) == deals and engine.deal is not None and not engine.deal.plays:
            break  # as stored_match stops: the next deal's table laid
    stored_match(db, ["Ali", "Sara"], rules, 70 + seed, deals)
    lost = rng.choice([1, 2])
    forged(db, f"DELETE FROM snapshots WHERE seq IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT {lost})")
    for action in plays:  # to the end of the next deal, as entered at the table
        result = enter(pasur, action)
        assert result.exit_code == 0, result.output
        engine.apply(action)
        if len(engine.results) == deals + 1:
            break
    con = sqlite3.connect(db)
    con.create_function("pasur_crc", 1, sql_crc)
    assert con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == deals + 1
    assert chained(con, 1)
    con.close()
    shown = shown_as_the_log_shows(pasur, db, SHOWN)
    assert json.loads(shown[("score", "--json")].stdout)["totals"] == engine.totals


@pytest.mark.parametrize("seed", some(range(8), 2))
def test_a_snapshot_moved_to_another_action_never_cuts_the_wrong_deal(pasur, db, seed):
    """Generated: a finished deal's snapshot row moved by hand to another action (its seq a few
    actions earlier or later, its CRC now failing). `log --deal N` cut deal N's actions at the
    moved seq, which only the result's check could refuse, so it showed the wrong plays or said
    "enter the table of deal 4 first"; every deal is shown as the log replays it, with the damage
    said on stderr."""
    rng = random.Random(seed)
    engine = stored(db, rng.randint(3, 5), 80 + seed, extra_plays=rng.choice([0, 3]))
    con = sqlite3.connect(db)
    seqs = [s for s, in con.execute("SELECT seq FROM snapshots ORDER BY seq")]
    moved = rng.choice(seqs[:-1])  # the newest is checked before anything is read
    to = moved + rng.choice([-3, -1, 1, 3])
    con.execute("UPDATE snapshots SET seq = ? WHERE seq = ?", (to, moved))
    con.commit()
    con.close()
    shown = shown_as_the_log_shows(pasur, db, [["log", "--deal", n] for n in range(1, len(engine.results) + 2)],
                                   why=(moved, to))
    assert any("do not match its log" in result.stderr for result in shown.values())


@pytest.mark.parametrize("schema_3", [False, pytest.param(True, marks=pytest.mark.soak)])
@pytest.mark.parametrize("seed", some(range(8), 2))
def test_a_header_changed_under_the_snapshots_is_never_read_as_sound(pasur, db, seed, schema_3):
    """Generated: a finished match (no deal in progress, so nothing after the newest snapshot is
    replayed) whose first dealer or players' order is changed by hand (the same sides, so the
    totals still name them). `show` and `log --deal N` read the newest snapshot alone and showed
    the match as sound where its log no longer replays; every command now says what the log
    replayed whole says."""
    from matchbook import random_match as whole_match
    from matchbook import stored as store_all
    rng = random.Random(seed)
    players, rules, dealer, actions, match = whole_match(rng)
    while len(set(players)) < 3 or len(match.results) < 2:
        players, rules, dealer, actions, match = whole_match(rng)
    store_all(db, [(players, rules, dealer, actions, match)])
    con = sqlite3.connect(db)
    if schema_3:
        con.executescript(SCHEMA_3)
    rules_as_lines(con)
    if rng.random() < 0.5:
        con.execute("UPDATE matches SET dealer = (dealer + 1) % ?", (len(players),))
    else:
        order = list(players)
        while order == players:
            rng.shuffle(order)
        con.execute("UPDATE matches SET players = ?", ("\n".join(order),))
    con.commit()
    con.close()
    views = [["show"], ["show", "--json"], ["score", "--json"], ["matches", "--json"],
             *(["log", "--deal", n] for n in range(1, len(match.results) + 1))]
    shown_as_the_log_shows(pasur, db, views)


@pytest.mark.parametrize("seed", some(range(8), 2))
def test_an_older_deals_action_changed_by_hand_is_never_read_as_sound(pasur, db, seed):
    """Generated: one action line of an older deal (before the newest snapshot) changed by hand:
    another line of the log, a byte that is no UTF-8, a line break, or the line deleted. `show`
    and `play` read the newest snapshot and its deal's lines alone, so they showed (and extended)
    a match whose log no longer replays; the newest snapshot's log_crc now says the lines up to it
    changed and the whole log is replayed: every view says what the log alone says."""
    rng = random.Random(seed)
    engine = stored(db, rng.randint(3, 5), 90 + seed, extra_plays=rng.choice([0, 2]))
    con = sqlite3.connect(db)
    first = con.execute("SELECT min(seq) FROM snapshots").fetchone()[0]
    seq = rng.randint(1, first)
    how = rng.choice(["other", "utf8", "newline", "delete"])
    if how == "other":
        con.execute("UPDATE actions SET action = (SELECT action FROM actions WHERE seq = ?) WHERE seq = ?",
                    (rng.choice([s for s in range(1, first + 1) if s != seq]), seq))
    elif how == "utf8":
        con.execute("UPDATE actions SET action = CAST(action AS BLOB) || x'ff' WHERE seq = ?", (seq,))
    elif how == "newline":
        con.execute("UPDATE actions SET action = action || char(10) WHERE seq = ?", (seq,))
    else:
        con.execute("DELETE FROM actions WHERE seq = ?", (seq,))
    con.commit()
    con.close()
    views = [["show"], ["show", "--json"], ["score", "--json"], ["matches", "--json"], ["log", "--deal", 2]]
    shown_as_the_log_shows(pasur, db, views, why=(seq, how))
    assert engine.results


def score_while(pasur, monkeypatch, meanwhile):
    """`pasur score --json`, ``meanwhile(sql)`` called as each of its statements starts (another
    program's turn between two of score's reads, at a point the test chooses, never by timing)."""
    real = sqlite3.connect

    def watched(*args, **kwargs):
        con = real(*args, **kwargs)
        con.set_trace_callback(meanwhile)
        return con
    monkeypatch.setattr(sqlite3, "connect", watched)
    try:
        return pasur("score", "--json")
    finally:
        monkeypatch.setattr(sqlite3, "connect", real)


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_a_deal_finished_by_another_program_while_score_reads_is_not_damage(pasur, db, monkeypatch, seed):
    """Generated: `score` reads the newest snapshot, then (when it draws the deals) every snapshot;
    another program (a session at the table) finishes the deal in progress in between. The new
    deal's snapshot was read with the others and the match called damaged ("4 deal snapshots, not
    3"); score now shows the match as it was when it read it."""
    from simulate import random_plays

    from pasur_cli.store.actions import enter_play
    rng = random.Random(seed)
    engine = stored(db, rng.randint(2, 4), 100 + seed)  # the next deal's table laid, no play yet
    deal = engine.deal
    stock = [c for c in DECK if c not in deal.where]
    rng.shuffle(stock)
    plays = []
    for player, card, take in random_plays(rng, deal, stock):
        deal.play(card, take, player)
        plays.append((card, take, player))
    before = pasur("score", "--json")

    def finish(sql: str) -> None:
        if "SELECT seq, CAST(result AS TEXT) FROM snapshots" in sql and plays:
            store = Store(db, write=True)
            while plays:
                card, take, player = plays.pop(0)
                enter_play(store, 1, card, take, player)
            store.close()
    shown = score_while(pasur, monkeypatch, finish)
    assert not plays  # the deal was finished while score read
    assert (shown.exit_code, shown.stdout) == (0, before.stdout)
    assert pasur("score", "--json").stdout != before.stdout  # and the deal is there for the next reading


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_an_undo_after_a_deal_its_snapshot_misses_replays_from_the_snapshot_before(pasur, db, seed):
    """A match whose newest snapshot is gone (a hand edit) is read from the one before, the log
    after it finishing a deal again; taking back a play then replays from that snapshot's results,
    not from them and the deal finished since (the undo said "the match is over" on a match that
    was not, or took back into figures counted twice)."""
    rng = random.Random(seed)
    engine = stored(db, rng.randint(2, 4), 60 + seed, extra_plays=rng.randint(1, 3))
    forged(db, "DELETE FROM snapshots WHERE seq = (SELECT max(seq) FROM snapshots)")
    assert pasur("undo").exit_code == 0
    engine.undo(1)
    shown = json.loads(pasur("show", "--json").stdout)
    assert shown["deal"] == engine.deal_number and shown["table"] == [c.code for c in engine.deal.table]
    assert json.loads(pasur("score", "--json").stdout)["totals"] == engine.totals


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_a_changed_figure_of_the_newest_snapshot_is_said_recomputed(pasur, db, seed):
    """Generated: one number of a match's newest snapshot's record-book figures changed by hand
    (its running checksums then fail, and every result still checks out deal by deal). `matches`
    and `stats` showed the figures recomputed from the log but said nothing; they now say which
    deal's stored figures did not match, as for any other figure."""
    import re

    from matchbook import random_match as whole_match
    from matchbook import stored as store_all
    rng = random.Random(seed)
    made = [whole_match(rng, finished=rng.random() < .6) for _ in range(3)]
    made = [m for m in made if m[4].results] or [whole_match(rng)]
    store_all(db, made)
    views = [["matches", "--json"], ["stats", "--json"], ["matches"], ["stats"]]
    before = {tuple(v): pasur(*v).stdout for v in views}
    mid = rng.randint(1, len(made))
    con = sqlite3.connect(db)
    seq, figures = con.execute("SELECT seq, figures FROM snapshots WHERE match_id = ? ORDER BY seq DESC LIMIT 1",
                               (mid,)).fetchone()
    numbers = list(re.finditer(r"\d+", figures))
    at = rng.choice(numbers)
    changed = figures[:at.start()] + str(int(at.group()) + rng.choice([1, 2, 5])) + figures[at.end():]
    con.execute("UPDATE snapshots SET figures = ? WHERE match_id = ? AND seq = ?", (changed, mid, seq))
    con.commit()
    con.close()
    deals = len(made[mid - 1][4].results)
    for view in views:
        shown = pasur(*view)
        assert shown.stdout == before[tuple(view)], view
        assert f"Match {mid}: the stored figures of deal {deals} do not match its log" in shown.stderr, view


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_a_damaged_match_left_unchained_by_the_move_to_schema_4_is_never_read_as_sound(pasur, db, seed):
    """Generated: a schema-3 file whose match has an older deal's action made no UTF-8 or
    another line by hand; the first write (to another match) moves the file to schema 4 and
    leaves that match's snapshots without running checksums (it does not check out). `show` went
    on reading it from its newest snapshot alone, as sound; a schema-4 snapshot without running
    checksums is now not trusted, and every view says what the log alone says."""
    rng = random.Random(seed)
    engine = stored(db, rng.randint(3, 5), 110 + seed, extra_plays=rng.choice([0, 2]))
    con = sqlite3.connect(db)
    con.executescript(SCHEMA_3)
    rules_as_lines(con)
    first = con.execute("SELECT min(seq) FROM snapshots").fetchone()[0]
    seq = rng.randint(1, first)
    if rng.random() < 0.5:
        con.execute("UPDATE actions SET action = CAST(action AS BLOB) || x'ff' WHERE seq = ?", (seq,))
    else:
        con.execute("UPDATE actions SET action = (SELECT action FROM actions WHERE seq = ?) WHERE seq = ?",
                    (rng.choice([s for s in range(1, first + 1) if s != seq]), seq))
    con.commit()
    con.close()
    assert pasur("new", "Ali", "Sara").exit_code == 0  # the first write: the file moves to schema 4
    views = [["show"], ["show", "--json"], ["score", "--json"], ["log", "--deal", 2]]
    shown_as_the_log_shows(pasur, db, views, "--match", 1, why=(seq,))
    assert engine.results


@pytest.mark.parametrize("seed", some(range(4), 1))
def test_a_deal_end_taken_back_by_another_program_while_score_reads_is_not_damage(pasur, db, monkeypatch, seed):
    """Generated: `score` reads the newest snapshot, then every snapshot; another program takes
    back the play that ended the newest deal in between (its snapshot goes). score said "match 1
    is damaged: 2 deal snapshots, not 3" of a sound match; it now says the file was busy and to
    try again, and the next reading shows the match as it now is."""
    from matchbook import stored as store_all

    from pasur_cli.store.actions import take_back
    rng = random.Random(seed)
    deals = rng.randint(2, 4)
    rules = parse_rules("pagat", [f"fixed_deals={deals + 2}"])
    engine, actions = Match(["Ali", "Sara"], rules), []
    for action in random_match(random.Random(120 + seed), engine):
        engine.apply(action)
        actions.append(action)
        if len(engine.results) == deals:
            break
    store_all(db, [(["Ali", "Sara"], rules, 0, actions, Match.replay(["Ali", "Sara"], rules, 0, actions))])
    undone: list[int] = []

    def undo(sql: str) -> None:
        if "SELECT seq, CAST(result AS TEXT) FROM snapshots" in sql and not undone:
            undone.append(1)
            store = Store(db, write=True)
            take_back(store, 1, 1)
            store.close()
    shown = score_while(pasur, monkeypatch, undo)
    assert undone and shown.exit_code != 0
    assert "busy" in shown.output and "damaged" not in shown.output, shown.output
    engine.undo(1)
    assert json.loads(pasur("score", "--json").stdout)["totals"] == engine.totals


@pytest.mark.parametrize("seed", some(range(6), 1))
def test_the_move_to_schema_4_never_chains_figures_of_other_rules(pasur, db, seed):
    """Generated: a schema-3 file one of whose matches had a scoring rule changed by hand (clubs
    or sur points: schema 3 covers no rule with a checksum, and each deal's own CRC still holds).
    The first write moved the file to schema 4 and chained the stale figures under the new rules,
    so every command showed them as checked from then on; the move now replays each match whole
    before it writes its running checksums, and every view says what the log alone says."""
    from matchbook import random_match as whole_match
    from matchbook import stored as store_all
    rng = random.Random(seed)
    made = [whole_match(rng, finished=rng.random() < .5) for _ in range(3)]
    made = [m for m in made if m[4].results] or [whole_match(rng)]
    store_all(db, made)
    mid = rng.randint(1, len(made))
    rule, value = rng.choice([("clubs_points", rng.choice([0, 3, 9])), ("sur_points", rng.choice([1, 20]))])
    con = sqlite3.connect(db)
    con.executescript(SCHEMA_3)
    rules_as_lines(con)
    con.execute(f"UPDATE matches SET rules = replace(rules, char(10) || '{rule}=' ||"
                f" (SELECT substr(rules, instr(rules, '{rule}=') + {len(rule) + 1},"
                f" instr(substr(rules, instr(rules, '{rule}=')), char(10)) - {len(rule) + 2}) FROM matches"
                f" WHERE id = ?) || char(10), char(10) || '{rule}={value}' || char(10)) WHERE id = ?", (mid, mid))
    con.commit()
    con.close()
    assert f"{rule}={value}\n" in sqlite3.connect(db).execute("SELECT rules FROM matches WHERE id = ?",
                                                               (mid,)).fetchone()[0]
    assert pasur("new", "Ali", "Sara").exit_code == 0  # the first write: the file moves to schema 4
    assert pasur("delete", "--match", len(made) + 1, "--yes").exit_code == 0
    views = [["stats", "--json"], ["matches", "--json"], ["score", "--json", "--match", mid],
             ["show", "--json", "--match", mid]]
    shown_as_the_log_shows(pasur, db, views, why=(rule, value))
