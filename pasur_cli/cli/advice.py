"""The session's ``review`` and ``hint``: the analysis engine asked as `pasur review` and `pasur hint` ask it.

Imported only when a player asks, so that no other command or prompt pays for the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pasur_cli.engine.errors import IllegalPlayError

if TYPE_CHECKING:
    from pasur_cli.engine.advice import DealReview
    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Store
    from pasur_cli.text.render import Look


def reviewed(store: Store, match_id: int, numbers: Callable[[Match], list[int]],
             writer: Callable[[], Store | None],
             making: Callable[[int], None] | None = None) -> tuple[list[DealReview], tuple[int, ...]]:
    """The reviews of the finished deals ``numbers`` picks, the match loaded once (its whole log:
    a review replays a deal's plays) and replayed once: what `pasur review` and the session's
    ``review`` show. A kept review is read (store.reviews); any other is made and kept through the
    store ``writer`` gives (None: the file may only be read, and nothing is kept); ``making`` is told
    each deal's number before its review is made (it takes a few seconds). Returns them with
    the deals among them whose kept review was damaged (refused and made again). Raises
    IllegalPlayError when no deal is finished, PasurError as ``review``."""
    from pasur_cli.engine.advice import review as review_deal
    from pasur_cli.store.errors import StoreError
    from pasur_cli.store.reviews import keep, kept, review_row
    record = store.load(match_id, full=True)
    match = record.replay()
    if not match.results:
        raise IllegalPlayError("no deal of this match is finished yet: there is nothing to review.")
    wanted = numbers(match)
    found = kept(store, match_id, record.texts, match.completed_at)
    reviews, target = [], None
    for number in wanted:
        review = found.reviews.get(number)
        if review is None:
            if making is not None:
                making(number)
            review = review_deal(match, number)
            target = target or writer()
            try:
                if target is not None:
                    keep(target, review_row(match_id, review, record.texts, match.completed_at))
            except StoreError:  # not kept (a file being replaced, a full disk): shown all the same
                target = None
        reviews.append(review)
    return reviews, tuple(n for n in found.damaged if n in wanted)


def session_advice(look: Look, store: Store, match_id: int, command: str, words: list[str]) -> str:
    """The session's ``review`` (the last finished deal) and ``hint CARDS`` (the hand of the player
    to move), as the commands print them. Raises PasurError as they do."""
    from pasur_cli.engine.advice import hint as weigh_hand
    from pasur_cli.engine.advice import to_move
    from pasur_cli.engine.cards import parse_cards
    from pasur_cli.engine.errors import Words
    from pasur_cli.text.review import damaged_line, hint_text, review_text
    if command == "hint":
        hand = parse_cards(words, Words("hand"))
        match = store.match(match_id)[1]
        return hint_text(look, to_move(match), weigh_hand(match, hand))
    reviews, damaged = reviewed(store, match_id, lambda match: [match.results[-1].number],
                                lambda: store if store.write else None)
    return "\n".join([*(damaged_line(look, match_id, n) for n in damaged), review_text(look, reviews)])
