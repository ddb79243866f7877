"""Random legal deals for the tests: a shuffled deck, a table that passes the check, hands dealt
4 at a time, and each player playing a random card of their hand with a random legal capture."""

from __future__ import annotations

import random

from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import DECK, Card, Rank
from pasur_cli.engine.deal import CARDS_PER_HAND, Deal, table_problem
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import Rules, parse_rules


def random_table(rng: random.Random, rules: Rules) -> tuple[list[Card], list[Card]]:
    """An initial table that passes the rules' check, and the stock left after it."""
    while True:
        stock = list(DECK)
        rng.shuffle(stock)
        table = [stock.pop() for _ in range(4)]
        while True:
            problem = table_problem(table, rules)
            if problem is None:
                return table, stock
            if "misdeal" in str(problem):
                break
            jack = next(c for c in table if c.rank == Rank.JACK)
            table.remove(jack)
            stock.insert(rng.randrange(len(stock) + 1), jack)
            table.append(stock.pop())


def random_plays(rng: random.Random, deal: Deal, stock: list[Card]):
    """Random legal plays for ``deal``: yields (player, card, take); the caller applies each one
    (to this deal, directly or through a Match or the CLI) before asking for the next."""
    players = deal.players
    hands: dict[str, list[Card]] = {p: [] for p in players}
    per_hand = CARDS_PER_HAND * len(players)
    while not deal.over:
        if len(deal.plays) % per_hand == 0:
            for p in players:
                hands[p] = [stock.pop() for _ in range(CARDS_PER_HAND)]
        player = deal.turn
        card = rng.choice(hands[player])
        hands[player].remove(card)
        options = legal_captures(card, deal.table, deal.rules).options
        take = list(rng.choice(options)) if options else []
        yield player, card, take


def random_match(rng: random.Random, match: Match):
    """Random legal actions for ``match`` until it is won, as log actions; the caller applies each
    (e.g. ``match.apply``) before asking for the next."""
    while not match.finished:
        table, stock = random_table(rng, match.rules)
        yield {"type": "deal", "table": [c.code for c in table]}
        deal = match.deal
        for player, card, take in random_plays(rng, deal, stock):
            yield {"type": "play", "card": card.code, "take": [c.code for c in take], "by": player}


def cli_args(action: dict) -> list[str]:
    """The pasur command line that records ``action`` (a deal's table or a play)."""
    if action["type"] == "deal":
        return ["deal", *action["table"]]
    return ["play", action["card"], "--take", " ".join(action["take"]), "--by", action["by"]]


def enter(pasur, action: dict):
    """Record ``action`` through ``pasur`` (the in-process test runner); returns its result."""
    return pasur(*cli_args(action))


def new_match(pasur, players: list[str], preset: str = "standard", overrides: list[str] = ()) -> Match:
    """Start a match with `pasur new` through ``pasur``; returns the engine's own twin of it."""
    assert pasur("new", *players, "--rules", preset, *[a for o in overrides for a in ("--rule", o)]).exit_code == 0
    return Match(list(players), parse_rules(preset, list(overrides)))
