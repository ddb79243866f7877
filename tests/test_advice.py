"""The analysis engine (pasur_cli.engine.advice and its simulator, engine.playout): the same rules
as the referee, honest values, labels where a play cost points, and `pasur review` / `pasur hint`.

The simulator is checked against the referee on random seeded deals of every player count under
many rule sets: the same legal captures as ``legal_captures``, and playouts that replay through the
real ``Deal`` to the same scores. Effort is kept small here (a few guessed deals): the tests check
what the engine says, bench/strength.py how well it plays.
"""

from __future__ import annotations

import json
import random

import pytest
from simulate import random_plays, random_table

import pasur_cli as pasur
from pasur_cli.engine import playout as sim
from pasur_cli.engine.advice import INDEX, hint, quick, simulated_game, simulated_position
from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import DECK, parse_card, parse_cards
from pasur_cli.engine.deal import Deal
from pasur_cli.engine.match import Match, side_names
from pasur_cli.engine.rules import PRESETS, parse_rules

RULE_SETS = [
    PRESETS["standard"], PRESETS["pagat"],
    parse_rules("standard", ["capture_mode=rank"]),
    parse_rules("pagat", ["jack_capture=sum11", "multi_capture=true"]),
    parse_rules("standard", ["jack_sur=false", "last_hand_sur=false", "court_capture=one", "sur_cancel=true"]),
    parse_rules("pagat", ["three_player_clubs=none", "seven_diamonds=1", "sur_points=10", "sur_limit=none"]),
    parse_rules("standard", ["teams=false", "multi_capture=false", "jack_capture=sum11"]),
]
PLAYERS = [["Ali", "Sara"], ["Ali", "Sara", "Reza"], ["Ali", "Sara", "Reza", "Mina"]]


def random_deal(seed: int, players: list[str], rules, stop: int | None = None, totals=None):
    """A deal of random legal plays (the first ``stop`` of them)."""
    rng = random.Random(seed)
    table, stock = random_table(rng, rules)
    deal = Deal(players, side_names(players, rules.teams), seed % len(players), rules, table, totals)
    for player, card, take in random_plays(rng, deal, stock):
        if stop is not None and deal.played >= stop:
            break
        deal.play(card, take, by=player)
    return deal


def test_the_simulator_lists_the_referees_captures():
    """On random tables of random deals, every rule set: each card's captures as legal_captures."""
    checked = 0
    for seed in range(60):
        rules = RULE_SETS[seed % len(RULE_SETS)]
        players = PLAYERS[seed % 3]
        deal = random_deal(seed, players, rules, stop=random.Random(seed).randrange(0, 40))
        game = simulated_game(deal)
        table = tuple(sorted(INDEX[c] for c in deal.table))
        for card in deal.unseen_cards[::3]:
            found = legal_captures(card, deal.table, rules)
            if found.truncated:
                continue
            mine = sorted(tuple(DECK[i] for i in take) for take in sim.captures(INDEX[card], table, game))
            assert mine == sorted(found.options), (card, deal.table, rules)
            checked += 1
    assert checked > 500


def determinized(deal: Deal, rng: random.Random) -> sim.Position:
    """The deal's position with its hidden cards guessed at random (hands of the sizes held)."""
    game = simulated_game(deal)
    pos = simulated_position(deal, game)
    held = deal.cards_left()
    sizes = [held[p] for p in deal.players]
    pos.hands, pos.stock = sim.deal_hidden(rng, [INDEX[c] for c in deal.unseen_cards], sizes)
    return pos


@pytest.mark.parametrize("seed", range(21))
def test_playouts_replay_through_the_referee_to_the_same_scores(seed):
    """Play a random position to its end with the playout policy; the same plays entered into the
    real Deal are all accepted and score the same, for every player count and rule set."""
    rng = random.Random(seed)
    rules = RULE_SETS[seed % len(RULE_SETS)]
    players = PLAYERS[seed % 3]
    totals = {s: rng.choice((0, 55)) for s in dict.fromkeys(side_names(players, rules.teams))}
    deal = random_deal(seed, players, rules, stop=rng.randrange(0, 30), totals=totals)
    game = simulated_game(deal)
    pos = determinized(deal, rng)
    while pos.played < game.total_plays:
        card, move = sim.policy(pos, game)
        seat = sim.turn(pos, game)
        assert deal.turn == players[seat]
        deal.play(DECK[card], [DECK[c] for c in move[0]])
        sim.play_move(pos, game, card, move)
        assert sorted(DECK[c] for c in pos.table) == sorted(deal.table)
    scores = deal.score()
    sides = list(dict.fromkeys(deal.seat_sides))
    assert sim.scores(pos, game) == [scores[s].total for s in sides]
    assert pos.surs == [deal.surs[s] for s in sides]


@pytest.mark.parametrize("seed", range(12))
def test_the_playout_policy_decides_only_from_what_its_seat_can_know(seed):
    """The policy plays every seat in the guessed deals; a seat knows its hand, the table and the
    cards seen, so reshuffling everything it cannot see (the other hands and the stock) never
    changes its play."""
    rng = random.Random(seed)
    rules = RULE_SETS[seed % len(RULE_SETS)]
    players = PLAYERS[seed % 3]
    deal = random_deal(seed, players, rules, stop=rng.randrange(0, 30))
    game = simulated_game(deal)
    pos = determinized(deal, rng)
    seat = sim.turn(pos, game)
    chosen = sim.policy(pos, game)
    for _ in range(5):
        hidden = [c for k, h in enumerate(pos.hands) if k != seat for c in h] + pos.stock
        rng.shuffle(hidden)
        other = pos.copy()
        for k, hand in enumerate(other.hands):
            if k != seat:
                other.hands[k] = [hidden.pop() for _ in hand]
        other.stock = hidden
        other.live = None
        assert sim.policy(other, game) == chosen


@pytest.mark.parametrize("seed", range(9))
def test_advise_returns_exactly_the_legal_options(seed):
    rules = RULE_SETS[seed % len(RULE_SETS)]
    players = PLAYERS[seed % 3]
    rng = random.Random(seed)
    table, stock = random_table(rng, rules)
    match = Match(players, rules)
    match.start_deal(table)
    stop = rng.randrange(0, 20)
    hands: dict[str, list] = {}
    per_hand = 4 * len(players)
    for k in range(stop + 1):
        deal = match.deal
        if deal.played % per_hand == 0:
            hands = {p: [stock.pop() for _ in range(4)] for p in players}
        player = deal.turn
        if k == stop:
            advice = pasur.advise(match, hands[player], effort=2, seed=seed)
            expected = {(c, take) for c in hands[player]
                        for take in (legal_captures(c, deal.table, rules).options or [()])}
            assert {(a.card, a.take) for a in advice} == expected
            assert len(advice) == len(expected)
            assert [a.value for a in advice] == sorted((a.value for a in advice), reverse=True)
            assert advice == pasur.advise(match, hands[player], effort=2, seed=seed)  # same seed, same answer
            weighed = hint(match, hands[player], effort=2, most=6, seed=seed)  # what `pasur hint` shows
            assert sorted((a.card, a.take) for a in weighed) == sorted(expected)
            assert [a.value for a in weighed] == sorted((a.value for a in weighed), reverse=True)
            assert weighed == hint(match, hands[player], effort=2, most=6, seed=seed)
            return
        card = rng.choice(hands[player])
        hands[player].remove(card)
        options = legal_captures(card, deal.table, rules).options
        match.play(card, rng.choice(options) if options else [])


def test_the_last_play_of_a_deal_is_valued_exactly():
    """The last card of a deal: nothing is hidden and nothing is left to decide, so its value is
    the deal's margin after it, exactly."""
    for seed in range(6):
        rules = RULE_SETS[seed % 2]
        deal = random_deal(seed, ["Ali", "Sara"], rules, stop=47)
        card = deal.unseen_cards[0]
        advice = pasur.advise(deal, [card], effort=5)
        for a in advice:
            after = random_deal(seed, ["Ali", "Sara"], rules, stop=47)
            after.play(a.card, list(a.take))
            scores = after.score()
            me = after.side_of(deal.turn)
            other = next(s for s in scores if s != me)
            assert a.value == scores[me].total - scores[other].total


@pytest.mark.parametrize("preset", ["standard", "pagat"])
@pytest.mark.parametrize("players", PLAYERS)
def test_a_sweep_with_the_last_card_of_a_deal_is_valued_exactly(players, preset):
    """The last card of a deal takes the whole table (A♠ on A♣ 2♦ 3♥ 4♠); every other card is in
    a pile. Nothing is hidden and nothing is left to decide: its value is the deal's margin (the
    player's side less the average of the others) as the referee scores it, to the point."""
    rules = PRESETS[preset]
    sides = side_names(players, rules.teams)
    table = parse_cards("AC 2D 3H 4S")
    last = parse_card("AS")
    rest = [c for c in DECK if c not in table and c != last]
    order = list(dict.fromkeys(sides))
    piles = {side: rest[k::len(order)] for k, side in enumerate(order)}
    deal = Deal.from_position(players, rules, table, sides=sides, played=47, piles=piles,
                              last_capturer=players[1])
    assert deal.unseen_cards == (last,)
    (advice,) = pasur.advise(deal, [last], seed=3, effort=4)
    assert (advice.card, advice.take) == (last, tuple(table))
    mover = deal.side_of(deal.turn)
    deal.play(last, table)
    scores = {side: score.total for side, score in deal.score().items()}
    others = [total for side, total in scores.items() if side != mover]
    assert advice.value == pytest.approx(scores[mover] - sum(others) / len(others), abs=1e-9)


def random_match(players: list[str], rules, seed: int, stop: int) -> tuple[Match, list]:
    """A match whose first deal has had ``stop`` random legal plays, and the hand of the player to move."""
    rng = random.Random(seed)
    table, stock = random_table(rng, rules)
    match = Match(players, rules)
    match.start_deal(table)
    per_hand = 4 * len(players)
    hands: dict[str, list] = {}
    while True:
        deal = match.deal
        if deal.played % per_hand == 0:
            hands = {p: [stock.pop() for _ in range(4)] for p in players}
        if deal.played == stop:
            return match, hands[deal.turn]
        card = rng.choice(hands[deal.turn])
        hands[deal.turn].remove(card)
        options = legal_captures(card, deal.table, rules).options
        match.play(card, rng.choice(options) if options else [])


@pytest.mark.parametrize("players", PLAYERS[1:])
def test_a_last_hand_decision_is_weighed_in_every_way_the_cards_can_lie(players):
    """3 or 4 players, the last round of the last hand: the stock is out and the unseen cards can
    lie in the other hands in a few ways; every way is played, once, so the hint is the same
    whatever the seed (as it is not earlier in the deal, where the cards are guessed)."""
    rules = PRESETS["standard"]
    match, hand = random_match(players, rules, 7, 48 - 2 * len(players) + 1)
    assert hint(match, hand, seed=1) == hint(match, hand, seed=2)
    match, hand = random_match(players, rules, 7, 5)
    assert hint(match, hand, seed=1, most=12) != hint(match, hand, seed=2, most=12)


@pytest.mark.parametrize("seed", range(6))
def test_the_last_hand_of_a_two_player_deal_is_played_out_exactly(seed):
    """With the stock empty the cards a player has not seen are the other's hand: ``advise``
    plays the rest of the deal out by minimax, so its values do not depend on the seed, and when
    both players then follow its best option the deal ends with exactly the margin it promised."""
    rules = RULE_SETS[seed % 2]
    deal = random_deal(seed, ["Ali", "Sara"], rules, stop=40)
    unseen = list(deal.unseen_cards)
    assert deal.stock == 0 and len(unseen) == 8
    hands = {deal.turn: unseen[:4], next(p for p in deal.players if p != deal.turn): unseen[4:]}
    first = pasur.advise(deal, hands[deal.turn], seed=1)
    assert first == pasur.advise(deal, hands[deal.turn], seed=2)
    me = deal.side_of(deal.turn)
    while not deal.over:
        best = pasur.advise(deal, hands[deal.turn], seed=seed)[0]
        hands[deal.turn].remove(best.card)
        deal.play(best.card, list(best.take))
    scores = deal.score()
    other = next(s for s in scores if s != me)
    assert first[0].value == scores[me].total - scores[other].total


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


@pytest.mark.parametrize("players", [["Ali", "Sara"], ["Ali", "Sara", "Reza", "Mina"]])
def test_a_deal_played_by_the_engines_own_best_choices_reviews_with_no_label(players):
    """Every play the best option of `hint` (the engine's own choice, weighed until settled); the
    review, with the same seed and effort, weighs each in the same guesses and finds no cost."""
    rng = random.Random(4)
    match = Match(players, PRESETS["pagat"])
    table, stock = random_table(rng, match.rules)
    match.start_deal(table)
    weighed = []

    def best(m, hand):
        advice = hint(m, hand, seed=9, effort=2, most=4)
        weighed.append(len(advice))
        return advice[0].card, advice[0].take
    play_deal(match, stock, best)
    review = pasur.review(match, 1, seed=9, effort=2, most=4)
    assert [p.choices for p in review.plays] == weighed
    assert all(p.label is None and p.loss == 0 for p in review.plays)
    assert sum(p.choices > 1 for p in review.plays) > 10
    assert all((p.best_card, p.best_take) == (p.card, p.take) for p in review.plays)


@pytest.mark.parametrize("preset", ["standard", "pagat"])
def test_trailing_instead_of_an_obvious_sur_is_a_mistake_or_a_blunder(preset):
    """Sara leads on A♣ 2♦ 3♥ 4♠ (they sum to 10) holding A♠, which takes all four: a sur. She
    trails K♦ instead; the rest of the deal is played by the playout policy. The review marks
    her first play and names the sur as the better option."""
    match = Match(["Ali", "Sara"], PRESETS[preset])
    table = parse_cards("AC 2D 3H 4S")
    held = parse_cards("AS 8H KD QC")
    others = [c for c in DECK if c not in table and c not in held]
    random.Random(5).shuffle(others)
    stock = others[:-4] + held[::-1] + others[-4:]  # Ali is dealt the last four, then Sara these
    match.start_deal(table)
    assert match.deal.turn == "Sara"

    def choose(m, hand):
        return (parse_card("KD"), ()) if m.deal.played == 0 else quick(m, hand)
    play_deal(match, stock, choose)
    first = pasur.review(match, 1, seed=1, effort=2, most=4).plays[0]
    assert (first.player, first.card, first.take) == ("Sara", parse_card("KD"), ())
    assert first.label in ("mistake", "blunder"), first
    assert (first.best_card, first.best_take) == (parse_card("AS"), tuple(table))


def test_the_review_of_a_team_deal_names_each_player():
    rng = random.Random(8)
    players = ["Ali", "Sara", "Reza", "Mina"]
    match = Match(players, PRESETS["standard"])
    table, stock = random_table(rng, match.rules)
    match.start_deal(table)
    play_deal(match, stock, quick)
    review = pasur.review(match, 1, effort=2, most=2)
    assert [p.player for p in review.players] == ["Sara", "Reza", "Mina", "Ali"]
    assert {p.player for p in review.plays} == set(players)


def test_advise_refuses_a_seen_card_a_wrong_size_and_no_deal():
    match = Match(["Ali", "Sara"], PRESETS["standard"])
    with pytest.raises(pasur.IllegalPlayError):
        pasur.advise(match, ["2S"])
    match.start_deal(parse_cards("5C 9D 3H KS"))
    with pytest.raises(pasur.IllegalPlayError) as seen:
        pasur.advise(match, ["5C", "2S", "7D", "8D"])
    assert seen.value.facts["card"] == parse_card("5C")
    with pytest.raises(pasur.IllegalPlayError) as size:
        pasur.advise(match, ["2S", "7D"])
    assert size.value.facts["count"] == 4 and size.value.facts["given"] == 2
    with pytest.raises(pasur.IllegalPlayError):
        pasur.review(match, 1)


# -- the commands ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang,word", [("en", "initial table"), ("de", "Anfangstisch"), ("es", "mesa inicial"), ("fa", "زمین آغازین")])
def test_hint_refuses_a_card_already_seen_in_every_language(pasur, lang, word):
    assert pasur("new", "Ali", "Sara").exit_code == 0
    assert pasur("deal", "5C", "9D", "3H", "KS").exit_code == 0
    result = pasur("--lang", lang, "hint", "5C", "2S", "7D", "8D")
    assert result.exit_code == 1
    assert word in result.output


def test_hint_lists_every_option_best_first_and_changes_nothing(pasur):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    before = pasur("show", "--json").output
    result = pasur("hint", "2S", "6D", "QH", "AD", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["player"] == "Sara"
    assert [(o["card"], o["take"]) for o in data["options"]] and len(data["options"]) == 4
    values = [o["value"] for o in data["options"]]
    assert values == sorted(values, reverse=True)
    assert {o["card"] for o in data["options"]} == {"2S", "6D", "QH", "AD"}
    assert pasur("show", "--json").output == before
    text = pasur("hint", "2S", "6D", "QH", "AD").output
    assert "Sara" in text and "2♠ taking 9♦" in text


def test_review_of_an_unfinished_match_and_of_a_tallied_deal_says_so(pasur):
    pasur("new", "Ali", "Sara")
    result = pasur("review")
    assert result.exit_code == 1 and "nothing to review" in result.output
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    result = pasur("review")
    assert result.exit_code == 1 and "tallied" in result.output


@pytest.mark.parametrize("lang,words", [
    ("en", ("mistake", "better", "choices")), ("de", ("Fehler", "besser", "Entscheidungen")),
    ("es", ("error", "mejor", "decisiones")), ("fa", ("اشتباه", "بهتر", "تصمیم")),
])
def test_review_text_in_every_language(lang, words):
    from pasur_cli.engine.advice import DealReview, PlayReview
    from pasur_cli.text import i18n
    from pasur_cli.text.render import Look
    from pasur_cli.text.review import review_text
    c = parse_card
    plays = (PlayReview("Sara", 3, c("7C"), (c("4D"),), c("7C"), (c("AH"), c("3S")), 2.4, "mistake", 3),
             PlayReview("Ali", 3, c("KS"), (), c("KS"), (), 0.0, None, 1))
    i18n.set_language(lang)
    text = review_text(Look(ascii=True), [DealReview(2, plays)])
    for word in words:
        assert word in text
    assert "-2.4" in text and "7C" in text and "AH 3S" in text


def test_review_json_carries_each_play_and_each_player():
    from pasur_cli.engine.advice import DealReview, PlayReview
    from pasur_cli.text.review import review_json
    c = parse_card
    plays = (PlayReview("Sara", 3, c("7C"), (c("4D"),), c("7C"), (c("AH"), c("3S")), 2.4, "mistake", 3, 1.6),
             PlayReview("Ali", 3, c("KS"), (), c("KS"), (), 0.0, None, 1))
    data = json.loads(json.dumps(review_json(4, [DealReview(2, plays)])))
    assert data["match"] == 4 and data["deals"][0]["deal"] == 2
    first, second = data["deals"][0]["plays"]
    assert first == {"player": "Sara", "hand": 3, "card": "7C", "take": ["4D"], "best_card": "7C",
                     "best_take": ["AH", "3S"], "loss": 2.4, "label": "mistake", "choices": 3, "lead": 1.6,
                     "value": 0.0, "best_value": 0.0, "options": [], "reason": None}
    assert second["label"] is None and second["choices"] == 1 and second["take"] == []
    assert data["deals"][0]["players"] == [{"player": "Sara", "choices": 1, "lost": 2.4, "worst": [0]},
                                           {"player": "Ali", "choices": 0, "lost": 0.0, "worst": []}]


def test_hint_text_shows_a_value_that_rounds_to_nothing_as_plus_zero():
    from pasur_cli.engine.advice import Advice
    from pasur_cli.text.render import Look
    from pasur_cli.text.review import hint_text
    c = parse_card
    text = hint_text(Look(ascii=True), "Sara", (Advice(c("6D"), (c("5C"),), -0.04), Advice(c("AD"), (), -1.26)))
    assert "+0.0  6D taking 5C" in text and "-1.3  trail AD" in text and "-0.0" not in text


def test_hint_after_the_match_is_won_says_the_match_is_over(pasur):
    """Not "enter the table of deal 5": no deal 5 is coming, as `pasur deal` and `pasur play` say."""
    pasur("new", "Ali", "Sara")
    for _ in range(4):
        assert pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
                     "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", "Ali=1").exit_code == 0
    result = pasur("hint", "AS")
    assert result.exit_code == 1
    assert "the match is over: Ali won" in result.output and "enter the table" not in result.output


def test_review_of_a_deal_that_never_came_says_which_deals_there_are(pasur):
    """A finished match's deal 6, or deal 9 of a match at deal 2: not "is not finished" (it never
    will be); the deal being played still is "not finished"."""
    pasur("new", "Ali", "Sara")
    tally = ["tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
             "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes"]
    assert pasur(*tally).exit_code == 0
    pasur("deal", "5C", "9D", "3H", "KS")
    assert "deal 2 is not finished" in pasur("review", "--deal", "2").output
    result = pasur("review", "--deal", "9")
    assert result.exit_code == 1
    assert "this match has no deal 9: the last finished deal is deal 1." in result.output
    pasur("undo")
    for _ in range(3):
        assert pasur(*tally, "--surs", "Ali=1").exit_code == 0
    for deal in ("5", "6"):
        assert f"no deal {deal}: the last finished deal is deal 4" in pasur("review", "--deal", deal).output
    assert "tallied" in pasur("review", "--deal", "4").output


@pytest.mark.soak
@pytest.mark.skipif(__import__("os").name != "posix", reason="needs a pseudo-terminal")
def test_a_review_longer_than_the_terminal_is_paged_one_shot_and_printed_in_the_session(pasur, db):
    """Some fifty lines at a 24-row terminal: `pasur review` pages it (as `log` does), so its first
    plays do not scroll away unread; the session's `review` writes it into the session's own
    scrollback, never through a pager (the lines typed next are the session's), and the session
    goes on: its prompt comes back and takes the next command."""
    import os
    import sys
    from pathlib import Path

    import pexpect
    examples = Path(__file__).resolve().parent.parent / "examples"
    assert pasur("import", str(examples / "season-1.json")).exit_code == 0
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "LESS")}
    environ.update(PASUR_DB=str(db), NO_COLOR="1", TERM="xterm", PAGER="sed s/^/PAGED:/")
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "--match", "1", "review", "--deal", "1"], env=environ,
                          encoding="utf-8", timeout=60, dimensions=(24, 80))
    try:
        child.expect_exact("PAGED:Deal ")
        child.expect_exact("PAGED:Ali: ")
    finally:
        child.close(force=True)
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "--match", "1", "session"], env=environ,
                          encoding="utf-8", timeout=60, dimensions=(24, 80))
    try:
        child.expect_exact("› ")
        child.sendline("review")
        child.expect_exact("Ali: ")
        child.expect_exact("› ")
        shown = child.before
        child.sendline("matches")
        child.expect_exact("› ")
        assert "PAGED:" not in shown + child.before
        assert "Sara" in child.before
    finally:
        child.close(force=True)
