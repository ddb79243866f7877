"""The three kinds of wrong a player can be told about, each carrying facts rather than prose.

An error holds an English sentence *template* and the *facts* that fill it (cards, players,
numbers), never a sentence with the cards already written out:

    raise IllegalPlayError("it is {player}'s turn, not {by}'s.", player="Ali", by="Sara")

so that the rendering layer can write each card as the terminal wants it (symbols, letters with
--ascii, colour) and the sentence in the player's language: the template is the message id a
translation catalog looks up, so it is always a literal string at the raise site. A sentence that
counts something has both English forms, and names the fact whose number chooses between them:

    raise IllegalPlayError(Plural("{player} holds {count} card.", "{player} holds {count} cards.", "count"),
                           player="Mina", count=1) ``str(err)`` is
the English sentence with cards as symbols. The click layer turns NotationError into exit 2 and
the other two into exit 1.
"""

from __future__ import annotations

from collections.abc import Callable


class Sum(tuple):  # type: ignore[type-arg]
    """Cards added up, as a fact: written joined by `` + `` (``7♦ + 4♥``) instead of spaces."""


MOST = 400  # characters of one text fact shown: a hand-edited row or a typed line can be any length


def shorten(text: str, most: int = MOST) -> str:
    """``text`` as a fact shows it: at most ``most`` characters, the rest as "..."."""
    return text if len(text) <= most else text[:most - 3] + "..."


def fact_text(value: object, ascii: bool = False) -> str:
    """One fact as text: a card (anything with ``show(ascii)``) by its symbol or code, a list or
    tuple of cards joined by spaces (a Sum by `` + ``), anything else by ``str``, shortened."""
    show = getattr(value, "show", None)
    if callable(show):
        return str(show(ascii))
    if isinstance(value, Sum):
        return " + ".join(fact_text(v, ascii) for v in value)
    if isinstance(value, list | tuple):
        return " ".join(fact_text(v, ascii) for v in value)
    return str(value) if isinstance(value, PasurError | Words) else shorten(str(value))


class Plural(str):
    """A template with a count in it: the English singular (the string itself), ``plural``, and
    ``by``, the fact whose number chooses the form. Each language has its own forms and rule for
    choosing them (its catalog's plural forms); English takes the singular for 1 only.

    >>> cards = Plural("{n} card", "{n} cards", "n")
    >>> str(PasurError(cards, n=1)), str(PasurError(cards, n=0))
    ('1 card', '0 cards')
    """

    plural: str
    by: str

    def __new__(cls, singular: str, plural: str, by: str) -> Plural:
        made = super().__new__(cls, singular)
        made.plural, made.by = plural, by
        return made

    def __getnewargs__(self) -> tuple[str, str, str]:  # type: ignore[override]  # pickled with its forms
        return str(self), self.plural, self.by

    def number(self, facts: dict[str, object]) -> int:
        """The number that chooses the form: the fact ``by``. Raises KeyError when it is missing."""
        return int(str(facts[self.by]))

    def english(self, facts: dict[str, object]) -> str:
        """The English form for ``facts``."""
        return str(self) if self.number(facts) == 1 else self.plural


def fill(template: str, facts: dict[str, object], show: Callable[[object], str] = fact_text) -> str:
    """``template`` with its ``{name}`` fields replaced by ``show(fact)`` (a ``Plural`` in the English
    form its number takes)."""
    if isinstance(template, Plural):
        template = template.english(facts)
    if not facts:
        return str(template)
    return template.format_map({name: show(value) for name, value in facts.items()})


class Words:
    """English words given as a fact (``Words("pile of {side}", side=s)``), shown in the reader's
    language: a template and its facts, as an error's; ``str`` is the English."""

    def __init__(self, template: str, /, **facts: object) -> None:
        self.template, self.facts = template, facts

    def __str__(self) -> str:
        return fill(self.template, self.facts)

    def __repr__(self) -> str:
        return repr(str(self))


class PasurError(ValueError):
    """Any error the engine reports to a player: a sentence template and the facts that fill it."""

    def __init__(self, template: str, /, **facts: object) -> None:
        super().__init__(template)
        self.template = template
        self.facts = facts

    def __str__(self) -> str:
        return fill(self.template, self.facts)


class NotationError(PasurError):
    """Input text that is not a card, a card list or a rule option (bad notation)."""


class IllegalPlayError(PasurError):
    """A play, capture, table or tally the rules or the cards seen so far do not allow."""


class AmbiguousPlayError(PasurError):
    """A play that has several legal captures and none was named.

    ``options`` holds the legal captures (each a tuple of cards) so a caller can offer them;
    ``count`` how many exist (None: too many to count).
    """

    def __init__(self, template: str, /, options: list, count: int | None = None,  # type: ignore[type-arg]
                 **facts: object) -> None:
        super().__init__(template, **facts)
        self.options, self.count = options, count
