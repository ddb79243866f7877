"""Reading what a person types, in any script: the engine's part of input, free of any language.

Digits of every script a keyboard types are read as ASCII digits (``ascii_digits``, ``whole_number``),
and the Arabic keyboard's yeh and kaf as the Persian letters (``PERSIAN_LETTERS``: names and answers
compare with them). ``N_`` marks a sentence defined at import time for extraction: it returns the
sentence unchanged, so the engine holds no language of its own (the text layer translates).

>>> ascii_digits("۱۰♦ clubs=٨"), whole_number("۱۲"), whole_number("1.5")
('10♦ clubs=8', 12, None)
"""

from __future__ import annotations

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
# the letters an Arabic keyboard (or an older Persian one) types for the Persian yeh and kaf:
# yes/no answers and names (names.name_key) read them as the Persian ones
PERSIAN_LETTERS = str.maketrans({"\u064a": "\u06cc", "\u0649": "\u06cc", "\u0643": "\u06a9"})


def N_(message: str) -> str:  # the name gettext's tools know
    """Mark a string defined at import time for extraction; it is translated where it is shown."""
    return message


def whole_number(text: str, digits: int = 3) -> int | None:
    """The whole number ``text`` is, in decimal digits of any script as ``int`` and click read them
    (0-9, Persian ۰-۹, Arabic-Indic ٠-٩), at most ``digits`` of them; None for anything else
    (``²``, ``-1``, ``1.5``, a 5,000-digit number): the one reading of a number a person types."""
    text = text.strip()
    return int(text) if text.isdecimal() and len(text) <= digits else None


def ascii_digits(text: str) -> str:
    """``text`` with Persian (۰-۹) and Arabic-Indic (٠-٩) digits written as 0-9: the one place
    input typed on a Persian keyboard is normalized."""
    return text.translate(_DIGITS)
