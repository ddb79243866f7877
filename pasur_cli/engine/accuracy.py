"""A player's accuracy: the expected points lost per decision with a choice (Pasur's "average
loss"), over any reviewed deals: one deal, a match, the record book.

A decision counts when its player had more than one legal option (``PlayReview.choices > 1``);
a play with one option decides nothing and is left out of both sums. Names are matched as the
record book matches them (``name_key``); a player is named as spelt in the last review given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pasur_cli.engine.names import name_key
from pasur_cli.engine.values import Value

if TYPE_CHECKING:
    from pasur_cli.engine.advice import DealReview


class Accuracy(Value):
    """One player's accuracy over ``deals`` reviewed deals: ``decisions`` made with a choice and the
    expected points ``lost`` in them."""

    player: str
    deals: int = 0
    decisions: int = 0
    lost: float = 0.0

    @property
    def per_decision(self) -> float | None:
        """Expected points lost per decision with a choice (None before any decision)."""
        return self.lost / self.decisions if self.decisions else None

    def __add__(self, other: Accuracy) -> Accuracy:
        """The accuracy over both sets of deals, named as ``other`` spells the player."""
        return Accuracy(other.player, self.deals + other.deals, self.decisions + other.decisions,
                        self.lost + other.lost)

    def as_json(self) -> dict[str, object]:
        """The figures and the rate made from them (``lost`` to two decimals, the rate to four)."""
        rate = self.per_decision
        return {"player": self.player, "deals": self.deals, "decisions": self.decisions,
                "lost": round(self.lost, 2), "lost_per_decision": None if rate is None else round(rate, 4)}


def deal_accuracy(review: DealReview) -> tuple[Accuracy, ...]:
    """Each player's accuracy in one reviewed deal, in the order they first played."""
    found: dict[str, Accuracy] = {}
    for play in review.plays:
        mine = found.get(play.player, Accuracy(play.player, 1))
        if play.choices > 1:
            mine = mine.replace(decisions=mine.decisions + 1, lost=mine.lost + play.loss)
        found[play.player] = mine
    return tuple(found.values())


def accuracy(reviews: Iterable[DealReview]) -> tuple[Accuracy, ...]:
    """Each player's accuracy over ``reviews`` (a match's, the record book's), in the order they
    first played."""
    return combined(a for review in reviews for a in deal_accuracy(review))


def combined(parts: Iterable[Accuracy]) -> tuple[Accuracy, ...]:
    """Accuracies of the same player (by ``name_key``) added up, in the order each player first comes."""
    found: dict[str, Accuracy] = {}
    for part in parts:
        key = name_key(part.player)
        found[key] = found[key] + part if key in found else part
    return tuple(found.values())
