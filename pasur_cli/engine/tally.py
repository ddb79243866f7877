"""Scoring a deal from what each side captured, without play-by-play entry.

A side is given by its pile's cards or by counts; both are checked across sides (13 clubs, 4 aces,
4 jacks, one holder of 2♣ and of 10♦, no card in two piles, all 52 cards unless partial) and every
mismatch is refused with the numbers that do not add up.

The tally action (see pasur_cli.engine.match): ``{"type": "tally", "piles": {side: [codes]},
"counts": {side: {"clubs": n, "aces": n, "jacks": n, "two_clubs": bool, "ten_diamonds": bool,
"seven_diamonds": bool}}, "surs": {side: n}, "partial": bool}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pasur_cli.engine.cards import DECK, ORDER, Card, parse_card, parse_cards
from pasur_cli.engine.errors import IllegalPlayError, NotationError, Words
from pasur_cli.text.i18n import ANSWERS, N_, catalog_words, language, whole_number

if TYPE_CHECKING:
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import SEVEN_DIAMONDS, TEN_DIAMONDS, TWO_CLUBS, PileCount, SideScore, score_deal

COUNT_KEYS = ("clubs", "aces", "jacks", "two_clubs", "ten_diamonds", "seven_diamonds")
LIMITS = {"clubs": 13, "aces": 4, "jacks": 4}
KEY_WORDS = {"clubs": Words("clubs"), "aces": Words("aces"), "jacks": Words("jacks")}  # in a sentence
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
    from pasur_cli.engine.match import name_key
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
    from pasur_cli.engine.match import name_key
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
    from pasur_cli.engine.match import name_key
    counts: dict[str, object] = {"clubs": 0, "aces": 0, "jacks": 0,
                                 "two_clubs": False, "ten_diamonds": False, "seven_diamonds": False}
    keys, (yes, no) = count_keys(), yes_no_words()
    for item in text.replace(",", " ").split():
        typed, found, value = item.partition("=")
        key = keys.get(name_key(typed)) or card_key(typed)
        if not found or key is None:
            raise NotationError("{item!r} is not a count: write {keys}", item=item,
                                keys=" ".join(shown_key(k) + "=..." for k in COUNT_KEYS))
        if key in LIMITS:
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


def count_key(typed: str) -> str | None:
    """The English key of a count as typed (``clubs``, ``Kreuz``, ``2c``), or None."""
    from pasur_cli.engine.match import name_key
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


def card_key(typed: str) -> str | None:
    """The count a card names, as a table says it (``2c``, ``10♦``, ``7d``), or None.

    >>> card_key("2c"), card_key("10♦"), card_key("7D"), card_key("9h"), card_key("clubs")
    ('two_clubs', 'ten_diamonds', 'seven_diamonds', None, None)
    """
    try:
        return CARD_KEYS.get(parse_card(typed).code)
    except NotationError:
        return None


def counts_example() -> str:
    """A side's counts as the reader's language writes them: ``clubs=8 aces=2 jacks=1 2c=yes 10d=no``."""
    return (f"{shown_key('clubs')}=8 {shown_key('aces')}=2 {shown_key('jacks')}=1 2c={_answer_word(0)}"
            f" 10d={_answer_word(1)}")


def _answer_word(which: int) -> str:
    """The reader's language's word for yes (0) or no (1)."""
    return ANSWERS.get(language(), ANSWERS["en"])[which][0]


def check_count(side: str, key: str, value: object) -> None:
    """Raise NotationError unless ``value`` is a whole number from 0 to the ``key`` cards there are."""
    if value.__class__ is not int or not 0 <= value <= LIMITS[key]:
        raise NotationError("a tally's {key} of {side} is a whole number from 0 to {most}.", key=key,
                            side=side, most=LIMITS[key])


def check_surs(side: str, held: object) -> None:
    """Raise NotationError unless ``held`` is a number of surs one side can hold (0 to SURS_MOST)."""
    if held.__class__ is not int or not 0 <= held <= SURS_MOST:
        raise NotationError("a tally's surs of {side} are a whole number from 0 to {most}.", side=side,
                            most=SURS_MOST)


def parse_surs(text: str) -> tuple[str, int]:
    name, value = split_side(text, "=")
    number = whole_number(value)
    if number is None:
        raise NotationError("{text!r}: the surs held are a whole number, e.g. \"{name}=2\".", text=text, name=name)
    return name, number


def _side(match: Match, name: str) -> str:
    """The side a name refers to: a side's own name, or one of its players."""
    from pasur_cli.engine.match import find_name
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


SURS_MOST = 48  # surs one side can hold at the end of a deal (at most one a play)


def check_tally(action: dict[str, Any]) -> None:
    """Raise NotationError naming the field unless a tally action's fields have exactly their
    types and bounds: ``piles`` {side: [card strings]}, ``counts`` {side: {clubs/aces/jacks: whole
    numbers within the cards there are, two_clubs/ten_diamonds/seven_diamonds: true or false}},
    ``surs`` {side: whole number}, ``partial`` true or false; each optional."""
    for field in ("piles", "counts", "surs"):
        value = action.get(field, {})
        if not isinstance(value, dict) or len(value) > 4 or not all(isinstance(k, str) and len(k) <= 200
                                                                    for k in value):
            raise NotationError("a tally's {field!r} is an object of at most 4 sides.", field=field)
    for side, cards in action.get("piles", {}).items():
        if not isinstance(cards, list) or len(cards) > 52 or not all(isinstance(c, str) for c in cards):
            raise NotationError("a tally's pile of {side} is a list of cards (strings).", side=side)
        for text in cards:
            parse_card(text)
    for side, counts in action.get("counts", {}).items():
        if not isinstance(counts, dict):
            raise NotationError("a tally's counts of {side} are an object such as {{\"clubs\": 8}}.", side=side)
        for key, value in counts.items():
            if key not in COUNT_KEYS:
                raise NotationError("a tally's counts of {side} name {key!r}; the counts are {keys}.", side=side,
                                    key=str(key)[:40], keys=", ".join(COUNT_KEYS))
            if key in LIMITS:
                check_count(side, key, value)
            if key not in LIMITS and value.__class__ is not bool:
                raise NotationError("a tally's {key} of {side} is true or false.", key=key, side=side)
    for side, held in action.get("surs", {}).items():
        check_surs(side, held)
    if action.get("partial", False).__class__ is not bool:
        raise NotationError("a tally's \"partial\" is true or false.")


def tally_action(match: Match, action: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a checked tally action for this match: every side named as the
    match names it, piles as canonically ordered card codes, counts with every key, surs as
    given. Raises IllegalPlayError for a side that is not the match's or given twice."""
    piles = {s: sorted(parse_cards(c, Words("pile of {side}", side=s)), key=ORDER)
             for s, c in action.get("piles", {}).items()}
    counts = action.get("counts", {})
    for side in [*piles, *counts, *action.get("surs", {})]:
        if side not in match.sides:
            raise IllegalPlayError("{side!r} is not a side of this match ({sides}).", side=side,
                                   sides=", ".join(match.sides))
    both = [s for s in piles if s in counts]
    if both:
        raise IllegalPlayError("{side} is given twice (a side has either a pile or counts).", side=both[0])
    return {"type": "tally",
            "piles": {s: [c.code for c in cards] for s, cards in piles.items()},
            "counts": {s: {k: c.get(k, 0 if k in LIMITS else False) for k in COUNT_KEYS} for s, c in counts.items()},
            "surs": dict(action.get("surs", {})),
            "partial": bool(action.get("partial", False))}


def tally_scores(match: Match, action: dict[str, Any]) -> dict[str, SideScore]:
    """Check a tally action against the match and score it. Raises IllegalPlayError naming the numbers."""
    partial = bool(action.get("partial"))
    piles = {s: parse_cards(c, Words("pile of {side}", side=s)) for s, c in action.get("piles", {}).items()}
    counts = action.get("counts", {})
    surs = {s: int(n) for s, n in action.get("surs", {}).items()}
    for side in [*piles, *counts, *surs]:
        if side not in match.sides:
            raise IllegalPlayError("{side!r} is not a side of this match ({sides}).", side=side,
                                   sides=", ".join(match.sides))
    missing = [s for s in match.sides if s not in piles and s not in counts]
    if missing:
        raise IllegalPlayError("no pile or counts for {sides}: every side needs one.", sides=", ".join(missing))
    _check_piles(piles, partial and not counts, bool(counts))
    summary = {s: PileCount.of(p) for s, p in piles.items()}
    for side, c in counts.items():
        summary[side] = PileCount(**{k: c.get(k, 0 if k in LIMITS else False) for k in COUNT_KEYS})
    _check_counts(summary, partial, match.rules)
    _check_surs(surs, match)
    return score_deal({s: summary[s] for s in match.sides}, surs, match.rules)


def _check_piles(piles: dict[str, list[Card]], partial: bool, with_counts: bool) -> None:
    owner: dict[Card, str] = {}
    for side, cards in piles.items():
        for card in cards:
            if card in owner:
                raise IllegalPlayError("{card} is in the piles of both {side} and {other}.", card=card,
                                       side=owner[card], other=side)
            owner[card] = side
    if not partial and not with_counts and len(owner) != 52:
        missing = [c for c in DECK if c not in owner]
        if len(missing) > 12:
            raise IllegalPlayError("the piles hold {count} cards, not 52: missing {cards} and {more} more"
                                   " (use --partial to score piles that are not complete).",
                                   count=len(owner), cards=missing[:12], more=len(missing) - 12)
        raise IllegalPlayError("the piles hold {count} cards, not 52: missing {cards}"
                               " (use --partial to score piles that are not complete).",
                               count=len(owner), cards=missing)


def _check_counts(summary: dict[str, PileCount], partial: bool, rules: Rules) -> None:
    for side, p in summary.items():
        for key, most in LIMITS.items():
            if getattr(p, key) > most:
                raise IllegalPlayError("{side} cannot hold {count} {key}: there are {most}.", side=side,
                                       count=getattr(p, key), key=KEY_WORDS[key], most=most)
        if p.two_clubs and not p.clubs:
            raise IllegalPlayError("{side} holds the {card} but 0 clubs: the {card} counts as a club.", side=side,
                                   card=TWO_CLUBS)
    for key, most in LIMITS.items():
        total = sum(getattr(p, key) for p in summary.values())
        if total > most or (not partial and total != most):
            parts = " + ".join(f"{s} {getattr(p, key)}" for s, p in summary.items())
            raise IllegalPlayError("{key} add up to {total} ({parts}), not {most}.", key=KEY_WORDS[key], total=total,
                                   parts=parts, most=most)
    specials = [("two_clubs", TWO_CLUBS), ("ten_diamonds", TEN_DIAMONDS)]
    if rules.seven_diamonds:
        specials.append(("seven_diamonds", SEVEN_DIAMONDS))
    for key, card in specials:
        holders = [s for s, p in summary.items() if getattr(p, key)]
        if len(holders) > 1:
            raise IllegalPlayError("exactly one side holds the {card}; here: {sides}.", card=card,
                                   sides=", ".join(holders))
        if not partial and not holders:
            raise IllegalPlayError("exactly one side holds the {card}; here: nobody.", card=card)


def _check_surs(surs: dict[str, int], match: Match) -> None:
    rules, totals = match.rules, match.totals
    for side, n in surs.items():
        if n < 0:
            raise IllegalPlayError("{side} cannot hold {count} surs.", side=side, count=n)
        if n and rules.sur_limit is not None and totals[side] >= rules.sur_limit:
            raise IllegalPlayError("{side} had {total} points at the start of the deal, at or above the"
                                   " sur limit {limit}: it cannot score surs.", side=side, total=totals[side],
                                   limit=rules.sur_limit)
    if rules.sur_cancel and sum(1 for n in surs.values() if n) > 1:
        raise IllegalPlayError("surs cancel under these rules, so only one side can hold surs at the end of a deal.")
