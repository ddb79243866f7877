"""Reading a tally as a person types it, in the reader's language: ``Ali=AS 2C`` (a pile),
``Ali: clubs=8 aces=2 two_clubs=yes`` (counts, with each count's word and yes/no in the reader's
language as well as English), ``Ali=2`` (surs). The engine's tally (pasur_cli.engine.tally)
checks and scores what this reads; this module is the part that knows a language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pasur_cli.engine.action import check_count
from pasur_cli.engine.cards import parse_card, parse_cards
from pasur_cli.engine.errors import NotationError, Words
from pasur_cli.engine.names import COUNT_KEYS, COUNT_MOST, find_name, name_key
from pasur_cli.engine.reading import N_, whole_number
from pasur_cli.text.i18n import ANSWERS, catalog_words, language

if TYPE_CHECKING:
    from pasur_cli.engine.match import Match

YES, NO = ("yes", "y", "true", "1"), ("no", "n", "false", "0")
# Each count's word in the reader's language (the English key always works too), looked up in the
# catalog as the session's command words are: the word or words, separated by commas; the first is
# the one a refusal shows. tests/test_tally.py checks that none is another key or a yes/no word.
KEY_MESSAGES: dict[str, str] = {
    "clubs": N_("tally count word: clubs"), "aces": N_("tally count word: aces"),
    "jacks": N_("tally count word: jacks"), "two_clubs": N_("tally count word: two_clubs"),
    "ten_diamonds": N_("tally count word: ten_diamonds"),
    "seven_diamonds": N_("tally count word: seven_diamonds"),
}


def count_keys() -> dict[str, str]:
    """Every word for a count, compared as names are (``name_key``), mapped to its English key."""
    words = {name_key(key): key for key in COUNT_KEYS}
    for key in COUNT_KEYS:
        for word in catalog_words(KEY_MESSAGES[key]):
            words.setdefault(name_key(word), key)  # an English key keeps its meaning
    return words


def shown_key(key: str) -> str:
    """The word a refusal shows for a count: the reader's language's first, else the English key."""
    return next(iter(catalog_words(KEY_MESSAGES[key])), key)


def yes_no_words() -> tuple[set[str], set[str]]:
    """The values a yes/no count takes, compared as names are: English yes, y, true, 1 and no, n,
    false, 0, and the reader's language's yes and no (``ANSWERS``) with their first letters."""
    own = ANSWERS.get(language(), ANSWERS["en"])
    yes, no = ({name_key(w) for w in (*english, *(f for word in words for f in (word, word[0])))}
               for english, words in ((YES, own[0]), (NO, own[1])))
    return yes - no, no - yes


def split_side(text: str, sep: str) -> tuple[str, str]:
    """``NAME<sep>REST`` into its two parts, at the last separator (a name may hold '=' or ':';
    cards, counts and numbers do not). Raises NotationError when there is no separator."""
    name, found, rest = text.rpartition(sep)
    if not found or not name.strip():
        raise NotationError("{text!r}: write the side's name, then {sep!r}, e.g. \"Ali{sep}...\".", text=text, sep=sep)
    return name.strip(), rest


def parse_counts(text: str, side: str = "") -> dict[str, object]:
    """``clubs=8 aces=2 jacks=1 two_clubs=yes ten_diamonds=no`` into a counts dict (missing: 0 / no).
    A count beyond the cards there are is refused as ``check_tally`` refuses it, naming ``side``."""
    counts: dict[str, object] = {"clubs": 0, "aces": 0, "jacks": 0,
                                 "two_clubs": False, "ten_diamonds": False, "seven_diamonds": False}
    keys, (yes, no) = count_keys(), yes_no_words()
    for item in text.replace(",", " ").split():
        typed, found, value = item.partition("=")
        key = keys.get(name_key(typed)) or card_key(typed)
        if not found or key is None:
            raise NotationError("{item!r} is not a count: write {keys}", item=item,
                                keys=" ".join(shown_key(k) + "=..." for k in COUNT_KEYS))
        if key in COUNT_MOST:
            number = whole_number(value)
            if number is None:
                raise NotationError("{item!r}: {key} is a whole number.", item=item, key=shown_key(key))
            check_count(side, key, number)
            counts[key] = number
        elif name_key(value) in yes or name_key(value) in no:
            counts[key] = name_key(value) in yes
        else:
            raise NotationError("{item!r}: {key} is {yes} or {no}.", item=item, key=shown_key(key),
                                yes=_answer_word(0), no=_answer_word(1))
    return counts


CARD_KEYS = {"2C": "two_clubs", "10D": "ten_diamonds", "7D": "seven_diamonds"}  # 2c=yes: who holds 2♣


def card_key(typed: str) -> str | None:
    """The count a card names, as a table says it (``2c``, ``10♦``, ``7d``), or None.

    >>> card_key("2c"), card_key("10♦"), card_key("7D"), card_key("9h"), card_key("clubs")
    ('two_clubs', 'ten_diamonds', 'seven_diamonds', None, None)
    """
    try:
        return CARD_KEYS.get(parse_card(typed).code)
    except NotationError:
        return None


def count_key(typed: str) -> str | None:
    """The English key of a count as typed (``clubs``, ``Kreuz``, ``2c``), or None."""
    return count_keys().get(name_key(typed)) or card_key(typed)


def merge_counts(earlier: str, typed: str) -> str:
    """``typed`` counts over ``earlier`` ones: each count typed replaces the earlier count of the
    same key, the others are kept (a correction retypes only what was wrong).

    >>> merge_counts("clubs=8 aces=2 2c=yes", "aces=3 two_clubs=no")
    'clubs=8 aces=3 two_clubs=no'
    """
    new = typed.replace(",", " ").split()
    given = {count_key(item.partition("=")[0]) for item in new}
    kept = [item for item in earlier.replace(",", " ").split() if count_key(item.partition("=")[0]) not in given]
    order = {key: place for place, key in enumerate(COUNT_KEYS)}
    return " ".join(sorted([*kept, *new], key=lambda item: order.get(count_key(item.partition("=")[0]) or "", 99)))


def counts_example() -> str:
    """A side's counts as the reader's language writes them: ``clubs=8 aces=2 jacks=1 2c=yes 10d=no``."""
    return (f"{shown_key('clubs')}=8 {shown_key('aces')}=2 {shown_key('jacks')}=1 2c={_answer_word(0)}"
            f" 10d={_answer_word(1)}")


def _answer_word(which: int) -> str:
    """The reader's language's word for yes (0) or no (1)."""
    return ANSWERS.get(language(), ANSWERS["en"])[which][0]


def parse_surs(text: str) -> tuple[str, int]:
    name, value = split_side(text, "=")
    number = whole_number(value)
    if number is None:
        raise NotationError("{text!r}: the surs held are a whole number, e.g. \"{name}=2\".", text=text, name=name)
    return name, number


def _side(match: Match, name: str) -> str:
    """The side a name refers to: a side's own name, or one of its players."""
    side = find_name(match.sides, name)
    return side if side is not None else match.side_of(match.player_named(name))


def build_action(match: Match, piles: list[str], counts: list[str], surs: list[str],
                 partial: bool) -> dict[str, Any]:
    """The tally action from the command-line texts (``Ali=AS 2C``, ``Ali: clubs=8``, ``Ali=2``)."""
    action: dict[str, Any] = {"type": "tally", "piles": {}, "counts": {}, "surs": {}, "partial": partial}
    for text in piles:
        name, cards = split_side(text, "=")
        side = _side(match, name)
        if side in action["piles"]:
            raise NotationError("{side}'s pile is given twice.", side=side)
        action["piles"][side] = [c.code for c in parse_cards(cards, Words("pile of {side}", side=side))]
    for text in counts:
        name, rest = split_side(text, ":")
        side = _side(match, name)
        if side in action["counts"] or side in action["piles"]:
            raise NotationError("{side} is given twice (a side has either a pile or counts).", side=side)
        action["counts"][side] = parse_counts(rest, side)
    for text in surs:
        name, n = parse_surs(text)
        action["surs"][_side(match, name)] = n
    return action
