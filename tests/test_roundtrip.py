"""Every match pasur holds comes back through `pasur export` and `pasur import`: the same
`score --json`, `log --json` and `show --json` byte for byte (but the key each match is given),
up to the largest match pasur holds (ACTIONS_MOST actions, refused beyond); an import reads at
most MAX_BYTES, the export of that match whatever its names and times."""

from __future__ import annotations

import json
import random
import re

import matchbook
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.engine.cards import parse_cards
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import ACTIONS_MOST, check_players
from pasur_cli.engine.record import ENTRY_MOST, HEAD_MOST, MAX_ACTIONS, MAX_BYTES, dump_record, read_record
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.actions import enter_table, enter_tally
from pasur_cli.store.database import Store
from pasur_cli.store.errors import FullError

VIEWS = ("score", "log", "show")
_KEY = re.compile(r'("revision": ")[0-9a-f]{16}:')  # the one thing an imported match does not share


def views(pasur, db, match: int) -> dict[str, str]:
    """The three JSON views of ``match`` in the database ``db``, as printed, the match's key left out."""
    shown = {}
    for view in VIEWS:
        result = pasur("--db", db, "--match", match, view, "--json")
        assert result.exit_code == 0, result.output
        shown[view] = _KEY.sub(r"\1KEY:", result.output)
    return shown


def round_trip(pasur, tmp_path, db, match: int = 1) -> tuple[str, dict[str, str]]:
    """Export ``match`` of ``db``, import it into a new file, and check the views are the same and
    the copy exports to the same bytes; returns the export and the views."""
    out, copy = tmp_path / "match.json", tmp_path / "copy.db"
    assert pasur("--db", db, "--match", match, "export", "-o", out, "--force").exit_code == 0
    imported = pasur("--db", copy, "import", out)
    assert imported.exit_code == 0, imported.output
    before = views(pasur, db, match)
    assert views(pasur, copy, 1) == before
    assert pasur("--db", copy, "export").output == out.read_text(encoding="utf-8")
    return out.read_text(encoding="utf-8"), before


@sized(8)
@given(st.integers(0, 10**6), st.booleans())
def test_random_matches_come_back_byte_for_byte(pasur, tmp_path_factory, seed, finished):
    """A random match (played and tallied deals, 2-4 players, either rules, whole or cut short) is
    the same match after export and import; so is it from the indented record an older pasur
    wrote, and the export keeps one action a line."""
    tmp_path = tmp_path_factory.mktemp("round")
    db = tmp_path / "pasur.db"
    players, rules, dealer, _, match = matchbook.random_match(random.Random(seed), finished)
    matchbook.stored(db, [(players, rules, dealer, match.log, match)])  # as pasur keeps it: each action canonical
    text, shown = round_trip(pasur, tmp_path, db)
    doc = json.loads(text)
    lines = text.split("\n")
    assert [json.loads(line.strip().rstrip(",")) for line in lines if line.startswith("    {")] == doc["actions"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert pasur("--db", tmp_path / "old.db", "import", old).exit_code == 0
    assert views(pasur, tmp_path / "old.db", 1) == shown


def test_a_record_larger_than_the_bound_is_refused_and_stores_nothing(pasur, db, tmp_path):
    """A record padded to MAX_BYTES imports; one byte more is refused by its size, before it is
    read, with the bound named, and the database is left byte for byte as it was."""
    matchbook.stored(db, [matchbook.random_match(random.Random(3))])
    text = pasur("export").output.encode("utf-8")
    at_bound = tmp_path / "at.json"
    at_bound.write_bytes(text + b" " * (MAX_BYTES - len(text)))
    over = tmp_path / "over.json"
    over.write_bytes(text + b" " * (MAX_BYTES + 1 - len(text)))
    before = db.read_bytes()
    for source, typed in ((over, None), ("-", over.read_bytes())):
        refused = pasur("import", source, "--again", input=typed)
        assert refused.exit_code == 2
        assert f"is larger than {MAX_BYTES // 2**20} MB, and the record of the largest match pasur holds is" \
            " smaller; nothing was imported." in refused.output
        assert db.read_bytes() == before
    assert pasur("import", at_bound, "--again").exit_code == 0


def test_a_record_of_more_actions_than_a_match_holds_is_refused():
    """The reader refuses a record of more actions than a match holds by their number, before it
    reads any of them."""
    doc = {"format": "pasur-match", "version": 1, "players": ["Ali", "Sara"], "rules": {},
           "actions": [{}] * (MAX_ACTIONS + 1)}
    with pytest.raises(NotationError) as refused:
        read_record(json.dumps(doc))
    assert refused.value.facts == {"count": MAX_ACTIONS + 1, "most": MAX_ACTIONS}
    assert "a match holds at most" in str(refused.value)


def test_a_match_of_more_actions_than_it_holds_is_not_stored(tmp_path):
    """Store.create refuses more actions than a match holds with FullError, storing nothing."""
    store = Store(str(tmp_path / "pasur.db"), create=True)
    rules = parse_rules("standard", ["fixed_deals=1000000"])
    tally = matchbook.counted_tally(random.Random(1), ["Ali", "Sara"])
    try:
        with pytest.raises(FullError) as refused:
            store.create(["Ali", "Sara"], rules, 0, [tally] * (ACTIONS_MOST + 1))
        assert refused.value.facts == {"match": None, "most": ACTIONS_MOST, "count": ACTIONS_MOST + 1}
        assert store.match_ids() == []
    finally:
        store.close()


def test_a_full_match_records_nothing_more(pasur, db):
    """A match that holds ACTIONS_MOST actions refuses a deal and a tally, through the commands
    and the library, leaving the file byte for byte as it was; an undo makes room for one more."""
    tally = matchbook.counted_tally(random.Random(2), ["Ali", "Sara"])
    rules = parse_rules("standard", ["fixed_deals=1000000"])
    actions = [tally] * ACTIONS_MOST
    store = Store(str(db), create=True)
    mid = store.create(["Ali", "Sara"], rules, 0, actions, match=Match.replay(["Ali", "Sara"], rules, 0, actions))
    before = db.read_bytes()
    full = f"match {mid} holds {ACTIONS_MOST} actions, the most one match can hold; nothing was recorded"
    for args in (("deal", "5C", "9D", "3H", "KS"), ("tally", "--count", "Ali: clubs=13 aces=4 jacks=4 2c=yes 10d=yes",
                                                       "--count", "Sara: clubs=0")):
        refused = pasur(*args)
        assert refused.exit_code == 1 and full in refused.output, refused.output
        assert db.read_bytes() == before
    with pytest.raises(FullError) as raised:
        enter_tally(store, mid, dict(tally))
    assert raised.value.facts == {"match": mid, "most": ACTIONS_MOST, "count": ACTIONS_MOST + 1}
    assert db.read_bytes() == before
    assert pasur("undo").exit_code == 0
    match = enter_table(store, mid, parse_cards("5C 9D 3H KS"))
    assert match.length == ACTIONS_MOST
    refused = pasur("play", "2S")
    assert refused.exit_code == 1 and full in refused.output
    store.close()


NAME_LETTERS = st.sampled_from(["a", "Z", "é", "ش", "\u200c", "漢", "\U0001d538", '"', "\\", " ", "9"])
NAMES = st.text(NAME_LETTERS, max_size=39)
TIMES = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=64)


def widest_tally(match: Match) -> dict:
    """A tally of ``match`` that names every side in its counts (every count written) and its surs
    (two digits each)."""
    sides = list(match.sides)
    counts: dict = {side: {} for side in sides}
    counts[sides[0]] = {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}
    return {"type": "tally", "counts": counts, "surs": {side: 48 for side in sides}}


@sized(20)
@given(st.lists(NAMES, min_size=2, max_size=4).map(lambda names: [a + n for a, n in zip("ABCD", names, strict=False)]),
       st.booleans(), st.integers(0, 10**6), TIMES)
@example(matchbook.WIDE_NAMES, False, 0, matchbook.WIDE_TIME)
def test_every_line_of_an_export_fits_the_bound(tmp_path_factory, players, teams, seed, time):
    """However long its names (40 characters of 4 bytes) and times (64 characters, each written as
    two), each action's line of an export takes at most ENTRY_MOST bytes and the lines around them
    HEAD_MOST, so that MAX_BYTES holds the largest match pasur holds."""
    players = check_players(players)  # as the store keeps them (a space at either end goes)
    rules = parse_rules("standard", [f"teams={'true' if teams else 'false'}", "fixed_deals=3"])
    rng, match = random.Random(seed), Match(players, rules)
    actions = [widest_tally(match), matchbook.random_tally(rng, match)]
    match.apply(actions[0])
    actions[1] = matchbook.random_tally(rng, match)
    match.apply(actions[1])
    actions += matchbook.random_actions(rng, match, tallies=0.5)
    store = Store(str(tmp_path_factory.mktemp("lines") / "pasur.db"), create=True)
    mid = store.create(players, rules, 0, actions, [time] * len(actions), Match.replay(players, rules, 0, actions))
    text = dump_record(store.load(mid, full=True)).encode("utf-8")
    store.close()
    lines = text.split(b"\n")
    entries = [line for line in lines if line.startswith(b"    {")]
    assert len(entries) == len(actions)
    assert max(len(line) + 1 for line in entries) <= ENTRY_MOST
    assert len(text) - sum(len(line) + 1 for line in entries) <= HEAD_MOST
    assert MAX_BYTES >= HEAD_MOST + MAX_ACTIONS * ENTRY_MOST


@pytest.mark.soak
@pytest.mark.parametrize("kind", ["wide", "tallies", "played"])
def test_the_largest_matches_come_back_byte_for_byte(pasur, db, tmp_path, kind):
    """The largest matches pasur holds (ACTIONS_MOST actions: the widest tally repeated, random
    tallied deals, deals played card by card) export within MAX_BYTES and import back, the
    same in the three views; the copy is full too."""
    mid = matchbook.store_largest(db, kind)
    text, _ = round_trip(pasur, tmp_path, db, mid)
    assert len(text.encode("utf-8")) <= MAX_BYTES
    copy = Store(str(tmp_path / "copy.db"))
    assert copy.length(1) == ACTIONS_MOST
    copy.close()
