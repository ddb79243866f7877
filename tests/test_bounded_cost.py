"""Bounded cost: what a command does follows what it prints, not the size of the match or of its
numbers. Timings live in bench/growth.py; here, that the cheap ways give the same answers as the
expensive ones (tables drawn without tabulate, one deal replayed from a snapshot, a chart of huge
totals and many deals) and that they stay small."""

import json
import random
import unicodedata

import pytest
import tabulate
from hypothesis import example, given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.engine.stats import standing_of
from pasur_cli.store.database import Store
from pasur_cli.text import i18n, layout

WORDS = st.text(alphabet=st.sampled_from("abcXYZ &-.()/%0123456789éßÖ♣♦♥♠李\u0301\n"), max_size=12)
CELLS = st.one_of(WORDS, st.integers(-10**6, 10**9), WORDS.map(layout.Figure))


def tables(cells, words, columns: int):
    """Tables of up to ``columns`` columns and 6 rows of ``cells`` under ``words``: (rows, headers,
    each column's alignment, padding)."""
    return st.integers(1, columns).flatmap(lambda n: st.tuples(
        st.lists(st.lists(cells, min_size=n, max_size=n), min_size=1, max_size=6),
        st.lists(words, min_size=n, max_size=n),
        st.lists(st.sampled_from(["left", "right"]), min_size=n, max_size=n),
        st.sampled_from([0, 2])))


@sized(60)
@given(tables(CELLS, WORDS, 6))
def test_plain_tables_are_drawn_as_tabulate_draws_them(table):
    rows, headers, align, padding = table
    saved, tabulate.MIN_PADDING = tabulate.MIN_PADDING, padding
    try:
        expected = tabulate.tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True, colalign=align)
    finally:
        tabulate.MIN_PADDING = saved
    assert layout.table(rows, headers, align=align, padding=padding) == expected


PERSIAN_WORDS = st.text(alphabet=st.sampled_from("abX 0189é♣♦\u00a0-()مهرانگیز\u200c\u064b\u0610李\n"), max_size=10)
PERSIAN_CELLS = st.one_of(PERSIAN_WORDS, st.integers(-10**6, 10**9), PERSIAN_WORDS.map(layout.Figure),
                          PERSIAN_WORDS.map(lambda w: layout.Drawn(f"\u2068{w}\u2069 ب")))  # a fact drawn in a sentence


@sized(60)
@given(tables(PERSIAN_CELLS, PERSIAN_WORDS, 5))
@example(([[layout.Drawn("\u20681\u2069 ب"), 5], ["شیرین\u200cدخت", 12345]], ["side", "total"], ["right", "left"], 2))
@example(([[layout.Drawn("\u20681\u2069 ب"), 5], ["شیرین\u200cدخت", 12345]], ["side", "total"], ["left", "right"], 0))
def test_right_to_left_tables_are_drawn_as_tabulate_draws_them(table):
    """In Persian every cell is an isolate, measured as wcwidth measures it, and every line begins
    with a left-to-right mark; tables of the scripts pasur measures itself are drawn without tabulate."""
    rows, headers, align, padding = table
    isolated = [["\n".join(f"\u2068{line}\u2069" for line in str(c).split("\n")) for c in row] for row in rows]
    saved, tabulate.MIN_PADDING = tabulate.MIN_PADDING, padding
    try:
        expected = tabulate.tabulate(isolated, headers=["\n".join(f"\u2068{line}\u2069" for line in h.split("\n"))
                                                        for h in headers],
                                     tablefmt="simple", disable_numparse=True, colalign=align)
    finally:
        tabulate.MIN_PADDING = saved
    i18n.set_language("fa")
    try:
        assert layout.table(rows, headers, align=align, padding=padding) == \
            "\n".join("\u200e" + line for line in expected.split("\n"))
    finally:
        i18n.set_language("en")


def persian_table_as_tabulate_draws_it(rows, headers, align, padding) -> str:
    """The table as tabulate draws it with every cell (as ``layout.visible`` writes it) an isolate
    and every line after a left-to-right mark: what ``layout.table`` must draw in Persian,
    whichever way it takes."""
    isolated = [["\n".join(f"\u2068{layout.visible(line)}\u2069" for line in str(c).split("\n")) for c in row]
                for row in rows]
    saved, tabulate.MIN_PADDING = tabulate.MIN_PADDING, padding
    try:
        expected = tabulate.tabulate(isolated, headers=["\n".join(f"\u2068{layout.visible(line)}\u2069"
                                                                  for line in h.split("\n")) for h in headers],
                                     tablefmt="simple", disable_numparse=True, colalign=align)
    finally:
        tabulate.MIN_PADDING = saved
    return "\n".join("\u200e" + line for line in expected.split("\n"))


BMP = [chr(o) for o in range(0x10000) if unicodedata.category(chr(o)) not in ("Cc", "Cs")]  # no control, no surrogate


@pytest.mark.parametrize("step", [61, pytest.param(1, marks=pytest.mark.soak)])
def test_every_character_is_measured_in_a_persian_table_as_tabulate_measures_it(step):
    """A Persian table of one character (in a cell, and in a header beside a number) is drawn as
    tabulate draws it (the character as pasur shows it: a mark a terminal would act on written as
    its escape), however pasur draws it (it measures some scripts itself): every 61st
    character of the Basic Multilingual Plane and the ones it meets most, every one in the soak tier."""
    chars = {*BMP[::step], "A", "é", "♣", "\u0645", "\u200c", "\u2068", "\u0610", "李", "\u0301"}
    i18n.set_language("fa")
    try:
        wrong = [ch for ch in sorted(chars)
                 for rows, headers in (([[ch, 12]], ["side", "total"]), ([["Ali", 3]], [ch, "total"]))
                 if layout.table(rows, headers, align=["left", "right"], padding=2)
                 != persian_table_as_tabulate_draws_it(rows, headers, ["left", "right"], 2)]
    finally:
        i18n.set_language("en")
    assert not wrong, [f"U+{ord(ch):04X}" for ch in wrong[:20]]


NAMES = st.sampled_from(["Ali", "Sara", "A", "Aurélie-Françoise de la Montagne", " x ", "12", "李", "{0}"])
SCORE_CELLS = st.one_of(NAMES, st.integers(0, 20), st.integers(-10**6, 10**7), WORDS,
                        st.integers(1, 9).map(lambda n: layout.Figure(f"{n} ({5 * n})")))


@sized(60)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.lists(SCORE_CELLS, min_size=n, max_size=n), min_size=1, max_size=3), min_size=1, max_size=6),
    st.lists(st.sampled_from(["side", "2♣", "x", "", "total", "a b"]), min_size=n, max_size=n),
    st.one_of(st.none(), st.integers(5, 60)), st.sampled_from(["en", "fa"]))))
@example(([[["Aurélie", 1]], [["Ali", 12]]], ["side", "total"], None, "en"))  # a name wider in one table
@example(([[["Ali", 1]], [[7, 12]]], ["side", "total"], 80, "en"))  # a column of numbers in one table only
def test_tables_drawn_together_are_drawn_as_each_alone(tables):
    """`score` draws its deals' tables stacked into one where their columns come out as wide: each
    is the table drawn alone, whatever the widths, alignments, line breaks and languages."""

    bodies, headers, width, language = tables
    i18n.set_language(language)
    try:
        assert layout.tables(bodies, headers, width) == [layout.table(rows, headers, width) for rows in bodies]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "fa", "de", "es"])
@pytest.mark.parametrize("dealer", ["Ali", "مهرانگیز", "{number} {0} a}{b %s", "Ali\u202eevil"])
def test_a_title_said_for_many_numbers_is_the_sentence_said_alone(language, dealer):
    """`score` fills a deal's title once for each dealer and puts each deal's number in: the
    sentence ``say`` makes, in every language, whatever the name holds."""
    from pasur_cli.engine.reading import N_
    from pasur_cli.text import i18n, render
    i18n.set_language(language)
    try:
        for template in (N_("Deal {number} ({dealer} dealt, tallied)"), N_("Deal {number} ({dealer} dealt)")):
            title = render.say_numbered(template, dealer=dealer)
            for number in (1, 13351):
                assert title(number) == render.say(template, number=number, dealer=dealer)
        assert render.say_numbered(N_("{number} (tallied)"))(7) == render.say("{number} (tallied)", number=7)
    finally:
        i18n.set_language("en")


@sized(60)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.one_of(WORDS, st.integers(-10**6, 10**9), st.just("\x1b[31m5\x1b[0m")), min_size=n, max_size=n),
             max_size=6),
    st.lists(WORDS, min_size=n, max_size=n), st.integers(0, n - 1), st.sampled_from([0, 2]))))
def test_a_column_of_ascii_is_as_wide_as_its_longest_line(table):
    """Fitting a table measures its columns again and again (`score` at 40 columns: 130,000 times):
    a column of ASCII without colour codes is measured by length, as text_width measures each line."""
    rows, headers, i, padding = table
    lines = [line for r in rows for line in str(r[i]).split("\n")]
    assert layout.column_width(rows, headers, i, padding) == max(
        [max(layout.text_width(line) for line in headers[i].split("\n")) + padding,
         *(layout.text_width(line) for line in lines)])


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
    from pasur_cli.text.render_stats import axis_ticks
    ticks = axis_ticks(max(top, 5), rows, mark)
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
    # each deal's checksum is computed from the match's lines joined: a line holding a newline, a line
    # that is no UTF-8, a line of an older deal changed, a missing line
    con.execute("UPDATE actions SET action = action || char(10) WHERE match_id = 9 AND seq = 1")
    con.execute("UPDATE actions SET action = CAST(action || x'ff' AS BLOB) WHERE match_id = 11 AND seq = 1")
    con.execute("UPDATE actions SET action = replace(action, 'Ali', 'Ila') WHERE match_id = 13 AND seq = 1")
    con.execute("DELETE FROM actions WHERE match_id = 15 AND seq = 1")
    # a match's figures, or one of its running checksums, changed: read deal by deal, figures from the log
    con.execute("UPDATE snapshots SET figures = replace(figures, '[', '[1') WHERE match_id = 17")
    con.execute("UPDATE snapshots SET log_crc = log_crc + 1 WHERE match_id = 19")
    con.execute("UPDATE snapshots SET book_crc = NULL WHERE match_id = 21")
    con.execute("UPDATE matches SET dealer = 1 - dealer WHERE id = 23")
    con.commit()
    con.close()
    together = Store(str(db)).standings()
    assert [mid for mid, _ in together] == Store(str(db)).match_ids()
    for mid, read in together:
        alone = Store(str(db))
        try:
            record, match = alone.checked(mid)
        except Exception as err:
            assert type(read) is type(err) and str(read) == str(err), mid
            continue
        assert not isinstance(read, Exception), (mid, read)
        assert read == standing_of(mid, record.created, match), mid


def played_and_tallied(seed: int, deals: int = 6) -> tuple[Match, list[dict]]:
    """A match of deals played card by card and tallied deals, mixed, with surs (the teams preset
    for four players now and then)."""
    from simulate import random_match
    rng = random.Random(seed)
    players = ["Ali", "Sara", "Reza", "Mina"][:rng.choice([2, 3, 4])]
    rules = parse_rules(rng.choice(["standard", "pagat"]), [f"fixed_deals={deals + 3}", "sur_limit=40"])
    match, actions = Match(players, rules), []
    while len(match.results) < deals:
        if rng.random() < .2:  # by piles: every card in one side's pile
            from pasur_cli.engine.cards import DECK
            sides = list(match.sides)
            piles: dict[str, list[str]] = {side: [] for side in sides}
            for card in rng.sample(DECK, len(DECK)):
                piles[rng.choice(sides)].append(card.code)
            match.tally(piles=piles)
            actions.append(match.log[-1])
            continue
        if rng.random() < .5:
            sides = list(match.sides)
            counts = {side: {"clubs": 0} for side in sides}
            counts[sides[0]] = {"clubs": 13, "aces": 4, "jacks": rng.randint(0, 4), "two_clubs": True,
                                "ten_diamonds": True}
            counts[sides[-1]]["jacks"] = 4 - counts[sides[0]]["jacks"]
            holder = rng.choice(sides)  # one side's surs (they cancel under some rules)
            match.tally(counts=counts, surs={holder: rng.randint(0, 2)} if match.totals[holder] < 40 else {})
            actions.append(match.log[-1])
            continue
        finished = len(match.results)
        for action in random_match(rng, match):
            match.apply(action)
            actions.append(match.log[-1])
            if len(match.results) > finished:
                break
    return match, actions


SIDE_NAMES = st.text(alphabet=st.sampled_from('Ab "\\%é李\u202e\n'), min_size=1, max_size=6)
FIGURES = st.one_of(st.integers(0, 10**6), st.booleans())


@sized(100)
@given(st.lists(SIDE_NAMES, min_size=2, max_size=4, unique=True), st.data())
def test_a_stored_result_reads_back_as_the_result_in_seat_order(sides, data):
    """A result is stored as the JSON of its ``as_dict`` (json.dumps, keys sorted) and read back by
    the one reader as the same result, its scores in the seat order given, whatever the names hold;
    a figure held as a flag is refused by the reader as the engine refuses it."""
    from pasur_cli.engine.match import DealResult
    from pasur_cli.engine.scoring import SideScore
    from pasur_cli.store.snapshots import read_result, result_text
    for number in range(1, 4):
        scores = {side: SideScore(*data.draw(st.lists(st.integers(0, 10**6), min_size=10, max_size=10).map(
            lambda values: [v if i else min(v, 13) for i, v in enumerate(values)]))) for side in sides}
        result = DealResult(number, sides[0], scores, data.draw(st.booleans()))
        text = result_text(result)
        assert text == json.dumps(result.as_dict(), ensure_ascii=False, sort_keys=True)
        read = read_result(text, list(reversed(sides)))
        assert read == result and list(read.scores) == list(reversed(sides))
        with pytest.raises(ValueError):
            read_result(text, [*sides[:1], "Nobody?"])


@sized(20)
@given(st.integers(0, 10**6))
def test_snapshots_written_at_once_are_those_written_deal_by_deal(seed):
    """An import writes every deal's snapshot with one read of the log and one statement, each
    result's JSON put together from its parts; the rows are the ones written one deal at a time."""
    import sqlite3

    from pasur_cli.store.snapshots import rebuild_snapshots, write_snapshot
    match, actions = played_and_tallied(seed)
    from pasur_cli.engine.rules import rules_lines
    from pasur_cli.store.database import SCHEMA
    from pasur_cli.store.snapshots import EVERY_BOOK, EVERY_LOG, chain_holds, chained, sql_crc
    con = sqlite3.connect(":memory:")
    con.create_function("pasur_crc", 1, sql_crc)
    con.executescript(SCHEMA)
    head = ("\n".join(match.players), rules_lines(match.rules), 0)
    con.execute("INSERT INTO matches (id, created, players, rules, dealer, touched) VALUES (1, '', ?, ?, ?, 0)", head)
    con.executemany("INSERT INTO actions VALUES (1, ?, '', ?)", [(n, a.line) for n, a in enumerate(actions, 1)])
    rebuild_snapshots(con, 1, match)
    together = con.execute("SELECT * FROM snapshots ORDER BY seq").fetchall()
    con.execute("DELETE FROM snapshots")
    for number, totals in enumerate(match.running_totals()):
        write_snapshot(con, 1, match, number, totals)
    assert con.execute("SELECT * FROM snapshots ORDER BY seq").fetchall() == together
    book, = (row[1:] for row in con.execute(EVERY_BOOK))
    log, = (row[1:] for row in con.execute(EVERY_LOG))
    assert chain_holds(head, book, log) and chained(con, 1)  # SQLite's reading of the rows is the writers'
    con.executemany("INSERT INTO actions VALUES (1, ?, '', 'deal\tAS 2S 3S 4S')", [(len(actions) + 1,), (len(actions) + 2,)])
    log, = (row[1:] for row in con.execute(EVERY_LOG))
    assert chain_holds(head, book, log) and chained(con, 1)  # lines after the newest snapshot are not covered
    assert not chain_holds((head[0], head[1], 1), book, log)  # the first dealer is
    con.execute("UPDATE matches SET dealer = 1")
    assert not chained(con, 1)
    from pasur_cli.engine.stats import side_figures
    assert json.loads(together[-1][6]) == {side: list(f) for side, f in side_figures(match).items()}
    assert [r[4] for r in together] == [json.dumps(r.as_dict(), ensure_ascii=False, sort_keys=True)
                                        for r in match.results]


def test_a_tally_scored_before_is_refused_at_the_sur_limit():
    """A tally is scored once for the match's sides and rules and which sides are at the sur
    limit: the same tally with surs, accepted while a side is below the limit, is refused once
    it is at it, and scores as a tally scored afresh."""
    from pasur_cli.engine.errors import IllegalPlayError
    from pasur_cli.engine.tally import tally_scores
    rules = parse_rules("standard", ["sur_limit=30", "fixed_deals=20"])
    match = Match(PLAYERS, rules)
    counts = {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}, "Sara": {}}
    scores = []
    while match.totals["Ali"] < 30:  # the same tally until Ali is at the limit
        fresh = tally_scores(match, {"type": "tally", "counts": counts, "surs": {"Ali": 1}})
        scores.append(match.tally(counts=counts, surs={"Ali": 1}).scores)
        assert scores[-1] == fresh
    assert len(scores) == 2
    before = dict(match.totals)
    with pytest.raises(IllegalPlayError, match="sur limit"):
        match.tally(counts=counts, surs={"Ali": 1})
    assert match.totals == before and len(match.results) == 2
    assert match.tally(counts=counts).scores["Ali"].surs == 0  # without surs, the same counts are scored


def by_hand(actions: list, rng: random.Random) -> list[dict]:
    """Copies of ``actions``, about half written as a person may write them: a tally's zero counts
    left out and its piles in any order (the engine sorts them), a deal's table in lowercase."""
    written = []
    for action in actions:
        action = json.loads(json.dumps(action.as_dict()))
        if action["type"] == "tally" and rng.random() < .5:
            for side, counts in action["counts"].items():
                action["counts"][side] = {k: v for k, v in counts.items() if v}
            for cards in action["piles"].values():
                rng.shuffle(cards)
        elif action["type"] == "deal" and rng.random() < .5:
            action["table"] = [c.lower() for c in action["table"]]
        written.append(action)
    return written


@sized(20)
@given(st.integers(0, 10**6))
def test_an_action_written_by_hand_reads_as_pasur_writes_it(seed):
    """The one reader reads an action as a person writes it (lowercase cards, counts left out,
    piles in any order) to the value pasur writes, and the import of either replays to the same
    match."""
    from pasur_cli.engine.action import read_action
    from pasur_cli.engine.record import read_record
    match, actions = played_and_tallied(seed)
    rng = random.Random(seed)
    written = by_hand(actions, rng)
    for action, canonical in zip(written, actions, strict=True):
        assert read_action(action, complete=True) == canonical
    doc = {"format": "pasur-match", "version": 1, "players": match.players, "dealer": match.players[0],
           "rules": match.rules.as_dict(), "actions": [{"at": "2026-01-01T00:00:00+00:00", "action": a}
                                                        for a in written]}
    record = read_record(json.dumps(doc))
    assert record.actions == actions and record.match.results == match.results
    assert record.texts is not None and len(record.texts) == len(actions)


@pytest.mark.parametrize("number", ["123456789", "-12345678", "99999999"])
def test_a_number_too_long_is_refused_by_its_digits_wherever_digits_run(number):
    """json reads a record's numbers itself unless some run of digits is long enough to be a number
    too large; then each number's digits are counted as it is read: refused, naming them."""
    from pasur_cli.engine.errors import NotationError
    from pasur_cli.engine.record import read_record
    doc = json.dumps({"format": "pasur-match", "version": 1, "players": PLAYERS, "rules": {},
                      "actions": [{"at": "2026-01-01T00:00:00+00:00", "action": tallies(1, 1)[0]}]})
    assert read_record(doc).match.results  # a long run of digits in text alone is no number
    assert read_record(doc.replace("2026-01-01", "20260101999")).match.results
    with pytest.raises(NotationError, match="digits"):
        read_record(doc.replace('"version": 1', f'"version": {number}'))


@given(st.text(alphabet=st.sampled_from("0123456789٣٤ -.\"{}é李\ud800"), max_size=40))
def test_a_long_number_is_found_as_a_pattern_finds_it(text):
    """Import looks for a run of digits too long for a number in the record's bytes, made alike,
    not with a pattern: it finds one where the pattern finds a run of ASCII digits (the only
    digits a JSON number has), whatever is around it."""
    import re

    from pasur_cli.engine import record
    assert record.has_long_number(text.encode("utf-8", "surrogatepass")) == (re.search(f"[0-9]{{{record.MAX_DIGITS + 1}}}", text) is not None)


@pytest.mark.parametrize("where", ['"created":{deep},"created":""', '"players":{deep},"players":["A","B"]'])
def test_a_key_given_twice_is_checked_in_both_its_values(where):
    """A record that gives a key twice keeps its last value (as JSON does), and the first is still
    held to the record's bounds: nesting deeper than a match record can is refused, as before the
    fast paths (a differential attack found the first value let through)."""
    from pasur_cli.engine.errors import NotationError
    from pasur_cli.engine.record import MAX_DEPTH, read_record

    def text(depth: int) -> str:
        deep = "[" * depth + "0" + "]" * depth
        return ('{"format":"pasur-match","version":1,' + where.format(deep=deep)
                + ',"players":["A","B"],"rules":{},"actions":[]}')
    read_record(text(MAX_DEPTH - 1))  # within the bounds: read, the last value kept
    with pytest.raises(NotationError, match="nests deeper"):
        read_record(text(MAX_DEPTH + 1))


def depth_of(value: object) -> int:
    """How deep a parsed JSON value nests, one level for each list or object (the oracle)."""
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


TRICKY = st.text(alphabet=st.sampled_from('ab"\\[]{}\n\t:,é李\u2028'), max_size=6)


@sized(200)
@given(st.recursive(st.none() | st.booleans() | st.integers(-9, 9) | TRICKY,
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
                    max_leaves=30),
       st.booleans(), st.sampled_from([None, 0, 1]), st.integers(0, 12))
@example(["\\", [[[[[[[[[]]]]]]]]]], False, None, 8)  # a string that ends in an escaped backslash
@example({"a": [{"b": [{"c": [{"d": [[]]}]}]}]}, False, None, 8)  # lists and objects in turn
@example(['"[[[[[[[[[', "]]]]]]]]]"], True, 1, 0)  # brackets in strings only
def test_the_depth_found_in_the_text_is_the_depth_of_the_document(value, ascii_only, indent, most):
    """Import measures a record's nesting in its text (in C, quotes and brackets only), not in the
    parsed document: the same answer for any document, whatever its strings hold."""
    from pasur_cli.engine.record import nests_deeper
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert nests_deeper(text.encode(), most) == (depth_of(value) > most)


@sized(20)
@given(st.integers(0, 10**6))
def test_a_tallied_result_made_quickly_is_the_result_made_field_by_field(seed):
    """The engine makes a tallied deal's result without Value's generic constructor (the import of
    13,351 tallied deals makes one a deal): it is the same value, frozen, with frozen scores."""
    from pasur_cli.engine.match import DealResult
    from pasur_cli.engine.values import FrozenDict
    match, _ = played_and_tallied(seed)
    rng = random.Random(seed)
    clubs, aces, jacks = rng.randint(1, 13), rng.randint(0, 4), rng.randint(0, 4)  # the 2 of clubs is a club
    one = Match(["Ali", "Sara"], parse_rules("standard", []))  # at least one tallied deal, whatever the seed
    one.tally(counts={"Ali": {"clubs": clubs, "aces": aces, "jacks": jacks, "two_clubs": True},
                      "Sara": {"clubs": 13 - clubs, "aces": 4 - aces, "jacks": 4 - jacks, "ten_diamonds": True}},
              surs={"Sara": rng.randint(0, 3)})
    for result in [r for r in match.results if r.tallied] + one.results:
        plain = DealResult(result.number, result.dealer, dict(result.scores), True)
        assert result == plain and hash(result) == hash(plain) and repr(result) == repr(plain)
        assert result.as_dict() == plain.as_dict() and type(result.scores) is FrozenDict
        with pytest.raises(AttributeError):
            result.number = 0  # type: ignore[misc]


def fingerprint_as_defined(record) -> str:
    """The fingerprint as it has been defined since databases first kept it: the hash of the
    record's players, first dealer, rules and each action's line, written by json.dumps."""
    import hashlib

    content = json.dumps([record.players, record.dealer, record.rules.as_dict(),
                          [a.line for a in record.actions]], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:32]


@sized(20)
@given(st.integers(0, 10**6), st.booleans())
def test_a_record_read_quickly_keeps_its_lines_and_fingerprint(seed, repeat):
    """However a record is read (its tallies repeated or not, written as pasur writes them or as a
    person does), each stored line is the action's line and reads back as the action, and the
    fingerprint is the hash as defined: a record imported before is known again after an upgrade."""
    from pasur_cli.engine.action import read_line
    from pasur_cli.engine.record import fingerprint, read_record
    match, actions = played_and_tallied(seed)
    rng = random.Random(seed)
    if repeat:  # the same tallies again and again, as a long record of tallied deals has them
        actions = actions + [a for a in actions if a.kind == "tally"] * 3
    written = by_hand(actions, rng)
    rules = match.rules  # with room for the repeated tallies (no sur limit reached, no end)
    rules = rules.replace(fixed_deals=None, target=10**6, sur_limit=None) if repeat else rules
    doc = {"format": "pasur-match", "version": 1, "players": match.players, "dealer": match.players[0],
           "rules": rules.as_dict(), "actions": [{"at": "2026-01-01T00:00:00+00:00", "action": a} for a in written]}
    record = read_record(json.dumps(doc, ensure_ascii=rng.random() < .5))
    assert record.texts == [a.line for a in record.actions]
    assert all(read_line(text) == action for text, action in zip(record.texts, record.actions, strict=True))
    assert record.fingerprint == fingerprint_as_defined(record)
    assert record.fingerprint == fingerprint(record.players, record.dealer, record.rules, record.actions)


@pytest.mark.parametrize("name,known", [
    ("season-1.json", "c07ca8ccad78f1a30029c39bd292627c"), ("season-2.json", "998e4c3b78bc5aba06f7f0bdc3b4c4e2"),
    ("season-3.json", "8aef5bb343e3598a81c495f96e5a6dc2"), ("season-4.json", "7f3d9d7d81eb154faa3b8189642574aa"),
    ("season-5.json", "624f8c284c3a01e0dee0f7b0446cdae1"), ("season-6.json", "f2d08dabad2bae5e931a7719295df5c2"),
])
def test_the_examples_keep_the_fingerprints_databases_hold(name, known):
    """The example records' fingerprints, as every earlier pasur computed them and databases keep
    them (``imported_as``): a faster reading must not change one, or an import would be taken for new."""
    from pathlib import Path

    from pasur_cli.engine.record import read_record
    record = read_record((Path(__file__).parent.parent / "examples" / name).read_text(encoding="utf-8"))
    assert record.fingerprint == known == fingerprint_as_defined(record)


@sized(30)
@given(st.integers(0, 10**6), st.sampled_from(["count", "flag", "surs", "partial"]))
def test_a_tally_written_with_the_other_kind_of_value_is_refused_by_name(seed, where):
    """A JSON 1 is never read as true, nor false as 0 (Python holds them equal): a tally that gives
    one in place of the other has no quick key, is refused by the record reader naming the field,
    and no key of a right tally stands for it."""
    from pasur_cli.engine.errors import NotationError
    from pasur_cli.engine.record import read_record
    rng = random.Random(seed)
    right = tallies(1, seed, surs=1)[0]
    wrong = json.loads(json.dumps(right))
    side = rng.choice(PLAYERS)
    if where == "count":
        key = rng.choice(["clubs", "aces", "jacks"])
        wrong["counts"][side][key] = bool(wrong["counts"][side][key] % 2)
    elif where == "flag":
        key = rng.choice(["two_clubs", "ten_diamonds"])
        wrong["counts"][side][key] = int(wrong["counts"][side][key])
    elif where == "surs":
        wrong["surs"][side] = bool(wrong["surs"][side])
    else:
        wrong["partial"] = int(wrong["partial"])
    doc = {"format": "pasur-match", "version": 1, "players": PLAYERS, "rules": {},
           "actions": [{"at": "2026-01-01T00:00:00+00:00", "action": a} for a in (right, right, wrong)]}
    with pytest.raises(NotationError, match=r"action 3 of the record is refused: .*(true or false|a whole number)"):
        read_record(json.dumps(doc))


NAMES = st.text(st.sampled_from(['A', 'z', 'ë', 'ر', '"', ',', ' ', ':', '\\', '}', '{', 'n', 'u', 'm', 'b']),
                min_size=1, max_size=12)


@pytest.mark.parametrize("seed", range(4))
def test_a_match_deleted_while_the_file_is_read_at_once_is_left_out(pasur, db, monkeypatch, seed):
    """Generated: `matches` and `stats` read the list of matches, then every snapshot, then every
    log, each a query of its own; another program deletes a match (as `pasur delete` does) between
    two of them. The careful reading of that match found it gone and `matches` failed ("there is
    no match 2"); it is left out, as a reading after the delete leaves it out, and every other
    match is shown as before."""
    import sqlite3

    from matchbook import random_match, stored
    rng = random.Random(seed)
    made = [random_match(rng, finished=rng.random() < .5) for _ in range(4)]
    stored(db, made)
    gone = rng.randint(1, len(made))
    query = rng.choice(["FROM snapshots AS s GROUP BY match_id", "FROM actions GROUP BY match_id"])
    command = rng.choice([["matches", "--json"], ["stats", "--json"]])
    real = sqlite3.connect

    def delete() -> None:
        other = real(db)
        with other:
            for sql in ("DELETE FROM snapshots WHERE match_id = ?", "DELETE FROM actions WHERE match_id = ?",
                        "DELETE FROM matches WHERE id = ?"):
                other.execute(sql, (gone,))
        other.close()

    def watched(*args, **kwargs):
        con = real(*args, **kwargs)
        con.set_trace_callback(lambda sql: delete() if query in sql else None)
        return con
    monkeypatch.setattr(sqlite3, "connect", watched)
    shown = pasur(*command)
    monkeypatch.setattr(sqlite3, "connect", real)
    after = pasur(*command)
    assert (shown.exit_code, shown.stdout) == (0, after.stdout), (gone, query)
