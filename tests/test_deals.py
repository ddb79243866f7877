"""Random legal deals through the state machine: every card accounted for, every score adding up
(160 deals in the quick suite, 12,000 more in the soak tier)."""

import random

import pytest
from simulate import random_plays, random_table

from pasur_cli.engine.cards import DECK
from pasur_cli.engine.deal import Deal
from pasur_cli.engine.names import side_names
from pasur_cli.engine.rules import parse_rules

CASES = [(n, preset, teams) for n in (2, 3, 4) for preset in ("standard", "pagat") for teams in (True, False)
         if n == 4 or teams]
# 20 deals a case in the quick suite (160 in all), 1,500 a case more under soak (12,000)
DEALS = [20, pytest.param(1500, marks=pytest.mark.soak)]


@pytest.mark.parametrize("deals", DEALS)
@pytest.mark.parametrize("players,preset,teams", CASES)
def test_random_deals_account_for_every_card(players, preset, teams, deals):
    rng = random.Random(f"{players}{preset}{teams}{deals}")
    rules = parse_rules(preset, [f"teams={teams}"])
    names = ["Ali", "Sara", "Reza", "Mina"][:players]
    sides = side_names(names, rules.teams)
    for number in range(deals):
        table, stock = random_table(rng, rules)
        totals = {s: rng.choice([0, 30, 55]) for s in sides}
        deal = Deal(names, sides, number % players, rules, table, totals)
        for player, card, take in random_plays(rng, deal, stock):
            deal.play(card, take, by=player)
        piles = [c for pile in deal.piles.values() for c in pile]
        assert sorted(piles) == sorted(DECK)
        assert deal.table == [] and deal.unseen == 0
        surs = sum(deal.surs.values())
        if rules.sur_cancel:
            assert sum(1 for n in deal.surs.values() if n) <= 1
        scores = deal.score()
        total = sum(s.total for s in scores.values())
        clubs = any(s.clubs_points for s in scores.values())
        assert total == (20 if clubs else 13) + surs * rules.sur_points
        if len(set(sides)) == 2:
            assert clubs  # 13 clubs between two sides: one of them holds 7 or more
        for play in deal.plays:
            if play.sur:
                assert rules.sur_limit is None or totals[play.side] < rules.sur_limit
