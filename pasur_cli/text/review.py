"""What `pasur review` and `pasur hint` print: a deal's plays with their cost, a hand's options.

Kept apart from render so that no other command loads the analysis engine's presentation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pasur_cli.engine.errors import Plural, Words

if TYPE_CHECKING:
    from pasur_cli.engine.advice import Advice, DealReview, PlayReview
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.stats import Accuracy
    from pasur_cli.text.render import Look



def label_words(label: str) -> Words:
    """A play's label (the engine's ``inaccuracy``, ``mistake``, ``blunder``) in the reader's language."""
    if label == "blunder":
        return Words("blunder")
    if label == "mistake":
        return Words("mistake")
    return Words("inaccuracy")


def points(value: float) -> str:
    """Expected points with one decimal and a sign (``+2.4``, ``-0.5``; ``+0.0``, never ``-0.0``)."""
    return f"{round(value, 1) + 0.0:+.1f}"


def option_words(card: Card, take: tuple[Card, ...]) -> Words:
    """A play as the advice names it: ``7♣ taking 4♦`` or ``trail 9♠`` (a fact for ``Look.say``)."""
    if take:
        return Words("{card} taking {take}", card=card, take=take)
    return Words("trail {card}", card=card)


def option_text(look: Look, card: Card, take: tuple[Card, ...]) -> str:
    return look.fact(option_words(card, take))


def play_line(look: Look, play: PlayReview) -> str:
    """One reviewed play: the hand, who played what, and when it cost a point or more, its label,
    its cost and the better option."""
    if play.take:
        line = look.say("hand {hand}: {player} plays {card} taking {take}", hand=play.hand, player=play.player,
                        card=play.card, take=play.take)
    else:
        line = look.say("hand {hand}: {player} trails {card}", hand=play.hand, player=play.player, card=play.card)
    if play.label is not None:
        line += " — " + look.say("{label} ({loss}): better {best}", label=label_words(play.label),
                                 loss=points(-play.loss), best=option_words(play.best_card, play.best_take))
    return line


def review_text(look: Look, reviews: list[DealReview]) -> str:
    """Each reviewed deal's plays, then a line per player: choices made, expected points lost,
    the two worst plays; with several deals, a summary of them all per player."""
    lines: list[str] = []
    for review in reviews:
        if lines:
            lines.append("")
        lines.append(look.say("Deal {deal}, each play weighed with what its player knew then"
                              " (own hand, the table, the cards seen):", deal=review.deal))
        lines.extend("  " + play_line(look, p) for p in review.plays)
        for summary in review.players:
            line = summary_line(look, summary.player, summary.choices, summary.lost)
            if summary.worst:
                worst = [Words("hand {hand} {option} ({loss})", hand=review.plays[i].hand,
                               option=option_words(review.plays[i].card, review.plays[i].take),
                               loss=points(-review.plays[i].loss)) for i in summary.worst]
                if len(worst) == 1:
                    line += "; " + look.say("worst: {first}", first=worst[0])
                else:
                    line += "; " + look.say("worst: {first}, {second}", first=worst[0], second=worst[1])
            lines.append(line)
    if len(reviews) > 1:
        lines.append("")
        lines.append(look.say_count("All {count} deal:", "All {count} deals:", len(reviews), count=len(reviews)))
        names = list(dict.fromkeys(p.player for r in reviews for p in r.players))
        for name in names:
            mine = [p for r in reviews for p in r.players if p.player == name]
            lines.append("  " + summary_line(look, name, sum(p.choices for p in mine), sum(p.lost for p in mine)))
    return "\n".join(lines)


def summary_line(look: Look, player: str, choices: int, lost: float) -> str:
    """A player's choices in a review and the points they lost (a decimal, which takes the plural)."""
    return look.say_count("{player}: {choices} choice, {lost} expected points lost",
                          "{player}: {choices} choices, {lost} expected points lost", choices,
                          player=player, choices=choices, lost=format(lost, ".1f"))


def review_json(match_id: int, reviews: list[DealReview]) -> dict[str, Any]:
    """Reviews as JSON: per deal its plays (cards as codes; ``lead``: how far the best option's value
    led the second's) and its per-player summary."""
    def codes(cards: tuple[Card, ...]) -> list[str]:
        return [c.code for c in cards]
    return {"match": match_id, "deals": [{
        "deal": r.deal,
        "plays": [{"player": p.player, "hand": p.hand, "card": p.card.code, "take": codes(p.take),
                   "best_card": p.best_card.code, "best_take": codes(p.best_take), "loss": p.loss,
                   "label": p.label, "choices": p.choices, "lead": p.lead} for p in r.plays],
        "players": [{"player": s.player, "choices": s.choices, "lost": s.lost, "worst": list(s.worst)}
                    for s in r.players],
    } for r in reviews]}


def hint_text(look: Look, player: str, advice: tuple[Advice, ...]) -> str:
    """A hand's options, best first, each with its expected deal margin."""
    lines = [look.say("{player}'s options, best first (expected deal points against the other side):",
                      player=player)]
    width = max(len(points(a.value)) for a in advice)
    for number, a in enumerate(advice, 1):
        lines.append(f"  {number}. {points(a.value):>{width}}  {option_text(look, a.card, a.take)}")
    return "\n".join(lines)


def hint_json(match_id: int, player: str, advice: tuple[Advice, ...]) -> dict[str, Any]:
    return {"match": match_id, "player": player,
            "options": [{"card": a.card.code, "take": [c.code for c in a.take], "value": a.value} for a in advice]}


def damaged_line(look: Look, match_id: int, deal: int) -> str:
    """What is said of a kept review that was refused: damaged, not trusted, made again."""
    return look.say("Match {match}, deal {deal}: the kept review is damaged; it was not trusted and was made again.",
                    match=match_id, deal=deal)


def accuracy_text(look: Look, accuracies: tuple[Accuracy, ...]) -> str:
    """Each player's accuracy (expected points lost per decision with a choice) over the deals
    reviewed, a line each under a heading."""
    lines = [look.say("Accuracy, expected points lost per decision with a choice (lower is better):")]
    for a in accuracies:
        rate = "-" if a.per_decision is None else format(a.per_decision, ".2f")
        lines.append("  " + look.say("{player}: {rate} over {decisions} in {deals}", player=a.player, rate=rate,
                                     decisions=Words(Plural("{n} decision", "{n} decisions", "n"), n=a.decisions),
                                     deals=Words(Plural("{n} deal", "{n} deals", "n"), n=a.deals)))
    return "\n".join(lines)
