"""Text read from the database (names, dates, anything a hand edit can change) reaches the terminal
only through the escaping `log` gives its facts: no control, bidi or other format character of a
stored name is ever written as it is, by any command or the session."""

import random
import unicodedata

import pytest
from matchbook import stored_match
from tier import some

from pasur_cli.engine.rules import parse_rules

# what a hand edit can put in a name: C0 and C1 controls, ESC sequences, bidi overrides and
# isolates, marks and other format characters (the joiners of Persian spelling are allowed)
HOSTILE = ["\x1b", "\x1b[2J", "\x1b]0;x\x07", "\x07", "\x08", "\x7f", "\x9b", "\x85", "\u202e", "\u202d", "\u2066",
           "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c", "\ufeff", "\u2028", "\x00"]
LETTERS = ["a", "Z", "é", "Ö", "ß", "\u0131", "李", "明", "س", "\u0627", "ر", " ", "-", "\u200c"]
# characters pasur itself writes around facts: isolates in a right-to-left language or around
# right-to-left text, a left-to-right mark before each table line in Persian
OWN = {"\u2068", "\u2069", "\u200e"}
READERS = [["show"], ["score"], ["score", "--chart"], ["stats"], ["matches"], ["log"], ["undo", "--expect", "0"]]


def raw_controls(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on, but for line breaks and pasur's own
    isolates, which must pair up on every line."""
    found = [hex(ord(ch)) for ch in text if ch != "\n" and ch not in OWN and ch not in "\u200c\u200d"
             and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    for line in text.split("\n"):
        depth = 0
        for ch in line:
            depth += (ch == "\u2068") - (ch == "\u2069")
            if depth < 0:
                found.append("a PDI closing no isolate")
        if depth:
            found.append("an isolate left open")
    return found


def hostile_name(rng: random.Random, seat: int) -> str:
    parts = [rng.choice(LETTERS) for _ in range(rng.randint(1, 6))] + [rng.choice(HOSTILE) for _ in range(rng.randint(1, 3))]
    rng.shuffle(parts)
    return f"P{seat}" + "".join(parts)  # distinct whatever was drawn


def stored(db, players: list[str], seed: int) -> None:
    """A match with these names as a hand edit could leave it: a finished deal, three plays of the
    next, stored with plain names (the library refuses these), which the edit then replaces in the
    players and the log (the snapshots, which name the sides too, deleted: the log is replayed)."""
    import json
    import sqlite3
    plain = [f"Q{seat}" for seat in range(1, len(players) + 1)]
    stored_match(db, plain, parse_rules("standard", []), seed, deals=1, plays=3)
    edit = sqlite3.connect(db)
    with edit:
        edit.execute("UPDATE matches SET players = ?", ("\n".join(players),))
        for (seq, line) in edit.execute("SELECT seq, action FROM actions").fetchall():
            for old, new in zip(plain, players, strict=True):
                line = line.replace(old, json.dumps(new, ensure_ascii=False)[1:-1] if line.startswith("tally") else new)
            edit.execute("UPDATE actions SET action = ? WHERE seq = ?", (line, seq))
        edit.execute("DELETE FROM snapshots")
    edit.close()


@pytest.mark.parametrize("seed", some(range(6), 2))
def test_hostile_stored_names_are_escaped_by_every_command(pasur, db, seed):
    rng = random.Random(seed)
    count = rng.choice([2, 3, 4])
    stored(db, [hostile_name(rng, seat) for seat in range(1, count + 1)], seed)
    for args in READERS:
        result = pasur(*args, "--match", "1") if args[0] not in ("stats", "matches") else pasur(*args)
        assert not raw_controls(result.output), (args, raw_controls(result.output), result.output)
        assert "\\" in result.output or args[0] in ("undo",), (args, result.output)  # the escapes are shown
    session = pasur("session", input="show\nscore\nmatches\nundo\nquit\n")
    assert not raw_controls(session.output), raw_controls(session.output)


def test_escape_bell_c1_and_bidi_override_in_a_name(pasur, db):
    """The issue's example: ESC, BEL, a C1 control and a bidi override in a hand-edited name."""
    stored(db, ["Ali\x1b[31m\x07", "Sa\u202era\x9b"], 5)
    for args in READERS[:-1]:
        out = pasur(*args).output
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out, (args, out)
    assert "Ali\\x1b[31m\\x07" in pasur("show").output
    assert "Sa\\u202era\\x9b" in pasur("score").output


def test_escaped_names_keep_persian_isolates(pasur, db, monkeypatch):
    """In Persian every fact is an isolate; a hostile name is escaped inside its own isolate."""
    monkeypatch.setenv("PASUR_LANG", "fa")
    from pasur_cli.text import i18n
    i18n.set_language("fa")
    stored(db, ["علی\u202e", "سارا"], 7)
    for args in READERS[:-1]:
        out = pasur(*args).output
        assert not raw_controls(out), (args, raw_controls(out))
        assert "علی\\u202e" in out or (args == ["score", "--chart"] and "\\u202e" in out), (args, out)
