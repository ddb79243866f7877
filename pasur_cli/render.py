"""Everything a person reads: cards with colour, capture lists, rule and score tables, JSON.

Functions take a ``Look`` (ASCII or Unicode suits, colour or not) and return text; printing is
the CLI's job. tabulate is imported only by the functions that draw tables.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass

from pasur_cli.cards import Card, Suit
from pasur_cli.captures import Captures
from pasur_cli.rules import MEANINGS, OPTION_NAMES, PRESETS, Rules

RED = (Suit.DIAMONDS, Suit.HEARTS)


@dataclass(frozen=True, slots=True)
class Look:
    """How to draw: ``ascii`` suits (10D) instead of symbols (10♦), ``color`` with ANSI codes."""

    ascii: bool = False
    color: bool = False

    @staticmethod
    def detect(ascii: bool = False, no_color: bool = False, stream=None) -> Look:
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
        return Look(ascii=ascii, color=color)

    def card(self, card: Card) -> str:
        text = card.show(self.ascii)
        if self.color and card.suit in RED:
            return f"\x1b[31m{text}\x1b[0m"
        return text

    def cards(self, cards, sort: bool = True) -> str:
        seq = sorted(cards) if sort else list(cards)
        return " ".join(self.card(c) for c in seq) if seq else "(empty)"

    def loud(self, text: str) -> str:
        return f"\x1b[1;33m{text}\x1b[0m" if self.color else text


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def table(rows: list[list[object]], headers: list[str]) -> str:
    from tabulate import tabulate
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


# -- pasur check --------------------------------------------------------------------------
def capture_sur(card: Card, take, table_cards, rules: Rules) -> bool:
    """Whether a capture clears the table as a sur, assuming no last-hand or sur-limit exception."""
    from pasur_cli.cards import Rank
    return bool(take) and len(take) == len(table_cards) and (card.rank != Rank.JACK or rules.jack_sur)


def check_json(card: Card, table_cards: list[Card], rules: Rules, found: Captures,
               legal: bool | None, reason: str | None) -> dict:
    return {
        "played": card.code,
        "table": [c.code for c in table_cards],
        "rules": rules.preset,
        "captures": [{"take": [c.code for c in take], "sur": capture_sur(card, take, table_cards, rules)}
                     for take in found.options],
        "count": found.count,
        "truncated": found.truncated,
        "trail": found.trail,
        "legal": legal,
        "reason": reason,
    }


def check_text(look: Look, card: Card, table_cards: list[Card], rules: Rules, found: Captures,
               take: list[Card] | None, reason: str | None) -> str:
    head = f"{look.card(card)} on {look.cards(table_cards, sort=False)} ({rules.preset} rules)"
    if take is not None:
        what = f"takes {look.cards(take)}" if take else "is trailed"
        if reason is None:
            return f"{head}: legal, {look.card(card)} {what}."
        return f"{head}: not legal: {reason}"
    if found.trail:
        return f"{head}: captures nothing; {look.card(card)} is trailed."
    lines = [f"{head}:"]
    for number, option in enumerate(found.options, 1):
        sur = "  " + look.loud("SUR") if capture_sur(card, option, table_cards, rules) else ""
        lines.append(f"  {number}. takes {look.cards(option)}{sur}")
    if found.truncated:
        total = found.count if found.count is not None else "many"
        lines.append(f"  ... {len(found.options)} of {total} captures shown.")
    elif len(found.options) > 1:
        lines.append("  The player chooses one.")
    return "\n".join(lines)


# -- pasur rules --------------------------------------------------------------------------
def show_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_json(names: list[str]) -> dict:
    return {"presets": {n: PRESETS[n].as_dict() for n in names}, "meanings": dict(MEANINGS)}


def rules_text(names: list[str]) -> str:
    rows = [[o, *(show_value(getattr(PRESETS[n], o)) for n in names), MEANINGS[o]] for o in OPTION_NAMES]
    return table(rows, ["option", *names, "meaning"])
