"""What `pasur review` and `pasur hint` print: a deal's plays with their cost, a hand's options,
and why a marked play cost what it did (its reason: the largest scoring part of its loss named with
the cards the search found, ``engine.advice.Reason``, then the parts that weigh most).

Kept apart from render so that no other command loads the analysis engine's presentation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.cards import Card
from pasur_cli.engine.errors import Plural, Words

if TYPE_CHECKING:
    from pasur_cli.engine.advice import Advice, DealReview, PlayReview, Reason, Reply, Sur
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
        line += " — " + look.say("{label} ({loss}): better {best} ({best_value} against {value})",
                                 label=label_words(play.label), loss=points(-play.loss),
                                 best=option_words(play.best_card, play.best_take),
                                 best_value=points(play.best_value), value=points(play.value))
        if play.reason is not None:
            line += "\n    " + reason_text(look, play)
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
        if len(lines) == 1:
            lines.append(look.say("(Values are the expected margin of the deal's points, the player's side's"
                                  " less the other side's: a swing between the sides, not points lost from"
                                  " one's own score.)"))
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


def review_json(match_id: int, reviews: list[DealReview], look: Look | None = None) -> dict[str, Any]:
    """Reviews as JSON: per deal its plays (cards as codes; ``lead``: how far the best option's value
    led the second's; ``value``, ``best_value``; every legal ``option`` with its value; the
    ``reason`` of a marked play: its parts by name and its
    sentence in ``look``'s language) and its per-player summary."""
    def codes(cards: tuple[Card, ...]) -> list[str]:
        return [c.code for c in cards]
    return {"match": match_id, "deals": [{
        "deal": r.deal,
        "plays": [{"player": p.player, "hand": p.hand, "card": p.card.code, "take": codes(p.take),
                   "best_card": p.best_card.code, "best_take": codes(p.best_take), "loss": p.loss,
                   "label": p.label, "choices": p.choices, "lead": p.lead, "value": p.value,
                   "best_value": p.best_value, "options": [option_json(a) for a in p.options],
                   "reason": reason_json(look, p)} for p in r.plays],
        "players": [{"player": s.player, "choices": s.choices, "lost": s.lost, "worst": list(s.worst)}
                    for s in r.players],
    } for r in reviews]}


def hint_text(look: Look, player: str, advice: tuple[Advice, ...]) -> str:
    """A hand's options, best first, each with its expected deal margin."""
    lines = [look.say("{player}'s options, best first (expected deal points against the other side):",
                      player=player)]
    width = max(len(points(a.value)) for a in advice)
    for number, a in enumerate(advice, 1):
        line = f"  {number}. {points(a.value):>{width}}  {option_text(look, a.card, a.take)}"
        if number > 1 and a.parts:  # where it falls behind the best option, by part
            behind = {p: advice[0].parts.get(p, 0.0) - a.parts.get(p, 0.0) for p in {*a.parts, *advice[0].parts}}
            shown = parts_text(look, behind)
            line += f"  ({shown})" if shown else ""
        lines.append(line)
    return "\n".join(lines)


def option_json(advice: Advice) -> dict[str, Any]:
    """One option as JSON: the card and take as codes, its value and (when weighed) its parts."""
    found: dict[str, Any] = {"card": advice.card.code, "take": [c.code for c in advice.take], "value": advice.value}
    if advice.parts:
        found["parts"] = dict(advice.parts)
    return found


def reason_json(look: Look | None, play: PlayReview) -> dict[str, Any] | None:
    """A play's reason as JSON: its parts by name, the table it left, the reply that answered it
    most often, the facts its sentence names (``engine.advice.facts``: the surs after each play, the cards of
    its largest part, the clubs led and held, the table left at the end) and for a marked play its
    sentence (None: the play is not marked)."""
    reason = play.reason
    if reason is None:
        return None
    reply = reason.reply
    sentence = None
    if look is not None and play.label is not None:
        sentence = reason_text(look, play)
    table = reason.table
    return {"parts": dict(reason.parts), "left": [c.code for c in reason.left],
            "reply": None if reply is None else {"player": reply.player, "take": [c.code for c in reply.take],
                                                 "sur": reply.sur, "count": reply.count,
                                                 "guesses": reply.guesses},
            "swept": reason.swept, "guesses": reason.guesses, "exact": reason.exact,
            "own_sur": _sur_json(reason.own_sur), "their_sur": _sur_json(reason.their_sur),
            "fates": [{**f.as_dict(), "card": f.card.code} for f in reason.fates],
            "led": list(reason.led), "clubs": list(reason.clubs),
            "table": None if table is None else {**table.as_dict(), "cards": [c.code for c in table.cards]},
            "sentence": sentence}


def _sur_json(sur: Sur | None) -> dict[str, Any] | None:
    """A reason's sur fact as JSON (its card as a code)."""
    return None if sur is None else {**sur.as_dict(), "card": sur.card.code}


def hint_json(match_id: int, player: str, advice: tuple[Advice, ...]) -> dict[str, Any]:
    return {"match": match_id, "player": player, "options": [option_json(a) for a in advice]}


# -- reasons: why a reviewed play cost what it did ----------------------------------------------------
SHOWN = 3  # the parts a reason lists at most
CARD_PARTS: dict[str, Callable[[Card], bool]] = {  # the cards that score in a part
    "two_clubs": lambda c: c == Card(2, "C"), "ten_diamonds": lambda c: c == Card(10, "D"),
    "seven_diamonds": lambda c: c == Card(7, "D"), "aces": lambda c: c.rank == 1,
    "jacks": lambda c: c.rank == 11, "clubs": lambda c: c.suit == "C"}


def part_words(name: str) -> Words | Card:
    """A scoring part of the deal (``engine.parts.PARTS``) as a reason names it."""
    if name == "surs_for":
        return Words("own surs")
    if name == "surs_against":
        return Words("surs against")
    if name == "clubs":
        return Words("clubs")
    if name == "aces":
        return Words("aces")
    if name == "jacks":
        return Words("jacks")
    if name == "leftover":
        return Words("the table left")
    rank, suit = {"two_clubs": (2, "C"), "ten_diamonds": (10, "D")}.get(name, (7, "D"))
    return Card(rank, suit)


def parts_text(look: Look, parts: dict[str, float], sign: float = -1.0) -> str:
    """The parts that weigh most, largest first, as ``surs against -6.1, 2♣ -1.9`` (``sign``: -1,
    a loss said from the play made's side)."""
    from pasur_cli.text.render import comma
    ranked = sorted((p for p in parts if round(parts[p], 1)), key=lambda p: -abs(parts[p]))[:SHOWN]
    return comma().join(look.say("{part} {points}", part=part_words(p), points=points(sign * parts[p]))
                     for p in ranked)


def reason_text(look: Look, play: PlayReview) -> str:
    """The reason of a marked play: a sentence on its largest part with the cards, then its parts."""
    reason = play.reason
    assert reason is not None
    largest = reason.largest
    if largest in ("surs_for", "surs_against"):
        said = _surs(look, play, reason, largest)
    elif largest in CARD_PARTS:  # the clubs too: which clubs each play takes
        said = _cards_sentence(look, play, reason, largest)
    else:
        said = _table(look, reason) or look.say("Most of the difference is in {part}.", part=part_words(largest))
    return said + " (" + parts_text(look, dict(reason.parts)) + ")"


def _surs(look: Look, play: PlayReview, reason: Reason, largest: str) -> str:
    """The sentence of a loss mostly in surs: the better play's sweep now, the reply's sur, or the
    surs that came later (a side's surs also cancel the other's where the rules say so: the part
    may be explained by the other side's surs)."""
    before = _table_before(play, reason)
    if play.best_take and set(play.best_take) == set(before):
        return look.say("{card} sweeps the table now: a sur.", card=play.best_card)
    reply = reason.reply
    if largest == "surs_against" and reply is not None and reply.sur:
        return _reply_sur(look, reason, reply)
    best = option_words(play.best_card, play.best_take)
    later = [(reason.own_sur, best), (reason.their_sur, None)]
    for sur, after in later if largest == "surs_for" else later[::-1]:
        if sur is not None and sur.made > sur.other:
            return _later_sur(look, reason, sur, after)
    if largest == "surs_for":
        return look.say("The better play leads to more surs of your own later.")
    return look.say("The play leaves the other side more chances of a sur.")


def _reply_sur(look: Look, reason: Reason, reply: Reply) -> str:
    """The sentence of a play answered by a sur: the table it left, who swept it, how often."""
    if reason.exact:
        said = look.say("The play leaves {left}, which {player} sweeps for a sur with best play.",
                        left=reason.left, player=reply.player)
    else:
        said = look.say(Plural("The play leaves {left}, which {player} swept for a sur in {count} guessed deal"
                               " of {guesses}.", "The play leaves {left}, which {player} swept for a sur in"
                               " {count} guessed deals of {guesses}.", "count"), left=reason.left,
                        player=reply.player, count=reply.count, guesses=reply.guesses)
    if not reason.swept:
        said += " " + look.say("After the better play, no sur came in the same guesses.")
    return said


def _later_sur(look: Look, reason: Reason, sur: Sur, best: Words | None) -> str:
    """The surs that came later: of the player's side after the better play ``best``, or (``best``
    None) of the other side after the play, the most frequent named, against the other option's."""
    if reason.exact:
        if best is None:
            return look.say("After the play, {player} sweeps with {card} for a sur with best play.",
                            player=sur.player, card=sur.card)
        return look.say("After {best}, {player} sweeps with {card} for a sur with best play.", best=best,
                        player=sur.player, card=sur.card)
    if best is None:
        said = look.say(Plural("After the play, the other side made {made} sur in {guesses} guessed deals;"
                               " after the better play, {other}.", "After the play, the other side made {made}"
                               " surs in {guesses} guessed deals; after the better play, {other}.", "made"),
                        made=sur.made, guesses=sur.guesses, other=sur.other)
    else:
        said = look.say(Plural("After {best}, your side made {made} sur in {guesses} guessed deals; after the"
                               " play, {other}.", "After {best}, your side made {made} surs in {guesses} guessed"
                               " deals; after the play, {other}.", "made"),
                        best=best, made=sur.made, guesses=sur.guesses, other=sur.other)
    return said + " " + look.say(Plural("The most frequent: {player} sweeping with {card}, in {count} of them.",
                                        "The most frequent: {player} sweeping with {card}, in {count} of them.",
                                        "count"), player=sur.player, card=sur.card, count=sur.count)


def _cards_sentence(look: Look, play: PlayReview, reason: Reason, largest: str) -> str:
    """The sentence of a loss mostly in cards that score (2♣, 10♦, 7♦, aces, jacks, clubs): which
    ones the better play takes now, and which the play leaves to the reply; else (and for the
    clubs, always) how often each play's side ended with them."""
    kind = CARD_PARTS[largest]
    mine = {play.card, *play.take}
    gained = tuple(c for c in (play.best_card, *play.best_take) if kind(c) and c not in mine) if play.best_take else ()
    said = []
    if gained and reason.parts[largest] > 0:
        said.append(look.say("The better play takes {cards} now.", cards=gained))
    reply = reason.reply
    lost = tuple(c for c in reply.take if kind(c)) if reply is not None else ()
    if reply is not None and lost:
        said.append(look.say(Plural("The play leaves {cards}, which {player} took in {count} guessed deal of"
                                    " {guesses}.", "The play leaves {cards}, which {player} took in {count} guessed"
                                    " deals of {guesses}.", "count"), cards=lost, player=reply.player,
                             count=reply.count, guesses=reply.guesses))
    if largest == "clubs" or not said:  # the clubs: how often each play won them; a card unless one is named
        said.extend(_fates(look, reason, not said))
    if not said:
        said.append(look.say("Most of the difference is in {part}.", part=part_words(largest)))
    return " ".join(said)


def _fates(look: Look, reason: Reason, card: bool) -> list[str]:
    """How often the player's side ended with the most clubs (the clubs' part) after each play and
    (``card``) with the card of the part whose fate differed most between them."""
    said = []
    if len(reason.led) == 2 and reason.led[0] > reason.led[1] and reason.exact:
        said.append(look.say("With best play, your side ends with the most clubs after the better play, and not"
                             " after the play."))
    elif len(reason.led) == 2 and reason.led[0] > reason.led[1]:
        said.append(look.say(Plural("After the better play your side ended with the most clubs in {better} guessed"
                                    " deal of {guesses}; after the play, in {made}.", "After the better play your"
                                    " side ended with the most clubs in {better} guessed deals of {guesses}; after"
                                    " the play, in {made}.", "better"), better=reason.led[0],
                             guesses=reason.guesses, made=reason.led[1]))
    fate = reason.fates[0] if reason.fates and card else None
    if fate is None:
        clubs = reason.clubs
        if card and not said and len(clubs) == 4 and clubs[0] - clubs[1] > clubs[2] - clubs[3] and not reason.exact:
            said.append(look.say("Where the guessed deals ended, your side held {better} clubs on average after the"
                                 " better play against the other side's {their_better}, and {made} against"
                                 " {their_made} after the play.", better=format(clubs[0], ".1f"),
                                 their_better=format(clubs[1], ".1f"), made=format(clubs[2], ".1f"),
                                 their_made=format(clubs[3], ".1f")))
        return said
    if reason.exact:
        if fate.better and not fate.made:
            said.append(look.say("With best play, your side takes {card} after the better play and not after"
                                 " the play.", card=fate.card))
        return said
    said.append(look.say(Plural("Your side took {card} in {better} guessed deal of {guesses} after the better play,"
                                " in {made} after the play.", "Your side took {card} in {better} guessed deals of"
                                " {guesses} after the better play, in {made} after the play.", "better"),
                         card=fate.card, better=fate.better, guesses=fate.guesses, made=fate.made))
    if fate.player:
        said.append(look.say("After the play, {player} took it in {count} of them.", player=fate.player,
                             count=fate.taken))
    return said


def _table(look: Look, reason: Reason) -> str | None:
    """The sentence of a loss mostly in the table left: the cards the play left to the other side
    where the guesses ended and who took them (None: nothing to name)."""
    left = reason.table
    if left is None:
        return None
    if not left.end:
        return look.say(Plural("After the play, {cards} lay on the table for {player}, who leads the next hand, in"
                               " {count} guessed deal of {guesses}.", "After the play, {cards} lay on the table"
                               " for {player}, who leads the next hand, in {count} guessed deals of {guesses}.",
                               "count"), cards=left.cards, player=left.player, count=left.count,
                        guesses=left.guesses)
    if reason.exact:
        return look.say("After the play, the last cards on the table, {cards}, go to {player} with best play.",
                        cards=left.cards, player=left.player)
    return look.say(Plural("After the play, the last cards on the table, {cards}, went to {player} in {count}"
                           " guessed deal of {guesses}.", "After the play, the last cards on the table, {cards},"
                           " went to {player} in {count} guessed deals of {guesses}.", "count"),
                    cards=left.cards, player=left.player, count=left.count, guesses=left.guesses)


def _table_before(play: PlayReview, reason: Reason) -> tuple[Card, ...]:
    """The table the play was made on (from the table it left)."""
    if play.take:
        return tuple(sorted((*reason.left, *play.take)))
    return tuple(c for c in reason.left if c != play.card)


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
