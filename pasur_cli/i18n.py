"""Translation: ``_`` marks a sentence for translation and returns it in the chosen language.

Write every sentence a person reads as ``_("Sara plays {card}.").format(card=...)`` (named fields,
never an f-string, so the whole sentence is one message a translator sees). For now the catalog
is English only and ``_`` returns its argument.
"""

from __future__ import annotations


def _(message: str) -> str:
    """``message`` in the chosen language."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the chosen language."""
    return singular if n == 1 else plural
