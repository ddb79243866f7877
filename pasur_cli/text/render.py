"""Everything a person reads as sentences: cards with colour, capture lists, rule and score
tables, the position and the race.

Functions take a ``Look`` (ASCII or Unicode suits, colour or not) and return text; printing is
the CLI's job. How text and tables are laid out is ``layout``'s (tabulate is imported only when a
table is drawn); the ``--json`` shapes are ``shapes``'s.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

from pasur_cli.engine.captures import Captures, is_sur
from pasur_cli.engine.cards import Card, Suit
from pasur_cli.engine.errors import PasurError, Plural, Sum, Words, shorten
from pasur_cli.engine.reading import N_
from pasur_cli.engine.rules import MEANINGS, OPTION_NAMES, PRESETS, Rules, option_text
from pasur_cli.engine.values import Value
from pasur_cli.text import i18n
from pasur_cli.text.i18n import _
from pasur_cli.text.layout import (
    Drawn,
    Figure,
    column_width,
    safe,
    share_columns,
    table,
    table_width,
    tables,
    text_width,
    visible,
    wrap,
)

if TYPE_CHECKING:  # `check` and `rules` draw without loading the deal's machinery
    from pasur_cli.engine.action import Action
    from pasur_cli.engine.deal import Deal, Play
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.scoring import SideScore

RED = (Suit.DIAMONDS, Suit.HEARTS)


class Names:
    """Names shown together as one fact, each its own isolate where it needs one: ``Names(sides,
    " against ")`` or, with a number after each name, ``Names([("Ali", 3), ("Sara", 1)])``. A
    Persian name beside another in an English sentence then keeps its place (one isolate around
    both would let a bidi terminal swap them; checked with GNU FriBidi). ``sep`` is translated;
    by default the language's comma."""

    def __init__(self, names: Iterable[str | tuple[str, object]], sep: str | None = None) -> None:
        self.names = list(names)
        self.sep = sep

    def text(self, look: Look) -> str:
        sep = comma() if self.sep is None else _(self.sep)
        return sep.join(f"{look.fact(n[0])} {look.fact(n[1])}" if isinstance(n, tuple) else look.fact(n)
                        for n in self.names)


class Laid(Drawn):
    """Drawn text whose facts are isolates already (each name in it): a sentence takes it as it is,
    with no isolate around it (one around two Persian names would let a bidi terminal swap them)."""


class Look(Value):
    """How to draw: ``ascii`` suits (10D) instead of symbols (10♦), ``color`` with ANSI codes,
    ``rtl`` a right-to-left language (each fact a Unicode isolate, see ``fact``)."""

    ascii: bool = False
    color: bool = False
    rtl: bool = False

    @staticmethod
    def detect(ascii: bool = False, no_color: bool = False, stream: IO[str] | None = None) -> Look:
        """ASCII when asked or when the stream cannot encode the suits; colour only at a terminal
        without NO_COLOR or --no-color."""
        stream = stream or sys.stdout
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "♣♦♥♠".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            ascii = True
        isatty = getattr(stream, "isatty", lambda: False)()
        color = isatty and not no_color and not os.environ.get("NO_COLOR")
        return Look(ascii=ascii, color=color, rtl=i18n.is_rtl())

    def _card_text(self, card: Card) -> str:
        text = card.show(self.ascii)
        if self.color and card.suit in RED:
            return f"\x1b[31m{text}\x1b[0m"
        return text

    def _isolate(self, text: str) -> str:
        return f"{i18n.FSI}{text}{i18n.PDI}" if text and (self.rtl or i18n.has_rtl(text)) else text

    def card(self, card: Card) -> str:
        return Drawn(self._isolate(self._card_text(card)))

    def cards(self, cards: Iterable[Card], sort: bool = True) -> str:
        seq = sorted(cards) if sort else list(cards)
        return Drawn(self._isolate(" ".join(self._card_text(c) for c in seq))) if seq else _("(empty)")

    def fact(self, value: object) -> str:
        """One fact as a sentence shows it: a card by its symbol (or code under --ascii), a list or
        tuple of cards joined by spaces in the order given, a name or a number as it is. In a
        right-to-left language every fact is a Unicode isolate, so it keeps its own direction
        and its place in the sentence: this is the one place facts are written."""
        if isinstance(value, PasurError | Words):
            return self.say(value.template, **value.facts)
        if isinstance(value, Names):
            return value.text(self)
        return self._isolate(self._plain(value))

    def _plain(self, value: object) -> str:
        if isinstance(value, Drawn):
            return value
        if isinstance(value, Card):
            return self._card_text(value)
        if isinstance(value, Sum):
            return " + ".join(self._plain(v) for v in value)
        if isinstance(value, list | tuple):
            return " ".join(self._plain(v) for v in value) if value else _("(empty)")
        text = shorten(str(value))
        return text if text.isprintable() else visible(text)

    def say(self, template: str, /, **facts: object) -> str:
        """``template`` (an English message id, or a ``Plural``) in the chosen language, its fields
        filled by ``fact``: ``look.say("{player} plays {card}.", player="Sara", card=card)``."""
        if not facts:  # as errors.fill: a sentence without facts is not formatted
            return Drawn(_(template))
        return self._filled(translated(template, facts), facts)

    def say_count(self, singular: str, plural: str, n: int, /, **facts: object) -> str:
        """``say`` with the singular or plural template for ``n`` (the language's plural rule):
        ``look.say_count("{n} sur", "{n} surs", n, n=n)``."""
        return self._filled(i18n.ngettext(singular, plural, n), facts)

    def _filled(self, text: str, facts: dict[str, object]) -> str:
        shown = {}
        for name, value in facts.items():
            quoted = "{" + name + "!r}"
            if self.rtl and quoted in text:  # quote the fact itself, then isolate it (not repr of the marks)
                text = text.replace(quoted, "{" + name + "}")
                shown[name] = self._isolate(repr(self._plain(value)))
            else:
                shown[name] = self.fact(value)
        return Drawn(text.format_map(shown))

    def loud(self, text: str) -> str:
        return f"\x1b[1;33m{text}\x1b[0m" if self.color else text


def comma() -> str:
    """What separates the items of a list in the reader's language (", ", in Persian "، ")."""
    return _(", ")


def message(err: PasurError, look: Look) -> str:
    """The sentence an error stands for, in the chosen language, its facts drawn by ``look.fact``
    (cards as symbols or letters, colour; a list in the order given; a reason, itself an error,
    as its own sentence)."""
    return look.say(err.template, **err.facts)


def translated(template: str, facts: dict[str, object]) -> str:
    """``template`` in the chosen language; a ``Plural`` in the form its number takes there."""
    if isinstance(template, Plural):
        return i18n.ngettext(template, template.plural, template.number(facts))
    return _(template)


def say(template: str, /, **facts: object) -> str:
    """One of render's own sentences in the chosen language, its facts (names, numbers, cards
    already drawn) each a Unicode isolate in a right-to-left language, as ``Look.say`` does; a
    fact that is itself a sentence (``Words``, an error) is written in the language too."""
    return _fill(translated(template, facts), facts)


def say_count(singular: str, plural: str, n: int, /, **facts: object) -> str:
    """``say`` with the singular or plural template for ``n``, by the language's plural rule."""
    return _fill(i18n.ngettext(singular, plural, n), facts)


def say_side(singular: str, plural: str, subject: str, /, **facts: object) -> str:
    """``say`` for a sentence whose subject is the side ``subject`` (also one of the ``facts``):
    its verb in the plural for a team of two ("Ali & Reza lead"), as the language has it."""
    team = 2 if " & " in subject else 1  # '&' joins a team's names and is in no player's name
    return say_count(singular, plural, team, **facts)


def _fill(text: str, facts: dict[str, object]) -> str:
    """``text`` with each fact escaped (``safe``) and isolated, unless it is isolated already
    (``Laid``, ``Names``, a drawn isolate)."""
    look = _LOOKS[i18n.is_rtl()]
    shown: dict[str, str] = {}
    for k, v in facts.items():
        kind = v.__class__
        if kind is int or (kind is str and v.isascii() and v.isprintable()):  # type: ignore[attr-defined]
            shown[k] = i18n.isolate(str(v))  # what safe and isolate make of it, said at once (a score's titles)
            continue
        if isinstance(v, Names):
            shown[k] = v.text(look)  # each name escaped and isolated already: no isolate around them
            continue
        if isinstance(v, Laid):
            shown[k] = v
            continue
        drawn = look.fact(v) if isinstance(v, PasurError | Words) else safe(v)
        already = isinstance(drawn, Drawn) and drawn.startswith(i18n.FSI) and drawn.endswith(i18n.PDI)
        shown[k] = drawn if already else i18n.isolate(drawn)
    return Drawn(text.format_map(shown))


_LOOKS = {rtl: Look(rtl=rtl) for rtl in (False, True)}  # what _fill draws facts with


def say_numbered(template: str, /, **facts: object) -> Callable[[int], str]:
    """``say`` for one sentence said with many numbers: a function of ``number`` giving what
    ``say(template, number=number, **facts)`` gives, the other facts drawn once (`score` says a
    title for each of thousands of deals, and each with say was a tenth of its drawing)."""
    pieces = [_fill(piece, facts).replace("{", "{{").replace("}", "}}") for piece in _(template).split("{number}")]
    form = i18n.isolate("{0}").join(pieces)  # a number's digits are isolated only in a right-to-left language
    return lambda number: Drawn(form.format(number))


def no_sur_text(record: Play) -> str:
    """Why a play that cleared the table was no sur, as a sentence."""
    from pasur_cli.engine.deal import NoSurRule
    reason = record.no_sur
    assert reason is not None
    if reason.rule == NoSurRule.JACK_SUR:
        return _("The table is cleared, but no sur: a J makes no sur under these rules.")
    if reason.rule == NoSurRule.LAST_HAND_SUR:
        return _("The table is cleared, but no sur: no sur can be made in the last hand.")
    return say_side("The table is cleared, but no sur: {side} began the deal with a total of {total}, at or"
                    " above the sur limit {limit}.",
                    "The table is cleared, but no sur: {side} began the deal with a total of {total}, at or"
                    " above the sur limit {limit}.", record.side, side=record.side, total=reason.total,
                    limit=reason.limit)


# -- pasur check --------------------------------------------------------------------------
def preset_text(preset: str) -> str:
    """A preset's name as text shows it: standard and pagat as typed, "custom" (rules that are no
    preset) in the reader's language; JSON keeps "custom"."""
    return _("custom") if preset == "custom" else preset


def check_text(look: Look, card: Card, table_cards: list[Card], rules: Rules, found: Captures,
               take: list[Card] | None, reason: str | PasurError | None) -> str:
    table_text = list(table_cards)  # a fact: drawn (and isolated) by look.fact, in the order given
    preset = preset_text(rules.preset)
    if take is not None:
        if reason is not None:
            return look.say("{card} on {table} ({rules} rules): not legal: {reason}", card=card, table=table_text,
                            rules=preset, reason=reason)
        if take:
            return look.say("{card} on {table} ({rules} rules): legal, {card} takes {take}.", card=card,
                            table=table_text, rules=preset, take=sorted(take))
        return look.say("{card} on {table} ({rules} rules): legal, {card} is trailed.", card=card,
                        table=table_text, rules=preset)
    if found.trail:
        return look.say("{card} on {table} ({rules} rules): captures nothing; {card} is trailed.", card=card,
                        table=table_text, rules=preset)
    lines = [look.say("{card} on {table} ({rules} rules):", card=card, table=table_text, rules=preset)]
    for number, option in enumerate(found.options, 1):
        sur = "  " + look.loud(_("SUR")) if is_sur(card, option, table_cards, rules) else ""
        lines.append("  " + look.say("{number}. takes {cards}", number=number, cards=sorted(option)) + sur)
    if found.truncated:
        if found.count is not None:
            lines.append("  " + look.say_count("... {shown} of {total} capture shown.", "... {shown} of {total}"
                                               " captures shown.", found.count, shown=len(found.options),
                                               total=found.count))
        else:
            lines.append("  " + look.say("... {shown} of many captures shown.", shown=len(found.options)))
    elif len(found.options) > 1:
        lines.append("  " + _("The player chooses one."))
    return "\n".join(lines)


# -- pasur rules --------------------------------------------------------------------------
def rules_text(names: list[str], width: int = 80) -> str:
    """The options table, its meanings wrapped at word boundaries to fit ``width`` columns."""
    rows = [[o, *(option_text(getattr(PRESETS[n], o)) for n in names), _(MEANINGS[o])] for o in OPTION_NAMES]
    headers = [_("option"), *names, _("meaning")]
    # tabulate's simple format: a column is as wide as its widest cell or its header plus 2, and
    # columns are 2 apart; the meanings get what is left of the width (one column spare)
    used = sum(max(text_width(headers[i]) + 2, *(text_width(str(r[i])) for r in rows)) + 2
               for i in range(len(headers) - 1))
    room = max(10, width - 1 - used)
    if max(text_width(str(r[-1])) for r in rows) > room:
        import textwrap
        rows = [[*r[:-1], "\n".join(textwrap.wrap(str(r[-1]), room, break_on_hyphens=False))] for r in rows]
    return table(rows, headers)


# -- a match ------------------------------------------------------------------------------
def _rules_line(rules: Rules) -> str:
    if rules.preset != "custom":
        return rules.preset
    base = min(PRESETS, key=lambda n: sum(getattr(PRESETS[n], o) != getattr(rules, o) for o in OPTION_NAMES))
    diffs = [f"{o}={option_text(getattr(rules, o))}" for o in OPTION_NAMES
             if getattr(PRESETS[base], o) != getattr(rules, o)]
    return say("{preset} with {options}", preset=base, options=", ".join(diffs))


def new_text(match_id: int, match: Match, table: str | None = None) -> str:
    """What `pasur new` prints: the match (and its ``table``), the rules, who deals and how to enter
    the table."""
    sides = _against(match.sides)
    deals = match.rules.fixed_deals
    goal = (Drawn(i18n.ngettext("{n} deal", "{n} deals", deals).format(n=i18n.isolate(str(deals)))) if deals
            else say("first to {target}", target=match.rules.target))
    head = (say("Match {id}: {sides}. Rules: {rules} ({goal}).", id=match_id, sides=sides,
                rules=_rules_line(match.rules), goal=goal) if table is None
            else say("Match {id}, table {table}: {sides}. Rules: {rules} ({goal}).", id=match_id, table=table,
                     sides=sides, rules=_rules_line(match.rules), goal=goal))
    return (head
            + "\n" + say("{dealer} deals first; {leader} leads. Enter the table: pasur deal CARD CARD CARD CARD",
                         dealer=match.dealer, leader=match.leader))


def _against(sides: Sequence[str]) -> Names:
    return Names(sides, N_(" against "))


def deal_text(look: Look, match: Match) -> str:
    deal = match.deal
    assert deal is not None, "a deal has just been entered"
    return (say("Deal {number} ({dealer} deals). Table: {table}",
                number=match.deal_number, dealer=match.dealer, table=look.cards(deal.table, sort=False))
            + "\n" + say("{player} to play.", player=deal.turn))


def play_text(look: Look, record: Play, match: Match, session: bool = False, width: int = 80) -> str:
    """What a play did, then the table and whose turn; the cue to deal when a hand is played out;
    at the deal's end the deal and match tables and who deals next (``session``: in the
    session's words, else as `pasur deal`), the tables fitted to ``width`` columns. Everything
    about the deal is read from the ``Play`` record."""
    lines = []
    if record.taken:
        lines.append(say("{player} plays {card} and takes {cards}.",
            player=record.player, card=look.card(record.card), cards=look.cards(record.taken)))
    else:
        lines.append(say("{player} plays {card}: trailed.", player=record.player, card=look.card(record.card)))
    if record.sur:
        held: object = Names([(s, n) for s, n in record.surs.items() if n]) if any(record.surs.values()) else _("none")
        if record.cancelled:
            sur = say("*** SUR for {side}, cancelling a sur of {other}! *** Surs held: {held}.",
                side=record.side, other=record.cancelled, held=held)
        else:
            sur = say("*** SUR for {side}! *** Surs held: {held}.", side=record.side, held=held)
        lines.append(look.loud(sur))
    elif record.no_sur:
        lines.append(no_sur_text(record))
    if not record.deal_over:
        cue = hand_cue(record)
        if cue:
            lines.append(look.loud(cue))
        lines.append(say("Table: {table}", table=look.cards(record.table, sort=False)))
        if not session:  # the session's prompt says whose turn it is
            lines.append(say("{player} to play (hand {hand} of {hands}).",
                player=record.turn, hand=record.next_hand, hands=record.hands))
        return "\n".join(lines)
    if record.leftover:
        lines.append(say("Last card played. {player} made the last capture and takes the table: {cards}.",
            player=record.leftover_taker, cards=look.cards(record.leftover)))
    else:
        lines.append(_("Last card played; the table is empty."))
    lines.append("")
    lines.append(score_text(look, match, only_last=True, width=width))
    awaited = awaiting_text(match, session)
    if awaited:
        lines.append(awaited)
    return "\n".join(lines)


def hand_cue(record: Play) -> str | None:
    """After the last card of a hand that is not the deal's last: say to deal the next one."""
    from pasur_cli.engine.deal import CARDS_PER_HAND  # loaded already: a play was made
    if not record.hand_over:
        return None
    if record.stock:
        return say_count("Hand {hand} of {hands} is played. Deal {n} card to each player ({stock} left in the"
                         " stock).", "Hand {hand} of {hands} is played. Deal {n} cards to each player ({stock} left"
                         " in the stock).", CARDS_PER_HAND,
                         hand=record.hand, hands=record.hands, n=CARDS_PER_HAND, stock=record.stock)
    return say_count("Hand {hand} of {hands} is played. Deal each player the last {n} card.",
                     "Hand {hand} of {hands} is played. Deal each player the last {n} cards.", CARDS_PER_HAND,
                     hand=record.hand, hands=record.hands, n=CARDS_PER_HAND)


def awaiting_text(match: Match, session: bool = False) -> str | None:
    """Between deals: who deals next and that the table is awaited (None once the match is over)."""
    if match.finished or match.deal is not None:
        return None
    if session:
        return say("{dealer} deals deal {number}; type the four table cards when they are down.",
                   dealer=match.dealer, number=match.deal_number)
    return say("{dealer} deals deal {number}; then enter its table: pasur deal CARD CARD CARD CARD",
               dealer=match.dealer, number=match.deal_number)


def _score_headers(rules: Rules, look: Look) -> list[str]:
    headers = [_("side"), _("clubs"), _("clubs pts"), "2♣", "10♦", _("aces"), _("jacks"), _("surs")]
    if rules.seven_diamonds:
        headers.append("7♦")
    headers.append(_("total"))
    return [h.replace("♣", "C").replace("♦", "D") for h in headers] if look.ascii else headers


def _score_rows(scores: Mapping[str, SideScore], rules: Rules) -> list[list[object]]:
    rows = []
    for side, s in scores.items():
        row = [side, s.clubs, s.clubs_points, s.two_clubs, s.ten_diamonds, s.aces, s.jacks,
               Figure(f"{s.surs} ({s.sur_points})") if s.surs else 0]
        if rules.seven_diamonds:
            row.append(s.seven_diamonds)
        rows.append([*row, s.total])
    return rows


def match_table(match: Match, width: int | None = None) -> str:
    tallied = say_numbered(N_("{number} (tallied)"))
    sides = match.sides
    rows = [[tallied(result.number) if result.tallied else str(result.number), result.dealer,
             *map(running.__getitem__, sides)]
            for result, running in zip(match.results, match.running_totals(), strict=True)]
    return table(rows, [_("deal"), _("dealer"), *match.sides], width)


def _standing(match: Match) -> str:
    totals = match.totals
    if match.winner:
        others = _(" to ").join(str(t) for s, t in totals.items() if s != match.winner)
        return say_side("{winner} won the match, {points} to {others}.",
                        "{winner} won the match, {points} to {others}.",
                        match.winner, winner=match.winner, points=totals[match.winner], others=others)
    goal = (say_count("{played} of {total} deal played", "{played} of {total} deals played", match.rules.fixed_deals,
                      played=len(match.results), total=match.rules.fixed_deals)
            if match.rules.fixed_deals else say("target {target}", target=match.rules.target))
    top = max(totals.values())
    leaders = [s for s, t in totals.items() if t == top]
    lead = (say_side("{side} leads with {points}", "{side} lead with {points}", leaders[0], side=leaders[0], points=top)
            if len(leaders) == 1
            else say("Level at {points}", points=top))
    if len(leaders) > 1 and match.rules.fixed_deals and len(match.results) >= match.rules.fixed_deals:
        goal = say_count("{played} of {total} deal played: another deal decides",
                         "{played} of {total} deals played: another deal decides", match.rules.fixed_deals,
                         played=len(match.results), total=match.rules.fixed_deals)
    elif len(leaders) > 1 and not match.rules.fixed_deals and top >= match.rules.target:
        goal = say("at or above the target ({target}): another deal decides", target=match.rules.target)
    if match.deal is not None:
        return say("{lead}; {goal}. Deal {number} is being played.", lead=lead, goal=goal,
                   number=match.deal_number)
    return say("{lead}; {goal}. Next: deal {number}, {dealer} deals.",
               lead=lead, goal=goal, number=match.deal_number, dealer=match.dealer)


def score_text(look: Look, match: Match, only_last: bool = False, width: int = 80, brief: str | None = None) -> str:
    """Each deal's score table and the match's running totals, every table fitted to ``width``.
    ``brief``: only the last deal's table (and the race of a deal being played), then how to see
    every deal (the command ``brief`` names) when there are earlier ones."""
    parts = []
    results = list(match.results[-1:] if only_last or brief else match.results)
    # each deal's table by its scores object, drawn once: deals that scored alike share one (see
    # store.snapshots.parse_result), and ``results`` keeps each alive, so no id is taken twice
    distinct = list({id(result.scores): result.scores for result in results}.values())
    drawn = dict(zip(map(id, distinct), tables([_score_rows(scores, match.rules) for scores in distinct],
                                               _score_headers(match.rules, look), width), strict=True))
    titles: dict[tuple[str, bool], Callable[[int], str]] = {}
    for result in results:
        title = titles.get((result.dealer, result.tallied))
        if title is None:
            template = N_("Deal {number} ({dealer} dealt, tallied)") if result.tallied \
                else N_("Deal {number} ({dealer} dealt)")
            title = titles[result.dealer, result.tallied] = say_numbered(template, dealer=result.dealer)
        parts.append(wrap(title(result.number), width, 2) + "\n" + drawn[id(result.scores)])
    if not only_last and match.deal is not None:
        played = say_count("Deal {number}: {played} of {total} card played so far.",
                           "Deal {number}: {played} of {total} cards played so far.", match.deal.total_plays,
                           number=match.deal_number, played=match.deal.played, total=match.deal.total_plays)
        parts.append(wrap(played + "\n" + race_text(look, match.deal), width, 2))
    if match.results:
        parts.append(_("Match (running totals)") + "\n" + match_table(match, width))
    else:
        parts.append(_("No deal has been scored yet."))
    standing = wrap(_standing(match), width, 2)  # prose: within the width, as the tables are
    parts.append(look.loud(standing) if match.winner else standing)
    if brief and len(match.results) > 1:
        parts.append(say("Every deal's table: {command}", command=brief))
    return "\n\n".join(parts)


def show_text(look: Look, match_id: int, match: Match, session: bool = False, width: int = 80,
              table: str | None = None) -> str:
    """Where the match stands: the deal in progress with its race, or the table awaited
    (``session``: in the session's words); the status line shortened to fit ``width`` columns,
    every line broken between words within them (the longest names are 40 characters). ``table``:
    the name of the table the match is played at, shown with its id."""
    return wrap(_show_lines(look, match_id, match, session, width, table), width, 2)


def _show_lines(look: Look, match_id: int, match: Match, session: bool, width: int, table: str | None) -> str:
    if table is None:
        head = say("Match {id}: {sides} ({rules}).", id=match_id, sides=_against(match.sides),
                   rules=_rules_line(match.rules))
    else:
        head = say("Match {id}, table {table}: {sides} ({rules}).", id=match_id, table=table,
                   sides=_against(match.sides), rules=_rules_line(match.rules))
    if match.winner:
        return f"{head}\n" + look.loud(_standing(match))
    deal = match.deal
    if deal is None:
        standing = f"\n{_standing(match)}" if match.results else ""
        how = (_("type the four table cards, e.g. 5c 9d 3h ks.") if session
               else _("enter the table with pasur deal CARD CARD CARD CARD."))
        return head + "\n" + say("Deal {number}: {dealer} deals; {how}",
            number=match.deal_number, dealer=match.dealer, how=how) + standing

    def pile(side: str) -> str:
        surs = deal.surs[side]
        n = len(deal.piles[side])
        text = i18n.ngettext("{side} {n} card", "{side} {n} cards", n).format(side=i18n.isolate(safe(side)),
                                                                              n=i18n.isolate(str(n)))
        return text + (i18n.ngettext(", {n} sur", ", {n} surs", surs).format(n=i18n.isolate(str(surs))) if surs else "")
    piles = Laid((" - " if look.ascii else " · ").join(pile(s) for s in deal.piles))  # each name isolated
    return "\n".join([
        head,
        say("Deal {number}, hand {hand} of {hands}; {dealer} dealt.",
            number=match.deal_number, hand=deal.hand, hands=deal.hands, dealer=match.dealer),
        wrap(status_line(look, match, width=width), width),
        say("Table: {table}", table=look.cards(deal.table, sort=False)),
        say("Piles: {piles}", piles=piles),
        say("Last capture: {player}. Cards unseen: {n}.", player=deal.last_capturer or _("nobody yet"),
                                                              n=deal.unseen),
        race_text(look, deal),
    ])


# -- the table's view: where the match stands, the race within the deal --------------------
def _common(a: str, b: str) -> int:
    """How many first characters two names share."""
    n = 0
    while n < min(len(a), len(b)) and a[n].casefold() == b[n].casefold():
        n += 1
    return n


def _initials(side: str) -> str:
    return "&".join(p.strip()[:1] for p in side.split(" & "))


def status_line(look: Look, match: Match, width: int = 80) -> str:
    """One line for the prompt and `show`: whose turn and the cards each player holds in this
    hand, then the match score, e.g. ``Sara (3 left; Ali 2) · Ali 23 – Sara 37``. Shortened
    (team initials, then names cut) to fit ``width`` columns."""
    dot, dash = (" - ", "-") if look.ascii else (" · ", "–")
    totals = match.totals

    def score(short: bool) -> str:
        sides = [f"{look.fact(_initials(s) if short and ' & ' in s else s)} {look.fact(totals[s])}"
                 for s in match.sides]
        return f" {dash} ".join(sides)

    def turn(cut: int | None, verb: bool) -> str:
        deal = match.deal

        def name(p: str) -> str:  # cut, but never so short that two players read the same
            keep = max(cut or 0, 1 + max((_common(p, q) for q in match.players if q != p), default=0) + 1)
            return p if cut is None or len(p) <= keep else p[: keep - 1].rstrip(" -\u200c") + "."
        if match.winner:
            return say_side("Match over, {winner} won", "Match over, {winner} won", match.winner, winner=match.winner)
        if deal is None:
            return say("Deal {number} table ({dealer} deals)", number=match.deal_number,
                                                                   dealer=name(match.dealer))
        left = deal.cards_left()
        first, *others = left
        rest = Names([(name(p), left[p]) for p in others])
        if verb:
            return say("{player} to play ({n} left; {others})", player=name(first), n=left[first], others=rest)
        return say("{player} ({n} left; {others})", player=name(first), n=left[first], others=rest)

    for verb, cut, short in ((True, None, False), (False, None, False), (False, None, True), (False, 8, True),
                             (False, 5, True), (False, 3, True)):
        line = f"{turn(cut, verb)}{dot}{score(short)}"
        if 2 * len(line) <= width or text_width(line) <= width:
            return line
    return line


def race_text(look: Look, deal: Deal) -> str:
    """The race within a deal: each side's clubs, who holds 2♣ and 10♦ (and 7♦ when it scores),
    the surs held, and the points each side would score if the deal ended now."""
    from pasur_cli.engine.scoring import SEVEN_DIAMONDS, TEN_DIAMONDS, TWO_CLUBS
    dot = " - " if look.ascii else " · "
    rules = deal.rules
    clubs = Names([(s, sum(c.suit == Suit.CLUBS for c in p)) for s, p in deal.piles.items()], dot)

    def holder(card: Card) -> str:
        for side, pile in deal.piles.items():
            if card in pile:
                return safe(side)
        if card in deal.table:
            return _("on the table")
        return _("not seen yet")
    specials = [TWO_CLUBS, TEN_DIAMONDS, *([SEVEN_DIAMONDS] if rules.seven_diamonds else [])]
    held: object = Names([(s, n) for s, n in deal.surs.items() if n]) if any(deal.surs.values()) else _("none")
    now = Names([(s, score.total) for s, score in deal.score_if_ended().items()], dot)
    return "\n".join([
        say_count("Clubs so far: {clubs} ({min} needed for {points} point).",
                  "Clubs so far: {clubs} ({min} needed for {points} points).", rules.clubs_points,
                  clubs=clubs, min=rules.clubs_min, points=rules.clubs_points),
        ". ".join(f"{look.card(c)}: {holder(c)}" for c in specials) + ". " + say("Surs: {held}.", held=held),
        say("If the deal ended now: {points}.", points=now),
    ])


def position_text(look: Look, match: Match) -> str:
    """Where the match stands after an undo: the table and whose turn, or the table awaited."""
    deal = match.deal
    if match.winner:
        return _standing(match)
    if deal is None:
        return say("Now: deal {number} waits for its table ({dealer} deals).",
            number=match.deal_number, dealer=match.dealer)
    return say("Now: table {table}; {player} to play (hand {hand} of {hands}).",
        table=look.cards(deal.table, sort=False), player=deal.turn, hand=deal.hand, hands=deal.hands)


def choice_text(look: Look, card: Card, options: Sequence[Iterable[Card]], count: int | None, truncated: bool,
                width: int = 80) -> str:
    """A capture choice as a question: ``7♣ can take: 1) A♥ 3♠  2) 4♦. Which one?``"""
    items = [f"{n}) {look.cards(o)}" for n, o in enumerate(options, 1)]
    one = say("{card} can take: {choices}. Which one? ", card=look.card(card), choices=Drawn("  ".join(items)))
    if not truncated and len(items) <= 6 and text_width(one) <= width:
        return one
    lines = [say("{card} can take:", card=look.card(card)), *(f"  {i}" for i in items)]
    if truncated:
        lines.append(say("  ... {shown} of {count} shown; or type the cards it takes.",
            shown=len(options), count=count if count is not None else _("many")))
    return "\n".join([*lines, _("Which one? ")])


def error_text(look: Look, err: Exception) -> str:
    """An engine refusal as the player reads it (``message``); any other error as its text."""
    return message(err, look) if isinstance(err, PasurError) else str(err)


def stale_text(look: Look, err: PasurError) -> str:
    """Why a change typed in the session was not recorded: how many actions someone else recorded
    (or took back, or took back and entered again) since its position was shown (``err`` is the
    store's StaleError: the revision and log length now and as shown)."""
    facts = err.facts
    length, shown, revision, expect = (facts.get(name) for name in ("length", "shown", "revision", "expect"))
    if not all(isinstance(n, int) for n in (length, shown, revision, expect)) or revision == expect:
        return message(err, look)
    assert isinstance(length, int) and isinstance(shown, int) and isinstance(revision, int)
    assert isinstance(expect, int)
    if length - shown == revision - expect > 0:  # only actions added
        return look.say_count("someone recorded {n} more action since this was shown; nothing was recorded."
                              " Look again and re-enter.",
                              "someone recorded {n} more actions since this was shown; nothing was recorded."
                              " Look again and re-enter.", length - shown, n=length - shown)
    if revision - expect == 1 and length < shown:  # one undo
        return look.say_count("someone took back {n} action since this was shown; nothing was recorded."
                              " Look again and re-enter.",
                              "someone took back {n} actions since this was shown; nothing was recorded."
                              " Look again and re-enter.", shown - length, n=shown - length)
    return look.say("someone took back and entered actions since this was shown; nothing was recorded."
                    " Look again and re-enter.")


def options_text(look: Look, card: Card, options: Sequence[Sequence[Card]], count: int | None) -> str:
    lines = [say("{card} can capture in many ways; name one with --take:", card=look.card(card)) if count is None
             else say_count("{card} can capture in {n} way; name one with --take:",
                            "{card} can capture in {n} ways; name one with --take:", count,
                            card=look.card(card), n=count)]
    for number, option in enumerate(options, 1):
        lines.append(f"  {number}. --take \"{' '.join(c.code for c in option)}\"  ({look.cards(option)})")
    return "\n".join(lines)


def reopened_text(match_id: int, winner: str) -> str:
    """Said when an undo takes back the end of a finished match: it is open again, and who had won it."""
    return say_side("Match {match} is open again; {winner} had won it.",
                    "Match {match} is open again; {winner} had won it.", winner, match=match_id, winner=winner)


def describe_action(look: Look, action: Action) -> str:
    """One line for an action in the log (what undo took back)."""
    from pasur_cli.engine.action import DealAction, PlayAction  # loaded already: the action was read
    if isinstance(action, DealAction):
        return say("the table {cards}", cards=look.cards(list(action.table), sort=False))
    if isinstance(action, PlayAction):
        card = look.card(action.card)
        if action.take:
            return say("{player}'s {card}, taking {cards}",
                player=action.by, card=card, cards=look.cards(list(action.take), sort=False))
        return say("{player}'s {card}, trailed", player=action.by, card=card)
    return _("a tallied deal")


def matches_text(rows: list[dict[str, Any]], filtered: bool = False, width: int = 80,
                 every: list[dict[str, Any]] | None = None) -> str:
    """The matches as one table that fits ``width`` columns, with the same columns whatever the
    names: when its one-line rows are wider, each side's total on a line of its own; then, narrower
    still, the players, the totals and the status broken onto more lines (the widest first, between
    words, a name wider than its column where the column ends). The layout is the one ``every``
    match gets when given (``rows`` is a filtered part of it: `matches --unfinished` keeps the
    columns of `matches`). A terminal too narrow for the columns' headers gets them anyway."""
    if not rows:
        if filtered:
            return _("No match fits.")
        return _("No matches yet: start one with pasur new NAME NAME.")
    cells = _matches_cells(rows)
    stage, rooms, padding = _matches_layout(every or rows, width, cells if every is None or every is rows else None)
    body, headers = _matches_body(rows, stage, cells)
    for col, room in rooms.items():
        body = [[*row[:col], _broken(row[col], room), *row[col + 1:]] for row in body]
    return table(body, headers, width if stage == 2 else None, padding=padding)  # stage 2: split if it must


def _broken(cell: object, room: int) -> str:
    """A cell of `matches` broken onto lines of ``room`` columns; a sentence pasur drew (a status
    with its facts isolated) stays drawn text, which a table writes as it is."""
    text = wrap(str(cell), room, 2, break_words=True)
    return Drawn(text) if isinstance(cell, Drawn) else text


def _matches_cells(rows: list[dict[str, Any]]) -> tuple[list[list[object]], list[list[str]]]:
    """The cells of `matches` one line a match, and each match's totals (side and total) apart;
    names, rules and winners repeat from match to match: each is drawn once."""
    drawn: dict[object, str] = {}

    def once(kind: str, value: object, draw: Any) -> str:
        key = (kind, value.__class__, value)
        if key not in drawn:
            drawn[key] = draw(value)
        return drawn[key]
    totals = [[f"{once('name', s, safe)} {t}" for s, t in r["totals"].items()] for r in rows]
    body: list[list[object]] = [
        [r["match"] if r.get("table") is None else say("{id} (table {table})", id=r["match"], table=r["table"]),
         safe((r["created"] or "?")[:10]), once("players", tuple(r["players"]),
                                                           lambda names: ", ".join(safe(p) for p in names)),
         once("rules", r["rules"], preset_text),
         "?" if r["deals"] is None else r["deals"], " / ".join(sides),
         say("damaged: {reason}", reason=r["damaged"]) if r.get("damaged") else
         once("winner", r["winner"], lambda side: say("won by {side}", side=side)) if r["finished"] else
         _("playing")]
        for r, sides in zip(rows, totals, strict=True)]
    return body, totals


Cells = tuple[list[list[object]], list[list[str]]]  # see _matches_cells
MATCHES_TEXT = (2, 5, 6)  # the columns of `matches` that are broken to fit: players, totals, status


def _matches_body(rows: list[dict[str, Any]], stage: int,
                  cells: Cells | None = None) -> tuple[list[list[object]], list[str]]:
    """The cells of `matches` at a layout ``stage``: 0 one line a match, 1 each side's total on a
    line of its own, 2 (a terminal too narrow for every column) the totals in the players column
    (the sides name every player, in seat order) (``cells``: ``_matches_cells(rows)``)."""
    headers = [_("match"), _("date"), _("players"), _("rules"), _("deals"), _("totals"), _("status")]
    body, totals = cells or _matches_cells(rows)
    if stage >= 1:
        body = [[*row[:5], "\n".join(sides), row[6]] for row, sides in zip(body, totals, strict=True)]
    if stage >= 2:
        body = [[row[0], row[1], "\n".join(sides) or row[2], *row[3:5], row[6]]
                for row, sides in zip(body, totals, strict=True)]
        headers = [*headers[:5], headers[6]]
    return body, headers


def _matches_layout(rows: list[dict[str, Any]], width: int,
                    cells: Cells | None = None) -> tuple[int, dict[int, int], int]:
    """The layout stage the ``rows`` need to fit ``width`` (see _matches_body), the columns then
    broken to fit (each with the width it is broken to), and the padding beside the headers (none
    when columns are broken). Stage 2 only when the terminal is too narrow for every column's
    header, whatever the names."""
    cells = cells or _matches_cells(rows)
    for stage in (0, 1):
        body, headers = _matches_body(rows, stage, cells)
        if table_width(body, headers) <= width:
            return stage, {}, 2
    text, least = list(MATCHES_TEXT), 12  # every column: each of players, totals and status in 12 or more
    fixed = sum(column_width(body, headers, i, 0) for i in range(len(headers)) if i not in text)
    if fixed + sum(_least(headers, i, least) for i in text) + 2 * (len(headers) - 1) > width:
        stage, text, least = 2, [2, 5], 6  # the totals in the players column
        body, headers = _matches_body(rows, stage, cells)
    widths = {i: column_width(body, headers, i, 0) for i in text}
    excess = table_width(body, headers, 0) - width
    return stage, share_columns(widths, {i: _least(headers, i, least) for i in text}, max(excess, 0)), 0


def _least(headers: list[str], column: int, least: int) -> int:
    """The columns `matches` keeps at the least for its players, totals or status (the last
    column): ``least``, its header, and in the status the words of "playing" and "won by", never
    broken."""
    words = [*_("playing").split(), *_("won by {side}").replace("{side}", "").split()]
    return max(least, text_width(headers[column]), *(map(text_width, words) if column == len(headers) - 1 else ()))


