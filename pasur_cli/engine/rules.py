"""The rule set: every option of RULES.md, the two presets, and NAME=VALUE overrides.

>>> parse_rules("pagat", ["sur_points=10"]).sur_points
10
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from pasur_cli.engine.arguments import check_items, check_type, not_a_choice
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.reading import N_
from pasur_cli.engine.values import Value

CHOICES: dict[str, tuple[str, ...]] = {
    "table_check": ("standard", "pagat", "none"),
    "capture_mode": ("sum11", "rank"),
    "court_capture": ("one", "all"),
    "jack_capture": ("wild", "sum11"),
    "three_player_clubs": ("none", "third"),
}
BOOLS = ("multi_capture", "jack_sur", "last_hand_sur", "sur_cancel", "teams")
OPTIONAL_INTS = ("sur_limit", "fixed_deals")  # an int, or none


AT_LEAST_ONE = ("target", "fixed_deals", "clubs_min")
MOST = 10**6  # the largest number any option takes


def least(name: str) -> int:
    """The smallest number option ``name`` takes."""
    return 1 if name in AT_LEAST_ONE else 0


def _check_value(name: str, value: object) -> None:
    """Raise NotationError when ``value`` is not one option ``name`` can take (exact types: no
    bool where a number goes, no number where a bool goes)."""
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise not_a_choice(name, value, CHOICES[name])
    elif name in BOOLS:
        if value.__class__ is not bool:
            raise NotationError("{name}={text!r} is not allowed: write true or false.", name=name, text=value)
    elif value is None and name in OPTIONAL_INTS:
        return
    elif value.__class__ is not int:
        if name in OPTIONAL_INTS:
            raise NotationError("{name}={text!r} is not allowed: write a whole number or none.", name=name, text=value)
        raise NotationError("{name}={text!r} is not allowed: write a whole number.", name=name, text=value)
    elif not least(name) <= value <= MOST:
        raise NotationError("{name}={number} is not allowed: write a whole number from {least} to {most}.",
                            name=name, number=value, least=least(name), most=MOST)


class Rules(Value):
    """Every rule option; the defaults are the `standard` preset. A value that checks itself:

    >>> Rules(capture_mode="bogus")
    Traceback (most recent call last):
    ...
    pasur_cli.engine.errors.NotationError: capture_mode='bogus' is not allowed: choose one of sum11, rank.
    """

    table_check: str = "standard"
    capture_mode: str = "sum11"
    multi_capture: bool = True
    court_capture: str = "all"
    jack_capture: str = "wild"
    jack_sur: bool = True
    last_hand_sur: bool = True
    sur_limit: int | None = None
    sur_cancel: bool = False
    sur_points: int = 5
    clubs_points: int = 7
    clubs_min: int = 7
    three_player_clubs: str = "none"
    seven_diamonds: int = 0
    target: int = 62
    fixed_deals: int | None = None
    teams: bool = True

    def __post_init__(self) -> None:
        for name in self._fields:
            _check_value(name, getattr(self, name))

    @property
    def preset(self) -> str:
        """The preset these rules equal, or ``custom``."""
        return next((name for name, rules in PRESETS.items() if rules == self), "custom")


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "pagat": Rules(
        table_check="pagat", multi_capture=False, court_capture="one", jack_sur=False,
        last_hand_sur=False, sur_limit=50, sur_cancel=True, three_player_clubs="third",
    ),
}
OPTION_NAMES: tuple[str, ...] = Rules._fields

MEANINGS: dict[str, str] = {
    "table_check": N_("initial table: standard = one J replaced, 2+ J/Q/K misdeal; pagat = one J replaced,"
                      " 2+ J or 3+ Q/K misdeal; none"),
    "capture_mode": N_("sum11 = numerals take table numerals summing to 11 with them; rank = every card takes"
                       " its own rank"),
    "multi_capture": N_("a numeral takes every disjoint set summing to 11 (maximal), not just one set"),
    "court_capture": N_("a K or Q takes one matching card (one) or every matching card (all)"),
    "jack_capture": N_("wild = a J takes every numeral and J on the table; sum11 = a J takes numerals totalling 11"),
    "jack_sur": N_("a J that clears the table is a sur"),
    "last_hand_sur": N_("a sur can be made during the last hand of a deal"),
    "sur_limit": N_("a side at or above this match total at the start of a deal neither scores nor cancels surs"
                    " (none = no limit)"),
    "sur_cancel": N_("a sur cancels one sur held by an opponent side instead of being added"),
    "sur_points": N_("points for each sur held at the end of a deal"),
    "clubs_points": N_("points for holding at least clubs_min clubs"),
    "clubs_min": N_("clubs a side needs for the clubs points"),
    "three_player_clubs": N_("third = with three sides, when two tie on clubs the third scores the clubs points; none"),
    "seven_diamonds": N_("points for the 7♦"),
    "target": N_("a match ends after the deal in which a side reaches this total (highest total wins; ties play on)"),
    "fixed_deals": N_("play exactly this many deals instead of playing to the target (none = use the target)"),
    "teams": N_("with 4 players, partnerships (seats 1+3 against 2+4); false = 4-handed solo"),
}


def option_text(value: object) -> str:
    """An option's value as it is written in ``NAME=VALUE`` (true, false, none, 62, wild)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(name: str, text: str) -> object:
    """Turn the text of one option into its value; raise NotationError when it does not fit."""
    low = text.strip().lower()
    if name in CHOICES:
        if low not in CHOICES[name]:
            raise not_a_choice(name, text, CHOICES[name])
        return low
    if name in BOOLS:
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise NotationError("{name}={text!r} is not allowed: write true or false.", name=name, text=text)
    if name in OPTIONAL_INTS and low in ("none", "off", ""):
        return None
    try:
        number = int(low)
    except ValueError:
        if name in OPTIONAL_INTS:
            raise NotationError("{name}={text!r} is not allowed: write a whole number or none.",
                                name=name, text=text) from None
        raise NotationError("{name}={text!r} is not allowed: write a whole number.", name=name, text=text) from None
    if not least(name) <= number <= MOST:
        raise NotationError("{name}={number} is not allowed: write a whole number from {least} to {most}.",
                            name=name, number=number, least=least(name), most=MOST)
    return number


def parse_override(text: str) -> tuple[str, object]:
    """Parse one ``NAME=VALUE`` override. Raises NotationError for an unknown name or bad value."""
    name, sep, value = text.partition("=")
    name = name.strip().lower().replace("-", "_")
    if not sep:
        raise NotationError("{text!r} is not a rule override: write NAME=VALUE, e.g. sur_points=10.", text=text)
    if name not in OPTION_NAMES:
        import difflib
        close = difflib.get_close_matches(name, OPTION_NAMES, n=1, cutoff=0.6)
        if close:
            raise NotationError("{name!r} is not a rule option; did you mean {option}? The options are: {options}.",
                                name=name, option=close[0], options=", ".join(OPTION_NAMES))
        raise NotationError("{name!r} is not a rule option; the options are: {options}.",
                            name=name, options=", ".join(OPTION_NAMES))
    return name, _parse_value(name, value)


def parse_rules(preset: str = "standard", overrides: Iterable[str] = ()) -> Rules:
    """The named preset with overrides applied. Raises NotationError for an unknown preset or option,
    or for a preset or override that is not text."""
    check_type("preset", preset, str)
    check_items("overrides", list(overrides) if isinstance(overrides, Iterable) else overrides, str)
    key = preset.strip().lower()
    if key not in PRESETS:
        raise NotationError("{preset!r} is not a preset; choose one of {presets}.", preset=preset,
                            presets=", ".join(PRESETS))
    changes = dict(parse_override(o) for o in overrides)
    return PRESETS[key].replace(**changes)



def rules_lines(rules: Rules) -> str:
    """The rules as the store keeps them: every option as ``NAME=VALUE``, one a line."""
    return "\n".join(f"{name}={option_text(value)}" for name, value in rules.as_dict().items())


@lru_cache(maxsize=64)  # every match of a record book has one of a few rule sets
def stored_rules(text: str) -> Rules:
    """The rules ``rules_lines`` wrote, read once and checked once (by ``Rules``); an option left
    out has the standard value. Raises NotationError (as ``parse_rules`` says it) for text that
    is not what ``rules_lines`` writes: read back through the typed-rule parser, which names the
    option and its value.

    >>> stored_rules(rules_lines(PRESETS["pagat"])) == PRESETS["pagat"]
    True
    """
    values: dict[str, Any] = {}
    for line in text.split("\n"):
        name, _, value = line.partition("=")
        if name not in OPTION_NAMES or name in values:
            return parse_rules("standard", text.split("\n"))
        if value in ("true", "false") and name in BOOLS:
            values[name] = value == "true"
        elif value == "none" and name in OPTIONAL_INTS:
            values[name] = None
        elif value.isascii() and value.isdecimal() and name not in BOOLS and name not in CHOICES:
            values[name] = int(value)
        elif name in CHOICES and value in CHOICES[name]:
            values[name] = value
        else:
            return parse_rules("standard", text.split("\n"))
    try:
        return Rules(**values)
    except ValueError:
        return parse_rules("standard", text.split("\n"))  # its refusal names the option
