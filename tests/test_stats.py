"""`pasur stats` against random whole matches built by the engine (2, 3 and 4 players, teams and
solo, played and tallied deals, finished and not), its figures computed here independently from
each match's results: the deals' scores and the winner the engine reports."""

from __future__ import annotations

import csv
import io
import json
import random
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from matchbook import random_match, stored
from tier import sized

from pasur_cli.cli.app import main


def run(db: Path, *args: str):
    result = CliRunner().invoke(main, [*args, "--db", str(db)], catch_exceptions=False)
    return result


def expected_book(matches: list[tuple[int, object]]) -> dict:
    """What the record book must say, from the engine's results alone: per player key (casefolded
    name) and per partnership (frozenset of keys) the counts, the best deal, and the head-to-head."""
    figures: dict = defaultdict(Counter)
    best: dict = {}
    h2h: dict = defaultdict(Counter)
    for mid, match in sorted(matches, key=lambda item: item[0]):
        entities = [(p.casefold(), match.side_of(p)) for p in match.players]
        if len(match.sides) == 2 and len(match.players) == 4:  # partnerships: seats 1+3 and 2+4
            for a, b in ((0, 2), (1, 3)):
                entities.append((frozenset({match.players[a].casefold(), match.players[b].casefold()}),
                                 match.side_of(match.players[a])))
        for key, side in entities:
            count = figures[key]
            if match.winner is None:
                count["unfinished"] += 1
            else:
                count["matches"] += 1
                count["won"] += int(match.winner == side)
            for result in match.results:
                score = result.scores[side]
                count["deals"] += 1
                count["points"] += score.total
                count["surs"] += score.surs
                count["clubs"] += int(score.clubs_points > 0)
                count["two_clubs"] += int(score.two_clubs == 2)
                count["ten_diamonds"] += int(score.ten_diamonds == 3)
                # the first deal with the most points: highest total, then lowest match, lowest deal
                best[key] = max(best.get(key, (-1, 0, 0)), (score.total, -mid, -result.number))
        if match.winner is not None:
            for a in match.players:
                for b in match.players:
                    if match.side_of(a) != match.side_of(b):
                        h2h[a.casefold()][b.casefold()] += int(match.side_of(a) == match.winner)
    return {"figures": figures, "best": best, "h2h": h2h}


def check_record(row: dict, count: Counter, best: tuple | None) -> None:
    for name in ("matches", "won", "unfinished", "deals", "points", "surs", "clubs", "two_clubs", "ten_diamonds"):
        assert row[name] == count[name], (row["name"], name)
    deals, matches = count["deals"], count["matches"]
    assert row["win_rate"] == (pytest.approx(count["won"] / matches, abs=1e-4) if matches else None)
    assert row["points_per_deal"] == (pytest.approx(count["points"] / deals, abs=1e-4) if deals else None)
    assert row["surs_per_deal"] == (pytest.approx(count["surs"] / deals, abs=1e-4) if deals else None)
    if best is None:
        assert row["best_deal"] is None
    else:
        assert row["best_deal"] == {"points": best[0], "match": -best[1], "deal": -best[2]}


# each example stores and reads back up to six whole matches: a fraction of the profile's examples
@sized(5)
@given(seed=st.integers(0, 2**32 - 1), finished=st.integers(1, 4), unfinished=st.integers(0, 2))
def test_the_record_book_adds_up_random_matches(seed, finished, unfinished):
    rng = random.Random(seed)
    made = [random_match(rng) for _ in range(finished)] + [random_match(rng, finished=False)
                                                          for _ in range(unfinished)]
    rng.shuffle(made)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pasur.db"
        ids = stored(db, made)
        result = run(db, "stats", "--json")
        assert result.exit_code == 0, result.output
        book = json.loads(result.output)
        want = expected_book([(mid, m[4]) for mid, m in zip(ids, made, strict=True)])
        assert book["matches"] == sum(m[4].finished for m in made)
        assert book["unfinished"] == sum(not m[4].finished for m in made)

        players = {r["name"].casefold(): r for r in book["players"]}
        partnerships = {frozenset(p.casefold() for p in r["players"]): r for r in book["partnerships"]}
        assert set(players) | set(partnerships) == set(want["figures"])
        for key, count in want["figures"].items():
            check_record(players[key] if isinstance(key, str) else partnerships[key], count, want["best"].get(key))
        h2h = {a.casefold(): {b.casefold(): n for b, n in row.items()} for a, row in book["head_to_head"].items()}
        assert h2h == {a: dict(row) for a, row in want["h2h"].items()}

        # a name is shown as the newest match spells it
        newest = {}
        for _, m in sorted(zip(ids, made, strict=True), key=lambda item: item[0]):
            newest.update({p.casefold(): p for p in m[0]})
        assert {r["name"] for r in book["players"]} == set(newest.values())

        # --player, in any case: that player's part of the book
        name = rng.choice(list(newest.values()))
        mine = json.loads(run(db, "stats", "--json", "--player", name.swapcase()).output)
        assert mine["players"] == [players[name.casefold()]]
        assert mine["partnerships"] == [r for r in book["partnerships"]
                                        if name.casefold() in {p.casefold() for p in r["players"]}]
        for a, row in mine["head_to_head"].items():
            assert all(name in (a, b) and book["head_to_head"][a][b] == n for b, n in row.items())

        # --csv: the same rows
        text = run(db, "stats", "--csv").stdout_bytes.decode("utf-8")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [(r["kind"], r["name"]) for r in rows] == (
            [("player", r["name"]) for r in book["players"]]
            + [("partnership", r["name"]) for r in book["partnerships"]])
        for row, record in zip(rows, book["players"] + book["partnerships"], strict=True):
            for key in ("matches", "won", "deals", "points", "surs", "clubs", "two_clubs", "ten_diamonds"):
                assert int(row[key]) == record[key]
            assert row["win_rate"] == ("" if record["win_rate"] is None else str(record["win_rate"]))
            best = record["best_deal"]
            assert row["best_deal"] == ("" if best is None else str(best["points"]))


def test_stats_text_shows_every_player_and_partnership(pasur):
    pasur("new", "Ali", "Sara", "Reza", "Mina")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", "Reza=1")
    pasur("new", "ali", "Dara")
    text = pasur("stats").output
    for name in ("Ali & Reza", "Sara & Mina", "Dara", "Sara", "Mina", "Reza"):
        assert name in text
    assert "Ali " not in text.replace("Ali &", "")  # spelt as in the newest match: ali
    assert "Matches: 0 finished, 2 still being played." in text
    # Ali & Reza: 17 points in their only deal, a sur held
    # (counted from the name: at 80 columns the partnerships' last column is drawn as a second table)
    row = next(line for line in text.splitlines() if line.startswith("Ali & Reza"))
    assert row[len("Ali & Reza"):].split()[4:7] == ["17.0", "1.00", "100%"]


@pytest.mark.parametrize("lang", ["en", "de", "es", "fa"])
def test_stats_footnote_fits_an_80_column_terminal(pasur, lang):
    pasur("new", "Ali", "Sara")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    footnote = pasur("--lang", lang, "stats").output.rstrip("\n").split("\n\n")[-1]
    lines = [line.translate({0x2068: None, 0x2069: None, 0x200E: None}) for line in footnote.splitlines()]
    assert len(lines) >= 2 and all(len(line) <= 80 for line in lines), lines
    assert "2♣" in footnote and "10♦" in footnote


def test_stats_refuses_an_unknown_player_and_has_nothing_without_a_database(pasur, db):
    assert "No matches yet" in pasur("stats").output
    pasur("new", "Ali", "Sara")
    result = pasur("stats", "--player", "Zed")
    assert result.exit_code == 1 and "no match in the database has a player named Zed" in result.output
    assert pasur("stats", "--json", "--csv").exit_code == 2
