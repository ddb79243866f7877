"""Players' names and the sides they make: how a name is checked, stored and compared.

A name is stored as typed (NFC, surrounding spaces removed) once ``check_name`` accepts it, and
compared only through ``name_key`` (any case, accents, Arabic or Persian yeh and kaf, with or
without the zero-width non-joiner). A side is a player, or in a four-player team match the two
partners joined by " & ".
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pasur_cli.engine.errors import IllegalPlayError, Plural, Words
from pasur_cli.engine.reading import PERSIAN_LETTERS

# -- the one table of limits: what a name, an action and a match may hold. The engine checks them
# where its values are made (``check_players``, ``action.read_action``), and the store and the
# record reader call those, so a value one of them accepts is one every other accepts.
NAME_MOST = 40          # characters in a player's name, as stored (NFC, surrounding spaces removed)
NAME_TEXT_MOST = 4 * NAME_MOST  # characters of a name as given, before NFC (a decomposed accent is two)
SIDE_TEXT_MOST = 2 * NAME_TEXT_MOST + 3  # a team's side: two names joined by " & "
TABLE_CARDS = 4         # cards on the initial table
TAKE_MOST = 48          # cards a capture can name (the table can never hold more)
PILE_MOST = 52          # cards in one side's pile
SIDES_MOST = 4          # sides a tally names
SURS_MOST = 48          # surs one side can hold at the end of a deal (at most one a play)
COUNT_KEYS = ("clubs", "aces", "jacks", "two_clubs", "ten_diamonds", "seven_diamonds")
COUNT_MOST = {"clubs": 13, "aces": 4, "jacks": 4}  # the cards of each count there are
# actions one match holds (about 400 deals played card by card, or 20,000 tallied deals): the store
# records no more, and so an import reads no more, and the bytes it reads follow (engine.record)
ACTIONS_MOST = 20_000
TABLE_NAME_MOST = 20    # characters in the name or number of the table a match is played at (``new --table``)


__all__ = [
    "ACTIONS_MOST",
    "COUNT_KEYS",
    "COUNT_MOST",
    "JOINERS",
    "NAME_MOST",
    "NAME_TEXT_MOST",
    "PILE_MOST",
    "SIDES_MOST",
    "SIDE_TEXT_MOST",
    "SURS_MOST",
    "TABLE_CARDS",
    "TABLE_NAME_MOST",
    "TAKE_MOST",
    "check_name",
    "check_name_length",
    "check_players",
    "check_table_name",
    "find_name",
    "name_key",
    "side_names",
    "sides_of",
]


def side_names(players: list[str], teams: bool) -> list[str]:
    """The side of each seat: a team is its two names joined by " & " in seat order."""
    if len(players) == 4 and teams:
        pairs = [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
        return [pairs[i % 2] for i in range(4)]
    return list(players)


def sides_of(players: list[str], teams: bool) -> list[str]:
    """The match's sides, each once, in seat order (a team by its first seat)."""
    return list(dict.fromkeys(side_names(players, teams)))


_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # letters and symbols drawn as nothing
JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner: how Persian words are spelt
_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_IGNORED = JOINERS | {" ", "\u00a0"}  # in name_key: a space is read as the non-joiner a Persian keyboard left out


def _refused_kind(ch: str) -> Words | None:
    """What kind of character ``ch`` is, as a name refuses it (None: a name may hold it)."""
    import unicodedata
    if ch in JOINERS:
        return None
    kind = unicodedata.category(ch)
    if ch in _LINE_BREAKS or kind in ("Zl", "Zp"):
        return Words("a line break")
    if kind == "Cc":
        return Words("a control character")
    if ch in _DIRECTION:
        return Words("a text direction mark")
    if kind == "Cf":
        return Words("a format character")
    if kind == "Cs":
        return Words("a lone surrogate")
    return None


def check_name(name: object, seat: int) -> str:
    """The name of the player in ``seat`` (1-based) as it is stored: NFC, surrounding spaces
    removed. Raises IllegalPlayError for a name that could corrupt or spoof the screen or the
    record (issue 9): not text, empty, longer than NAME_MOST, holding a control or format character
    (tabs, newlines, C1 controls, bidi marks and overrides, zero-width spaces; the code point and
    its kind are named), a lone surrogate, '&', or only invisible characters. The zero-width
    non-joiner and joiner (U+200C, U+200D) are letters of Persian spelling and are kept.

    >>> name = "\u0645\u0647\u0631\u200c\u0627\u0646\u06af\u06cc\u0632"  # Mehr-angiz, with a non-joiner
    >>> check_name(f" {name} ", 1) == name
    True
    """
    import unicodedata
    if not isinstance(name, str):
        raise IllegalPlayError("player {seat}'s name is not text.", seat=seat)
    for ch in name:
        what = _refused_kind(ch)
        if what is not None:
            code = f"U+{ord(ch):04X}"
            raise IllegalPlayError("player {seat}'s name holds {code} ({what}): a name cannot hold control,"
                                   " format or line-breaking characters.", seat=seat, code=code, what=what)
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise IllegalPlayError("player {seat}'s name cannot be empty.", seat=seat)
    if "&" in name:
        raise IllegalPlayError("{name!r}: a player's name cannot contain '&' (it joins team names).", name=name)
    check_name_length(name, seat)
    if all(unicodedata.category(ch) in ("Zs", "Mn", "Me", "Co", "Cn") or ch in _BLANK_LETTERS or ch in JOINERS
           for ch in name):
        raise IllegalPlayError("player {seat}'s name shows nothing: write a name that can be read.", seat=seat)
    return name


def check_table_name(name: object) -> str:
    """The name or number of a match's table as it is stored: NFC, surrounding spaces removed, any
    script. Raises NotationError for one that is not text, empty, longer than TABLE_NAME_MOST or
    holding a character a player's name cannot hold (a control, format or line-breaking one).

    >>> check_table_name(" 3 ")
    '3'
    """
    import unicodedata

    from pasur_cli.engine.errors import NotationError
    if not isinstance(name, str):
        raise NotationError("the table's name is not text.")
    for ch in name:
        what = _refused_kind(ch)
        if what is not None:
            raise NotationError("the table's name holds {code} ({what}): it cannot hold control, format or"
                                " line-breaking characters.", code=f"U+{ord(ch):04X}", what=what)
    name = unicodedata.normalize("NFC", name).strip()
    if not name or all(unicodedata.category(ch) in ("Zs", "Mn", "Me", "Co", "Cn") or ch in _BLANK_LETTERS
                       or ch in JOINERS for ch in name):
        raise NotationError("the table's name shows nothing: give a number or a name that can be read.")
    if len(name) > TABLE_NAME_MOST:
        raise NotationError(Plural("the table's name has {count} character; at most {most} are allowed.",
                                   "the table's name has {count} characters; at most {most} are allowed.", "count"),
                            count=len(name), most=TABLE_NAME_MOST)
    return name


def check_name_length(name: str, seat: int) -> None:
    """Raise IllegalPlayError when the name of the player in ``seat`` (1-based) is longer than NAME_MOST."""
    if len(name) > NAME_MOST:
        raise IllegalPlayError(Plural("player {seat}'s name has {count} character; at most {most} are allowed.",
                                      "player {seat}'s name has {count} characters; at most {most} are allowed.",
                                      "count"), seat=seat, count=len(name), most=NAME_MOST)


@lru_cache(maxsize=4096)  # the record book asks it for every player of every match
def name_key(name: str) -> str:
    """The form every spelling of one name shares, for comparing a typed name with a player's (the
    one place names are compared): case folded, accents left out (the combining marks of the
    Unicode NFD form: ``jose`` finds ``José``), spaces and the zero-width joiners left out (a
    Persian keyboard types a space where the name has a non-joiner), compatibility forms read as
    the letters they show (fullwidth letters, Arabic presentation forms), and the Arabic yeh and
    kaf (\u064a \u0649 \u0643) read as the Persian ones (\u06cc \u06a9), as two keyboards type one name.
    Names are kept and shown as typed; only their keys are compared.

    >>> name_key(" JOSE\u0301 ") == name_key("jos\u00e9") == name_key("jose")
    True
    >>> name_key("\u0639\u0644\u064a") == name_key("\u0639\u0644\u06cc")
    True
    >>> name_key("\u0645\u0647\u0631 \u0627\u0646") == name_key("\u0645\u0647\u0631\u200c\u0627\u0646")
    True
    >>> name_key("\uff21\uff4c\uff49") == name_key("Ali\u034f") == name_key("ali")
    True
    >>> name_key("\ufecb\ufee0\ufbfd") == name_key("\u0639\u0644\u06cc")
    True
    """
    import unicodedata
    text = unicodedata.normalize("NFKD", name.strip().casefold()).translate(PERSIAN_LETTERS)
    kept = "".join(ch for ch in text if ch not in _IGNORED and unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFKC", kept)


def find_name(names: Iterable[str], name: str) -> str | None:
    """The one of ``names`` that ``name`` spells (see ``name_key``), or None."""
    key = name_key(name)
    return next((n for n in names if name_key(n) == key), None)


def names_starting(names: Iterable[str], typed: str) -> list[str]:
    """The ``names`` that ``typed`` spells (see ``name_key``) or, when none does, those it begins
    (at least two letters of it: a single letter is read as a card's rank, not a name).

    >>> names_starting(["Sara", "Sam", "Ali"], "sa"), names_starting(["Sara", "Sam"], "SAR")
    (['Sara', 'Sam'], ['Sara'])
    >>> names_starting(["Sa", "Sara"], "sa"), names_starting(["Ali"], "a")
    (['Sa'], [])
    """
    names, key = list(names), name_key(typed)
    whole = [n for n in names if name_key(n) == key]
    if whole or len(key) < 2:
        return whole
    return [n for n in names if name_key(n).startswith(key)]


def check_players(players: list[str], dealer: str | None = None) -> list[str]:
    """The players' names as they are stored (see ``check_name``). Raises IllegalPlayError for
    a wrong number of players, a refused name, two names that are one name once compared as
    ``name_key`` compares them (``José`` and ``jose\u0301``, ``علي`` and ``علی``), or a dealer
    who is not one of them.

    >>> check_players(["Jose\u0301", "علی", "Müller", "王"]) == ["José", "علی", "Müller", "王"]
    True
    """
    if not isinstance(players, list | tuple) or not 2 <= len(players) <= 4:
        count = len(players) if isinstance(players, list | tuple) else 0
        raise IllegalPlayError("Pasur is played by 2, 3 or 4 players, not {count}.", count=count)
    names = [check_name(name, seat) for seat, name in enumerate(players, 1)]
    keys = [name_key(n) for n in names]
    for name, key in zip(names, keys, strict=True):
        other = next((n for n, k in zip(names, keys, strict=True) if k == key and n != name), None)
        if other is not None:  # two spellings of one name: a table could not tell them apart
            raise IllegalPlayError("every player needs a different name; {name} and {other} are the same name.",
                                   name=name, other=other)
        if names.count(name) > 1:
            raise IllegalPlayError("every player needs a different name; {name} is named twice.", name=name)
    if dealer is not None and (not isinstance(dealer, str) or find_name(names, dealer) is None):
        raise IllegalPlayError("the dealer {dealer!r} is not one of the players ({players}).", dealer=dealer,
                               players=", ".join(names))
    return names
