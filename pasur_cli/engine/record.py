"""The match record: a self-describing JSON document that exports a match and imports it back.

    {"format": "pasur-match", "version": 1, "players": [...], "dealer": "Ali",
     "rules": {every option}, "created": "...", "actions": [{"at": "...", "action": {...}}, ...]}

``read_record`` trusts nothing in the document. It bounds its size and nesting before parsing
(so a hostile file gets a sentence, never a RecursionError), refuses NaN, Infinity, fractions
and huge numbers, checks every field's type and value and names unknown fields, then replays
every action through the engine. Each action is read once, by the engine's one reader
(``action.read_action``). What it returns, and what the store keeps, is the *canonical* form of
each action (the capture actually made, the player whose turn it was), never the raw input, and
that form is replayed again to be sure it reads back the same.

``dump_record`` writes the document as `pasur export` does, one action a line. A match holds at
most ACTIONS_MOST actions (the store records no more), so the largest export is bounded, and
that bound, in whole MiB, is MAX_BYTES: what an import reads at most. Any match pasur holds is
imported back.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

from pasur_cli.engine.action import Action, read_action, read_line
from pasur_cli.engine.arguments import check_type, wrong_type
from pasur_cli.engine.errors import IllegalPlayError, NotationError, PasurError, Plural, Words, shorten
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import ACTIONS_MOST, NAME_TEXT_MOST, check_players, find_name
from pasur_cli.engine.rules import BOOLS, CHOICES, OPTION_NAMES, OPTIONAL_INTS, Rules

FORMAT, VERSION = "pasur-match", 1
MAX_ACTIONS = ACTIONS_MOST   # the most a match holds: any match pasur holds can be imported back
ENTRY_MOST = 2048            # bytes of an action's line as dump_record writes it, whatever its names and time
HEAD_MOST = 4096             # bytes of the lines around the actions (players, rules, created; the ends)
# what an import reads, at most: the export of the largest match pasur holds, in whole MiB (40)
MAX_BYTES = -(-(HEAD_MOST + MAX_ACTIONS * ENTRY_MOST) // 2**20) * 2**20
MAX_DEPTH = 8                # the deepest valid record nests 6 levels (tally counts)
MAX_NAME = NAME_TEXT_MOST    # characters in a player's name as written, before NFC (the engine's bound)
MAX_TIME = 64                # characters in an "at" or "created" time
MAX_NUMBER = 10**6           # no number in a record is larger
MAX_DIGITS = 7

TOP_FIELDS = ("format", "version", "players", "dealer", "rules", "created", "actions")


class CheckedRecord(NamedTuple):
    """A record that passed every check: its players, rules, dealer seat, canonical actions, their
    times, the match they replay to, the fingerprint of its content, when the match was
    created (None when the record does not say) and the actions' lines."""

    players: list[str]
    rules: Rules
    dealer: int
    actions: list[Action]
    times: list[str]
    match: Match
    fingerprint: str
    created: str | None = None
    texts: list[str] | None = None  # each action's line (``Action.line``), checked to read back as the action


@runtime_checkable
class Recorded(Protocol):
    """What ``write_record`` reads of a stored match (the store's MatchRecord is one)."""

    players: list[str]
    dealer: int
    rules: Rules
    created: str
    times: Sequence[str]
    actions: list[Action]


def write_record(record: Any) -> dict[str, Any]:
    """The export document of a stored MatchRecord. Raises NotationError for anything else."""
    if not isinstance(record, Recorded) or not isinstance(record.rules, Rules) or not isinstance(
            record.players, list | tuple) or record.dealer.__class__ is not int or not 0 <= record.dealer < len(
            record.players) or len(record.times) != len(record.actions):
        raise wrong_type("record", record, Recorded)
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": record.players,
        "dealer": record.players[record.dealer],
        "rules": record.rules.as_dict(),
        "created": record.created,
        "actions": [{"at": at, "action": action.as_dict()}
                    for at, action in zip(record.times, record.actions, strict=True)],
    }


_WRITE_TEXT = json.JSONEncoder(ensure_ascii=False).encode  # one value as json.dumps(..., ensure_ascii=False) writes it


def dump_record(record: Any) -> str:
    """The text `pasur export` writes for a stored MatchRecord: ``write_record``'s document as JSON
    with each field of its head on a line and each action on a line of its own (a record of many
    actions kept near the size of JSON without spaces, yet read and compared line by line), ending
    in a newline. ``read_record`` reads it as it reads any JSON; an action's line takes at most
    ENTRY_MOST bytes, whatever its names and time."""
    doc = write_record(record)
    entries = doc.pop("actions")
    head = "".join(f"  {_WRITE_TEXT(key)}: {_WRITE_TEXT(value)},\n" for key, value in doc.items())
    lines = ",\n".join(f"    {_WRITE_TEXT(entry)}" for entry in entries)
    return "{\n" + head + '  "actions": [' + (f"\n{lines}\n  " if lines else "") + "]\n}\n"


# -- parsing safely -----------------------------------------------------------------------
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before json.loads could recurse into it."""
    depth = 0
    for m in _TOKENS.finditer(text):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise too_deep()
        elif token in "]}":
            depth -= 1


def _no_constant(name: str) -> Any:
    raise NotationError("the record holds {value}, which is no number a match record has.", value=name)


def _no_float(text: str) -> Any:
    raise NotationError("the record holds the number {value}; every number in a match record is whole.",
                        value=text[:20])


_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")  # each digit the same digit (the rest left as it is)
_LONG_RUN = b"0" * (MAX_DIGITS + 1)  # and a run of digits too long for a number among them


def has_long_number(data: bytes) -> bool:
    """Whether the UTF-8 ``data`` of a text holds a run of more than MAX_DIGITS digits 0-9 (the only
    digits of a JSON number), looked for in its bytes made alike (one scan in C, where a pattern
    would try every position). Any other byte is left as it is: a run of
    zeros is one of digits, and a byte of a longer character is never an ASCII digit."""
    return _LONG_RUN in data.translate(_DIGITS)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise NotationError(Plural("the record holds a number of {digits} digit; no number in a match record is"
                                   " that large.", "the record holds a number of {digits} digits; no number in a"
                                   " match record is that large.", "digits"), digits=len(text.lstrip("-")))
    return int(text)


def load_json(text: str) -> Any:
    """The JSON document in ``text``, bounded in size, depth and numbers. Raises NotationError."""
    if len(text) > MAX_BYTES:
        raise NotationError("the record is larger than {most} MB; it is not a pasur match record.",
                            most=MAX_BYTES // 2**20)
    data = text.encode("utf-8", "surrogatepass")  # what both checks of the text read, made once
    try:  # parsed first (the C parser stops itself at Python's recursion limit), its depth checked after
        # a number of more than MAX_DIGITS digits is refused as it is read; with no such run of digits
        # anywhere in the text there is none, and each number is read by json's own int
        long = has_long_number(data)
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_no_float, parse_int=_int if long else None)
    except RecursionError:
        _check_depth(text)  # says how deep a record may nest
        raise NotationError("the record nests too deeply; it is not a pasur match record.") from None
    except json.JSONDecodeError as err:  # its text is Python's, in English: only where it went wrong is said
        _check_depth(text)  # too deep is said first, as before the document is read
        if not text.strip():
            raise NotationError("the record is empty.") from None
        raise NotationError("the record is not JSON (line {line}, column {column}).", line=err.lineno,
                            column=err.colno) from None
    except NotationError:
        _check_depth(text)
        raise
    if nests_deeper(data, MAX_DEPTH):  # in the text: a value json dropped (a key given twice) is measured too
        raise too_deep()
    return doc


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b'"[]{}')  # every byte but a quote or a bracket


def nests_deeper(data: bytes, most: int) -> bool:
    """Whether the JSON document whose UTF-8 is ``data`` (one json.loads read) nests deeper than
    ``most`` levels, as ``_check_depth`` counts them: its escaped backslashes and quotes dropped, every byte but
    quotes and brackets deleted, the strings' contents cut out, then the innermost pairs of
    brackets removed one level at a time. Each step is a scan in C rather than a pattern or a
    parser's hook run in Python."""
    if b"\\" in data:  # a string's escapes are pairs, a run of backslashes paired from its left
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    # two quotes in a row are an empty string, or one string's end and the next one's start:
    # without them the quotes left still open and close strings in turn
    data = data.translate(None, _NOT_BRACKETS).replace(b'""', b"")
    if b'"' in data:  # strings that hold brackets: their contents cut out
        data = b"".join(data.split(b'"')[::2])
    for _ in range(most):
        if not data:
            break
        data = data.replace(b"[]", b"\0").replace(b"{}", b"\0").replace(b"\0", b"")  # one level, innermost
    return bool(data)


def too_deep() -> NotationError:
    return NotationError(Plural("the record nests deeper than a match record can ({most} level); it is not a"
                                " pasur match record.", "the record nests deeper than a match record can ({most}"
                                " levels); it is not a pasur match record.", "most"), most=MAX_DEPTH)


# -- checking each field ------------------------------------------------------------------
def _bad(where: object, what: object, value: object) -> NotationError:
    shown = shorten(json.dumps(value, ensure_ascii=True), 60)
    return NotationError("{where} must be {what}, not {value}.", where=where, what=what, value=shown)


def _text(value: object, where: object, most: int) -> str:
    if not isinstance(value, str):
        raise _bad(where, Words("text"), value)
    if len(value) > most:
        raise NotationError(Plural("{where} is longer than {most} character.", "{where} is longer than {most}"
                                   " characters.", "most"), where=where, most=most)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        lone = next(c for c in value if "\ud800" <= c <= "\udfff")
        code = f"U+{ord(lone):04X}"
        raise NotationError("{where} holds a lone surrogate ({code}), which is not text.",
                            where=where, code=code) from None
    return value


def _plain(value: object, where: object, most: int) -> str:
    """Text without control characters (a time)."""
    text = _text(value, where, most)
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text):
        raise _bad(where, Words("text without control characters"), value)
    return text


def _whole(value: object, where: object, least: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(where, Words("a whole number"), value)
    if not least <= value <= most:
        raise NotationError("{where} is {value}; it must be between {least} and {most}.",
                            where=where, value=value, least=least, most=most)
    return value


def _flag(value: object, where: object) -> bool:
    if not isinstance(value, bool):
        raise _bad(where, Words("true or false"), value)
    return value


def _object(value: object, where: object, fields: tuple[str, ...], required: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(where, Words("an object"), value)
    unknown = [k for k in value if k not in fields]
    if unknown:
        raise NotationError("{where} has unknown fields: {fields}.", where=where,
                            fields=", ".join(json.dumps(k, ensure_ascii=True)[:40] for k in unknown[:5]))
    missing = [k for k in required if k not in value]
    if missing:
        raise NotationError("{where} lacks {fields}.", where=where, fields=", ".join(missing))
    return value


def _list(value: object, where: object, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise _bad(where, Words("a list"), value)
    if len(value) > most:
        raise NotationError(Plural("{where} holds more than {most} item.", "{where} holds more than {most} items.",
                                   "most"), where=where, most=most)
    return value


def _entries(value: object) -> list[Any]:
    """The record's "actions": a list of at most MAX_ACTIONS, the most a match holds. Raises NotationError."""
    if isinstance(value, list) and len(value) > MAX_ACTIONS:
        raise NotationError(Plural("the record holds {count} action, and a match holds at most {most}; it was not"
                                   " imported.",
                                   "the record holds {count} actions, and a match holds at most {most}; it was not"
                                   " imported.", "count"), count=len(value), most=MAX_ACTIONS)
    return _list(value, Words('the record\'s "actions"'), MAX_ACTIONS)


def _rules(value: object) -> Rules:
    doc = _object(value, Words('the record\'s "rules"'), OPTION_NAMES)
    for name, v in doc.items():
        where = Words("the rule {name}", name=name)
        if name in BOOLS:
            _flag(v, where)
        elif name in CHOICES:
            if v not in CHOICES[name]:
                raise _bad(where, Words("one of {choices}", choices=", ".join(CHOICES[name])), v)
        elif not (v is None and name in OPTIONAL_INTS):
            _whole(v, where, 0, MAX_NUMBER)
    return Rules(**doc)  # each value checked once more by Rules, as every rule set is (its bounds)


def fingerprint(players: list[str], dealer: int, rules: Rules, actions: list[Action]) -> str:
    """A hash of what a record means (players, first dealer, rules, canonical actions; not times)."""
    return _fingerprint(players, dealer, rules, [a.line for a in actions])


def _fingerprint(players: list[str], dealer: int, rules: Rules, texts: list[str]) -> str:
    """``fingerprint`` of the actions' lines: the hash of
    ``json.dumps([players, dealer, rules.as_dict(), texts], ensure_ascii=False, sort_keys=True)``,
    that text hashed in its parts as UTF-8, each distinct line written and encoded once (a record of
    tallies repeats a few lines) and the lines joined once."""
    head = json.dumps([players, dealer, rules.as_dict()], ensure_ascii=False, sort_keys=True)
    written: dict[str, bytes] = {}
    lines = [written.get(text) or written.setdefault(text, _WRITE_TEXT(text).encode("utf-8")) for text in texts]
    content = hashlib.sha256((head[:-1] + ", [").encode("utf-8"))  # the text in its parts, never put together
    content.update(b", ".join(lines))
    content.update(b"]]")
    return content.hexdigest()[:32]


def read_record(text: str) -> CheckedRecord:
    """Parse, check and replay a record. Raises NotationError for a malformed document,
    IllegalPlayError for one that breaks a rule."""
    check_type("text", text, str)
    return _read(load_json(text))


def _head(doc: Any) -> tuple[list[str], Rules, int, str | None, list[Any]]:
    """The record's players (as stored), rules, first dealer's seat, creation time (None: not
    said) and its list of actions, each field checked. Raises NotationError or IllegalPlayError."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise NotationError("this is not a pasur match record (its \"format\" is not {format}).", format=repr(FORMAT))
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise NotationError("record version {version} is not one this pasur reads ({known}).",
                            version=json.dumps(doc.get("version"))[:20], known=VERSION)
    _object(doc, Words("the record"), TOP_FIELDS, ("players", "rules", "actions"))
    names = _list(doc["players"], Words('the record\'s "players"'), 4)
    players = [_text(p, Words("player {number}", number=i), MAX_NAME) for i, p in enumerate(names, 1)]
    dealer_name = doc.get("dealer")
    if dealer_name is not None:
        _text(dealer_name, Words("the dealer"), MAX_NAME)
    players = check_players(players, dealer_name)  # the names as stored (NFC)
    rules = _rules(doc["rules"])
    created = _plain(doc.get("created", ""), Words("the record's \"created\""), MAX_TIME) or None
    seat = players.index(find_name(players, dealer_name) or players[0]) if dealer_name else 0  # checked above
    return players, rules, seat, created, _entries(doc["actions"])


def _entry(entry: object, number: int) -> tuple[str, Action]:
    """Action ``number`` of the record: its time and the action it holds, read once
    (``read_action``, every field a record writes). Raises NotationError naming the action."""
    if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict):
        raise NotationError("action {number} of the record is malformed: {entry}", number=number,
                            entry=json.dumps(entry, ensure_ascii=True)[:80])
    _object(entry, Words("action {number} of the record", number=number), ("at", "action"))
    at = _plain(entry.get("at", ""), Words("the time of action {number}", number=number), MAX_TIME)
    try:
        return at, read_action(entry["action"], complete=True)
    except NotationError as err:
        raise NotationError("action {number} of the record is refused: {reason}", number=number,
                            reason=err) from None


def _replayed(match: Match, action: Action, number: int) -> Action:
    """Apply action ``number`` to ``match``; return its canonical form. Raises IllegalPlayError
    naming the action and the rule it breaks."""
    try:
        match.apply(action)
    except PasurError as err:
        raise IllegalPlayError("the record breaks a rule: action {number} cannot be replayed: {reason}",
                               number=number, reason=err) from None
    done = match.last_action  # the canonical form: what replayed, not the input
    assert done is not None
    return done


def _lines(actions: list[Action]) -> list[str]:
    """Each action's stored line, checked to read back as the action. Raises NotationError."""
    texts = []
    for number, action in enumerate(actions, 1):
        text = action.line
        if read_line(text) != action:
            raise NotationError("action {number} cannot be stored as it reads back differently.", number=number)
        texts.append(text)
    return texts


def _read(doc: Any) -> CheckedRecord:
    """``read_record`` of the document as json parses it, which it takes: each action is let go of
    as it is read, so that a long record is never held twice. Raises what ``read_record`` raises."""
    players, rules, seat, created, entries = _head(doc)
    match = Match(players, rules, seat)
    actions: list[Action] = []
    times: list[str] = []
    canonical = True  # whether each action was read in its canonical form
    for number, entry in enumerate(entries, 1):
        at, action = _entry(entry, number)
        entries[number - 1] = None  # the document's copy let go as it is read
        done = _replayed(match, action, number)
        canonical = canonical and done == action
        actions.append(done)
        times.append(at)
    if not canonical:  # the canonical form must replay to the same match
        again = Match.replay(players, rules, seat, actions)
        if again.results != match.results or again.totals != match.totals:
            raise IllegalPlayError("the record replays differently from its own canonical form; it was not"
                                   " imported.")
    texts = _lines(actions)
    return CheckedRecord(players, rules, seat, actions, times, match, _fingerprint(players, seat, rules, texts),
                         created, texts)
