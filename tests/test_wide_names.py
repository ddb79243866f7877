"""`stats` and `matches` with names of every length pasur takes (1 to 40 characters) in Latin,
Persian and CJK script (two columns a character): every line fits the width, a player's or a
partnership's name is never broken across lines in `stats` (when it fits the width at all), and
`matches` keeps one layout, the same header and columns, whatever the names' widths."""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.engine.match import Match
from pasur_cli.engine.names import NAME_MOST, check_name, name_key
from pasur_cli.engine.rules import parse_rules
from pasur_cli.engine.stats import record_book, standing_of
from pasur_cli.text import i18n
from pasur_cli.text.layout import text_width
from pasur_cli.text.render import Look, matches_text
from pasur_cli.text.render_stats import stats_text
from pasur_cli.text.shapes import matches_rows

SCRIPTS = {
    "latin": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüñßø",
    "persian": "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی",
    "cjk": "".join(map(chr, range(0x4E00, 0x4E80))),
}
WON = {"clubs": 8, "aces": 3, "jacks": 2, "two_clubs": True, "ten_diamonds": True}
LOST = {"clubs": 5, "aces": 1, "jacks": 2, "two_clubs": False, "ten_diamonds": False}
NONE = {"clubs": 0, "aces": 0, "jacks": 0, "two_clubs": False, "ten_diamonds": False}


@st.composite
def name(draw: st.DrawFn) -> str:
    """A name of 1 to 40 characters in one script, now and then two words."""
    letters = SCRIPTS[draw(st.sampled_from(sorted(SCRIPTS)))]
    size = draw(st.sampled_from([1, 5, 12, 20, 27, 33, 40]) | st.integers(1, NAME_MOST))
    text = draw(st.text(alphabet=letters, min_size=size, max_size=size))
    if size > 4 and draw(st.booleans()):  # a name of two words
        cut = draw(st.integers(1, size - 2))
        text = text[:cut] + " " + text[cut + 1:]
    return text


@st.composite
def players(draw: st.DrawFn, count: int) -> list[str]:
    names = draw(st.lists(name(), min_size=count, max_size=count, unique_by=name_key))
    return [check_name(text, seat) for seat, text in enumerate(names, 1)]


@st.composite
def books(draw: st.DrawFn) -> list[tuple[int, Match]]:
    """A finished two-player match, a four-player partnership match (finished or not) and a
    three-player one, of drawn names (the same players now and then in two matches)."""
    names = draw(players(9))  # all different as pasur compares names (a player is one spelling)
    two, four, three = names[:2], names[2:6], names[6:]
    if draw(st.booleans()):
        four = [two[0], four[1], two[1], four[3]]
    matches = []
    for mid, names, deals in ((1, two, 4), (2, four, draw(st.integers(1, 4))), (3, three, 1)):
        match = Match(names, parse_rules("standard", []))
        counts = dict(zip(match.sides, [WON, LOST, NONE], strict=False))
        for _ in range(deals):
            if match.finished:
                break
            match.tally(counts=counts)
        matches.append((mid, match))
    return matches


def partnerships(matches: list[tuple[int, Match]]) -> list[str]:
    return [side for _, match in matches for side in match.sides if " & " in side]


def line_of(lines: list[str], text: str) -> bool:
    """Whether ``text`` stands whole on one of the ``lines`` (a right-to-left table writes its
    cells as isolates: the marks are left out)."""
    return any(text in re.sub("[\u200e\u2068\u2069]", "", line) for line in lines)


WIDTHS = st.sampled_from([60, 80, 100, 120])
LANGS = st.sampled_from(["en", "fa", "de"])
SETTINGS = sized(100)  # 50 examples in the quick suite, 1,000 under soak


@SETTINGS
@given(matches=books(), width=WIDTHS, lang=LANGS)
def test_stats_fits_and_keeps_every_name_whole_on_a_line(matches, width, lang):
    i18n.set_language(lang)
    try:
        text = stats_text(Look(rtl=i18n.is_rtl()), record_book(matches), width)
    finally:
        i18n.set_language("en")
    lines = text.splitlines()
    assert max(map(text_width, lines)) <= width, text
    names = [p for _, match in matches for p in match.players] + partnerships(matches)
    for whole in names:  # every name that fits the width stands whole on a line
        if text_width(whole) <= width:
            assert line_of(lines, whole), (whole, text)
        else:  # a partnership wider than the width: each partner that fits whole
            assert all(line_of(lines, partner) for partner in whole.split(" & ") if text_width(partner) <= width), \
                (whole, text)


HEADER = ["match", "date", "players", "rules", "deals", "totals", "status"]


def columns_of(rule: str) -> list[tuple[int, int]]:
    """The (start, end) of each column, from the dashes under the header."""
    return [m.span() for m in re.finditer("-+", rule)]


def cut(line: str, start: int, end: int) -> str:
    """What ``line`` shows from column ``start`` to ``end`` (a CJK character takes two)."""
    shown, at = [], 0
    for ch in line:
        if start <= at < end:
            shown.append(ch)
        at += text_width(ch)
    return "".join(shown)


def renamed(matches: list[tuple[int, Match]]) -> list[tuple[int, Match]]:
    """The same matches, deals and scores, of players named with one letter."""
    short = []
    for mid, match in matches:
        again = Match([chr(ord("A") + seat) for seat in range(len(match.players))], match.rules)
        for result in match.results:
            again.tally(counts=dict(zip(again.sides, [WON, LOST, NONE], strict=False)))
            assert again.results[-1].scores[again.sides[0]].total == result.scores[match.sides[0]].total
        short.append((mid, again))
    return short


def matches_lines(matches: list[tuple[int, Match]], width: int) -> list[str]:
    rows = matches_rows([standing_of(mid, "2026-12-05 20:00", match) for mid, match in matches])
    return matches_text(rows, width=width).splitlines()


@SETTINGS
@given(matches=books(), width=st.sampled_from([40, 50, 60, 80, 100, 120]))
def test_matches_keeps_one_layout_whatever_the_names(matches, width):
    lines = matches_lines(matches, width)
    text = "\n".join(lines)
    rules = [n for n, line in enumerate(lines) if set(line) == {"-", " "}]
    short = matches_lines(renamed(matches), width)
    short_rules = [n for n, line in enumerate(short) if set(line) == {"-", " "}]
    assert " ".join(lines[:rules[0]]).split() == " ".join(short[:short_rules[0]]).split(), text  # the same header
    if width < 60:  # too narrow for names of 40 characters (it would fit one-letter names only)
        return
    assert len(rules) == 1, text  # one table, never split in two
    head, rule, body = lines[:rules[0]], lines[rules[0]], lines[rules[0] + 1:]
    # every column; at 60 the totals stand in the players column (the sides name every player)
    header = HEADER if width >= 80 else [c for c in HEADER if c != "totals"]
    assert " ".join(head).split() == header, text  # the same columns in the same order
    spans = columns_of(rule)
    assert len(spans) == len(header)
    assert max(map(text_width, lines)) <= width, text
    for line in body:  # nothing written between two columns
        assert all(not cut(line, end, start).strip() for (_, end), (start, _) in pairwise(spans)), (line, text)
    players = "".join("".join(cut(line, *spans[2]).split()) for line in body)
    for _, match in matches if width >= 80 else ():
        for player in match.players:
            assert "".join(player.split()) in players, (player, text)  # every name, in its column
