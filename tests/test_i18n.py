"""Languages: how one is chosen, the catalogs (complete, fields intact, compiled), click's own
strings, help texts, Persian digits on input, and right-to-left isolation on output."""

from __future__ import annotations

import ast
import functools
import io
import re
import string
from pathlib import Path

import click
import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.cli.app import main
from pasur_cli.engine import reading
from pasur_cli.text import i18n, i18n_tools
from pasur_cli.text.i18n import FSI, LRM, PDI, choose

ROOT = Path(__file__).parent.parent
OTHERS = [code for code in i18n.LANGUAGES if code != "en"]


@functools.cache  # parsed once a process: several tests read each catalog, some many times
def catalog(code: str):
    with open(i18n_tools.LOCALE / code / "LC_MESSAGES" / "pasur.po", "rb") as fp:
        return read_po(fp, locale=code)


def forms(value) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


def plain(text: str) -> str:
    """Output without the isolates and marks of right-to-left text."""
    return re.sub(f"[{FSI}{PDI}{LRM}]", "", text)


# -- which language ------------------------------------------------------------------------
@pytest.mark.parametrize("environ,option,expected", [
    ({}, None, "en"),
    ({"LANG": "fa_IR.UTF-8"}, None, "fa"),
    ({"LANG": "fa_IR.UTF-8"}, "de", "de"),  # --lang first
    ({"PASUR_LANG": "es", "LANG": "de_DE.UTF-8", "LANGUAGE": "fa"}, None, "es"),  # then PASUR_LANG
    ({"LANGUAGE": "fr:de:es", "LANG": "es_ES"}, None, "de"),  # LANGUAGE's first known entry
    ({"LANGUAGE": "fa", "LC_ALL": "C"}, None, "en"),  # LANGUAGE counts for nothing under C, as in GNU
    ({"LC_ALL": "es_AR.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "fa_IR"}, None, "es"),
    ({"LC_MESSAGES": "de_DE@euro", "LANG": "fa_IR"}, None, "de"),
    ({"LANG": "POSIX"}, None, "en"),
    ({"LANG": "fr_FR.UTF-8"}, None, "en"),  # unknown: English
    ({"PASUR_LANG": "xx", "LANG": "de_DE"}, None, "en"),
    ({}, "FA", "fa"), ({}, "de-AT", "de"), ({}, "klingon", "en"),
])
def test_the_language_is_chosen_in_order(environ, option, expected):
    assert choose(environ, option) == expected


@sized(30)
@given(st.dictionaries(st.sampled_from(["PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]),
                       st.text(max_size=12)))
def test_any_environment_gives_a_language_pasur_speaks(environ):
    assert choose(environ) in i18n.LANGUAGES


def test_lang_is_found_before_click_parses(pasur):
    assert i18n.option_in(["check", "--help", "--lang", "fa"]) == "fa"
    assert i18n.option_in(["--lang=de", "show"]) == "de"
    assert i18n.option_in(["play", "--", "--lang", "fa"]) is None


@pytest.mark.parametrize("name", sorted(main.load_all()))
def test_every_command_takes_lang_even_after_help(pasur, name):
    assert main.load_all()[name].params[-2].opts == ["--lang"]  # PasurCommand adds it
    for args in ([name, "--help", "--lang", "de"], ["--lang", "de", name, "--help"]):
        result = pasur(*args)
        assert result.exit_code == 0 and result.output.startswith("Aufruf: "), result.output


def test_environment_chooses_when_no_option(pasur, monkeypatch):
    monkeypatch.setenv("PASUR_LANG", "es")
    assert pasur("check", "--help").output.startswith("Uso: ")
    assert pasur("--lang", "en", "check", "--help").output.startswith("Usage: ")


def test_a_command_run_inside_another_keeps_the_language(pasur):
    @click.command()
    def outer():
        main.main(["rules"], standalone_mode=False)

    assert "Bedeutung" in pasur("--lang", "de", "rules").output  # sets German, then:
    i18n.set_language("de")
    with click.Context(outer):
        main.main(["check", "5S", "--table", "AC"], standalone_mode=False)
        assert i18n.language() == "de"


def test_man_pages_stay_english_after_another_language(pasur, tmp_path):
    import importlib.util
    pasur("--lang", "fa", "check", "--help")
    spec = importlib.util.spec_from_file_location("generate", ROOT / "man" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    generate.generate(tmp_path)
    assert (tmp_path / "pasur-check.1").read_text() == (ROOT / "man" / "pasur-check.1").read_text()


# -- the catalogs --------------------------------------------------------------------------
FIELD = re.compile(r"%\(\w+\)[sd]")


def fields(text: str) -> set[str]:
    """The {name} fields (with conversion, as click's {name!r}) and %(name)s of a message."""
    names = {f"{name}!{conv}" if conv else name
             for _, name, _, conv in string.Formatter().parse(text) if name is not None}
    return names | set(FIELD.findall(text))


@pytest.mark.parametrize("code", OTHERS)
def test_translations_keep_the_english_fields(code):
    wrong = []
    for message in catalog(code):
        if not message.id or message.fuzzy or not any(forms(message.string)):
            continue
        english = [fields(m) for m in forms(message.id)]
        for translated in filter(None, forms(message.string)):
            have = fields(translated)
            # a singular form may leave its number out ("one card"); no form may add a field
            if not (have == english[-1] or (len(english) > 1 and have <= english[-1] | english[0])):
                wrong.append((message.id, translated))
    assert not wrong


@pytest.mark.parametrize("code", OTHERS)
def test_compiled_catalogs_match_their_sources(code):
    """The .mo files are committed (the wheel ships them): each must be its .po compiled. After
    editing a .po: python -m pasur_cli.text.i18n_tools"""
    import gettext
    fresh = io.BytesIO()
    write_mo(fresh, catalog(code))
    fresh.seek(0)
    with open(i18n_tools.LOCALE / code / "LC_MESSAGES" / "pasur.mo", "rb") as fp:
        committed = gettext.GNUTranslations(fp)
    compiled = gettext.GNUTranslations(fresh)
    assert compiled.info() == committed.info()
    for message in catalog(code):
        if isinstance(message.id, tuple):
            for n in range(12):
                assert compiled.ngettext(*message.id[:2], n) == committed.ngettext(*message.id[:2], n), message.id
        elif message.id:
            assert compiled.gettext(message.id) == committed.gettext(message.id), message.id


@functools.cache
def code_messages() -> tuple[str, ...]:
    """The messages extracted from the code (once a process: extraction reads every module)."""
    return tuple(i18n_tools.messages())


@pytest.mark.parametrize("code", OTHERS)
def test_every_message_has_a_translation(code):
    """Every message in the code has a translation that is not fuzzy. After changing messages:
    python -m pasur_cli.text.i18n_tools, then translate the empty and fuzzy entries of each .po."""
    translated = {message.id if isinstance(message.id, str) else message.id[0]
                  for message in catalog(code) if message.id and not message.fuzzy and all(forms(message.string))}
    missing = [m for m in code_messages() if m not in translated]
    assert not missing, f"{len(missing)} messages without a {code} translation, e.g. {missing[:3]}"



def test_every_message_is_a_literal():
    """A template given to _, ngettext, Look.say or an error class is a literal string, or a name
    passing one on (an error's ``template``, a marked constant), or a counted one's two literal
    forms (``Plural``, itself checked here): an f-string, a concatenation or another call cannot be
    looked up in a catalog."""
    names = {k.split(":")[0] for k in i18n_tools.KEYWORDS}
    bad = []
    for path in sorted((ROOT / "pasur_cli").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                first = node.args[0]
                if name in names and not (isinstance(first, ast.Constant) and isinstance(first.value, str)) \
                        and not isinstance(first, ast.Name | ast.Attribute) \
                        and not (name == "_" and isinstance(first, ast.Subscript)) \
                        and not (isinstance(first, ast.Call) and getattr(first.func, "id", None) == "Plural"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad


def test_click_still_has_the_strings_we_translate():
    from babel.messages.extract import extract_python
    ids = set()
    for path in Path(click.__file__).parent.glob("*.py"):
        with open(path, "rb") as fp:
            for _line, _func, message, _comments in extract_python(fp, {"_": None, "ngettext": (1, 2)}, [], {}):
                if message is not None:  # None: a call without a literal
                    ids.add(message if isinstance(message, str) else tuple(message[:2]))
    assert set(i18n_tools.CLICK_MESSAGES) - {"required"} <= ids  # click: _(extra["required"]), no literal
    assert set(i18n_tools.CLICK_PLURALS) <= ids


# -- no English left where the catalogs are complete ----------------------------------------
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_']*")
CODE_LIKE = re.compile(r"(?<!\w)--?[\w-]+|\w+=\S*|`[^`]*`|\$\w+|\[\w+\]")


def words(text: str) -> set[str]:
    """Latin words of a text that could be English prose: not option names, NAME=VALUE, `code`,
    $VARIABLES, METAVARS, identifiers with _ or digits, or words under three letters."""
    return {w.lower() for w in WORD.findall(CODE_LIKE.sub(" ", text))
            if len(w) >= 3 and not w.isupper() and not re.search(r"[_0-9]", w)}


@functools.cache
def english_only(code: str) -> frozenset[str]:
    """Words of the English messages that no translation into ``code`` uses."""
    english, translated = set(), set()
    for message in catalog(code):
        for text in forms(message.id):
            english |= words(text)
        for text in forms(message.string):
            translated |= words(text)
    return frozenset(english - translated)


def assert_no_english(text: str, code: str) -> None:
    from pasur_cli.engine.rules import CHOICES, OPTION_NAMES
    commands = main.load_all()
    subcommands = {name for command in commands.values() for name in getattr(command, "commands", {})}  # event's
    code_words = {*commands, *subcommands, *OPTION_NAMES, *(v for values in CHOICES.values() for v in values),
                  "true", "false", "none"}  # command and option names and values are typed as they are
    found = words(plain(text)) & english_only(code) - code_words
    assert not found, f"English in the {code} output: {sorted(found)}\n{text}"


CHECKS = [
    ["check", "5S", "--table", "AC 2D 4H 5C", "--rules", "pagat"],
    ["check", "5S", "--table", "AC 2D 4H 5C"],
    ["check", "JS", "--table", "QH KC"],
    ["check", "7D", "--table", "5C 4H", "--take", "4H"],
    ["check", "7D", "--table", ""],
    ["check", "5C", "--table", "6D 6H", "--rule", "multi_capture=false"],
]


@pytest.mark.parametrize("code", OTHERS)
@pytest.mark.parametrize("args", CHECKS)
def test_check_speaks_each_language(pasur, code, args):
    english = pasur(*args)
    result = pasur("--lang", code, *args)
    assert result.exit_code == english.exit_code == 0
    assert result.output != english.output
    assert_no_english(result.output, code)


@pytest.mark.parametrize("code", OTHERS)
def test_help_and_rules_speak_each_language(pasur, code):
    outputs = [pasur("--lang", code, "--help").output, pasur("--lang", code, "rules").output]
    outputs += [pasur("--lang", code, name, "--help").output for name in sorted(main.load_all())]
    for output in outputs:
        assert_no_english(output, code)


@pytest.mark.parametrize("code,usage,error", [("fa", "کاربرد:", "خطا:"), ("de", "Aufruf:", "Fehler:"),
                                               ("es", "Uso:", "Error:")])
def test_clicks_own_messages_speak_each_language(pasur, code, usage, error):
    for args in (["chek"], ["check"], ["check", "5S", "--tabel", "AC"], ["undo", "x"], ["check", "5S", "--table"]):
        result = pasur("--lang", code, *args)
        assert result.exit_code == 2
        assert result.output.startswith((usage, error)) and f"{error} " in result.output, result.output
        assert_no_english(result.output.replace("'chek'", "").replace("'--tabel'", "").replace("'x'", ""), code)


def test_score_table_headers(pasur):
    pasur("new", "Ali", "Sara")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    output = plain(pasur("--lang", "de", "score").output)
    assert "Seite" in output and "Kreuz-Pkt." in output and "Geber" in output


# -- Persian digits in, isolates out --------------------------------------------------------
def test_persian_and_arabic_digits_are_read(pasur):
    assert pasur("check", "۱۰♦", "--table", "١C 5H").output == pasur("check", "10D", "--table", "AC 5H").output
    pasur("new", "Ali", "Sara", "Reza", "Mina")
    result = pasur("tally", "--count", "Ali: clubs=۸ aces=٢ jacks=۱ two_clubs=yes",
                   "--count", "Sara: clubs=۵ aces=2 jacks=3 ten_diamonds=yes", "--surs", "Reza=۱")
    assert result.exit_code == 0, result.output
    assert pasur("--match", "۱", "undo", "۱").exit_code == 0
    assert pasur("check", "5C", "--table", "6D", "--rule", "sur_points=۱۰").exit_code == 0


@given(st.integers(0, 10**9))
def test_digits_map_one_to_one(n):
    persian = str(n).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    arabic = str(n).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    assert reading.ascii_digits(persian) == reading.ascii_digits(arabic) == str(n)


@given(st.text(max_size=8), st.integers(1, 6))
def test_a_typed_number_is_read_as_int_reads_it_or_not_at_all(text, digits):
    """One reading of a typed number (tally's counts and surs, the session's undo N and capture
    answers): click's int options read the same digits, so every place agrees."""
    number = reading.whole_number(text, digits)
    stripped = text.strip()
    if stripped.isdecimal() and len(stripped) <= digits:
        assert number == int(stripped) >= 0
    else:
        assert number is None


@pytest.mark.parametrize("typed,value", [("۱۲", 12), ("٨", 8), (" 7 ", 7), ("007", 7)])
def test_persian_and_arabic_numbers_are_read(typed, value):
    assert reading.whole_number(typed) == value
    assert all(reading.whole_number(bad) is None for bad in ("²", "-1", "1.5", "1e3", "", "1234", "٨٨٨٨"))


def test_persian_isolates_every_fact_and_nothing_else(pasur):
    output = pasur("--lang", "fa", "check", "5S", "--table", "AC 2D 4H 5C", "--rules", "pagat").output
    first = output.splitlines()[0]
    assert first.startswith(f"{FSI}5♠{PDI} ") and f"{FSI}A♣ 2♦ 4♥ 5♣{PDI}" in first and f"{FSI}pagat{PDI}" in first
    assert first.count(FSI) == first.count(PDI) == 3
    for code in ("de", "es", "en"):
        assert FSI not in pasur("--lang", code, "check", "5S", "--table", "AC").output


def test_persian_tables_run_left_to_right_cell_by_cell(pasur):
    lines = pasur("--lang", "fa", "rules").output.splitlines()
    assert all(line.startswith(LRM) for line in lines)
    assert lines[0].split()[0] == f"{LRM}{FSI}گزینه{PDI}"
    header, rule, row = (plain(line) for line in lines[:3])  # the marks take no columns: the grid holds
    assert header.index("standard") == row.index("standard") == rule.index(" -") + 1


def test_persian_stats_tables_run_left_to_right_cell_by_cell(pasur):
    pasur("new", "Ali", "Sara", "--rule", "target=20")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", "Sara=1")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count", "Sara: clubs=5")
    output = pasur("--lang", "fa", "stats").output
    first, _blank, *lines = output.splitlines()
    assert first.count(FSI) == first.count(PDI) == 2  # Matches: {finished} finished, {playing} still playing
    grid = lines[:lines.index("")]
    assert grid and all(line.startswith(LRM) for line in grid)
    for name in ("Ali", "Sara"):
        cells = next(line for line in grid if name in line)[1:].split()
        assert len(cells) == 11 and all(c.startswith(FSI) and c.endswith(PDI) for c in cells), cells


def test_a_refusal_is_translated_from_its_template_and_facts():
    from pasur_cli.engine.cards import parse_card
    from pasur_cli.engine.errors import IllegalPlayError, NotationError
    from pasur_cli.text.render import Look, message
    err = IllegalPlayError("it is {player}'s turn, not {by}'s.", player="Ali", by="Sara")
    assert message(err, Look()) == str(err) == "it is Ali's turn, not Sara's."
    i18n.set_language("fa")
    template = "{token!r} needs a suit: which one? {cards}"  # a message of the engine's, a card list as a fact
    err = NotationError(template, token="7", cards=[parse_card("7C"), parse_card("7H")])
    translated = i18n._(template)
    assert translated != template
    expected = translated.replace("{token!r}", f"{FSI}'7'{PDI}").replace("{cards}", f"{FSI}7C 7H{PDI}")
    assert message(err, Look.detect(ascii=True)) == expected


def test_json_stays_english(pasur):
    args = ["check", "7D", "--table", "5C 4H", "--take", "5C", "--json"]
    assert pasur("--lang", "fa", *args).output == pasur(*args).output
    assert '"reason": "7D + 5C = 12, not 11."' in pasur("--lang", "de", *args).output


MATCH = [
    ["new", "Ali", "Sara", "--rules", "pagat"], ["deal", "JC", "9D", "3H", "KS"], ["deal", "5C", "9D", "3H", "KS"],
    ["play", "2S"], ["play", "6H"], ["play", "5S"], ["play", "3C"], ["play", "KH"], ["play", "AC"], ["play", "JD"],
    ["play", "9D"], ["play", "4D", "--by", "Sara"], ["play", "4D"], ["play", "3S"], ["play", "AH"], ["play", "7C"],
    ["play", "7C", "--take", "4D"], ["show"], ["undo"], ["score"], ["matches"],
    ["new", "Ali", "Sara", "Reza", "Mina"],
    ["tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count", "Sara: clubs=4"],
    ["tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
     "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", "Reza=1"],
    ["score"], ["show"], ["log", "--match", "1"], ["stats"], ["matches"], ["score", "--match", "1"],
    # refusals
    ["play", "QS", "--by", "Ali"], ["undo", "99"], ["check", "5S", "--table", "AC AC"], ["deal", "2C"],
    ["--match", "7", "show"], ["stats", "--player", "Zohreh"],
]

SESSION = "\n".join([
    "5c 9d 3h ks", "2s", "6h", "5s", "3c", "kh", "ac", "jd", "9d", "4d", "4d", "3s", "ah", "7c", "2",  # a choice
    "help", "show", "score", "undo", "matches", "zz", "undo x", "2s 3s", "tally",
])


@pytest.mark.parametrize("code", OTHERS)
def test_a_match_and_a_tally_speak_each_language(pasur, code):
    for args in MATCH:
        assert_no_english(pasur("--lang", code, *args).output, code)


@pytest.mark.parametrize("bad", ["²", "①", "3²"])
def test_digits_int_cannot_read_are_refused_not_a_traceback(pasur, bad):
    """A superscript or circled digit is no number: the refusal names what was typed, and nothing is scored."""
    pasur("new", "Ali", "Sara")
    count = pasur("tally", "--count", f"Ali: clubs={bad}", "--count", "Sara: clubs=5")
    assert (count.exit_code, count.output) == (2, f"Error: 'clubs={bad}': clubs is a whole number.\n")
    surs = pasur("tally", "--count", "Ali: clubs=8", "--count", "Sara: clubs=5", "--surs", f"Ali={bad}")
    assert surs.exit_code == 2 and f"{bad}" in surs.output and "Error: " in surs.output, surs.output
    assert '"length": 0' in pasur("show", "--json").output


@pytest.mark.parametrize("code", OTHERS)
def test_a_session_speaks_each_language(pasur, code):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("--lang", code, "session", input=SESSION + "\n")
    assert result.exit_code == 0, result.output
    english = pasur("session", input="show\n").output
    assert result.output.splitlines()[0] != english.splitlines()[0]
    assert_no_english(result.output, code)


def test_a_quoted_fact_is_quoted_then_isolated(pasur):
    """{text!r} in Persian: the typed text in quotes, inside one isolate (not the repr of the marks)."""
    line = pasur("--lang", "fa", "check", "zz", "--table", "AC").output
    assert f"{FSI}'zz'{PDI}" in line and "\\u2068" not in line
    assert "'zz'" in pasur("--lang", "de", "check", "zz", "--table", "AC").output


def test_every_error_class_is_extracted():
    """The templates of every PasurError subclass are messages: the extractor knows each class by
    name (the store's PathError, BusyError, DamagedError and StaleError were once left out, and
    their refusals stayed English in every language)."""
    import importlib
    import pkgutil

    import pasur_cli
    from pasur_cli.engine.errors import PasurError
    for module in pkgutil.walk_packages(pasur_cli.__path__, "pasur_cli."):
        if module.name != "pasur_cli.__main__":
            importlib.import_module(module.name)
    classes, todo = set(), [PasurError]
    while todo:
        cls = todo.pop()
        classes.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    assert classes <= set(i18n_tools.ERRORS)


STORE_REFUSALS = [
    ["--db", "", "show"], ["--db", ":memory:", "show"], ["--db", "a\x00b", "show"],
    ["play", "2S", "--expect", "99"], ["import", "p\x00.json"], ["export", "-o", "x\x00y"],
]


@pytest.mark.parametrize("code", OTHERS)
def test_store_refusals_speak_each_language(pasur, db, code):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    for args in STORE_REFUSALS:
        english, result = pasur(*args), pasur("--lang", code, *args)
        assert result.exit_code == english.exit_code != 0
        assert result.output != english.output
        assert_no_english(result.output, code)
    import json
    import sqlite3
    for line, why in [("play\tSara\tZZ", "is not a line pasur writes"),  # no card
                      ("play\tSara\t9D\t", "(play Sara 9D ) cannot be replayed")]:  # the engine refuses it
        con = sqlite3.connect(db)
        con.execute("UPDATE actions SET action = ? WHERE seq = 2", (line,))
        con.commit()
        con.close()
        english, result = pasur("show"), pasur("--lang", code, "show")
        assert result.exit_code == english.exit_code == 1 and f"match 1 is damaged: action 2 {why}" in english.output
        assert_no_english(result.output, code)
        listed = pasur("--lang", code, "matches").output
        assert "1" in listed and pasur("matches").output != listed
        assert_no_english(listed, code)
        assert json.loads(pasur("--lang", code, "matches", "--json").output)[0]["damaged"].startswith(
            f"action 2 {why}")  # JSON stays English


NAME_REFUSALS = [("Ali\u200f", "U+200F"), ("Ali\x07", "U+0007"), ("Al\u2028i", "U+2028"), ("Ali\u200b", "U+200B"),
                 ("A\u202eli", "U+202E")]


@pytest.mark.parametrize("code", OTHERS)
def test_name_refusals_speak_each_language(pasur, db, code):
    """A refused name names the code point and its kind in the reader's language (never Unicode's
    English name for the character), and nothing is stored."""
    import unicodedata
    for name, point in NAME_REFUSALS:
        result = pasur("--lang", code, "new", name, "Sara")
        assert result.exit_code == 1, result.output
        assert (f"{FSI}{point}{PDI}" if code == "fa" else point) in result.output
        assert unicodedata.name(chr(int(point[2:], 16)), "\0").lower() not in result.output.lower()
        assert_no_english(result.output, code)
        what = pasur("new", name, "Sara").output.split("(")[1].split(")")[0]  # the English kind
        assert what not in result.output
    assert not db.exists()


@pytest.mark.parametrize("code", ["en", "de", "es"])
def test_a_persian_name_is_isolated_in_a_left_to_right_language(pasur, code):
    """In a terminal that applies bidi, "Surs: مهرانگیز 3, بهرام 1" would show as "Surs: 1 بهرام ,3
    مهرانگیز": a fact holding right-to-left letters is an isolate in every language; Latin ones
    stay as they are."""
    assert pasur("new", "مهرانگیز", "Sara").exit_code == 0
    pasur("deal", "5C", "9D", "3H", "KS")
    output = pasur("--lang", code, "show").output
    assert f"{FSI}مهرانگیز{PDI}" in output or f"{FSI}مهرانگیز " in output, output
    assert f"{FSI}Sara{PDI}" not in output
    assert i18n.has_rtl("بهرام") and i18n.has_rtl("שלום") and not i18n.has_rtl("Begoña 10♦ ·–")


def test_lists_are_separated_as_each_language_writes_them(pasur):
    pasur("new", "Ali", "Sara")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    persian = plain(pasur("--lang", "fa", "log").output)
    assert "Ali 12، Sara 8" in persian and "Ali 12, Sara 8" not in persian
    assert "Ali 12, Sara 8" in pasur("--lang", "es", "log").output
