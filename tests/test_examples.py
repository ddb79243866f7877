"""The worked examples of RULES.md section 10, one named test each (pagat unless marked standard)."""

import pytest

from pasur_cli.engine.captures import capture_problem, legal_captures
from pasur_cli.engine.cards import parse_card, parse_cards
from pasur_cli.engine.deal import Deal, NoSur, table_problem
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.engine.rules import PRESETS, parse_rules
from pasur_cli.engine.scoring import PileCount, clubs_winners, score_deal

PAGAT, STANDARD = PRESETS["pagat"], PRESETS["standard"]


def takes(card, table, rules):
    return {" ".join(c.code for c in o) for o in legal_captures(parse_card(card), parse_cards(table), rules).options}


def deal_with(table, rules, players=("A", "B"), totals=None, plays_done=0, surs=None, last_capturer=None):
    """A deal of ``players`` whose table is ``table``, as if ``plays_done`` plays had been made."""
    return Deal.from_position(list(players), rules, parse_cards(table), dealer=len(players) - 1, played=plays_done,
                              totals=totals, surs=surs, last_capturer=last_capturer)


def test_example_01_must_capture():
    assert takes("4S", "4H 7C", PAGAT) == {"7C"}
    assert "must capture" in str(capture_problem(parse_card("4S"), parse_cards("4H 7C"), [], PAGAT))


def test_example_02_one_set_or_all():
    assert takes("5S", "AC 2D 4H 5C", PAGAT) == {"AC 5C", "2D 4H"}
    assert takes("5S", "AC 2D 4H 5C", STANDARD) == {"AC 2D 4H 5C"}
    deal = deal_with("AC 2D 4H 5C", STANDARD)
    assert deal.play(parse_card("5S")).sur


def test_example_03_sums_on_a_2_2_4_10():
    table = "AC 2D 2H 4C 10S"
    assert takes("2C", table, PAGAT) == {"AC 2D 2H 4C"}
    assert takes("6C", table, PAGAT) == {"AC 4C", "AC 2D 2H"}
    assert takes("7C", table, PAGAT) == {"4C", "2D 2H"}
    assert takes("8C", table, PAGAT) == {"AC 2D", "AC 2H"}
    assert takes("AD", table, PAGAT) == {"10S"}
    for card in ("2C", "6C", "7C", "8C", "AD"):
        option = sorted(takes(card, table, PAGAT))[0]
        record = deal_with(table, PAGAT).play(parse_card(card), parse_cards(option))
        assert not record.sur


def test_example_04_sur_and_its_exceptions():
    assert deal_with("2C 3C", PAGAT).play(parse_card("6C")).sur
    last = deal_with("2C 3C", PAGAT, plays_done=40)
    record = last.play(parse_card("6C"))
    assert not record.sur and record.no_sur.rule == "last_hand_sur"
    limited = deal_with("2C 3C", PAGAT, totals={"A": 50, "B": 0})
    record = limited.play(parse_card("6C"))
    assert not record.sur and record.no_sur == NoSur("sur_limit", 50, 50)


def test_example_05_queens_and_kings():
    assert deal_with("QC", PAGAT).play(parse_card("QS")).sur
    assert takes("KS", "KC KD", PAGAT) == {"KC", "KD"}
    assert takes("KS", "KC KD", STANDARD) == {"KC KD"}
    assert deal_with("KC KD", STANDARD).play(parse_card("KS")).sur


def test_example_06_wild_jack():
    assert takes("JS", "KC 3D 5H", PAGAT) == {"3D 5H"}
    record = deal_with("3D 5H 9C 10D", PAGAT).play(parse_card("JS"))
    assert len(record.taken) == 4 and not record.sur
    assert deal_with("3D 5H 9C 10D", STANDARD).play(parse_card("JS")).sur


def test_example_07_jack_trailed():
    assert takes("JS", "", PAGAT) == set()
    assert takes("JS", "QC KD", PAGAT) == set()
    deal = deal_with("QC KD", PAGAT)
    assert deal.play(parse_card("JS")).trail and parse_card("JS") in deal.table


def test_example_08_one_six_or_both():
    assert takes("5S", "6C 6D", PAGAT) == {"6C", "6D"}
    assert takes("5S", "6C 6D", STANDARD) == {"6C 6D"}
    assert deal_with("6C 6D", STANDARD).play(parse_card("5S")).sur
    # single set: a table summing to more than 10 is never swept
    big = "4C 4D 3H"
    assert all(len(o.split()) < 3 for card in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S")
               for o in takes(card, big, PAGAT))


def test_example_09_two_three_four():
    assert takes("2C", "2D 3H 4S", PAGAT) == {"2D 3H 4S"}
    assert deal_with("2D 3H 4S", PAGAT).play(parse_card("2C")).sur
    assert takes("5C", "2D 3H 4S", PAGAT) == {"2D 4S"}
    assert takes("6C", "2D 3H 4S", PAGAT) == {"2D 3H"}


def test_example_10_maximal_choices():
    assert takes("6S", "4C AC AD 3H", STANDARD) == {"AC 4C", "AD 4C", "AC AD 3H"}
    assert capture_problem(parse_card("6S"), parse_cards("4C AC AD 3H"), parse_cards("4C AC"), STANDARD) is None


def test_example_11_sur_cancel_and_limit():
    deal = deal_with("2C 3C", PAGAT, plays_done=1, surs={"A": 2})  # B's turn
    record = deal.play(parse_card("6C"))
    assert record.sur and record.cancelled == "A" and deal.surs == {"A": 1, "B": 0}
    limited = deal_with("2C 3C", PAGAT, totals={"A": 0, "B": 52}, plays_done=1, surs={"A": 2})
    assert not limited.play(parse_card("6C")).sur and limited.surs == {"A": 2, "B": 0}


def test_example_11_three_sides_cancel_in_order():
    surs, cancelled = {"A": 0, "B": 0, "C": 0}, []
    for side in ("A", "B", "B", "A", "C"):
        # the player after the dealer (C, seat 2) leads: A plays first, then B, then C
        deal = deal_with("2C 3C", PAGAT, players=("A", "B", "C"), plays_done="ABC".index(side), surs=surs)
        record = deal.play(parse_card("6C"), by=side)
        assert record.sur
        cancelled.append(record.cancelled)
        surs = deal.surs
    assert cancelled == [None, "A", None, "B", None]
    assert surs == {"A": 0, "B": 0, "C": 1}


def test_example_12_three_player_clubs():
    assert clubs_winners({"A": 5, "B": 5, "C": 3}, PAGAT) == {"C"}
    assert clubs_winners({"A": 6, "B": 4, "C": 3}, PAGAT) == set()
    assert clubs_winners({"A": 5, "B": 5, "C": 3}, STANDARD) == set()


def test_example_13_last_capturer_takes_the_rest():
    deal = deal_with("9C KH", PAGAT, plays_done=47, last_capturer="A")
    record = deal.play(parse_card("QD"), by="B")
    assert record.trail and not record.sur and deal.over
    assert set(deal.leftover) == set(parse_cards("9C KH QD")) and deal.leftover_taker == "A"
    assert set(parse_cards("9C KH QD")) <= set(deal.piles["A"]) and deal.surs == {"A": 0, "B": 0}


def test_example_14_initial_table_check():
    assert "put it back" in str(table_problem(parse_cards("JC 5D 9H QS"), PAGAT))
    assert "misdeal" in str(table_problem(parse_cards("JC JD 3H 4S"), PAGAT))
    assert table_problem(parse_cards("QC QD 3H 4S"), PAGAT) is None
    assert "misdeal" in str(table_problem(parse_cards("QC QD 3H 4S"), STANDARD))
    for rules in (PAGAT, STANDARD):
        assert "misdeal" in str(table_problem(parse_cards("QC QD QH 5S"), rules))
    with pytest.raises(IllegalPlayError):
        Deal(["A", "B"], ["A", "B"], 0, STANDARD, parse_cards("JC 5D 9H QS"))


def test_example_15_scoring():
    pile = PileCount(clubs=8, aces=2, jacks=3, two_clubs=True)
    score = score_deal({"A": pile, "B": PileCount(clubs=5)}, {"A": 2}, PAGAT)["A"]
    assert (score.clubs_points, score.sur_points, score.two_clubs, score.aces, score.jacks) == (7, 10, 2, 2, 3)
    assert score.total == 24
    assert score_deal({"A": pile}, {"A": 2}, parse_rules("pagat", ["sur_points=10"]))["A"].total == 34
