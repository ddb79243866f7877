"""A review's reasons: each marked play's loss split into the scoring parts of the deal (they add
up to it, from the same guessed deals), a sentence naming the largest part with its cards, the
values and parts in `review --json` and `hint`, and how a review reaches the screen."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simulate import random_table

import pasur_cli as pasur
from pasur_cli.engine.advice import DealReview, PlayReview, Reason, Reply, hint, quick
from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import DECK, parse_card, parse_cards
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import PRESETS
from pasur_cli.engine.weighing import PARTS
from pasur_cli.text.render import Look
from pasur_cli.text.review import review_json, review_text


def play_deal(match: Match, stock: list, choose) -> None:
    """Play the match's deal in progress to its end, ``choose(match, hand)`` picking each play."""
    hands: dict[str, list] = {}
    players = match.players
    while match.deal is not None:
        deal = match.deal
        if deal.played % (4 * len(players)) == 0:
            hands = {p: [stock.pop() for _ in range(4)] for p in players}
        card, take = choose(match, hands[deal.turn])
        hands[deal.turn].remove(card)
        match.play(card, list(take))


def careless(rng: random.Random):
    """A player who plays a random legal option half the time, the policy's the other half."""
    def choose(match: Match, hand: list):
        if rng.random() < 0.5:
            return quick(match, hand)
        card = rng.choice(hand)
        takes = legal_captures(card, match.deal.table, match.rules).options
        return card, tuple(rng.choice(takes)) if takes else ()
    return choose


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from([["Ali", "Sara"], ["Ali", "Sara", "Reza"]]),
       preset=st.sampled_from(["standard", "pagat"]))
def test_the_parts_of_every_marked_play_add_up_to_its_loss(seed, players, preset):
    """Random careless deals: every marked play (an inaccuracy or worse) has a reason whose parts (the best
    option's less the play's, from the very guesses that weighed them) add up to its loss, and
    whose values are the play's and the best option's among every legal option listed."""
    rng = random.Random(seed)
    match = Match(players, PRESETS[preset])
    table, stock = random_table(rng, match.rules)
    match.start_deal(table)
    play_deal(match, stock, careless(rng))
    review = pasur.review(match, 1, seed=seed % 1000, effort=2, most=8)
    assert any(p.label for p in review.plays), "a careless deal has a marked play"
    for play in review.plays:
        if play.label is None:
            assert play.reason is None
            continue
        assert play.reason is not None and set(play.reason.parts) <= set(PARTS)
        assert sum(play.reason.parts.values()) == pytest.approx(play.loss, abs=0.005 + 0.0005 * len(PARTS))
        assert play.best_value - play.value == pytest.approx(play.loss, abs=0.01)
        values = {(a.card, a.take): a.value for a in play.options}
        assert len(values) == play.choices
        assert values[(play.card, play.take)] == play.value and values[(play.best_card, play.best_take)] == max(
            values.values())


def sara_first(preset: str, table: str, held: str, first: str, take: str) -> PlayReview:
    """Sara leads on ``table`` holding ``held`` and plays ``first`` taking ``take``; the rest of the
    deal is played by the playout policy. Her first play, reviewed."""
    match = Match(["Ali", "Sara"], PRESETS[preset])
    cards, hand = parse_cards(table), parse_cards(held)
    others = [c for c in DECK if c not in cards and c not in hand]
    random.Random(5).shuffle(others)
    stock = others[:-4] + hand[::-1] + others[-4:]  # Ali is dealt the last four, then Sara these
    match.start_deal(cards)
    assert match.deal.turn == "Sara"

    def choose(m, hand):
        return (parse_card(first), tuple(parse_cards(take))) if m.deal.played == 0 else quick(m, hand)
    play_deal(match, stock, choose)
    return pasur.review(match, 1, seed=1, effort=4, most=16).plays[0]


@pytest.mark.parametrize("preset", ["standard", "pagat"])
def test_a_trail_instead_of_an_obvious_sur_is_said_to_miss_the_sur_and_its_card(preset):
    """A♠ takes A♣ 2♦ 3♥ 4♠, the whole table: a sur. Sara trails K♦; the reason names the sur
    and the A♠ that makes it, and its parts begin with the own surs."""
    from pasur_cli.text.review import reason_text
    play = sara_first(preset, "AC 2D 3H 4S", "AS 8H KD QC", "KD", "")
    assert play.label in ("mistake", "blunder") and play.reason is not None
    assert play.reason.largest == "surs_for"
    said = reason_text(Look(ascii=True), play)
    assert "AS sweeps the table now: a sur." in said
    assert said.index("own surs -") < said.index("(") + 3


def test_a_play_whose_only_difference_is_the_ten_of_diamonds_names_it():
    """A♥ can take 10♦ or 10♠ (pagat: one set); Sara takes the 10♠. Nothing else differs, so
    the reason is the 10♦: the better play takes it now, and the parts say so."""
    from pasur_cli.text.review import reason_text
    play = sara_first("pagat", "10D 10S KC QH", "AH 4H 5H 6H", "AH", "10S")
    assert (play.best_card, play.best_take) == (parse_card("AH"), (parse_card("10D"),))
    assert play.reason is not None and play.reason.largest == "ten_diamonds"
    said = reason_text(Look(ascii=True), play)
    assert said.startswith("The better play takes 10D now.") and "(10D -" in said


def test_hint_splits_each_option_into_parts_that_add_up_to_its_value():
    rng = random.Random(3)
    match = Match(["Ali", "Sara"], PRESETS["standard"])
    table, stock = random_table(rng, match.rules)
    match.start_deal(table)
    hands = {p: [stock.pop() for _ in range(4)] for p in match.players}
    advice = hint(match, hands[match.deal.turn], seed=2, effort=4, most=8)
    assert len(advice) > 1
    for option in advice:
        assert sum(option.parts.values()) == pytest.approx(option.value, abs=0.01)


def example_review() -> DealReview:
    c = parse_card
    reason = Reason({"surs_against": 6.1, "two_clubs": 1.9, "clubs": 0.7}, (c("5D"), c("6C")),
                    Reply("Ali", (c("5D"), c("6C")), True, 6, 10), 0, 10)
    options = (pasur.Advice(c("5D"), (c("6C"),), -1.8), pasur.Advice(c("8D"), (c("3S"),), -10.6))
    plays = (PlayReview("Sara", 5, c("8D"), (c("3S"),), c("5D"), (c("6C"),), 8.7, "blunder", 2, 8.8, -10.6, -1.8,
                        options, reason),
             PlayReview("Ali", 5, c("KS"), (), c("KS"), (), 0.0, None, 1))
    return DealReview(2, plays)


@pytest.mark.parametrize("lang,words", [
    ("en", ("which Ali swept for a sur in 6 guessed deals of 10", "surs against -6.1", "swing")),
    ("de", ("Ali", "Sur", "6", "10")), ("es", ("Ali", "sur", "6", "10")), ("fa", ("Ali", "سور", "6", "10")),
])
def test_a_reason_is_a_whole_sentence_in_every_language(lang, words):
    from pasur_cli.text import i18n
    i18n.set_language(lang)
    text = review_text(Look(ascii=True), [example_review()])
    for word in words:
        assert word in text
    assert "-1.8" in text and "-10.6" in text and "5D 6C" in text
    if lang != "en":
        assert "which" not in text and "guessed deals" not in text


def test_review_json_lists_every_option_and_the_reason_and_reads_back():
    review = example_review()
    data = json.loads(json.dumps(review_json(4, [review], Look(ascii=True))))
    first = data["deals"][0]["plays"][0]
    assert first["options"] == [{"card": "5D", "take": ["6C"], "value": -1.8},
                                {"card": "8D", "take": ["3S"], "value": -10.6}]
    assert (first["value"], first["best_value"]) == (-10.6, -1.8)
    assert first["reason"]["parts"] == {"surs_against": 6.1, "two_clubs": 1.9, "clubs": 0.7}
    assert first["reason"]["reply"] == {"player": "Ali", "take": ["5D", "6C"], "sur": True, "count": 6,
                                        "guesses": 10}
    assert "swept for a sur in 6 guessed deals of 10" in first["reason"]["sentence"]
    assert data["deals"][0]["plays"][1]["reason"] is None
    assert DealReview.from_dict(json.loads(json.dumps(review.as_dict()))) == review


def test_review_piped_fits_80_columns(pasur, db):
    from pathlib import Path

    from pasur_cli.text.layout import text_width
    examples = Path(__file__).resolve().parent.parent / "examples"
    assert pasur("import", str(examples / "season-1.json")).exit_code == 0
    result = pasur("--match", "1", "review", "--deal", "1")
    assert result.exit_code == 0 and "taking" in result.output
    lines = result.output.splitlines()
    assert max(text_width(line) for line in lines) <= 80
    assert any(line.startswith("    ") and "(" in line for line in lines)  # a reason under its play


# -- every reason names its cards: a sur that came later, the clubs, the table left ---------------------
def test_a_sur_that_comes_later_is_named_with_its_card_and_how_often():
    """Table 10♠ 5♣ Q♠ 6♥; Sara holds A♠ Q♥ 4♠ 8♦ and takes Q♠ with Q♥. A♠ taking 10♠ was
    better: it leaves 5♣ Q♠ 6♥, and when Ali clears the numerals (a jack takes them all) the Q♥ she
    kept sweeps the Q♠ for a sur. The reason counts her side's surs after each play in the same
    guesses and names that sweep, with its card."""
    from pasur_cli.text.review import reason_text
    play = sara_first("standard", "10S 5C QS 6H", "AS QH 4S 8D", "QH", "QS")
    reason = play.reason
    assert (play.best_card, play.best_take) == (parse_card("AS"), (parse_card("10S"),))
    assert reason is not None and reason.largest == "surs_for" and reason.own_sur is not None
    sur = reason.own_sur
    assert (sur.player, sur.card) == ("Sara", parse_card("QH")) and sur.made > sur.other
    assert 0 < sur.count <= sur.made and sur.guesses == reason.guesses
    said = reason_text(Look(ascii=True), play)
    assert said.startswith(f"After AS taking 10S, your side made {sur.made} surs in {sur.guesses} guessed deals;"
                           f" after the play, {sur.other}.")
    assert f"Sara sweeping with QH, in {sur.count} of them." in said


def test_the_table_left_at_the_deal_s_end_is_named_with_who_takes_it():
    """The last hand of a careless deal (pagat): Ali takes K♦ with K♠ and trails his 2♣ last, so
    Sara, the last to capture, takes 2♣ 8♦ from the table; 2♣ first keeps the last capture his.
    Everything is known then: the reason says which cards go to whom with best play."""
    from pasur_cli.text.review import reason_text
    rng = random.Random(2)
    match = Match(["Ali", "Sara"], PRESETS["pagat"])
    table, stock = random_table(rng, match.rules)
    match.start_deal(table)
    play_deal(match, stock, careless(rng))
    play = pasur.review(match, 1, seed=1, effort=4, most=16).plays[45]
    assert (play.player, play.card, play.take) == ("Ali", parse_card("KS"), (parse_card("KD"),))
    reason = play.reason
    assert reason is not None and reason.exact and reason.largest == "leftover"
    assert reason.table is not None and reason.table.end
    assert (reason.table.cards, reason.table.player) == (tuple(parse_cards("2C 8D")), "Sara")
    said = reason_text(Look(ascii=True), play)
    assert said.startswith("After the play, the last cards on the table, 2C 8D, go to Sara with best play.")


def test_a_loss_in_the_clubs_names_the_clubs_each_play_takes_and_leaves_and_how_often_each_led():
    """Table 3♣ 10♣ K♣ 2♣; Sara trails 4♦ holding J♦, which takes the three numeral clubs at once.
    The reason names those clubs, the ones her trail left to Ali, and how often her side ended
    with the most clubs after each play, in the same guesses."""
    from pasur_cli.text.review import reason_text
    play = sara_first("standard", "3C 10C KC 2C", "4D 7C JD 8H", "4D", "")
    reason = play.reason
    assert play.best_card == parse_card("JD") and reason is not None and reason.largest == "clubs"
    better, made = reason.led
    assert better > made and reason.fates and reason.fates[0].card.suit == "C"
    said = reason_text(Look(ascii=True), play)
    assert said.startswith("The better play takes 2C 3C 10C now. The play leaves ")
    assert (f"After the better play your side ended with the most clubs in {better} guessed deals of"
            f" {reason.guesses}; after the play, in {made}.") in said


def fact_review(largest: str, **facts) -> DealReview:
    """A one-play review whose reason is mostly ``largest``, with ``facts`` (engine.advice's ``facts``) and no
    reply: the sentence must come from the facts."""
    c = parse_card
    reason = Reason({largest: 2.5, "aces": 0.5}, (c("KS"),), None, 0, 20, **facts)
    play = PlayReview("Sara", 3, c("9D"), (), c("5D"), (c("6H"),), 3.0, "mistake", 3, 1.0, -2.0, 1.0,
                      (pasur.Advice(c("5D"), (c("6H"),), 1.0), pasur.Advice(c("9D"), (), -2.0)), reason)
    return DealReview(1, (play,))


def fact_reviews() -> list[DealReview]:
    from pasur_cli.engine.advice import Fate, Left, Sur
    c = parse_card
    return [fact_review("surs_for", own_sur=Sur("Sara", c("JS"), 4, 20, 5, 1)),
            fact_review("surs_against", their_sur=Sur("Ali", c("QH"), 3, 20, 6, 2)),
            fact_review("clubs", led=(12, 5), fates=(Fate(c("6C"), 15, 4, 20, "Ali", 14),)),
            fact_review("clubs", clubs=(7.5, 4.0, 6.0, 5.5)),
            fact_review("ten_diamonds", fates=(Fate(c("10D"), 9, 2, 20, "Ali", 11),)),
            fact_review("leftover", table=Left((c("KS"), c("2C")), "Ali", False, 8, 20)),
            fact_review("leftover", table=Left((c("2C"), c("8D")), "Ali", True, 7, 20)),
            fact_review("clubs", led=(1, 0), fates=(Fate(c("6C"), 1, 0, 1),), exact=True)]


@pytest.mark.parametrize("lang", ["en", "de", "es", "fa"])
def test_each_fact_a_reason_names_is_a_whole_sentence_with_its_cards_in_every_language(lang):
    """Own surs later, the other side's, the clubs led and a club's fate, the clubs held, a 10♦'s
    fate, the table left at a hand's end and at the deal's end, the clubs with best play (nothing
    hidden): each sentence names its cards,
    players and counts, in each language (never the general sentence), and reads back from JSON."""
    from pasur_cli.text import i18n
    from pasur_cli.text.review import reason_text
    i18n.set_language(lang)
    try:
        expected = [("JS", "Sara", "5", "20", "1"), ("QH", "Ali", "6", "20", "2"), ("6C", "12", "5", "15", "14"),
                    ("7.5", "4.0", "6.0", "5.5"), ("10D", "9", "2", "11", "Ali"), ("KS 2C", "Ali", "8", "20"),
                    ("2C 8D", "Ali", "7", "20"), ("6C",)]
        general = [i18n._("The better play leads to more surs of your own later."),
                   i18n._("The play leaves the other side more chances of a sur."),
                   i18n._("Most of the difference is in {part}.").split("{")[0]]
        for review, words in zip(fact_reviews(), expected, strict=True):
            said = reason_text(Look(ascii=True), review.plays[0])
            assert all(word in said for word in words), (said, words)
            assert not any(g in said for g in general), said
            if lang != "en":
                assert "guessed" not in said and "your side" not in said, said
            assert DealReview.from_dict(json.loads(json.dumps(review.as_dict()))) == review
    finally:
        i18n.set_language("en")
