"""Help for mistyped cards: what the typist probably meant, as a question in the refusal.

``read_cards(words)`` parses typed words into cards like ``parse_cards``, and when they are not
cards says what they probably are: ``1O C`` and ``10 clubs`` are 10♣, ``l0h`` is 10♥, ``10♣♣``
is 10♣, and ``K`` alone asks which suit. Nothing is ever accepted on a guess: the typist confirms
by typing the card.

>>> repair(["1O", "C"]), repair(["10", "clubs"]), repair(["l0h"]), repair(["10♣♣"]), repair(["7c", "4d"])
(['10C'], ['10C'], ['10H'], ['10C'], ['7C', '4D'])
>>> repair(["c10"]), repair(["cq"]), repair(["♦7"])
(['10C'], ['QC'], ['7D'])
>>> repair(["K"]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pasur_cli.engine.cards import DECK, RANK_CODES, Card, parse_card, parse_cards, split_tokens
from pasur_cli.engine.errors import NotationError

SUIT_WORDS = {
    "CLUB": "C", "CLUBS": "C", "♣": "C", "♧": "C",
    "DIAMOND": "D", "DIAMONDS": "D", "DIAM": "D", "DIAMS": "D", "♦": "D", "♢": "D",
    "HEART": "H", "HEARTS": "H", "♥": "H", "♡": "H",
    "SPADE": "S", "SPADES": "S", "♠": "S", "♤": "S",
    "C": "C", "D": "D", "H": "H", "S": "S",
    "KREUZ": "C", "KARO": "D", "HERZ": "H", "PIK": "S",
    "TRÉBOL": "C", "TRÉBOLES": "C", "TREBOL": "C", "TREBOLES": "C", "DIAMANTE": "D", "DIAMANTES": "D",
    "CORAZÓN": "H", "CORAZON": "H", "CORAZONES": "H", "PICA": "S", "PICAS": "S",
}
RANK_WORDS = {"ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K", "TEN": "10", "1": "A", "T": "10",
              "B": "J", "D": "Q", "AS": "A", "ASS": "A", "BUBE": "J", "DAME": "Q", "KÖNIG": "K", "KOENIG": "K",
              "JOTA": "J", "REINA": "Q", "REY": "K",  # the words of the German and Spanish texts
              **{code: code for code in RANK_CODES if code}}
_CODES = [c.code for c in DECK]


def _rank(token: str) -> str | None:
    """The rank code a token written alone stands for (``1O`` and ``l0`` are 10), or None."""
    token = token.upper()
    token = {"1O": "10", "L0": "10", "I0": "10", "|0": "10", "LO": "10", "IO": "10"}.get(token, token)
    return RANK_WORDS.get(token)


def _fix(token: str) -> str | None:
    """One token made into a card code, when a common slip explains it; else None."""
    text = token.upper()
    for word, suit in sorted(SUIT_WORDS.items(), key=lambda kv: -len(kv[0])):
        if len(word) > 1 and text.endswith(word) and _rank(text[: -len(word)]):
            return f"{_rank(text[: -len(word)])}{suit}"
    while len(text) > 2 and text[-1] in SUIT_WORDS and SUIT_WORDS[text[-1]] == SUIT_WORDS.get(text[-2]):
        text = text[:-1]  # a doubled suit: 10♣♣
    rank, letter = _rank(text[:-1]), SUIT_WORDS.get(text[-1:])
    if rank and letter:
        return rank + letter
    rank, letter = _rank(text[1:]), SUIT_WORDS.get(text[:1])  # the suit first: c10, cq, ♣10
    if rank and letter:
        return rank + letter
    return None


def repair(words: Sequence[str]) -> list[str] | None:
    """The card codes the typed ``words`` most likely mean (a rank and its suit typed apart are
    joined), or None when some word cannot be made a card."""
    tokens = split_tokens(list(words))
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        nxt = tokens[i + 1].upper() if i + 1 < len(tokens) else ""
        if _rank(token) and nxt in SUIT_WORDS and not _is_card(token):
            out.append(f"{_rank(token)}{SUIT_WORDS[nxt]}")
            i += 2
            continue
        fixed = token.upper() if _is_card(token) else _fix(token)
        if fixed is None:
            return None
        out.append(fixed)
        i += 1
    return [parse_card(t).code for t in out]


def is_card(token: str) -> bool:
    """Whether ``token`` is a card as the parser reads it."""
    return _is_card(token)


def _is_card(token: str) -> bool:
    try:
        parse_card(token)
    except NotationError:
        return False
    return True


def _suitless(tokens: list[str]) -> tuple[int, str] | None:
    """The first token that is a rank without a suit (``K``) and its place, or None."""
    joined = False  # the token before was a rank, this one its suit ("7 D": D is a suit here, not a Q)
    for i, token in enumerate(tokens):
        nxt = tokens[i + 1].upper() if i + 1 < len(tokens) else ""
        if _rank(token) and not _is_card(token) and nxt not in SUIT_WORDS and not joined:
            return i, token
        joined = not joined and bool(_rank(token)) and not _is_card(token) and nxt in SUIT_WORDS
    return None


def problem(words: Sequence[str], candidates: Iterable[Card] | None = None,
            later: Iterable[Card] | None = None) -> NotationError:
    """The refusal for words that are not all cards, with what they probably mean. A rank typed
    without a suit is offered the ``candidates`` of that rank (for the first word; ``later`` for
    the others, e.g. the played card's unseen cards, then the table's)."""
    tokens = split_tokens(list(words))
    text = " ".join(tokens)
    found = _suitless(tokens)
    if found is not None:
        place, bare = found
        rank = _rank(bare)
        pool = candidates if place == 0 or later is None else later
        choices = sorted(c for c in (DECK if pool is None else pool) if c.rank_code == rank)
        choices = choices or [c for c in DECK if c.rank_code == rank]
        return NotationError("{token!r} needs a suit: which one? {cards}", token=bare, cards=choices)
    fixed = repair(tokens)
    if fixed is not None:
        meant = [parse_card(c) for c in fixed]
        if _playable(meant, candidates, later):
            return NotationError("{text!r} is not how cards are written; did you mean {cards}?",
                                 text=text, cards=meant)
    import difflib  # only for a mistyped card
    place, bad = next((i, t) for i, t in enumerate(tokens) if not _is_card(t))
    pool = candidates if place == 0 or later is None else later
    codes = _CODES if pool is None else [c.code for c in pool]
    close = difflib.get_close_matches(_letters(bad), codes, n=3, cutoff=0.6)
    if close:
        return NotationError("{token!r} is not a card; did you mean {cards}?", token=bad,
                             cards=[parse_card(c) for c in close])
    return NotationError("{token!r} is not a card: write a rank (A or 1, 2-10 or T, J, Q, K) followed by a suit"
                         " (C D H S or ♣ ♦ ♥ ♠), e.g. 10D, qh, 7♣.", token=bad)


def _letters(token: str) -> str:
    """``token`` in capitals with suit symbols as letters, the suit put last (``c10`` as ``10C``),
    for comparing with the cards' codes."""
    text = token.upper().replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")
    if len(text) > 1 and text[0] in "CDHS" and text[1] not in "CDHS":
        text = text[1:] + text[0]
    return text


def _playable(cards: Sequence[Card], candidates: Iterable[Card] | None, later: Iterable[Card] | None) -> bool:
    """Whether ``cards`` can be what was meant: the first among ``candidates``, the others among
    ``later`` (or ``candidates`` when there is no ``later``); any card when nothing is known."""
    first = None if candidates is None else set(candidates)
    rest = first if later is None else set(later)
    return all((pool is None or card in pool) for card, pool in
               zip(cards, [first, *[rest] * (len(cards) - 1)], strict=True))


def read_cards(words: Sequence[str], candidates: Iterable[Card] | None = None,
               later: Iterable[Card] | None = None) -> list[Card]:
    """``words`` as cards, each once; raises NotationError saying what a mistyped word probably is.
    ``candidates`` / ``later``: the cards a suitless rank may stand for (see ``problem``)."""
    return parse_cards(list(words), None, lambda tokens: problem(tokens, candidates, later))
