"""An action (a table dealt, a play, a tally) as a typed frozen value, and its one reader.

A match is its log of actions (see pasur_cli.engine.match). Each action is read once, where it
enters: ``read_action`` reads the JSON form (what the API is given and a record holds),
``read_line`` the one-line form the database keeps (through ``read_action``: one schema check).
The engine replays the values; nothing parses an action's text again.

- ``DealAction(table)``: ``{"type": "deal", "table": [4 card codes]}``, stored as
  ``deal<TAB>5C 9D 3H KS``;
- ``PlayAction(card, take, by)``: ``{"type": "play", "card": code, "take": [codes], "by": name or
  null}`` (``take`` None: not named, the engine finds the only legal capture), stored as
  ``play<TAB>Sara<TAB>2S<TAB>9D``;
- ``TallyAction(piles, counts, surs, partial)``: ``{"type": "tally", "piles": {side: [codes]},
  "counts": {side: {count: n or bool}}, "surs": {side: n}, "partial": bool}``, stored as
  ``tally<TAB>{json}``.

``as_dict()`` is the JSON form and ``line`` the stored one; both are what pasur always wrote.
The bounds of every field are the one table in pasur_cli.engine.names.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

from pasur_cli.engine.cards import ORDER, Card, parse_card
from pasur_cli.engine.errors import NotationError, Plural, Words, shorten
from pasur_cli.engine.names import (
    COUNT_KEYS,
    COUNT_MOST,
    NAME_TEXT_MOST,
    PILE_MOST,
    SIDE_TEXT_MOST,
    SIDES_MOST,
    SURS_MOST,
    TAKE_MOST,
)
from pasur_cli.engine.scoring import PileCount
from pasur_cli.engine.values import FrozenDict, Value

FIELDS: dict[str, tuple[str, ...]] = {"deal": ("type", "table"), "play": ("type", "card", "take", "by"),
                                      "tally": ("type", "piles", "counts", "surs", "partial")}
REQUIRED: dict[str, tuple[str, ...]] = {"deal": ("type", "table"), "play": ("type", "card", "take"),
                                        "tally": ("type",)}


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


class DealAction(Value):
    """The initial table of the next deal."""

    table: tuple[Card, ...]
    kind: ClassVar[str] = "deal"

    def as_dict(self) -> dict[str, Any]:
        return {"type": "deal", "table": _codes(self.table)}

    @property
    def line(self) -> str:
        """The line the database keeps."""
        return "deal\t" + " ".join(_codes(self.table))


class PlayAction(Value):
    """A card played, the table cards it takes (None: not named) and who played it (None: not said)."""

    card: Card
    take: tuple[Card, ...] | None = None
    by: str | None = None
    kind: ClassVar[str] = "play"

    def as_dict(self) -> dict[str, Any]:
        if self.take is None:
            return {"type": "play", "card": self.card.code, "by": self.by}
        return {"type": "play", "card": self.card.code, "take": _codes(self.take), "by": self.by}

    @property
    def line(self) -> str:
        """The line the database keeps (a ``take`` not named reads back as a trail)."""
        return "\t".join(["play", self.by or "", self.card.code, " ".join(_codes(self.take or ()))])


class TallyAction(Value):
    """A deal scored from what each side captured: a side's ``piles`` (cards, in canonical order)
    or ``counts``, the ``surs`` each holds, and whether the piles are ``partial``."""

    piles: Mapping[str, tuple[Card, ...]] = FrozenDict()
    counts: Mapping[str, PileCount] = FrozenDict()
    surs: Mapping[str, int] = FrozenDict()
    partial: bool = False
    kind: ClassVar[str] = "tally"

    def as_dict(self) -> dict[str, Any]:
        return {"type": "tally", "piles": {side: _codes(cards) for side, cards in self.piles.items()},
                "counts": {side: count.as_dict() for side, count in self.counts.items()},
                "surs": dict(self.surs), "partial": self.partial}

    @property
    def line(self) -> str:
        """The line the database keeps."""
        import json
        fields = self.as_dict()
        del fields["type"]
        return "tally\t" + json.dumps(fields, ensure_ascii=False)


Action = DealAction | PlayAction | TallyAction


def read_action(value: object, expected: str | None = None, complete: bool = False) -> Action:
    """The action ``value`` is: an action value as it is, or its JSON form read and checked, with
    cards in any notation ``parse_card`` reads. ``expected``: the one kind accepted (deal, play
    or tally); ``complete``: every field a record writes must be there.

    Raises NotationError naming the field unless ``value`` is exactly an action: an object with a
    known ``type`` and only its fields; a deal's ``table`` a list of cards; a play's ``card`` one
    card, ``take`` absent or a list of cards, ``by`` absent, null or a name; a tally's ``piles``
    ({side: [cards]}), ``counts`` ({side: {clubs, aces, jacks: whole numbers within the cards there
    are; two_clubs, ten_diamonds, seven_diamonds: true or false}}), ``surs`` ({side: 0 to
    SURS_MOST}), ``partial`` (true or false). A card named twice in one list is refused.
    """
    if isinstance(value, DealAction | PlayAction | TallyAction):
        _check_kind(value.kind, expected)
        return value
    if not isinstance(value, dict):
        raise NotationError("an action is an object, not {value}.", value=json_fact(value))
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise NotationError("unknown action type {kind}: write deal, play or tally.", kind=json_fact(kind))
    _check_kind(kind, expected)
    _check_fields(value, kind, complete)
    if kind == "deal":
        return _read_deal(value)
    if kind == "play":
        return _read_play(value)
    return _read_tally(value)


def check_action(value: object, expected: str | None = None) -> None:
    """Raise what ``read_action`` raises when ``value`` is no action (the check alone)."""
    read_action(value, expected)


@lru_cache(maxsize=4096)
def read_line(text: str) -> Action:
    """The action a stored line (``line``) stands for, read by ``read_action``; equal lines read
    to one value (a long log repeats a few tallies). Raises NotationError (a ValueError) for a
    line that is no action."""
    kind, _, rest = text.partition("\t")
    if kind == "deal":
        return read_action({"type": "deal", "table": rest.split()})
    if kind == "play":
        by, card, take = rest.split("\t")  # ValueError for a line of other fields
        return read_action({"type": "play", "card": card, "take": take.split(), "by": by or None})
    import json
    if kind == "tally":
        return read_action({"type": "tally", **json.loads(rest)})
    return read_action(json.loads(text))


def json_fact(value: object) -> str:
    """A value as the JSON it was, at most 60 characters: a fact every language shows as it is
    (not Python's name for its type)."""
    import json
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return shorten(text, 60)


def _check_kind(kind: str, expected: str | None) -> None:
    """Raise NotationError when an action of ``kind`` is not the ``expected`` one (None: any)."""
    if expected is not None and kind != expected:
        raise NotationError("a {expected} action is expected here, not a {kind} action.", expected=expected,
                            kind=kind)


def _check_fields(value: dict[str, Any], kind: str, complete: bool) -> None:
    """Raise NotationError for a field ``kind`` has not, or (``complete``) one a record must write that is missing."""
    unknown = sorted(str(k)[:40] for k in value if k not in FIELDS[kind])
    if unknown:
        raise NotationError("a {kind} action has no field {names}.", kind=kind, names=", ".join(unknown))
    missing = [k for k in REQUIRED[kind] if k not in value] if complete else []
    if missing:
        raise NotationError("a {kind} action lacks {fields}.", kind=kind, fields=", ".join(missing))


def _text(value: str) -> str:
    """``value`` when it is text (no lone surrogate). Raises NotationError naming the character."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        lone = next(c for c in value if "\ud800" <= c <= "\udfff")
        raise NotationError("{text} is not text: it holds a lone surrogate ({code}).", text=json_fact(value),
                            code=f"U+{ord(lone):04X}") from None
    return value


def _card_list(value: object, most: int, what: Words) -> tuple[Card, ...] | None:
    """The cards a list of at most ``most`` card strings names, each once; None when ``value`` is
    no such list. Raises NotationError for a string that is no card or a card named twice."""
    if value.__class__ is not list or len(value) > most or not all(c.__class__ is str for c in value):
        return None
    cards = tuple(parse_card(text) for text in value)
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise NotationError("{card} is named twice in the {what}: each card exists once.", card=twice, what=what)
    return cards


def _read_deal(value: dict[str, Any]) -> DealAction:
    table = _card_list(value.get("table"), PILE_MOST, Words("table"))
    if table is None:
        raise NotationError("a deal's \"table\" is a list of cards (strings such as \"5C\").")
    return DealAction(table)


def _read_play(value: dict[str, Any]) -> PlayAction:
    card = value.get("card")
    if not isinstance(card, str):
        raise NotationError("a play's \"card\" is one card (a string such as \"7C\").")
    take = value.get("take", [])
    taken = _card_list(take, TAKE_MOST, Words("capture"))
    if taken is None:
        raise NotationError("a play's \"take\" is a list of cards (strings), or absent.")
    by = value.get("by")
    if by is not None and (not isinstance(by, str) or len(by) > NAME_TEXT_MOST):
        raise NotationError("a play's \"by\" is a player's name (a string), or null.")
    return PlayAction(parse_card(card), tuple(sorted(taken, key=ORDER)) if "take" in value else None,
                      None if by is None else _text(by))


def _sides(value: dict[str, Any], field: str) -> dict[str, Any]:
    """A tally's ``field`` ({side: ...}) with each side as a name is stored (NFC, surrounding spaces
    removed). Raises NotationError for more than SIDES_MOST sides, a side that is no name, or one
    named twice."""
    import unicodedata
    given = value.get(field, {})
    if given.__class__ is not dict or len(given) > SIDES_MOST or not all(
            k.__class__ is str and len(k) <= SIDE_TEXT_MOST for k in given):
        raise NotationError(Plural("a tally's {field!r} is an object of at most {most} side.",
                                   "a tally's {field!r} is an object of at most {most} sides.", "most"),
                            field=field, most=SIDES_MOST)
    sides = {unicodedata.normalize("NFC", _text(k)).strip(): v for k, v in given.items()}
    if len(sides) != len(given):
        raise NotationError("a tally's {field!r} names a side twice.", field=field)
    return sides


def _read_tally(value: dict[str, Any]) -> TallyAction:
    piles = {}
    for side, given in _sides(value, "piles").items():
        cards = _card_list(given, PILE_MOST, Words("pile of {side}", side=side))
        if cards is None:
            raise NotationError("a tally's pile of {side} is a list of cards (strings).", side=side)
        piles[side] = tuple(sorted(cards, key=ORDER))
    counts = {side: _read_counts(side, given) for side, given in _sides(value, "counts").items()}
    surs = _sides(value, "surs")
    for side, held in surs.items():
        check_surs(side, held)
    partial = value.get("partial", False)
    if partial.__class__ is not bool:
        raise NotationError("a tally's \"partial\" is true or false.")
    return TallyAction(FrozenDict(piles), FrozenDict(counts), FrozenDict(surs), partial)


def _read_counts(side: str, given: object) -> PileCount:
    """A side's counts ({clubs: n, ...}; a count left out is none). Raises NotationError naming the count."""
    if not isinstance(given, dict):
        raise NotationError("a tally's counts of {side} are an object such as {{\"clubs\": 8}}.", side=side)
    for key, held in given.items():
        if key not in COUNT_KEYS:
            raise NotationError("a tally's counts of {side} name {key!r}; the counts are {keys}.", side=side,
                                key=str(key)[:40], keys=", ".join(COUNT_KEYS))
        if key in COUNT_MOST:
            check_count(side, key, held)
        elif held.__class__ is not bool:
            raise NotationError("a tally's {key} of {side} is true or false.", key=key, side=side)
    return PileCount(**{key: given.get(key, 0 if key in COUNT_MOST else False) for key in COUNT_KEYS})


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
