"""``Memo``: the one bounded memo for a loop that reads what it remembered as a dict.

A function whose result is remembered by its arguments uses ``functools.lru_cache``; where a hot
loop looks a key up itself (the simulator's view of each play), a call per lookup is too much, and
``Memo`` is a dict that forgets everything once it holds ``most`` entries, so its memory stays
bounded while a read stays a dict's ``get``.

>>> memo: Memo[str, int] = Memo(2)
>>> memo.keep("a", 1), memo.keep("b", 2), memo.get("a")
(1, 2, 1)
>>> memo.keep("c", 3), sorted(memo)
(3, ['c'])
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict of remembered results that empties itself before it would hold more than ``most``."""

    __slots__ = ("most",)

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (forgetting everything first when full); return it."""
        if len(self) >= self.most:
            self.clear()
        self[key] = value
        return value
