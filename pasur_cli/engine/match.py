"""A match: players, sides, rules and the deals, advanced by recorded actions.

The match is its log: ``Match.replay(players, rules, dealer, actions)`` rebuilds the state from
the actions, and every change a player makes is one action (a dict that JSON can hold):

- ``{"type": "deal", "table": ["5C", ...]}``: the initial table of the next deal;
- ``{"type": "play", "card": "7C", "take": ["4D"], "by": "Ali"}``: a play and its capture;
- ``{"type": "tally", "piles": {side: [codes]} | "counts": {side: {...}}, "surs": {side: n}}``:
  a deal scored from its piles without play-by-play entry.

``action_text`` / ``parse_action`` turn an action into a short line and back (the form the
database keeps): ``deal<TAB>5C 9D 3H KS``, ``play<TAB>Sara<TAB>2S<TAB>9D``, ``tally<TAB>{json}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from pasur_cli.engine.cards import Card, parse_card, parse_cards
from pasur_cli.engine.deal import Deal, Play
from pasur_cli.engine.errors import IllegalPlayError, NotationError, PasurError, Words, shorten
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import SideScore, match_winner
from pasur_cli.engine.values import Value
from pasur_cli.text.i18n import PERSIAN_LETTERS


class DealResult(Value):
    """A finished deal: its number (1-based), dealer, each side's score, and whether it was tallied."""

    number: int
    dealer: str
    scores: dict[str, SideScore]
    tallied: bool = False


def side_names(players: list[str], teams: bool) -> list[str]:
    """The side of each seat: a team is its two names joined by " & " in seat order."""
    if len(players) == 4 and teams:
        pairs = [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
        return [pairs[i % 2] for i in range(4)]
    return list(players)


def sides_of(players: list[str], teams: bool) -> list[str]:
    """The match's sides, each once, in seat order (a team by its first seat)."""
    return list(dict.fromkeys(side_names(players, teams)))


NAME_MOST = 40  # characters in a player's name
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
    if len(name) > NAME_MOST:
        raise IllegalPlayError("player {seat}'s name has {count} characters; at most {most} are allowed.",
                               seat=seat, count=len(name), most=NAME_MOST)
    if all(unicodedata.category(ch) in ("Zs", "Mn", "Me", "Co", "Cn") or ch in _BLANK_LETTERS or ch in JOINERS
           for ch in name):
        raise IllegalPlayError("player {seat}'s name shows nothing: write a name that can be read.", seat=seat)
    return name


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


class Match:
    """The state of a match, derived from its actions; every change is one action kept in ``log``.

    ``Match(players, rules, dealer=0)`` (``dealer`` is the first dealer's seat). Do: ``start_deal``,
    ``play``, ``tally``, or ``apply`` any recorded action; ``undo`` takes the last one back.
    Ask: ``deal`` (the deal in progress, None between deals, with its ``turn``, ``can_play`` and
    ``verify_play``), ``results``, ``totals``, ``finished``, ``winner``.

    >>> from pasur_cli.engine.rules import PRESETS
    >>> match = Match(["Ali", "Sara"], PRESETS["pagat"])
    >>> deal = match.start_deal(["5C", "9D", "3H", "KS"])
    >>> match.play("2S").taken, match.deal.turn
    ((Card.parse('9D'),), 'Ali')
    >>> match.undo()
    {'type': 'play', 'card': '2S', 'take': ['9D'], 'by': 'Sara'}
    >>> match.length, match.deal.table == parse_cards("5C 9D 3H KS")
    (1, True)
    """

    def __init__(self, players: list[str], rules: Rules, dealer: int = 0) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be Rules, not {type(rules).__name__}")
        self.players, self.rules, self.first_dealer = list(players), rules, dealer
        if not 2 <= len(self.players) <= 4 or dealer not in range(len(self.players)):
            raise IllegalPlayError("a match has 2, 3 or 4 players and its dealer is one of their seats.")
        self.seat_sides = side_names(self.players, rules.teams)
        self.sides = sides_of(self.players, rules.teams)
        self.results: list[DealResult] = []
        self.completed_at: list[int] = []  # the log length when each result was added
        self.totals: dict[str, int] = {s: 0 for s in self.sides}  # running, kept by _finish
        self.deal: Deal | None = None
        self.start = 0  # actions before ``log`` (their results came from a snapshot)
        self.base: list[DealResult] = []  # those results
        self.log: list[dict[str, Any]] = []  # the canonical form of every action applied after ``start``

    @classmethod
    def replay(cls, players: list[str], rules: Rules, dealer: int, actions: Iterable[dict[str, Any]],
               results: Iterable[DealResult] = (), start: int = 0) -> Match:
        """Rebuild a match from its log, or from the ``results`` of its first ``start`` actions
        (a snapshot) and the actions after them. Raises IllegalPlayError naming the first action
        that fails, with the reason as its ``reason`` fact."""
        match = cls(players, rules, dealer)
        match.start, match.base = start, list(results)
        for result in match.base:
            match._finish(result, at=None)
        for number, action in enumerate(actions, start + 1):
            try:
                match.apply(action)
            except (ValueError, KeyError, TypeError, AttributeError) as err:  # PasurError is a ValueError
                raise IllegalPlayError("action {number} ({action}) cannot be replayed: {reason}", number=number,
                                       action=_describe(action), reason=err) from err
        return match

    # -- position --------------------------------------------------------------------------
    @property
    def length(self) -> int:
        """How many actions the match's log holds (the ``--expect`` of a script)."""
        return self.start + len(self.log)

    @property
    def winner(self) -> str | None:
        return match_winner(self.totals, len(self.results), self.rules)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def deal_number(self) -> int:
        """The number of the deal in progress, or of the next deal when none is."""
        return len(self.results) + 1

    @property
    def dealer(self) -> str:
        """Who deals the deal in progress (or the next one)."""
        return self.players[(self.first_dealer + len(self.results)) % len(self.players)]

    @property
    def leader(self) -> str:
        """Who leads the deal in progress (or the next one): the player after the dealer."""
        return self.players[(self.players.index(self.dealer) + 1) % len(self.players)]

    def player_named(self, name: str) -> str:
        """The player called ``name`` (compared as ``name_key`` compares: any case, any Unicode
        normalization, Arabic or Persian yeh and kaf). Raises IllegalPlayError for a stranger."""
        if name in self.players:
            return name
        found = find_name(self.players, name)
        if found is not None:
            return found
        raise IllegalPlayError("{name!r} is not playing in this match ({players}).", name=name,
                               players=", ".join(self.players))

    def side_of(self, player: str) -> str:
        return self.seat_sides[self.players.index(player)]

    # -- actions ---------------------------------------------------------------------------
    def _ready(self) -> None:
        if self.finished:
            raise IllegalPlayError("the match is over: {side} won.", side=self.winner)

    def start_deal(self, table: Iterable[Card | str] | str) -> Deal:
        """Begin the next deal with its initial table (Cards or card codes). Raises
        IllegalPlayError when not allowed (a deal in progress, the match over, a table the
        rules' check refuses: the error says what the dealer must do)."""
        cards = _cards(table, Words("table"))
        self._ready()
        if self.deal is not None:
            raise IllegalPlayError("deal {number} is still being played; finish it first.", number=self.deal_number)
        self.deal = Deal(self.players, self.seat_sides, self.players.index(self.dealer), self.rules,
                         cards, self.totals)
        self.log.append({"type": "deal", "table": [c.code for c in cards]})
        return self.deal

    def verify_play(self, card: Card | str, take: Iterable[Card | str] | str | None = None,
                    by: str | None = None) -> tuple[Card, ...]:
        """Raise the reason ``play`` would refuse this play; return the cards it would capture."""
        deal, played, took, player = self._play_in_deal(card, take, by)
        return deal.verify_play(played, took, player)

    def _play_in_deal(self, card: Card | str, take: Iterable[Card | str] | str | None,
                      by: str | None) -> tuple[Deal, Card, list[Card] | None, str | None]:
        """The deal in progress and the play read from its notation; raises when no deal is."""
        played = _card(card)
        took = None if take is None else _cards(take, Words("capture"))
        self._ready()
        if self.deal is None:
            raise IllegalPlayError("enter the table of deal {number} first (pasur deal CARD CARD CARD CARD).",
                                   number=self.deal_number)
        return self.deal, played, took, None if by is None else self.player_named(by)

    def can_play(self, card: Card | str, take: Iterable[Card | str] | str | None = None,
                 by: str | None = None) -> bool:
        """Whether ``play`` would accept this play."""
        try:
            self.verify_play(card, take, by)
        except PasurError:
            return False
        return True

    def play(self, card: Card | str, take: Iterable[Card | str] | str | None = None, by: str | None = None) -> Play:
        """Play a card (a Card or its code) in the current deal; ``take`` the table cards it
        captures (None: the only legal capture, or a trail; ``[]``: a trail), ``by`` who must be
        playing. Returns what the play did; closes the deal after its last card. Raises
        IllegalPlayError or AmbiguousPlayError (nothing changes then)."""
        deal, played, took, player = self._play_in_deal(card, take, by)
        record = deal.play(played, took, player)
        self.log.append({"type": "play", "card": record.card.code, "take": [c.code for c in record.taken],
                         "by": record.player})
        if deal.over:
            self._finish(DealResult(self.deal_number, self.dealer, deal.score()), at=self.length)
            self.deal = None
        return record

    def tally(self, piles: dict[str, Iterable[Card | str]] | None = None,
              counts: dict[str, dict[str, int | bool]] | None = None,
              surs: dict[str, int] | None = None, partial: bool = False) -> DealResult:
        """Score the next deal from what each side captured (its pile's cards, or its counts:
        clubs, aces, jacks, two_clubs, ten_diamonds, seven_diamonds) and the surs it holds, as
        ``pasur tally`` does. Raises IllegalPlayError naming the numbers that do not add up."""
        result = self.apply({"type": "tally",
                           "piles": {s: [c if isinstance(c, str) else c.code for c in cards]
                                     for s, cards in (piles or {}).items()},
                           "counts": dict(counts or {}), "surs": dict(surs or {}), "partial": partial})
        assert isinstance(result, DealResult)
        return result

    def _tally(self, action: dict[str, Any]) -> DealResult:
        from pasur_cli.engine.tally import tally_action, tally_scores
        self.check_tally_allowed()
        canonical = tally_action(self, action)
        result = DealResult(self.deal_number, self.dealer, tally_scores(self, canonical), tallied=True)
        self.log.append(canonical)
        self._finish(result, at=self.length)
        return result

    def check_tally_allowed(self) -> None:
        """Raise IllegalPlayError when no tally can be entered now (the match is over, or a deal is
        being played card by card): a caller that asks for the piles asks this first."""
        self._ready()
        if self.deal is not None:
            raise IllegalPlayError("deal {number} is being played card by card; finish or undo it before a tally.",
                                   number=self.deal_number)

    def _finish(self, result: DealResult, at: int | None) -> None:
        """Add a finished deal's result (``at``: the log length after the action that finished it)."""
        self.results.append(result)
        self.completed_at.append(self.start if at is None else at)
        for side, score in result.scores.items():
            self.totals[side] += score.total

    def apply(self, action: dict[str, Any]) -> Deal | Play | DealResult:
        """Apply one recorded action and return what it did (Deal, Play or DealResult).

        The action is checked strictly first (``check_action``: exact types and keys, bounded
        sizes), so anything ``apply`` accepts can be written to a record and replayed. After it,
        ``log[-1]`` holds the action's canonical form: the one that replays to the same thing
        (card codes as written by pasur, a play's ``take`` as the capture made and ``by`` as the
        player whose turn it was, a tally with every field). Store that, not the input.

        >>> from pasur_cli.engine.rules import PRESETS
        >>> match = Match(["Ali", "Sara"], PRESETS["pagat"])
        >>> _ = match.apply({"type": "deal", "table": ["5c", "9♦", "3h", "ks"]})
        >>> _ = match.apply({"type": "play", "card": "2s"})
        >>> match.log[-1]
        {'type': 'play', 'card': '2S', 'take': ['9D'], 'by': 'Sara'}
        """
        check_action(action)
        kind = action["type"]
        if kind == "deal":
            return self.start_deal(action["table"])
        if kind == "play":
            return self.play(action["card"], action.get("take"), action.get("by"))
        return self._tally(action)

    @property
    def last_action(self) -> dict[str, Any] | None:
        """The canonical form of the last action applied (None when this object applied none)."""
        return self.log[-1] if self.log else None

    def undo(self) -> dict[str, Any]:
        """Take back the last action (as python-chess's ``pop()``) and return it (canonical form).
        The match is rebuilt by replaying the actions before it; a deal in progress stays the
        same object, a play earlier. Raises IllegalPlayError when
        there is nothing this object can take back (the log is empty, or its earlier actions
        came from a snapshot)."""
        if not self.log:
            raise IllegalPlayError("there is nothing to take back.")
        last = self.log[-1]
        again = Match.replay(self.players, self.rules, self.first_dealer, self.log[:-1], self.base, self.start)
        for name in ("results", "completed_at", "totals", "log"):
            setattr(self, name, getattr(again, name))
        if self.deal is not None and again.deal is not None:
            vars(self.deal).update(vars(again.deal))  # the same deal, a play earlier: keep the object
        else:
            self.deal = again.deal
        return last


ACTION_KEYS = {"deal": {"type", "table"}, "play": {"type", "card", "take", "by"},
               "tally": {"type", "piles", "counts", "surs", "partial"}}
TAKE_MOST = 48  # cards a capture can name (the table can never hold more)


def _json_fact(value: object) -> str:
    """A stored or imported value as the JSON it was, at most 60 characters: a fact every language
    shows as it is (not Python's name for its type)."""
    import json
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return shorten(text, 60)


def check_action(action: object) -> None:
    """Raise NotationError naming the field when ``action`` is not exactly an action: a dict with
    a known ``type`` and only its keys; a deal's ``table`` a list of 4 strings; a play's ``card``
    one string, ``take`` absent or a list of strings, ``by`` absent, null or a string; a tally's
    fields as ``pasur_cli.engine.tally.check_tally`` says. Each card string must name exactly one card.
    """
    if not isinstance(action, dict):
        raise NotationError("an action is an object, not {value}.", value=_json_fact(action))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise NotationError("unknown action type {kind}: write deal, play or tally.", kind=_json_fact(kind))
    unknown = sorted(str(k)[:40] for k in action if k not in ACTION_KEYS[kind])
    if unknown:
        raise NotationError("a {kind} action has no field {names}.", kind=kind, names=", ".join(unknown))
    if kind == "deal":
        table = action.get("table")
        if not isinstance(table, list) or len(table) != 4 or not all(isinstance(c, str) for c in table):
            raise NotationError("a deal's \"table\" is a list of 4 cards (strings such as \"5C\").")
        for text in table:
            parse_card(text)
    elif kind == "play":
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
        if by is not None and (not isinstance(by, str) or len(by) > 4 * NAME_MOST):
            raise NotationError("a play's \"by\" is a player's name (a string), or null.")
    else:
        from pasur_cli.engine.tally import check_tally
        check_tally(action)


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return parse_card(card)
    raise NotationError("{card!r} is not a card: give a Card or its code, such as \"7C\".", card=repr(card)[:40])


def _cards(cards: Iterable[Card | str] | str, what: object) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards, what)
    out: list[Card] = []
    for card in cards:
        one = _card(card)
        if one in out:
            raise NotationError("{card} is named twice in the {what}: each card exists once.", card=one, what=what)
        out.append(one)
    return out


def _describe(action: object) -> str:
    try:
        text = action_text(action).replace("\t", " ")  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError, AttributeError):
        text = repr(action)
    return shorten(text, 80)


def action_text(action: dict[str, Any]) -> str:
    """One action as a short line (fields separated by tabs; names hold no control characters)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "deal":
        return "deal\t" + " ".join(action["table"])
    if kind == "play":
        return "\t".join(["play", action.get("by") or "", action["card"], " ".join(action.get("take") or [])])
    import json
    if kind == "tally":
        return "tally\t" + json.dumps({k: v for k, v in action.items() if k != "type"}, ensure_ascii=False)
    return json.dumps(action, ensure_ascii=False)


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
