"""What an organiser reads about an event: a round's tables (who sits where, who deals), a result
given or corrected, and the standings with their tiebreaks, as text, JSON or CSV rows. Functions
return text or plain data; printing is the CLI's job."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pasur_cli.engine.club.event import Entrant, Table
from pasur_cli.engine.club.standings import Place
from pasur_cli.text.i18n import _
from pasur_cli.text.layout import table as text_table
from pasur_cli.text.render import Look, comma


def score_text(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def round_text(look: Look, event: str, round_number: int, rounds: int, made: Sequence[Table],
               people: dict[int, Entrant], seating: dict[int, tuple[list[str], int]]) -> str:
    """Round ``round_number``'s tables: each table's entrants, its match, the seats and who deals;
    then the bye. ``seating``: each table's (players in seat order, dealer's seat)."""
    lines = [look.say("{event}, round {round} of {rounds}:", event=event, round=round_number, rounds=rounds)]
    for table in made:
        if table.second is None:
            lines.append(look.say("Bye: {name} (a win with no points difference).", name=people[table.first].name))
            continue
        players, dealer = seating[table.number]
        seats = comma().join(look.say("{seat} {player}", seat=seat, player=player)
                             for seat, player in enumerate(players, 1))
        lines.append(look.say("Table {table}: {first} against {second}, match {match}. Seats: {seats}; {dealer}"
                              " deals first.", table=table.number, first=people[table.first].name,
                              second=people[table.second].name, match=table.match, seats=seats,
                              dealer=players[dealer]))
    return "\n".join(lines)


def result_text(look: Look, table: Table, people: dict[int, Entrant], new: tuple[int, int],
                old: tuple[int, int] | None) -> str:
    """The score given to a table, and the one it replaces."""
    first, second = people[table.first].name, people[table.second or 0].name
    if old is None:
        return look.say("Round {round}, table {table}: {first} {score} {second}.", round=table.round,
                        table=table.number, first=first, second=second, score=score_text(new))
    return look.say("Round {round}, table {table}: {first} {score} {second} (was {old}).", round=table.round,
                    table=table.number, first=first, second=second, score=score_text(new), old=score_text(old))


def _headers(swiss: bool) -> list[str]:
    return [_("Rank"), _("Entrant"), _("Played"), _("Wins"), _("Byes"), *([_("Buchholz")] if swiss else []),
            _("Difference"), _("Points"), _("Head to head")]


def _row(look: Look, place: Place, below: Place | None, swiss: bool) -> list[object]:
    """One line of the standings; ``below``: the place under it (whom a head to head placed it above)."""
    name = place.entrant.name
    if place.entrant.dropped is not None:
        name = look.say("{name} (dropped)", name=name)
    met = look.say("beat {name}", name=below.entrant.name) if place.head_to_head and below else ""
    return [place.rank, name, place.played, place.wins, place.byes, *([place.buchholz] if swiss else []),
            place.difference, place.scored, met]


def standings_text(look: Look, event: str, places: Sequence[Place], swiss: bool, width: int | None) -> str:
    """The standings as a table: wins, then the tiebreaks in the order they count."""
    order = (_("Ties are broken by the opponents' wins (Buchholz), then the points difference, then the points"
               " scored, then head to head.") if swiss else
             _("Ties are broken by the points difference, then the points scored, then head to head."))
    head = look.say("{event}: standings", event=event)
    rows = [_row(look, p, below, swiss) for p, below in zip(places, [*places[1:], None], strict=True)]
    return "\n".join([head, text_table(rows, _headers(swiss), width), order])


def standings_json(event: str, pairing: str, places: Sequence[Place]) -> dict[str, Any]:
    """The standings as one JSON object (keys in English: a script's)."""
    return {"event": event, "pairing": pairing, "standings": [
        {"rank": p.rank, "name": p.entrant.name, "players": list(p.entrant.players), "played": p.played,
         "wins": p.wins, "byes": p.byes, "buchholz": p.buchholz, "difference": p.difference, "scored": p.scored,
         "head_to_head": p.head_to_head, "dropped": p.entrant.dropped} for p in places]}


def standings_csv(places: Sequence[Place]) -> tuple[list[str], list[list[object]]]:
    """The standings as CSV rows (English headers, as the JSON's keys)."""
    headers = ["rank", "name", "played", "wins", "byes", "buchholz", "difference", "scored", "head_to_head",
               "dropped"]
    return headers, [[p.rank, p.entrant.name, p.played, p.wins, p.byes, "" if p.buchholz is None else p.buchholz,
                      p.difference, p.scored, int(p.head_to_head), p.entrant.dropped or ""] for p in places]
