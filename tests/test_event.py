"""`pasur event`: a Swiss evening of 7 players over 4 rounds with a late arrival and a drop, a round
robin of 4 teams, the standings and their tiebreaks worked out by hand, and every refusal leaving
the file as it was."""

from __future__ import annotations

import itertools
import json
import random
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simulate import cli_args, random_match

from pasur_cli.engine.club.event import Entrant, Table
from pasur_cli.engine.club.pairing import swiss
from pasur_cli.engine.club.standings import standings
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import SCHEMA_VERSION

PLAYERS = ["Ali", "Sara", "Reza", "Mina", "Omid", "Leila", "Nima"]


def rows(db):
    """Every table stored: (round, table, first, second, match) by entrant name."""
    con = sqlite3.connect(db)
    names = dict(con.execute("SELECT number, name FROM entrants"))
    out = [(r, t, names[a], names.get(b), m) for r, t, a, b, m in
           con.execute("SELECT round, table_no, first, second, match_id FROM pairings ORDER BY round, table_no")]
    con.close()
    return out


def perfect_exists(active: set[str], met: set[frozenset], had_bye: set[str]) -> bool:
    """Whether a round exists with no repeated meeting and the bye (if any) to someone without one."""
    def pairs_all(rest: list[str]) -> bool:
        if not rest:
            return True
        a = rest[0]
        return any(frozenset((a, b)) not in met and pairs_all([x for x in rest[1:] if x != b]) for b in rest[1:])
    people = sorted(active)
    if len(people) % 2 == 0:
        return pairs_all(people)
    return any(pairs_all([x for x in people if x != bye]) for bye in people if bye not in had_bye)


def check_round(round_rows, active: set[str], met: set[frozenset], had_bye: set[str]) -> None:
    """Each active entrant at one table or the bye, one bye for an odd number, no repeat and no
    second bye while a round without them exists."""
    seated = [n for _, _, a, b, _ in round_rows for n in (a, b) if n is not None]
    assert sorted(seated) == sorted(active)
    byes = [a for _, t, a, b, _ in round_rows if b is None]
    assert len(byes) == len(active) % 2 and all(t == 0 for _, t, _, b, _ in round_rows if b is None)
    if perfect_exists(active, met, had_bye):
        assert not any(frozenset((a, b)) in met for _, _, a, b, _ in round_rows if b is not None)
        assert not (set(byes) & had_bye)


def play_out(pasur, mid: int, players: list[str], seed: int) -> tuple[int, int]:
    """Play match ``mid`` to its end through `pasur deal` and `pasur play`; its final totals."""
    match = Match(players, parse_rules("standard", []), 1)
    for action in random_match(random.Random(seed), match):
        assert pasur(*cli_args(action), "--match", mid).exit_code == 0
        match.apply(action)
    return match.totals[players[0]], match.totals[players[1]]


def tally_out(pasur, mid: int, winner: str, loser: str) -> None:
    """Finish match ``mid`` with one tallied deal: ``winner`` 65, ``loser`` 0."""
    result = pasur("tally", "--match", mid, "--count", f"{winner}: clubs=13 aces=4 jacks=4 2c=yes 10d=yes",
                   "--count", f"{loser}: clubs=0 aces=0 jacks=0 2c=no 10d=no", "--surs", f"{winner}=9")
    assert result.exit_code == 0, result.output


def by_hand(entrants: list[str], tables: list[tuple[str, str | None, tuple[int, int]]]) -> dict[str, tuple]:
    """The standings' figures, counted here without the engine: (wins, Buchholz, difference, scored)."""
    wins = dict.fromkeys(entrants, 0)
    diff = dict.fromkeys(entrants, 0)
    scored = dict.fromkeys(entrants, 0)
    met: dict[str, list[str]] = {e: [] for e in entrants}
    for a, b, (x, y) in tables:
        if b is None:
            wins[a] += 1
            continue
        wins[a if x > y else b] += 1
        diff[a] += x - y
        diff[b] += y - x
        scored[a] += x
        scored[b] += y
        met[a].append(b)
        met[b].append(a)
    return {e: (wins[e], sum(wins[o] for o in met[e]), diff[e], scored[e]) for e in entrants}


def test_a_swiss_evening_of_seven_with_a_late_arrival_and_a_drop(pasur, db):
    assert pasur("event", "new", "Club night", "--players", *PLAYERS, "--rounds", "4").exit_code == 0
    active, met, had_bye = set(PLAYERS), set(), set()
    results: list[tuple[str, str | None, tuple[int, int]]] = []
    for number in range(1, 5):
        if number == 3:
            assert "joins Club night from round 3" in pasur("event", "add", "Parisa").output
            assert "not paired from round 3 on" in pasur("event", "drop", "Omid").output
            active = (active | {"Parisa"}) - {"Omid"}
        out = pasur("event", "pair")
        assert out.exit_code == 0, out.output
        assert f"round {number} of 4" in out.output and "deals first" in out.output
        round_rows = [r for r in rows(db) if r[0] == number]
        check_round(round_rows, active, met, had_bye)
        if number < 4:  # the round cannot be paired again while a table plays, and says which
            before = db.read_bytes()
            refused = pasur("event", "pair")
            assert refused.exit_code == 1 and "table 1 of round" in refused.stderr and db.read_bytes() == before
        for _, table, a, b, mid in round_rows:
            if b is None:
                had_bye.add(a)
                results.append((a, None, (0, 0)))
                continue
            met.add(frozenset((a, b)))
            if number == 1 and table == 1:  # played card by card
                score = play_out(pasur, mid, [a, b], seed=7)
            elif table == 2:  # tallied: the first entrant takes every point of one deal
                tally_out(pasur, mid, a, b)
                score = (65, 0)
            else:  # kept on paper
                score = (62, 40 + table + number) if (table + number) % 2 else (50 + number, 62)
                assert pasur("event", "result", table, f"{score[0]}-{score[1]}").exit_code == 0
            results.append((a, b, score))
    before = db.read_bytes()
    for late in (["pair"], ["add", "Yas"], ["drop", "Ali"]):  # after the last round: nothing to pair from
        refused = pasur("event", *late)
        assert refused.exit_code == 1 and "all 4 rounds" in refused.stderr and db.read_bytes() == before
    got = json.loads(pasur("event", "standings", "--json").output)["standings"]
    hand = by_hand([*PLAYERS, "Parisa"], results)
    assert {p["name"]: (p["wins"], p["buchholz"], p["difference"], p["scored"]) for p in got} == hand
    order = [p["name"] for p in got]
    keys = [hand[name] for name in order]
    assert keys == sorted(keys, reverse=True)  # wins, then Buchholz, then difference, then points
    assert next(p for p in got if p["name"] == "Omid")["dropped"] == 3
    assert sum(p["byes"] for p in got) == 4 and max(p["byes"] for p in got) == 1


def test_standings_and_tiebreaks_worked_by_hand():
    """Five entrants, two rounds, every figure counted on paper:
    round 1: A 62-40 B, C 50-62 D, E the bye; round 2: D 62-55 A, B 62-30 E, C the bye.
    Wins: A 1, B 1, C 1 (bye), D 2, E 1 (bye). Buchholz (opponents' wins): A: B 1 + D 2 = 3;
    B: A 1 + E 1 = 2; C: D 2 = 2; D: C 1 + A 1 = 2; E: B 1 = 1. Difference: A +22-7 = 15, B -22+32 = 10,
    C -12, D +12+7 = 19, E -32. So D (2 wins), then A (Buchholz 3), then B and C (Buchholz 2;
    B's difference 10 beats C's -12), then E."""
    people = [Entrant(n, name, (name,)) for n, name in enumerate("ABCDE", 1)]
    tables = [Table(1, 1, 1, 2, score=(62, 40)), Table(1, 2, 3, 4, score=(50, 62)), Table(1, 0, 5, None),
              Table(2, 1, 4, 1, score=(62, 55)), Table(2, 2, 2, 5, score=(62, 30)), Table(2, 0, 3, None)]
    got = [(p.rank, p.entrant.name, p.wins, p.buchholz, p.difference, p.scored) for p in standings(people, tables)]
    assert got == [(1, "D", 2, 2, 19, 124), (2, "A", 1, 3, 15, 117), (3, "B", 1, 2, 10, 102),
                   (4, "C", 1, 2, -12, 50), (5, "E", 1, 1, -32, 30)]


def test_head_to_head_decides_between_two_tied_on_everything_else():
    """Round 1: A 62-50 B, C 50-70 D; round 2: A 50-62 C, B 62-50 D. Everyone has 1 win; Buchholz:
    A: B 1 + C 1 = 2, B: A 1 + D 1 = 2, C 2, D 2; difference: D +20-12 = 8, A +12-12 = 0, B -12+12 = 0,
    C -20+12 = -8; points A 112, B 112. A and B tie on everything but their meeting, which A won."""
    people = [Entrant(n, name, (name,)) for n, name in enumerate("BACD", 1)]  # B entered before A
    tables = [Table(1, 1, 2, 1, score=(62, 50)), Table(1, 2, 3, 4, score=(50, 70)),
              Table(2, 1, 2, 3, score=(50, 62)), Table(2, 2, 1, 4, score=(62, 50))]
    got = [(p.rank, p.entrant.name, p.wins, p.buchholz, p.difference, p.scored, p.head_to_head)
           for p in standings(people, tables)]
    assert got == [(1, "D", 1, 2, 8, 120, False), (2, "A", 1, 2, 0, 112, True), (3, "B", 1, 2, 0, 112, False),
                   (4, "C", 1, 2, -8, 112, False)]


def test_a_round_robin_of_four_teams(pasur, db):
    teams = ["Ali & Sara", "Reza & Mina", "Omid & Leila", "Nima & Parisa"]
    out = pasur("event", "new", "Teams", "--teams", *teams, "--pairing", "round-robin")
    assert out.exit_code == 0 and "3 rounds" in out.output
    for number in range(1, 4):
        out = pasur("event", "pair")
        assert out.exit_code == 0, out.output
        assert "Seats: 1 " in out.output and "4 " in out.output
        for _, _, a, b, mid in [r for r in rows(db) if r[0] == number]:
            tally_out(pasur, mid, a.split(" & ")[0], b.split(" & ")[0])
    tables = {m["match"]: m["table"] for m in json.loads(pasur("matches", "--json").output)}
    assert {tables[mid] for _, table, _, _, mid in rows(db)} == {"1", "2"}  # each match named by its table
    pairs = [frozenset((a, b)) for _, _, a, b, _ in rows(db)]
    assert sorted(map(sorted, pairs)) == sorted(sorted(p) for p in itertools.combinations(teams, 2))
    got = json.loads(pasur("event", "standings", "--json").output)["standings"]
    assert all(p["buchholz"] is None for p in got) and sum(p["wins"] for p in got) == 6
    csv = pasur("event", "standings", "--csv").output.splitlines()
    assert csv[0].startswith("rank,name,") and len(csv) == 5
    assert pasur("event", "add", "Yas & Bahar").exit_code == 1  # a round robin's entrants are fixed


@pytest.mark.parametrize("rounds,made,done", [
    (1, "2 entrants, 1 round (swiss). Pair it with", "the one round of Night was paired"),
    (2, "2 entrants, 2 rounds (swiss). Pair the first round", "all 2 rounds of Night were paired")])
def test_an_event_counts_its_rounds_in_words(pasur, rounds, made, done):
    """One round is "1 round", and once it is paired "the one round"; more are "rounds"."""
    assert made in pasur("event", "new", "Night", "--players", "Ali", "Sara", "--rounds", rounds).output
    for _ in range(rounds):
        assert pasur("event", "pair").exit_code == 0
        assert pasur("event", "result", "1", "62-48").exit_code == 0
    refused = pasur("event", "pair")
    assert refused.exit_code == 1 and done in refused.stderr


def test_a_result_corrected_shows_the_old_score(pasur, db):
    pasur("event", "new", "Night", "--players", "Ali", "Sara")
    pasur("event", "pair")
    assert "Ali 62-48 Sara." in pasur("event", "result", "1", "62-48").output
    assert "Ali 30-62 Sara (was 62-48)." in pasur("event", "result", "1", "30-62").output
    assert json.loads(pasur("event", "standings", "--json").output)["standings"][0]["name"] == "Sara"


@pytest.mark.parametrize("args", [
    ["event", "result", "1", "62-62"], ["event", "result", "1", "sixty"], ["event", "result", "9", "62-40"],
    ["event", "result", "1", "62-40", "--round", "5"], ["event", "drop", "Nobody"], ["event", "add", "Sara"],
    ["event", "add", "A\u202eB"], ["event", "new", "Night", "--players", "X", "Y"],
    ["event", "new", "Other", "--players", "X", "X"], ["event", "new", "Other", "--players", "X"],
    ["event", "new", "Other", "--teams", "X & Y", "Z"], ["event", "new", "\x07", "--players", "X", "Y"],
    ["event", "pair", "--event", "Nothing"], ["event", "standings", "--json", "--csv"],
    ["event", "new", "Other", "--players", "X", "Y", "--rounds", "100"], ["event", "pair"],
])
def test_every_refusal_leaves_the_file_as_it_was(pasur, db, args):
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza")
    pasur("event", "pair")
    before = db.read_bytes()
    result = pasur(*args)
    assert result.exit_code in (1, 2) and result.stderr.strip(), result.output
    assert db.read_bytes() == before


def test_commands_before_any_event_say_how_to_start_one(pasur, db):
    pasur("new", "Ali", "Sara")
    before = db.read_bytes()
    result = pasur("event", "standings")
    assert result.exit_code == 1 and "pasur event new" in result.stderr and db.read_bytes() == before


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 11), st.integers(3, 6), st.randoms(use_true_random=False))
def test_swiss_rounds_are_valid_whatever_the_results(size, count, rnd):
    """Random results, a late arrival in round 2 and a drop in round 3: every round seats each
    entrant once, and repeats no meeting and gives no second bye while a round without exists."""
    people = [Entrant(n, f"P{n}", (f"P{n}",)) for n in range(1, size + 1)]
    history: list[Table] = []
    for number in range(1, count + 1):
        if number == 2:
            people.append(Entrant(size + 1, "Late", ("Late",), joined=2))
        if number == 3:
            gone = rnd.choice(people[:size])
            people[people.index(gone)] = Entrant(gone.number, gone.name, gone.players, 1, 3)
        active = {e.number for e in people if e.plays_in(number)}
        met = {frozenset((t.first, t.second)) for t in history if t.second is not None}
        had_bye = {t.first for t in history if t.second is None}
        pairs = swiss(people, history, number, count)
        fake = [(number, 0 if b is None else 1, a, b, None) for a, b in pairs]
        check_round(fake, active, met, had_bye)
        history += [Table(number, i, a, b, score=None if b is None else rnd.choice([(62, 40), (40, 62)]))
                    for i, (a, b) in enumerate(pairs, 1)]


@pytest.mark.parametrize("start", ["schema4", "fresh"])
def test_events_come_to_an_old_file_by_one_added_step_and_to_a_fresh_one(pasur, db, start):
    """A file of schema 4 (tests/data/schema4.db) gets the events' tables on its first write, its
    matches kept as they were; a fresh file is made with them."""
    import shutil
    from pathlib import Path
    if start == "schema4":
        shutil.copy(Path(__file__).parent / "data" / "schema4.db", db)
        matches = sqlite3.connect(db).execute("SELECT count(*) FROM matches").fetchone()[0]
        before = db.read_bytes()
        assert pasur("event", "standings").exit_code == 1 and db.read_bytes() == before  # a read changes nothing
    out = pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza", "Mina")
    assert out.exit_code == 0, out.output
    assert pasur("event", "pair").exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    assert con.execute("SELECT count(*) FROM pairings").fetchone()[0] == 2
    if start == "schema4":
        assert con.execute("SELECT count(*) FROM matches").fetchone()[0] == matches + 2


def test_an_event_exported_is_imported_whole_on_another_machine(pasur, db, tmp_path, monkeypatch):
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza")
    for number in (1, 2):
        pasur("event", "pair")
        for _, table, a, b, mid in [r for r in rows(db) if r[0] == number and r[3] is not None]:
            if number == 1:
                tally_out(pasur, mid, a, b)  # a finished match, its record carried whole
            else:
                assert pasur("event", "result", table, "62-50").exit_code == 0  # a paper result
    pasur("event", "pair")  # round 3: a match in play
    out = tmp_path / "night.json"
    assert pasur("event", "export", "-o", out).exit_code == 0
    standings_here = pasur("event", "standings", "--json").output
    other = tmp_path / "other.db"
    monkeypatch.setenv("PASUR_DB", str(other))
    result = pasur("import", out)
    assert result.exit_code == 0 and "3 matches replayed" in result.output, result.output
    assert pasur("event", "standings", "--json").output == standings_here
    assert [r[1:4] for r in rows(other)] == [r[1:4] for r in rows(db)]
    before = other.read_bytes()
    again = pasur("import", out)  # the name is taken: refused, nothing changed
    assert again.exit_code == 1 and "already" in again.stderr and other.read_bytes() == before



def test_an_event_with_an_entrant_gone_before_playing_is_imported_whole(pasur, db, tmp_path, monkeypatch):
    """An entrant dropped before round 1 (or a late arrival dropped before their first round) is
    exported as it stands and read back whole."""
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza", "Omid")
    assert pasur("event", "drop", "Omid").exit_code == 0
    pasur("event", "pair")
    assert pasur("event", "add", "Nima").exit_code == 0
    assert pasur("event", "drop", "Nima").exit_code == 0
    out = tmp_path / "night.json"
    assert pasur("event", "export", "-o", out).exit_code == 0
    standings_here = pasur("event", "standings", "--json").output
    monkeypatch.setenv("PASUR_DB", str(tmp_path / "other.db"))
    result = pasur("import", out)
    assert result.exit_code == 0, result.output
    assert pasur("event", "standings", "--json").output == standings_here

@pytest.mark.parametrize("spoil", [
    lambda d: d["tables"][0].update(first=99), lambda d: d["tables"][0].update(paper=[62, 62]),
    lambda d: d.update(rounds=0), lambda d: d.update(extra=1), lambda d: d["entrants"][0].update(name="Eve"),
    lambda d: d["matches"][0]["actions"][0]["action"].update(table=["AS", "AS", "2C", "3C"]),
    lambda d: d["matches"].append(d["matches"][0]), lambda d: d["tables"][0].update(match=None),
    lambda d: d["rules"].update(target="far"), lambda d: d["entrants"][1].update(players=["Ali"], name="Ali"),
])
def test_a_spoiled_event_record_is_refused_changing_nothing(pasur, db, tmp_path, spoil):
    pasur("event", "new", "Night", "--players", "Ali", "Sara")
    pasur("event", "pair")
    tally_out(pasur, rows(db)[0][4], "Ali", "Sara")
    out = tmp_path / "night.json"
    pasur("event", "export", "-o", out)
    doc = json.loads(out.read_text())
    doc["name"] = "Another night"
    spoil(doc)
    out.write_text(json.dumps(doc))
    before = db.read_bytes()
    result = pasur("import", out)
    assert result.exit_code in (1, 2) and result.stderr.strip() and db.read_bytes() == before, result.output


def test_a_table_whose_match_was_deleted_is_scored_on_paper(pasur, db):
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza", "Mina")
    pasur("event", "pair")
    gone = rows(db)[0]
    assert pasur("delete", "--match", gone[4], "--yes").exit_code == 0
    for _, _, a, b, mid in rows(db)[1:]:
        tally_out(pasur, mid, a, b)
    refused = pasur("event", "pair")
    assert refused.exit_code == 1 and f"table 1 of round 1 (match {gone[4]})" in refused.stderr
    assert pasur("event", "result", "1", "40-38").exit_code == 0  # scored as it stood
    assert pasur("event", "pair").exit_code == 0
