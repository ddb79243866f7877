"""Shell completion offers the players' names wherever a player or side is named, as docs/reference.md
promises: --by, --dealer, --player (matches, stats), tally's --pile, --surs and --count."""

from __future__ import annotations

from click.testing import CliRunner

from pasur_cli.cli.app import main


def complete(words: str, db) -> list[str]:
    """What bash completion offers for the last word of ``words`` (COMP_CWORD at its end)."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    env = {"_PASUR_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword), "PASUR_DB": str(db)}
    result = CliRunner().invoke(main, [], env=env, prog_name="pasur", complete_var="_PASUR_COMPLETE")
    return [line.split(",", 1)[1] for line in result.output.splitlines() if "," in line]


def test_every_option_that_names_a_player_completes_the_names(pasur, db):
    pasur("new", "Mina", "Bahram")
    pasur("new", "Ali", "Sara", "Reza", "Mahsa")
    assert complete("pasur play 7c --by ", db) == ["Ali", "Sara", "Reza", "Mahsa"]
    assert complete("pasur play 7c --by s", db) == ["Sara"]
    assert complete("pasur tally --surs ", db) == ["Ali=", "Sara=", "Reza=", "Mahsa="]
    assert complete("pasur tally --pile ma", db) == ["Mahsa="]
    assert complete("pasur tally --count r", db) == ["Reza:"]
    assert complete("pasur tally --surs Ali=", db) == []  # the number is the player's to type
    assert complete("pasur matches --player m", db) == ["Mahsa", "Mina"]  # every match's players
    assert complete("pasur stats --player b", db) == ["Bahram"]
    assert complete("pasur new Dara Shirin --dealer sh", db) == ["Shirin"]  # named on this line
    assert complete("pasur new Dara Shirin --dealer a", db) == ["Ali"]
    assert complete("pasur --match 1 tally --surs ", db) == ["Mina=", "Bahram="]


def test_names_complete_as_they_are_compared(pasur, db):
    pasur("new", "José", "Ümit")
    assert complete("pasur play 7c --by jo", db) == ["José"]
    assert complete("pasur tally --surs um", db) == ["Ümit="]


def test_without_a_database_nothing_is_offered(db):
    assert complete("pasur play 7c --by ", db) == []
    assert complete("pasur stats --player ", db) == []
    assert not db.exists()  # completion never creates the file


def test_hint_completes_the_cards_that_can_still_be_in_a_hand(pasur, db):
    from pasur_cli.engine.cards import DECK
    pasur("new", "Ali", "Sara")
    assert complete("pasur hint ", db) == []  # no deal yet: no hand to name
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    pasur("play", "6H")
    gone = {"5C", "9D", "3H", "KS", "2S", "6H"}  # on the table, played or captured
    offered = complete("pasur hint ", db)
    assert offered == [c.code for c in DECK if c.code not in gone]
    assert offered == complete("pasur play ", db)  # as play offers them
    assert complete("pasur hint 7", db) == ["7C", "7D", "7H", "7S"]
    assert complete("pasur hint 7c 10♦ ", db) == [c for c in offered if c not in ("7C", "10D")]  # named already
    assert complete("pasur hint 7c zz 7", db) == ["7D", "7H", "7S"]  # a word that is no card names none
    assert complete("pasur hint 6", db) == ["6C", "6D", "6S"]  # 6H was played
