"""pasur: a referee and scorekeeper for Pasur, the Iranian fishing card game, as a library.

The ``pasur`` command is one user of this engine; a bot, a trainer or a web front end is another.
Everything the command can say, the engine can be asked directly::

    >>> import pasur_cli as pasur
    >>> match = pasur.Match(["Ali", "Sara"], pasur.PRESETS["pagat"])
    >>> deal = match.start_deal(pasur.parse_cards("5C 9D 3H KS"))
    >>> deal.turn, deal.can_play(pasur.parse_card("9D"))
    ('Sara', False)
    >>> match.play("2S").taken
    (Card.parse('9D'),)
    >>> pasur.legal_captures(pasur.parse_card("5S"), pasur.parse_cards("AC 2D 4H 5C"), match.rules).count
    2

Cards: ``parse_card``, ``parse_cards``, ``Card``, ``DECK``, ``Rank``, ``Suit``.
Rules: ``parse_rules``, ``Rules``, ``PRESETS``.
Captures: ``legal_captures`` (a ``Captures``), ``capture_problem`` (why a capture is illegal),
``is_sur``.
A match: ``Match`` (``start_deal``, ``play``, ``tally``, ``apply``, ``undo``; ``deal``, ``results``,
``totals``, ``finished``, ``winner``, ``log``), ``Deal`` (``turn``, ``verify_play``, ``can_play``,
``play``; ``Deal.from_position`` sets up a position mid-deal), the records ``Play``, ``NoSur``
and ``DealResult``, ``check_players``, ``check_action``.
Scoring: ``score_deal``, ``SideScore``, ``PileCount``, ``clubs_winners``, ``match_winner``,
``tally_scores``.
The match record (JSON): ``read_record``, ``write_record``.
Across time: ``match_events`` (a match's events play by play: the table dealt, each ``Play``, the
leftover, each ``DealResult``), ``record_book`` (a ``RecordBook`` of every player's and
partnership's ``PlayerRecord`` across matches, and the head-to-head wins).
Advice (the analysis engine): ``advise`` (every legal option of the hand of the player to move,
best first, each an ``Advice`` with its expected deal margin), ``review`` (a finished deal's
``DealReview``: a ``PlayReview`` per play with its cost and label, a ``PlayerReview`` per player),
``play_deal`` (a whole deal played by a policy for each seat, each shown a ``Turn``: a bot's or a
benchmark's arena, where ``Turn.search`` is advise's own choice).
The record book (one SQLite file, as the commands keep it): ``Store(path, write=True, create=True)``
opens it, ``store.create(players, rules, dealer)`` enters a match, and ``enter_table``,
``enter_play``, ``enter_tally`` and ``take_back`` record through the same code the commands use
(one transaction each; ``expect`` refuses a change when the log moved since it was shown)::

    >>> import tempfile, os
    >>> book = pasur.Store(os.path.join(tempfile.mkdtemp(), "pasur.db"), write=True, create=True)
    >>> mid = book.create(["Ali", "Sara"], pasur.PRESETS["pagat"], 0)
    >>> _ = pasur.enter_table(book, mid, pasur.parse_cards("5C 9D 3H KS"))
    >>> play, match = pasur.enter_play(book, mid, pasur.parse_card("2S"))
    >>> play.taken, book.match(mid)[1].length
    ((Card.parse('9D'),), 2)
    >>> book.close()

Errors: ``PasurError`` and its kinds ``NotationError``, ``IllegalPlayError``,
``AmbiguousPlayError``; each carries a sentence template and its facts.

Every value (``Card``, ``Rules``, ``Play``, ...) is frozen, checks itself when made, and
serializes by field name (``as_dict()`` / ``from_dict()``). Names are loaded on first use, so
``import pasur_cli`` costs nothing a command would not pay anyway.

Inside, four layers in five folders; every import points down the picture (tests/test_layers.py
holds it; docs/architecture.md names every module)::

    cli/    the pasur command (click)        web/   pasur serve (the scoreboard)
      |                                        |
      +--------------+-------------------------+
      v              v
    text/          store/
    sentences,     the SQLite record book:
    layout, JSON   one transaction a change
      |              |
      +------+-------+
             v
    engine/  pure: every game decision; no files, terminal, click or process-wide language
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_WHERE = {
    "parse_card": "cards",
    "parse_cards": "cards",
    "Card": "cards",
    "DECK": "cards",
    "Rank": "cards",
    "Suit": "cards",
    "parse_rules": "rules",
    "Rules": "rules",
    "PRESETS": "rules",
    "legal_captures": "captures",
    "Captures": "captures",
    "capture_problem": "captures",
    "is_sur": "captures",
    "Match": "match",
    "advise": "advice",
    "review": "advice",
    "Advice": "advice",
    "DealReview": "advice",
    "play_deal": "advice",
    "Turn": "advice",
    "PlayReview": "advice",
    "PlayerReview": "advice",
    "DealResult": "match",
    "check_players": "names",
    "check_action": "action",
    "Deal": "deal",
    "Play": "deal",
    "NoSur": "deal",
    "score_deal": "scoring",
    "SideScore": "scoring",
    "PileCount": "scoring",
    "clubs_winners": "scoring",
    "match_winner": "scoring",
    "tally_scores": "tally",
    "read_record": "record",
    "write_record": "record",
    "match_events": "history",
    "record_book": "stats",
    "RecordBook": "stats",
    "PlayerRecord": "stats",
    "PasurError": "errors",
    "NotationError": "errors",
    "IllegalPlayError": "errors",
    "AmbiguousPlayError": "errors",
}
__all__ = [
    "DECK",
    "PRESETS",
    "Advice",
    "AmbiguousPlayError",
    "Captures",
    "Card",
    "Deal",
    "DealResult",
    "DealReview",
    "IllegalPlayError",
    "Match",
    "NoSur",
    "NotationError",
    "PasurError",
    "PileCount",
    "Play",
    "PlayReview",
    "PlayerRecord",
    "PlayerReview",
    "Rank",
    "RecordBook",
    "Rules",
    "SideScore",
    "Suit",
    "Turn",
    "advise",
    "capture_problem",
    "check_action",
    "check_players",
    "clubs_winners",
    "is_sur",
    "legal_captures",
    "match_events",
    "match_winner",
    "parse_card",
    "parse_cards",
    "parse_rules",
    "play_deal",
    "read_record",
    "record_book",
    "review",
    "score_deal",
    "tally_scores",
    "write_record",
]


# the record book: the library the commands are a thin layer over (pasur_cli.store)
_STORE = {
    "Store": "database",
    "enter_table": "actions",
    "enter_play": "actions",
    "enter_tally": "actions",
    "take_back": "actions",
}
__all__ += sorted(_STORE)


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562)."""
    where = _WHERE.get(name)
    module = f"pasur_cli.engine.{where}" if where is not None else f"pasur_cli.store.{_STORE.get(name)}"
    if where is None and name not in _STORE:
        raise AttributeError(f"module 'pasur_cli' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # the names as type checkers see them
    from pasur_cli.engine.action import check_action as check_action
    from pasur_cli.engine.advice import Advice as Advice
    from pasur_cli.engine.advice import DealReview as DealReview
    from pasur_cli.engine.advice import PlayerReview as PlayerReview
    from pasur_cli.engine.advice import PlayReview as PlayReview
    from pasur_cli.engine.advice import Turn as Turn
    from pasur_cli.engine.advice import advise as advise
    from pasur_cli.engine.advice import play_deal as play_deal
    from pasur_cli.engine.advice import review as review
    from pasur_cli.engine.captures import Captures as Captures
    from pasur_cli.engine.captures import capture_problem as capture_problem
    from pasur_cli.engine.captures import is_sur as is_sur
    from pasur_cli.engine.captures import legal_captures as legal_captures
    from pasur_cli.engine.cards import DECK as DECK
    from pasur_cli.engine.cards import Card as Card
    from pasur_cli.engine.cards import Rank as Rank
    from pasur_cli.engine.cards import Suit as Suit
    from pasur_cli.engine.cards import parse_card as parse_card
    from pasur_cli.engine.cards import parse_cards as parse_cards
    from pasur_cli.engine.deal import Deal as Deal
    from pasur_cli.engine.deal import NoSur as NoSur
    from pasur_cli.engine.deal import Play as Play
    from pasur_cli.engine.errors import AmbiguousPlayError as AmbiguousPlayError
    from pasur_cli.engine.errors import IllegalPlayError as IllegalPlayError
    from pasur_cli.engine.errors import NotationError as NotationError
    from pasur_cli.engine.errors import PasurError as PasurError
    from pasur_cli.engine.history import match_events as match_events
    from pasur_cli.engine.match import DealResult as DealResult
    from pasur_cli.engine.match import Match as Match
    from pasur_cli.engine.names import check_players as check_players
    from pasur_cli.engine.record import read_record as read_record
    from pasur_cli.engine.record import write_record as write_record
    from pasur_cli.engine.rules import PRESETS as PRESETS
    from pasur_cli.engine.rules import Rules as Rules
    from pasur_cli.engine.rules import parse_rules as parse_rules
    from pasur_cli.engine.scoring import PileCount as PileCount
    from pasur_cli.engine.scoring import SideScore as SideScore
    from pasur_cli.engine.scoring import clubs_winners as clubs_winners
    from pasur_cli.engine.scoring import match_winner as match_winner
    from pasur_cli.engine.scoring import score_deal as score_deal
    from pasur_cli.engine.stats import PlayerRecord as PlayerRecord
    from pasur_cli.engine.stats import RecordBook as RecordBook
    from pasur_cli.engine.stats import record_book as record_book
    from pasur_cli.engine.tally import tally_scores as tally_scores
    from pasur_cli.store.actions import enter_play as enter_play
    from pasur_cli.store.actions import enter_table as enter_table
    from pasur_cli.store.actions import enter_tally as enter_tally
    from pasur_cli.store.actions import take_back as take_back
    from pasur_cli.store.database import Store as Store
