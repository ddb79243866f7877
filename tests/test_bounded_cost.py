"""Bounded cost: what a command does follows what it prints, not the size of the match or of its
numbers. Timings live in bench/growth.py; here, that the cheap ways give the same answers as the
expensive ones (tables drawn without tabulate, one deal replayed from a snapshot, a chart of huge
totals and many deals) and that they stay small."""

import json
import random

import pytest
import tabulate
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import Store
from pasur_cli.text import layout

WORDS = st.text(alphabet=st.sampled_from("abcXYZ &-.()/%0123456789éßÖ♣♦♥♠李\u0301\n"), max_size=12)
CELLS = st.one_of(WORDS, st.integers(-10**6, 10**9), WORDS.map(layout.Figure))


@sized(60)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.lists(CELLS, min_size=n, max_size=n), min_size=1, max_size=6),
    st.lists(WORDS, min_size=n, max_size=n),
    st.lists(st.sampled_from(["left", "right"]), min_size=n, max_size=n),
    st.sampled_from([0, 2]))))
def test_plain_tables_are_drawn_as_tabulate_draws_them(table):
    rows, headers, align, padding = table
    saved, tabulate.MIN_PADDING = tabulate.MIN_PADDING, padding
    try:
        expected = tabulate.tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True, colalign=align)
    finally:
        tabulate.MIN_PADDING = saved
    assert layout.table(rows, headers, align=align, padding=padding) == expected


PLAYERS = ["Ali", "Sara"]


def tallies(deals: int, seed: int, surs: int = 0) -> list[dict]:
    rng, actions = random.Random(seed), []
    for _ in range(deals):
        clubs, aces, jacks, two = rng.randint(1, 12), rng.randint(0, 4), rng.randint(0, 4), rng.random() < .5
        counts = {"Ali": {"clubs": clubs, "aces": aces, "jacks": jacks, "two_clubs": two, "ten_diamonds": two},
                  "Sara": {"clubs": 13 - clubs, "aces": 4 - aces, "jacks": 4 - jacks, "two_clubs": not two,
                           "ten_diamonds": not two}}
        actions.append({"type": "tally", "piles": {}, "counts": counts, "partial": False,
                        "surs": {"Ali": rng.randint(0, surs), "Sara": rng.randint(0, surs)}})
    return actions


def store_tallied(db, deals: int, overrides=(), seed: int = 1, surs: int = 0) -> None:
    rules = parse_rules("standard", [f"fixed_deals={deals + 1}", *overrides])
    actions = tallies(deals, seed, surs)
    store = Store(str(db), create=True)
    store.create(PLAYERS, rules, 0, actions, match=Match.replay(PLAYERS, rules, 0, actions))
    store.close()


def chart_size(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), max(layout.text_width(line) for line in lines)


@pytest.mark.parametrize("deals", [20, 1000])
def test_a_chart_of_a_million_points_a_sur_is_the_terminals_size(pasur, db, deals, monkeypatch):
    """The issue's example: sur_points=1000000 and 20 tallied deals took 32 s and 311 MiB; 1,000
    deals passed 13 GB. The y axis has a handful of round ticks, the x axis a point per column."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    store_tallied(db, deals, ["sur_points=1000000"], surs=2)
    result = pasur("score", "--chart")
    assert result.exit_code == 0, result.output
    lines, width = chart_size(result.output)
    assert lines <= 24 and width <= 80, result.output
    ticks = [line.split("┤")[0].strip() for line in result.output.split("\n") if "┤" in line]
    assert 2 <= len(ticks) <= 8 and all(t.isdigit() for t in ticks), ticks
    top = max(json.loads(pasur("score", "--json").output)["totals"].values())
    assert int(ticks[0]) <= top * 1.05 + 5


@sized(60)
@given(st.integers(0, 10**6 * 30), st.integers(12, 30), st.one_of(st.none(), st.integers(1, 10**6)))
def test_ticks_are_few_and_round_whatever_the_top(top, rows, mark):
    from pasur_cli.text.render_stats import _ticks
    ticks = _ticks(max(top, 5), rows, mark)
    assert len(ticks) <= max(rows // 3, 2) + 2
    assert ticks == sorted(set(ticks))
    assert mark is None or mark in ticks


def test_log_of_one_deal_reads_that_deal_alone(pasur, db, monkeypatch):
    """`log --deal 5` of a long match says what the whole log says of deal 5, and reads only
    deal 5's actions (and the snapshots)."""
    import sqlite3
    store_tallied(db, 300, seed=3)
    whole = pasur("log").output.split("\n\n")
    for number in (1, 5, 300):
        assert pasur("log", "--deal", number).output.strip() == whole[number - 1].strip()
    assert "this match has deals 1 to 300" in pasur("log", "--deal", 301).output
    read: list[str] = []
    real = sqlite3.connect

    def watched(*args, **kwargs):
        con = real(*args, **kwargs)
        con.set_trace_callback(read.append)
        return con
    monkeypatch.setattr(sqlite3, "connect", watched)
    assert pasur("log", "--deal", 5).exit_code == 0
    lines = [q for q in read if "FROM actions" in q and "group_concat" not in q and "count(" not in q]
    assert lines and all("seq >" in q for q in lines), lines  # a range of actions, never the whole log


def test_every_match_read_at_once_is_every_match_read_alone(db):
    """`matches` and `stats` read every match with a few queries for the whole file; each match
    read that way equals the same match read alone (checked), whatever was done to the file: a
    forged figure, a damaged action, a match with no finished deal, another with a deal going on."""
    import sqlite3
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from growth import many_matches
    many_matches(str(db), 80)
    store_tallied(db, 3, seed=9)  # match 81
    con = sqlite3.connect(db)
    con.execute("UPDATE snapshots SET totals = replace(totals, ':', ': 1') WHERE match_id = 3 AND seq ="
                " (SELECT min(seq) FROM snapshots WHERE match_id = 3)")
    con.execute("UPDATE actions SET action = 'play\tNobody\tZZ\t' WHERE match_id = 5 AND seq = 2")
    con.execute("DELETE FROM snapshots WHERE match_id = 7")
    con.commit()
    con.close()
    together = Store(str(db)).all_checked()
    assert [mid for mid, _ in together] == Store(str(db)).match_ids()
    for mid, read in together:
        alone = Store(str(db))
        try:
            record, match = alone.checked(mid)
        except Exception as err:
            assert type(read) is type(err) and str(read) == str(err), mid
            continue
        assert not isinstance(read, Exception), (mid, read)
        assert (read[0].length, read[0].expected, read[1].totals, list(read[1].results), read[1].deal_number) == \
            (record.length, record.expected, match.totals, list(match.results), match.deal_number), mid
