"""Colour, ASCII, wide names and shell completion."""

import io
import itertools
import json
import os
import re
import sys

import pexpect
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from tier import some
from wcwidth import wcswidth

from pasur_cli.cli.app import main
from pasur_cli.engine.cards import parse_card
from pasur_cli.text.render import Look


class Tty(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return True


def test_colour_only_at_a_terminal_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Look.detect(stream=Tty()).color
    assert not Look.detect(stream=io.StringIO()).color
    assert not Look.detect(no_color=True, stream=Tty()).color
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Look.detect(stream=Tty()).color
    monkeypatch.setenv("NO_COLOR", "")
    assert Look.detect(stream=Tty()).color
    look = Look(color=True)
    assert look.card(parse_card("10D")) == "\x1b[31m10♦\x1b[0m" and look.card(parse_card("10C")) == "10♣"
    assert "\x1b[" in look.loud("SUR")


def test_ascii_when_asked_or_when_the_terminal_cannot_encode():
    class Latin1(io.StringIO):
        encoding = "latin-1"
    assert Look.detect(stream=Latin1()).ascii and Look.detect(ascii=True, stream=Tty()).ascii
    assert not Look.detect(stream=Tty()).ascii


def test_colour_at_a_real_terminal(db):
    env = dict(os.environ, PASUR_DB=str(db))
    env.pop("NO_COLOR", None)
    out = pexpect.run(f"{sys.executable} -m pasur_cli check 5S --table '6H'", env=env, encoding="utf-8")
    assert "\x1b[31m6♥" in out and "\x1b[1;33mSUR" in out
    out = pexpect.run(f"{sys.executable} -m pasur_cli check 5S --table '6H 5C'", env={**env, "NO_COLOR": "1"},
                      encoding="utf-8")
    assert "\x1b[" not in out and "6♥" in out
    out = pexpect.run(f"{sys.executable} -m pasur_cli check 5S --table '6H 5C' --no-color --ascii", env=env,
                      encoding="utf-8")
    assert "\x1b[" not in out and "6H" in out


def test_names_in_any_script_keep_tables_aligned(pasur):
    assert pasur("new", "سارا", "Jürgen", "李小龍").exit_code == 0
    pasur("tally", "--count", "سارا: clubs=7 aces=4 jacks=1 two_clubs=yes", "--count",
          "Jürgen: clubs=3 jacks=3 ten_diamonds=yes", "--count", "李小龍: clubs=3")
    for command in ("matches", "score"):
        text = pasur(command).output
        blocks = [b for b in text.split("\n\n") if "---" in b]
        assert blocks
        for block in blocks:
            lines = [row for row in block.splitlines() if row.strip() and not row.startswith(("Deal", "Match"))]
            rule = lines[1]
            # every column starts where its dashes start
            starts = [i for i, ch in enumerate(rule) if ch == "-" and (i == 0 or rule[i - 1] == " ")]
            for line in lines[2:]:
                for start in starts[1:]:
                    if start < wcswidth(line):  # a cell's second line ends at its last non-empty cell
                        assert wcswidth(line[:_char_index(line, start)]) == start


def _char_index(line, width):
    """The index in line where the display width reaches ``width``."""
    for i in range(len(line) + 1):
        if wcswidth(line[:i]) >= width:
            return i
    return len(line)


def complete(words, cword, db=None):
    env = {"_PASUR_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    if db:
        env["PASUR_DB"] = str(db)
    result = CliRunner().invoke(main, [], env=env, prog_name="pasur", complete_var="_PASUR_COMPLETE")
    return [line.split(",", 1)[1] for line in result.output.splitlines()]


def test_completion(pasur, db):
    assert "play" in complete("pasur p", 1) and "tally" in complete("pasur t", 1)
    assert complete("pasur check 5c --rules p", 4) == ["pagat"]
    assert complete("pasur check 5c --rule sur_c", 4) == ["sur_cancel="]
    assert complete("pasur check 5c --rule jack_capture=", 4) == ["jack_capture=wild", "jack_capture=sum11"]
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    unseen = complete("pasur play ", 2, db)
    assert len(unseen) == 52 - 5 and "2S" not in unseen and "9D" not in unseen and "5C" not in unseen
    assert complete("pasur play 6c --take ", 4, db) == ["5C", "3H", "KS"]
    assert complete("pasur play 6c --by S", 4, db) == ["Sara"]
    assert json.loads(pasur("show", "--json").output)["unseen"] == len(unseen)


def test_ascii_reaches_error_messages(pasur):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    assert "9♦ was captured by Sara" in pasur("play", "9D").output
    result = pasur("play", "9D", "--ascii")
    assert result.exit_code == 1 and "9D was captured by Sara" in result.output and "♦" not in result.output
    shown = pasur("show", "--ascii").output
    assert not any(ord(ch) > 127 for ch in shown), shown


# -- everything fits the terminal's width ------------------------------------------------------
FOUR = ["Ali", "Sara", "Reza", "Mina"]
TALLY = ["--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes"]


def widths(text):
    return [wcswidth(line) for line in text.splitlines()]


@pytest.mark.parametrize("columns", [60, 80])
def test_matches_fit_the_terminal_and_keep_every_fact(pasur, monkeypatch, columns):
    pasur("new", *FOUR)
    pasur("tally", *TALLY, "--surs", "Reza=1")
    pasur("new", "Alexandra", "Benjamin", "Cornelius")  # at 60 columns the longest name fits in 10
    monkeypatch.setenv("COLUMNS", str(columns))
    text = pasur("matches").output
    assert max(widths(text)) <= columns, text
    flat = " ".join(text.split())
    for fact in ["Ali & Reza 17", "Sara & Mina 8", "Alexandra 0", "Benjamin 0", "Cornelius 0", "playing",
                 "standard"]:
        assert " ".join(fact.split()) in flat or all(word in flat for word in fact.split()), fact
    monkeypatch.setenv("COLUMNS", "200")
    assert max(widths(pasur("matches").output)) > 80  # wide enough: one line a match, as before
    outputs = set()
    for wide in ("40", "80", "200"):
        monkeypatch.setenv("COLUMNS", wide)
        outputs.add(pasur("matches", "--json").output)
    assert len(outputs) == 1


def game(players, teams, points):
    from pasur_cli.engine.cards import parse_cards
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.rules import parse_rules
    match = Match(players, parse_rules("standard", [] if teams else ["teams=no"]))
    match.start_deal(parse_cards(["5C", "9D", "3H", "KS"]))
    match.totals = {side: points for side in match.sides}  # as many points as a long match holds
    return match


@pytest.mark.parametrize("lang", ["en", "fa", "de", "es"])
@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_session_prompt_leaves_room_to_type(monkeypatch, lang, columns):
    from pasur_cli.cli.commands.session import TYPING, Session
    from pasur_cli.text import i18n
    from pasur_cli.text.layout import text_width
    i18n.set_language(lang)
    monkeypatch.setenv("COLUMNS", str(columns))
    for players, teams in [(FOUR[:2], True), (FOUR[:3], True), (FOUR, True), (FOUR, False)]:
        for points in (0, 27, 123):
            prompt = Session(None, 1, Look(rtl=i18n.is_rtl()), input, True).prompt(game(players, teams, points))
            *above, last = prompt.split("\n")
            assert text_width(last) <= columns - TYPING, prompt
            assert all(text_width(line) <= columns for line in above), prompt
            if columns == 80 and len(players) == 4 and teams and points < 100 and lang != "fa":
                # the reported 4-player prompt: one line, with room to type (in Persian its isolates,
                # counted as a column each, leave less than 20 and it stands above the arrow)
                assert not above, prompt


@pytest.mark.parametrize("lang", ["en", "fa", "de", "es"])
@pytest.mark.parametrize("columns", [60, 80])
def test_the_session_help_wraps_its_second_column(lang, columns):
    import re

    from pasur_cli.cli.commands.session import HELP
    from pasur_cli.text import i18n, layout
    i18n.set_language(lang)
    text = layout.help_text(i18n._(HELP), columns)
    lines = text.splitlines()
    assert max(layout.text_width(line) for line in lines) <= columns
    assert " ".join(text.split()) == " ".join(i18n._(HELP).split())  # every word, in order
    column = re.match(r"( +\S+ +)", lines[1]).end()  # where "7c"'s explanation starts
    following = lines[2:lines.index(next(line for line in lines[2:] if line.startswith("  7c 4d")))]
    assert following and all(line[:column].isspace() and line[column] != " " for line in following), text


@pytest.mark.parametrize("columns", [60, 80])
def test_show_fits_the_terminal_in_persian(pasur, monkeypatch, columns):
    pasur("new", *FOUR)
    for _ in range(2):
        pasur("tally", *TALLY)
    pasur("deal", "5C", "9D", "3H", "KS")
    monkeypatch.setenv("COLUMNS", str(columns))
    text = pasur("--lang", "fa", "show").output
    status = text.splitlines()[2]
    # the isolates take no column (wcwidth, and tmux 3.3: the cursor does not move)
    assert wcswidth(status) <= columns, text
    assert "24" in status and "16" in status


@pytest.mark.parametrize("columns", [60, 80])
def test_the_log_wraps_at_the_terminal_with_a_hanging_indent(pasur, monkeypatch, columns):
    pasur("new", "Alexandra", "Bartholomew", "--rules", "pagat")
    pasur("deal", "5C", "9D", "3H", "KS")
    for card in ["2S", "6H", "5S", "3C", "KH", "AC", "JD"]:
        pasur("play", card)
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = pasur("log").output.splitlines()
    assert max(widths("\n".join(lines))) <= columns
    jack = next(i for i, line in enumerate(lines) if "J♦" in line)
    rest = list(itertools.takewhile(lambda line: line.startswith("  "), lines[jack + 1:]))
    assert rest and not lines[jack].startswith(" ") and rest[-1].endswith(" sur).")
    monkeypatch.setenv("COLUMNS", "200")  # wide enough: the same line, whole
    wide = pasur("log").output.splitlines()
    assert wide[jack] == " ".join([lines[jack], *(line.strip() for line in rest)]) and len(wide) < len(lines)


def test_the_log_isolates_every_fact_in_persian(pasur):
    from pasur_cli.text.i18n import FSI, PDI
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    lines = pasur("--lang", "fa", "log").output.splitlines()
    assert f"{FSI}1{PDI}" in lines[1] and f"{FSI}Sara{PDI}" in lines[1] and f"{FSI}2♠{PDI}" in lines[1], lines


def test_the_tally_questions_and_errors_break_between_words(capsys):
    from pasur_cli.cli.commands.tally import ask_tally
    answers = iter(["clubs=8 aces=2 jacks=1 2h=yes", "clubs=8", "", "clubs=5", ""])
    asked = []

    def read(prompt):
        asked.append(prompt)
        return next(answers)
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.rules import parse_rules
    match = Match(["Alexandra", "Bartholomew"], parse_rules("standard"))  # between deals: a tally is asked
    ask_tally(match, read, Look(), partial=True, width=40)
    out = capsys.readouterr().out
    assert max(widths(out + "\n" + "\n".join(asked))) <= 40, out
    error = out[out.index("Error:"):].split("\n\n")[0].splitlines()
    assert len(error) >= 2 and " ".join(error).startswith("Error: '2h=yes' is not a count"), error


def test_the_surs_column_aligns_right_either_way(pasur):
    pasur("new", "Ali", "Sara")
    pasur("tally", *TALLY, "--surs", "Ali=1")
    pasur("tally", *TALLY)
    for deal in pasur("score").output.split("\n\n")[:2]:
        import re
        lines = deal.splitlines()
        end = list(re.finditer("-+", lines[2]))[7].end()  # where the surs column ends
        assert lines[1][:end].endswith("surs") and all(line[end - 1] != " " for line in lines[3:]), deal


def test_the_jack_no_sur_sentence_fits_one_line_with_room():
    from pasur_cli.text.render import no_sur_text

    class Reason:
        rule = "jack_sur"

    class Record:
        no_sur = Reason()
    assert len(no_sur_text(Record())) <= 75


@given(st.text(alphabet=st.sampled_from(
    "Ali Sara 0123456789 ♣♦♥♠·–›()؛،.:,&-'\u2068\u2069\u200e\u200c سارا علی مهرانگیز خاج دل 漢字 é\u0301")))
def test_text_width_is_what_wcwidth_says_a_terminal_shows(text):
    """The columns pasur measures for its own lines: wcwidth's, isolates and the non-joiner taking
    none. (Not U+200D: wcwidth reads it as joining an emoji and gives the next character none.)"""
    from wcwidth import wcswidth

    from pasur_cli.text.layout import text_width
    assert text_width(text) == wcswidth(text)
    assert text_width("\x1b[31m" + text + "\x1b[0m") == wcswidth(text)  # colour codes take no column


# -- every table a command prints fits the terminal, in every language -------------
WIDE = ["مهر انگیز", "José", "بهرام خان", "Begoña"]  # two teams: two-word Persian names, Spanish ones


def _tables(text):
    """The lines of each table in ``text``: from its header to the blank line after its rows (a
    table is found by its rule, the line of dashes under the header; its title is prose)."""
    lines = text.splitlines()
    tables = []
    for i, line in enumerate(lines):
        if re.fullmatch(r"\u200e?[ -]*--[ -]*", line):
            start = i
            while start > 0 and lines[start - 1].strip() and not lines[start - 1].rstrip().endswith((")", ":", ".")):
                start -= 1  # the header's lines (a title ends in ')', ':' or '.')
            end = next((j for j in range(i, len(lines)) if not lines[j].strip()), len(lines))
            tables.append(lines[start:end])
    return tables


def _fitting(pasur, monkeypatch, lang, columns, *command):
    """The command's output at ``columns`` columns, every line of each of its tables fitting."""
    monkeypatch.setenv("COLUMNS", str(columns))
    result = pasur("--lang", lang, *command)
    assert result.exit_code == 0, result.output
    tables = _tables(result.output)
    for lines in tables:
        assert max(widths("\n".join(lines))) <= columns, result.output
    return result.output, tables


@pytest.fixture(scope="module")
def wide_book(tmp_path_factory) -> bytes:
    """The two example seasons imported, then a match of wide names with a tally and a deal: the
    file, made once for every language and width."""
    path = tmp_path_factory.mktemp("wide") / "pasur.db"
    runner = CliRunner()

    def pasur(*args: str) -> int:
        return runner.invoke(main, ["--db", str(path), *args], env={"PASUR_LANG": "en"}).exit_code
    for f in ["season-1.json", "season-2.json"]:
        assert pasur("import", os.path.join(os.path.dirname(__file__), "..", "examples", f)) == 0
    assert pasur("new", *WIDE, "--dealer", "José") == 0
    assert pasur("tally", "--count", "José: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count",
                 "بهرام خان: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", "Begoña=1") == 0
    assert pasur("deal", "5C", "9D", "3H", "KS") == 0
    return path.read_bytes()


@pytest.mark.parametrize("lang", ["en", "fa", "de", "es"])
@pytest.mark.parametrize("columns", some([60, 80]))  # the narrow terminal quick, 80 columns too under soak
def test_every_table_fits_the_terminal_in_every_language(pasur, db, wide_book, monkeypatch, lang, columns):
    # at 60 columns every table here can fit: no name is longer than its column (a single word
    # wider than the terminal could not, and is not tried). Prose lines (titles, the clubs race,
    # the standing) are not tables and are printed whole, as click.echo prints them.
    db.write_bytes(wide_book)
    for command, count in ((["score"], 2), (["stats"], 3), (["matches"], 1), (["show"], 0),
                           (["score", "--match", "2"], 5), (["log"], 0)):
        text, tables = _fitting(pasur, monkeypatch, lang, columns, *command)
        assert len(tables) >= count, text  # stats: players, partnerships, head to head (and any split)
        if command == ["stats"]:
            assert "Begoña" in text and "Ali" in text  # every player
            if columns == 80:  # a table split in two anyway keeps its names whole
                assert "Ali & Reza" in text, text
    monkeypatch.setenv("COLUMNS", "200")  # wide enough: the score table as before, one line a side
    wide = pasur("--lang", lang, "score").output
    assert any("Begoña" in line and len(line.split()) >= 10 for line in wide.splitlines()), wide


def test_json_and_csv_are_never_broken(pasur, monkeypatch):
    pasur("new", *WIDE)
    outputs = set()
    for wide in ("40", "400"):
        monkeypatch.setenv("COLUMNS", wide)
        outputs.add(pasur("--lang", "es", "score", "--json").output + pasur("export").output
                    + pasur("score", "--csv").output)
    assert len(outputs) == 1


@pytest.mark.parametrize("columns", [60, 80])
def test_cut_names_still_tell_the_players_apart(monkeypatch, columns):
    """Names sharing their first letters are cut no shorter than what sets them apart."""
    from pasur_cli.text.render import status_line
    match = game(["Maryam-Sadat Hosseini", "Mahmoud Ahmadinejad", "Marziyeh Vafamehr", "Mahnaz Afshar-Tehrani"],
                 True, 0)
    line = status_line(Look(), match, columns - 23)
    shown = line[:line.index(" · ")].replace("(", " ").replace(";", " ").replace(",", " ").split()
    names = [w for w in shown if w.startswith("Ma")]
    assert len(names) == 4 and len(set(names)) == 4, line
    assert not any(n.endswith((" .", "-.")) for n in names)


@pytest.mark.parametrize("lang,first", [("en", "Commands:"), ("de", "Befehle:"), ("es", "Órdenes:")])
def test_the_session_help_lists_its_commands_as_one_item(lang, first):
    """review and hint continue the list of commands (indented under it), not a line of their own
    that starts at the margin after a line ending in a comma."""
    from pasur_cli.cli.commands.session import HELP
    from pasur_cli.text import i18n, layout
    i18n.set_language(lang)
    lines = layout.help_text(i18n._(HELP), 80).splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(first))
    rest = lines[start + 1:]
    listed = lines[start:start + 1] + rest[:next(k for k, line in enumerate(rest) if not line.startswith("  "))]
    assert any(f" {i18n._('CARDS')} " in line for line in listed), lines  # the placeholder in the language
