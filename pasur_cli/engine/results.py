"""A match's finished deals, in order: those a snapshot holds, then those played since.

A match resumed from a snapshot (``Match.resume``) knows how many deals were finished before it
and their totals, but reads the deals themselves only when one is wanted: a sequence the caller
gives (the store reads its rows then), so that resuming a long match costs what a short one
does. The deals played since are appended here. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class Results(Sequence[T], Generic[T]):
    """``earlier`` (any sequence whose length is known without reading it) followed by the items
    appended since. Compares equal to a list or Results of the same items."""

    __slots__ = ("earlier", "later")

    def __init__(self, earlier: Sequence[T] = ()) -> None:
        self.earlier = earlier
        self.later: list[T] = []

    def append(self, item: T) -> None:
        """Add an item after the others (a deal just finished)."""
        self.later.append(item)

    def __len__(self) -> int:
        return len(self.earlier) + len(self.later)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        """An item, or a list of the items a slice names. Raises IndexError as a list does."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self.earlier)
        where = index + len(self) if index < 0 else index
        if count <= where < len(self):  # a deal played since: the earlier ones are not read
            return self.later[where - count]
        if not 0 <= where < count:
            raise IndexError("results index out of range")
        return self.earlier[where]

    def __iter__(self) -> Iterator[T]:
        yield from self.earlier
        yield from self.later

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, list | Results):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    def __add__(self, other: Sequence[T]) -> list[T]:
        return [*self, *other]

    def __radd__(self, other: Sequence[T]) -> list[T]:
        return [*other, *self]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))
