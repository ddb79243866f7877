"""A club night's tables in words: the refusal of a change that names no match while several are in
play, the note a read prints of which match it shows, and a match named with its table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.reading import N_
from pasur_cli.text.render import Look, Names, message, say


class InPlay(Protocol):
    """A match in play as the store reads it (``store.tables.InPlay``): its id, its table's name,
    its sides, whose turn it is (None between deals) and who deals."""

    @property
    def id(self) -> int: ...
    @property
    def table(self) -> str | None: ...
    @property
    def sides(self) -> Sequence[str]: ...
    @property
    def turn(self) -> str | None: ...
    @property
    def dealer(self) -> str: ...


def match_title(match_id: int, table: str | None) -> str:
    """A match as a sentence names it: "match 7", or "match 7 (table 3)" when it has a table."""
    if table is None:
        return say("match {id}", id=match_id)
    return say("match {id} (table {table})", id=match_id, table=table)


def in_play_line(look: Look, table: InPlay) -> str:
    """One table in play, as the refusal lists it: how to choose it, its match, its sides and who is
    to play (or to deal the next table)."""
    sides = Names(table.sides, N_(" against "))
    doing = (say("{player} to play", player=table.turn) if table.turn is not None
             else say("{dealer} to deal", dealer=table.dealer))
    return f"  --match {table.id}  " + look.say("{match}: {sides}; {doing}.",
                                                             match=match_title(table.id, table.table),
                                                             sides=sides, doing=doing)


def choose_text(look: Look, err: PasurError) -> str:
    """The refusal of a change that names no match while several are in play (the store's
    ChooseMatchError): the sentence, then each table in play on a line of its own."""
    tables: Sequence[InPlay] = err.facts.get("tables", ())  # type: ignore[assignment]
    return "\n".join([message(err, look), *(in_play_line(look, t) for t in tables)])


def showing_text(look: Look, match_id: int, table: str | None, others: Sequence[InPlay]) -> str:
    """What a read that named no match says when other matches are in play: which one it shows,
    and how to see another."""
    return look.say("Showing {match}. Also in play: {others}; choose with --match N.",
                    match=match_title(match_id, table), others=Names([match_title(t.id, t.table) for t in others]))
