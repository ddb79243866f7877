"""A match is one match forever: its id is never given again, its key is its own, and ``--expect``
compares a revision that moves with every change (undo included) and never goes back.

The classes of issue 21 ("never the wrong match, never twice"), each with its examples as named
tests and generated cases: random interleavings of new, delete, deal, play and undo through two
stores open on one file, each write carrying what some earlier look at the match saw.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from matchbook import rules_as_lines
from simulate import random_table
from tier import some

from pasur_cli.cli.app import main
from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.record import read_record
from pasur_cli.engine.rules import PRESETS, Rules, stored_rules
from pasur_cli.store import actions
from pasur_cli.store.database import Expected, Store, parse_expected
from pasur_cli.store.errors import AlreadyImported, NoMatchError, StaleError


def run(path: Path, *args: object, input: str | None = None):
    """`pasur ARGS` in-process on the database at ``path``."""
    result = CliRunner().invoke(main, [str(a) for a in args], input=input,
                                env={"PASUR_DB": str(path), "PASUR_BUSY_TIMEOUT": "0"}, catch_exceptions=False)
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output, result.output
    return result


def shown(path: Path, match: int | None = None) -> dict:
    return json.loads(run(path, "show", "--json", *(["--match", match] if match else [])).output)


def rows(path: Path) -> dict[str, list]:
    """Every row of every table (the file's whole content as pasur sees it)."""
    con = sqlite3.connect(path)
    try:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in ("matches", "actions", "snapshots", "meta")}
    finally:
        con.close()


# -- a match id is never given again ------------------------------------------------------------
def test_a_deleted_match_id_is_never_given_again(tmp_path):
    """The issue's example: `delete --match 2` then `new` gave the new match id 2."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    run(path, "new", "Reza", "Mina")
    assert run(path, "delete", "--match", 2, "--yes").exit_code == 0
    assert run(path, "new", "Dara", "Zoë").output.startswith("Match 3:")
    assert run(path, "delete", "--match", 3, "--yes").exit_code == 0
    assert run(path, "delete", "--match", 1, "--yes").exit_code == 0  # every match gone
    assert run(path, "new", "Ali", "Sara").output.startswith("Match 4:")


def test_a_script_expecting_a_deleted_match_records_nothing(tmp_path):
    """The issue's example: `--match 2 --expect 0` recorded into the match made after 2 was deleted."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    run(path, "new", "Reza", "Mina")
    seen = shown(path, 2)["revision"]
    run(path, "delete", "--match", 2, "--yes")
    run(path, "new", "Dara", "Zoë")
    before = rows(path)
    for expect in (seen, "0"):
        result = run(path, "deal", "5C", "9D", "3H", "KS", "--match", 2, "--expect", expect)
        assert result.exit_code == 1 and "there is no match 2" in result.output
    assert rows(path) == before


def test_a_key_from_another_match_is_refused(tmp_path):
    """A revision names its match: the same number of another match (another file, or the current
    match changed under a script without --match) is refused."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    first = shown(path)["revision"]
    run(path, "new", "Reza", "Mina")  # now the current match, also at revision 0
    second = shown(path)["revision"]
    assert first.split(":")[1] == second.split(":")[1] == "0" and first != second
    result = run(path, "deal", "5C", "9D", "3H", "KS", "--expect", first)
    assert result.exit_code == 1 and "2 matches are in play" in result.output  # two tables: name one
    result = run(path, "deal", "5C", "9D", "3H", "KS", "--expect", first, "--match", 2)
    assert result.exit_code == 1 and "match 2 is not the match that was shown" in result.output
    assert shown(path)["length"] == 0
    assert run(path, "deal", "5C", "9D", "3H", "KS", "--expect", second, "--match", 2).exit_code == 0


# -- --expect: a revision that never goes back ------------------------------------------------
def test_undo_then_another_play_is_refused_for_the_revision_shown_before(tmp_path):
    """The issue's example: an undo followed by a different play restores the log's length, and a
    play expecting that length was accepted."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara", "--rules", "pagat")
    run(path, "deal", "5C", "9D", "3H", "KS")
    run(path, "play", "2S")
    seen = shown(path)
    assert (seen["length"], seen["revision"].split(":")[1]) == (2, "2")
    run(path, "undo")
    run(path, "play", "4D")  # another play: the log holds 2 actions again
    now = shown(path)
    assert now["length"] == 2 and now["revision"] != seen["revision"]
    before = rows(path)
    stale = run(path, "play", "6H", "--expect", seen["revision"])
    assert stale.exit_code == 1 and "its revision is 4, not 2" in stale.output
    by_length = run(path, "play", "6H", "--expect", seen["length"])
    assert by_length.exit_code == 1 and "is the log's length, but match 1 had an undo" in by_length.output
    assert rows(path) == before
    assert run(path, "play", "6H", "--expect", now["revision"]).exit_code == 0


def test_the_readme_example_reading_length_works_until_the_first_undo(tmp_path):
    """The --expect script (docs/storage.md) read "length" before there were revisions; it keeps working (the
    revision equals the length) until the match's first undo, and is refused, never fooled, after."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara", "--rules", "pagat")
    run(path, "deal", "5C", "9D", "3H", "KS")
    for card in ("2S", "6H", "5S"):
        n = shown(path)["length"]
        assert run(path, "play", card, "--expect", n).exit_code == 0
    run(path, "undo")
    n = shown(path)["length"]
    assert run(path, "play", "5S", "--expect", n).exit_code == 1
    assert run(path, "play", "5S", "--expect", shown(path)["revision"]).exit_code == 0


def test_expect_takes_digits_of_any_script_and_refuses_other_text(tmp_path):
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    key = shown(path)["revision"].split(":")[0]
    assert run(path, "deal", "5C", "9D", "3H", "KS", "--expect", f"{key}:۰").exit_code == 0
    for bad in ("x", f"{key}:", f"{key[:-1]}:1", "KEY:1", "-1", "1:2:3", "9" * 30):
        result = run(path, "undo", "--expect", bad)
        assert result.exit_code == 2 and "is not a revision" in result.output, bad


KEYS = st.text("0123456789abcdef", min_size=16, max_size=16)


@given(key=st.one_of(st.none(), KEYS), revision=st.integers(0, 2**63 - 1))
def test_a_revision_token_reads_back_as_itself(key, revision):
    assert parse_expected(Expected(key, revision).token) == Expected(key, revision)


@given(text=st.text(max_size=40))
def test_expect_text_is_a_revision_only_in_its_two_forms(text):
    """Any text: read as a revision only when it is N or KEY:N (N a whole number in any script's
    digits, KEY 16 lowercase hexadecimal digits), never half-read."""
    found = parse_expected(text)
    if found is not None:
        key, sep, number = text.strip().rpartition(":")
        assert found.key == (key if sep else None) and number.strip().isdecimal()
        assert int(number.strip()) == found.revision if number.strip().isascii() else True


def test_every_write_command_checks_the_revision(tmp_path):
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    run(path, "deal", "5C", "9D", "3H", "KS")
    seen = shown(path)["revision"]
    run(path, "undo")
    run(path, "deal", "5C", "9D", "3H", "KS")  # the same log again, at another revision
    before = rows(path)
    for args in (["play", "2S"], ["deal", "2C", "3C", "4C", "5C"], ["undo"], ["tally", "--count", "Ali: clubs=7"],
                 ["delete", "--match", "1", "--yes"]):
        result = run(path, *args, "--expect", seen)
        assert result.exit_code == 1 and "changed since it was shown" in result.output, args
    assert rows(path) == before


# -- generated: two stores, random interleavings ------------------------------------------------
def _step(rng: random.Random, store: Store, mid: int) -> None:
    """One random legal change of match ``mid``: its table, a play, or an undo."""
    match = store.match(mid)[1]
    if match.length and rng.random() < 0.3:
        actions.take_back(store, mid, rng.randint(1, min(3, match.length)))
    elif match.deal is None:
        actions.enter_table(store, mid, random_table(rng, match.rules)[0])
    else:
        deal = match.deal
        card = rng.choice(sorted(deal.unseen_cards))
        options = legal_captures(card, deal.table, match.rules).options
        actions.enter_play(store, mid, card, list(rng.choice(options)) if options else [])


@pytest.mark.parametrize("seed", some(range(12), 3))
def test_random_interleavings_across_two_stores_never_reuse_or_mistake_a_match(tmp_path, seed):
    """Two stores on one file make, delete and change matches in a random order; views taken at
    random moments then try to record. Ids only grow, each match's revision only grows (by one
    a change), and a write expecting a view is accepted exactly when that match has not changed
    since the view was taken (and refused, recording nothing, when it was deleted)."""
    rng = random.Random(seed)
    path = tmp_path / "p.db"
    stores = [Store(path, create=True), Store(path, write=True)]
    given: list[int] = []
    alive: dict[int, int] = {}  # match -> its revision, as the model says
    views: list[tuple[int, Expected]] = []
    try:
        for _ in range(60):
            store = rng.choice(stores)
            what = rng.random()
            if what < 0.15 or not alive:
                mid = store.create(["Ali", "Sara"], PRESETS[rng.choice(["standard", "pagat"])], 0)
                assert not given or mid > max(given), (mid, given)
                given.append(mid)
                alive[mid] = 0
            elif what < 0.25:
                mid = rng.choice(sorted(alive))
                store.delete(mid)
                del alive[mid]
            elif what < 0.45:
                mid = rng.choice(sorted(alive))
                views.append((mid, store.expected(mid) if rng.random() < 0.5 else store.stored_revision(mid)))
            elif what < 0.7 and views:
                mid, view = rng.choice(views)
                before = rows(path)
                undo = rng.random() < 0.5
                try:
                    if undo:
                        actions.take_back(store, mid, 1, expect=view)
                    else:
                        actions.enter_table(store, mid, random_table(rng, PRESETS["standard"])[0], expect=view)
                except NoMatchError:
                    assert mid not in alive
                    assert rows(path) == before
                except StaleError:
                    assert mid in alive and alive[mid] != view.revision
                    assert rows(path) == before
                except PasurError:  # a table where a deal is being played: refused by the rules
                    assert mid in alive and alive[mid] == view.revision
                    assert rows(path) == before
                else:
                    assert mid in alive and alive[mid] == view.revision
                    alive[mid] += 1
            else:
                mid = rng.choice(sorted(alive))
                _step(rng, store, mid)
                alive[mid] += 1
            for mid, revision in alive.items():
                stored = stores[0].stored_revision(mid)
                assert stored is not None and stored.revision == revision
        keys = [row[0] for row in sqlite3.connect(path).execute("SELECT key FROM matches")]
        assert len(set(keys)) == len(keys) == len(alive)
    finally:
        for store in stores:
            store.close()


# -- a database of an older pasur ---------------------------------------------------------------
def _downgrade(path: Path) -> None:
    """Make ``path`` the file pasur 2 (schema 2) would have written: no key, no revision, no
    record of the highest id."""
    con = sqlite3.connect(path)
    con.executescript("""
        ALTER TABLE matches DROP COLUMN key;
        ALTER TABLE matches DROP COLUMN revision;
        ALTER TABLE snapshots DROP COLUMN figures;
        ALTER TABLE snapshots DROP COLUMN log_crc;
        ALTER TABLE snapshots DROP COLUMN book_crc;
        DELETE FROM meta WHERE key = 'last_match';
        UPDATE meta SET value = '2' WHERE key = 'schema_version';
    """)
    rules_as_lines(con)
    con.close()


def test_a_database_of_the_previous_version_is_migrated_keeping_everything(tmp_path):
    path = tmp_path / "old.db"
    run(path, "new", "Ali", "Sara", "--rules", "pagat")
    run(path, "deal", "5C", "9D", "3H", "KS")
    run(path, "play", "2S")
    run(path, "new", "Reza", "Mina")  # in play with match 1: every change below names its match
    run(path, "new", "Dara", "Zoë")
    run(path, "delete", "--match", 2, "--yes")
    assert run(path, "tally", "--count", "Dara: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count",
               "Zoë: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--match", 3).exit_code == 0
    _downgrade(path)
    old = rows(path)
    assert shown(path, 1)["revision"] == "2"  # read as it is (no key yet), without changing the file
    assert rows(path) == old
    assert run(path, "new", "Ali", "Reza").output.startswith("Match 4:")  # a write migrates
    new = rows(path)
    # every column kept, the rules now the JSON of the same rules
    assert [(*r[:3], *r[4:7]) for r in new["matches"] if r[0] != 4] == [(*r[:3], *r[4:7]) for r in old["matches"]]
    assert [Rules.from_dict(json.loads(r[3])) for r in new["matches"] if r[0] != 4] == \
        [stored_rules(r[3]) for r in old["matches"]]
    assert new["actions"][:len(old["actions"])] == old["actions"]
    assert [r[:6] for r in new["snapshots"]] == old["snapshots"]  # and each with its figures and checksums now
    assert new["snapshots"] and all(None not in r for r in new["snapshots"])
    con = sqlite3.connect(path)
    revisions = dict(con.execute("SELECT id, revision FROM matches"))
    keys = [k for k, in con.execute("SELECT key FROM matches")]
    con.close()
    assert revisions == {1: 2, 3: 1, 4: 0} and len(set(keys)) == 3 and all(len(k) == 16 for k in keys)
    assert run(path, "play", "6H", "--match", 1, "--expect", 2).exit_code == 0  # the length a script read
    run(path, "delete", "--match", 4, "--yes")
    assert run(path, "new", "Sara", "Mina").output.startswith("Match 5:")


# -- import and export under races --------------------------------------------------------------
def test_the_imported_before_check_is_made_in_the_transaction_that_stores(tmp_path):
    """Three imports that each looked before any of them stored: the record is stored once."""
    path = tmp_path / "p.db"
    record = read_record((Path(__file__).parent.parent / "examples" / "season-5.json").read_text())
    stores = [Store(path, create=True) for _ in range(3)]
    try:
        assert [s.imported_as(record.fingerprint) for s in stores] == [None] * 3  # all looked first
        made, refused = [], []
        for store in stores:
            try:
                made.append(store.create(record.players, record.rules, record.dealer, record.actions, record.times,
                                         record.match, record.fingerprint, record.created, once=True))
            except AlreadyImported as err:
                refused.append(err.facts["match"])
        assert made == [1] and refused == [1, 1]
    finally:
        for store in stores:
            store.close()


def _pasur(*args: str, db: Path) -> subprocess.Popen:
    env = {**os.environ, "PASUR_DB": str(db), "PASUR_BUSY_TIMEOUT": "30"}
    return subprocess.Popen([sys.executable, "-m", "pasur_cli", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("rounds", some([1, 3]))  # one race quick; under soak two more, all three refused
def test_three_concurrent_imports_store_a_record_once(tmp_path, rounds):
    """The issue's example: three imports of one record at once stored it three times."""
    path = tmp_path / "p.db"
    record = Path(__file__).parent.parent / "examples" / "season-6.json"
    for round in range(rounds):
        runs = [_pasur("import", str(record), db=path) for _ in range(3)]
        results = [(p.wait(), *p.communicate()) for p in runs]
        assert sorted(code for code, _, _ in results) == ([0, 1, 1] if round == 0 else [1, 1, 1]), results
        assert all("already imported as match 1" in err for code, _, err in results if code), results
        assert all("Traceback" not in err for _, _, err in results)
        count = sqlite3.connect(path).execute("SELECT count(*) FROM matches").fetchone()[0]
        assert count == 1


@pytest.mark.parametrize("rounds", some([1, 4]))  # one race quick, four under soak
def test_two_concurrent_exports_never_replace_each_other(tmp_path, rounds):
    """The issue's example: two `export -o FILE` at once both exited 0, one replacing the other."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    run(path, "new", "Reza", "Mina")
    for round in range(rounds):
        out = tmp_path / f"m{round}.json"
        runs = [_pasur("export", "--match", str(m), "-o", str(out), db=path) for m in (1, 2)]
        results = [(p.wait(), *p.communicate()) for p in runs]
        codes = [code for code, _, _ in results]
        assert sorted(codes) == [0, 1], results
        winner = codes.index(0) + 1
        assert json.loads(out.read_text())["players"] == (["Ali", "Sara"] if winner == 1 else ["Reza", "Mina"])
        assert "already exists" in results[codes.index(1)][2]
        assert not [f for f in os.listdir(tmp_path) if f.startswith(".pasur-export-")]  # no temporary left


def test_export_without_force_never_replaces_a_file_or_a_link(tmp_path):
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    kept = tmp_path / "kept.json"
    kept.write_text("mine")
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")  # a dangling link: a name all the same
    for target in (kept, link):
        result = run(path, "export", "-o", target)
        assert result.exit_code == 1 and "already exists" in result.output
    assert kept.read_text() == "mine" and not (tmp_path / "nowhere.json").exists()
    assert run(path, "export", "-o", kept, "--force").exit_code == 0 and json.loads(kept.read_text())["players"]


# -- generated: a session beside another shell ------------------------------------------------
COUNTS = ["clubs=8 aces=2 jacks=1 two_clubs=yes", "clubs=5 aces=2 jacks=3 ten_diamonds=yes"]


def _line_for(match) -> str:
    """A line the session accepts for the position ``match`` shows: its table, or a legal play
    with its capture named (so no question is asked)."""
    deal = match.deal
    if deal is None:
        return " ".join(c.code for c in random_table(random.Random(match.length), match.rules)[0])
    card = sorted(deal.unseen_cards)[match.length % len(deal.unseen_cards)]
    options = legal_captures(card, deal.table, match.rules).options
    return " ".join([card.code, *(c.code for c in (options[0] if options else []))])


@pytest.mark.parametrize("seed", some(range(8), 2))
def test_a_session_beside_another_shell_records_only_what_it_showed(tmp_path, seed, capsys):
    """A session (in-process, its lines read from the test) and another shell on one file. Before
    each line the other shell may play, take back, take back and play again, or delete the match
    and make another; the line is one the session's last prompt allows (a table, a play, or a
    tally, the other shell acting while its last question is answered). It is recorded exactly
    when nothing changed since that prompt; after a delete the session ends, and the new match
    holds nothing of it."""
    from pasur_cli.cli.commands import session
    from pasur_cli.text.render import Look
    rng = random.Random(seed)
    path = tmp_path / "p.db"
    other = Store(path, create=True)
    mid = other.create(["Ali", "Sara"], PRESETS["pagat"], 0)
    ours = Store(path, write=True)
    state: dict = {"lines": 0, "deleted": False, "tallies": 0}

    def revision() -> int:
        found = other.stored_revision(mid)
        return -1 if found is None else found.revision

    def read(prompt: str) -> str:
        if "pile or counts" in prompt:  # a tally's questions (two sides: Ali's, then Sara's)
            return COUNTS[prompt.startswith("Sara")]
        if "Surs held by" in prompt and "by Ali" in prompt:
            return ""
        if "Surs held by" in prompt:  # the last answer: the other shell may act while it is typed
            return meanwhile(state.pop("before"), "")
        if "expect" in state:  # what the last line must have done
            assert revision() == state["expect"], (seed, state)
        if state["lines"] == 25:
            raise EOFError
        state["lines"] += 1
        match = other.match(mid)[1]  # what the session's prompt was drawn from
        if match.deal is None and state["tallies"] < 2 and rng.random() < 0.5:
            state["tallies"] += 1
            state["before"] = revision()
            state.pop("expect", None)
            return "tally"
        return meanwhile(revision(), _line_for(match))

    def meanwhile(before: int, line: str) -> str:
        """The other shell's action (or none) while ``line`` is typed; ``line``."""
        match = other.match(mid)[1]
        what = rng.choice(["nothing"] * 4 + ["play", "undo", "undo+play"] * 2 + ["delete"] * (state["lines"] > 8))
        if what == "play":
            _step(random.Random(rng.random()), other, mid)
        elif what == "undo" and match.length:
            actions.take_back(other, mid)
        elif what == "undo+play" and match.length:
            actions.take_back(other, mid)
            _step(random.Random(rng.random()), other, mid)
        elif what == "delete":
            other.delete(mid)
            state["new"] = other.create(["Reza", "Mina"], PRESETS["standard"], 0)
            state["deleted"] = True
            state.pop("expect", None)
            return line
        moved = revision() != before
        state["expect"] = revision() if moved else before + 1
        state["refused" if moved else "recorded"] = state.get("refused" if moved else "recorded", 0) + 1
        return line

    try:
        session.run(ours, mid, Look(), read)
    finally:
        ours.close()
    out = capsys.readouterr().out
    if state["deleted"]:
        assert f"match {mid} was deleted while this session was open" in out
        assert other.stored_revision(state["new"]).revision == 0
    elif "expect" in state:
        assert revision() == state["expect"]
    assert "Traceback" not in out
    assert state.get("recorded", 0) >= 1 and state.get("refused", 0) >= 1, state  # both were tried
    other.close()
