"""An action's schema and the one table of limits: what the engine applies, the record reader
reads and the store keeps.

An action is a dict that JSON can hold (see pasur_cli.engine.match):

- ``{"type": "deal", "table": [4 card codes]}``
- ``{"type": "play", "card": code, "take": [codes], "by": name or null}``
- ``{"type": "tally", "piles": {side: [codes]}, "counts": {side: {count: n or bool}},
  "surs": {side: n}, "partial": bool}``

``FIELDS`` names each kind's fields (``REQUIRED`` the ones a record must write), and the limits
below bound every field: ``check_action`` (the engine's strict check before it applies an action),
``pasur_cli.engine.record`` (an imported record, each refusal naming where) and the tally's readers
all read them here, so a record the reader accepts is one the engine accepts.

``action_text`` / ``parse_action`` turn an action into its one-line form and back (what the
database keeps and what tells two records' actions apart): ``deal<TAB>5C 9D 3H KS``,
``play<TAB>Sara<TAB>2S<TAB>9D``, ``tally<TAB>{json}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pasur_cli.engine.cards import DECK, parse_card
from pasur_cli.engine.errors import NotationError, Plural, shorten
from pasur_cli.engine.names import NAME_MOST

FIELDS: dict[str, tuple[str, ...]] = {"deal": ("type", "table"), "play": ("type", "card", "take", "by"),
                                      "tally": ("type", "piles", "counts", "surs", "partial")}
REQUIRED: dict[str, tuple[str, ...]] = {"deal": ("type", "table"), "play": ("type", "card", "take"),
                                        "tally": ("type",)}
COUNT_KEYS = ("clubs", "aces", "jacks", "two_clubs", "ten_diamonds", "seven_diamonds")

# -- the limits -----------------------------------------------------------------------------
TABLE_CARDS = 4        # cards on the initial table
TAKE_MOST = 48         # cards a capture can name (the table can never hold more)
PILE_MOST = 52         # cards in one side's pile
SIDES_MOST = 4         # sides a tally names
SURS_MOST = 48         # surs one side can hold at the end of a deal (at most one a play)
COUNT_MOST = {"clubs": 13, "aces": 4, "jacks": 4}  # the cards of each count there are
NAME_TEXT_MOST = 4 * NAME_MOST  # characters of a name as given, before NFC (a decomposed accent is two)
SIDE_TEXT_MOST = 2 * NAME_TEXT_MOST + 3  # a team's side: two names joined by " & "
# actions one match holds (about 400 deals played card by card, or 20,000 tallied deals): the store
# records no more, and so an import reads no more, and the bytes it reads follow (engine.record)
ACTIONS_MOST = 20_000


def _json_fact(value: object) -> str:
    """A stored or imported value as the JSON it was, at most 60 characters: a fact every language
    shows as it is (not Python's name for its type)."""
    import json
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return shorten(text, 60)


def check_action(action: object, expected: str | None = None) -> None:
    """Raise NotationError naming the field when ``action`` is not exactly an action: a dict with
    a known ``type`` (``expected``, when given) and only its keys; a deal's ``table`` a list of 4
    strings; a play's ``card`` one string, ``take`` absent or a list of strings, ``by`` absent,
    null or a string; a tally's fields as ``check_tally`` says. Each card string must name exactly
    one card.
    """
    if not isinstance(action, dict):
        raise NotationError("an action is an object, not {value}.", value=_json_fact(action))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise NotationError("unknown action type {kind}: write deal, play or tally.", kind=_json_fact(kind))
    if expected is not None and kind != expected:
        raise NotationError("a {expected} action is expected here, not a {kind} action.", expected=expected,
                            kind=kind)
    unknown = sorted(str(k)[:40] for k in action if k not in FIELDS[kind])
    if unknown:
        raise NotationError("a {kind} action has no field {names}.", kind=kind, names=", ".join(unknown))
    if kind == "deal":
        table = action.get("table")
        if not isinstance(table, list) or len(table) != TABLE_CARDS or not all(isinstance(c, str) for c in table):
            raise NotationError("a deal's \"table\" is a list of 4 cards (strings such as \"5C\").")
        for text in table:
            parse_card(text)
    elif kind == "play":
        check_play(action)
    else:
        check_tally(action)


def check_play(action: dict[str, Any]) -> None:
    """Raise NotationError naming the field unless a play action's ``card`` is one card (a string),
    its ``take`` absent or a list of cards (strings), its ``by`` absent, null or a name."""
    card = action.get("card")
    if not isinstance(card, str):
        raise NotationError("a play's \"card\" is one card (a string such as \"7C\").")
    parse_card(card)
    take = action.get("take", [])
    if not isinstance(take, list) or len(take) > TAKE_MOST or not all(isinstance(c, str) for c in take):
        raise NotationError("a play's \"take\" is a list of cards (strings), or absent.")
    for text in take:
        parse_card(text)
    by = action.get("by")
    if by is not None and (not isinstance(by, str) or len(by) > NAME_TEXT_MOST):
        raise NotationError("a play's \"by\" is a player's name (a string), or null.")


def check_count(side: str, key: str, value: object) -> None:
    """Raise NotationError unless ``value`` is a whole number from 0 to the ``key`` cards there are."""
    if value.__class__ is not int or not 0 <= value <= COUNT_MOST[key]:
        raise NotationError("a tally's {key} of {side} is a whole number from 0 to {most}.", key=key,
                            side=side, most=COUNT_MOST[key])


def check_surs(side: str, held: object) -> None:
    """Raise NotationError unless ``held`` is a number of surs one side can hold (0 to SURS_MOST)."""
    if held.__class__ is not int or not 0 <= held <= SURS_MOST:
        raise NotationError("a tally's surs of {side} are a whole number from 0 to {most}.", side=side,
                            most=SURS_MOST)


_CODES = frozenset(card.code for card in DECK)  # every card's code as pasur writes it
_COUNT_FIELDS = frozenset(COUNT_KEYS)
_CLUBS, _ACES, _JACKS = COUNT_MOST["clubs"], COUNT_MOST["aces"], COUNT_MOST["jacks"]
_TALLY_FIELDS = frozenset(FIELDS["tally"])


def tally_key(action: dict[str, Any]) -> tuple[Any, ...] | None:
    """A tally action's content as a hashable key when it is plainly right (what ``check_action``
    accepts, every card a code as pasur writes it), checked in one pass without a word of refusal:
    ``(piles, counts, surs, partial)`` with ``piles`` as (side, cards), ``counts`` as (side,
    (clubs, aces, jacks, two_clubs, ten_diamonds, seven_diamonds)) with a count left out as its
    zero or false, ``surs`` as (side, n). Two actions with one key are the same tally
    (``tally_of_key``): each place in the key holds one type, checked here, so no ``1`` stands
    for a ``true``. None for anything else: ``check_action`` then says why."""
    if action.__class__ is not dict or action.get("type") != "tally" or not action.keys() <= _TALLY_FIELDS:
        return None
    piles, counts, surs = action.get("piles", {}), action.get("counts", {}), action.get("surs", {})
    partial = action.get("partial", False)
    if (piles.__class__ is not dict or counts.__class__ is not dict or surs.__class__ is not dict
            or len(piles) > SIDES_MOST or len(counts) > SIDES_MOST or len(surs) > SIDES_MOST
            or partial.__class__ is not bool):
        return None
    for side, cards in piles.items():  # each side a name (of at most SIDE_TEXT_MOST characters), here and below
        if (side.__class__ is not str or len(side) > SIDE_TEXT_MOST or cards.__class__ is not list
                or len(cards) > PILE_MOST or not all(c.__class__ is str and c in _CODES for c in cards)):
            return None
    counted = []
    for side, given in counts.items():  # written out: a record of 13,000 tallies reads this 26,000 times
        if (side.__class__ is not str or len(side) > SIDE_TEXT_MOST or given.__class__ is not dict
                or not given.keys() <= _COUNT_FIELDS):
            return None
        get = given.get
        clubs, aces, jacks = get("clubs", 0), get("aces", 0), get("jacks", 0)
        two, ten, seven = get("two_clubs", False), get("ten_diamonds", False), get("seven_diamonds", False)
        if (clubs.__class__ is not int or aces.__class__ is not int or jacks.__class__ is not int
                or not 0 <= clubs <= _CLUBS or not 0 <= aces <= _ACES or not 0 <= jacks <= _JACKS
                or two.__class__ is not bool or ten.__class__ is not bool or seven.__class__ is not bool):
            return None
        counted.append((side, (clubs, aces, jacks, two, ten, seven)))
    for side, held in surs.items():
        if (side.__class__ is not str or len(side) > SIDE_TEXT_MOST or held.__class__ is not int
                or not 0 <= held <= SURS_MOST):
            return None
    return (tuple([(side, tuple(cards)) for side, cards in piles.items()]) if piles else (), tuple(counted),
            tuple(surs.items()), partial)


def tally_of_key(key: tuple[Any, ...]) -> dict[str, Any]:
    """The tally action a ``tally_key`` stands for: what ``check_action`` accepted, with every
    count written (in COUNT_KEYS' order) and each field given."""
    piles, counts, surs, partial = key
    return {"type": "tally", "piles": {side: list(cards) for side, cards in piles},
            "counts": {side: dict(zip(COUNT_KEYS, values, strict=True)) for side, values in counts},
            "surs": dict(surs), "partial": partial}


def check_tally(action: dict[str, Any]) -> None:
    """Raise NotationError naming the field unless a tally action's fields have exactly their
    types and bounds: ``piles`` {side: [card strings]}, ``counts`` {side: {clubs/aces/jacks: whole
    numbers within the cards there are, two_clubs/ten_diamonds/seven_diamonds: true or false}},
    ``surs`` {side: whole number}, ``partial`` true or false; each optional."""
    if tally_key(action) is not None:
        return
    for field in ("piles", "counts", "surs"):
        value = action.get(field, {})
        if not isinstance(value, dict) or len(value) > SIDES_MOST or not all(
                isinstance(k, str) and len(k) <= SIDE_TEXT_MOST for k in value):
            raise NotationError(Plural("a tally's {field!r} is an object of at most {most} side.",
                                       "a tally's {field!r} is an object of at most {most} sides.", "most"),
                                field=field, most=SIDES_MOST)
    for side, cards in action.get("piles", {}).items():
        if not isinstance(cards, list) or len(cards) > PILE_MOST or not all(isinstance(c, str) for c in cards):
            raise NotationError("a tally's pile of {side} is a list of cards (strings).", side=side)
        for text in cards:
            parse_card(text)
    for side, counts in action.get("counts", {}).items():
        if not isinstance(counts, dict):
            raise NotationError("a tally's counts of {side} are an object such as {{\"clubs\": 8}}.", side=side)
        for key, value in counts.items():
            if key not in COUNT_KEYS:
                raise NotationError("a tally's counts of {side} name {key!r}; the counts are {keys}.", side=side,
                                    key=str(key)[:40], keys=", ".join(COUNT_KEYS))
            if key in COUNT_MOST:
                check_count(side, key, value)
            if key not in COUNT_MOST and value.__class__ is not bool:
                raise NotationError("a tally's {key} of {side} is true or false.", key=key, side=side)
    for side, held in action.get("surs", {}).items():
        check_surs(side, held)
    if action.get("partial", False).__class__ is not bool:
        raise NotationError("a tally's \"partial\" is true or false.")


def action_text(action: dict[str, Any]) -> str:
    """One action as a short line (fields separated by tabs; names hold no control characters)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "deal":
        return "deal\t" + " ".join(action["table"])
    if kind == "play":
        return "\t".join(["play", action.get("by") or "", action["card"], " ".join(action.get("take") or [])])
    if kind == "tally":
        return "tally\t" + _write({k: v for k, v in action.items() if k != "type"})
    return _write(action)


_WRITERS: list[Callable[[object], str]] = []  # json.dumps(..., ensure_ascii=False)'s encoder, made once


def _write(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False)``, without making its encoder again for each line (an
    import writes thousands); json is imported when the first line is written, not at start-up.
    Raises what json.dumps raises (TypeError for a value JSON cannot hold)."""
    if not _WRITERS:
        import json
        _WRITERS.append(json.JSONEncoder(ensure_ascii=False).encode)
    return _WRITERS[0](value)


def parse_action(text: str) -> dict[str, Any]:
    """The action a line from ``action_text`` stands for."""
    kind, _, rest = text.partition("\t")
    if kind == "deal":
        return {"type": "deal", "table": rest.split()}
    if kind == "play":
        by, card, take = rest.split("\t")
        return {"type": "play", "card": card, "take": take.split(), "by": by or None}
    import json
    if kind == "tally":
        return {"type": "tally", **json.loads(rest)}
    loaded: dict[str, Any] = json.loads(text)
    return loaded
