"""What the scoreboard shows, read from the store: the JSON of ``show --json``, ``score --json``
and the last event of ``log --json``, one object. No web machinery here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.errors import PasurError
from pasur_cli.text import render, shapes

if TYPE_CHECKING:
    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Store

Chooser = Callable[["Store"], tuple[int, "Match"]]


def page_state(store: Store, choose: Chooser) -> dict[str, Any]:
    """``{"show": ..., "score": ..., "last": ...}`` of the match ``choose`` picks (as the commands
    pick it: --match, else the match being played); ``last`` is the log's last play (or null).
    A store or match that cannot be read is ``{"error": sentence}`` in the chosen language: the
    page says it and goes on following the file."""
    from pasur_cli.engine.history import Played, event_dict, match_events
    try:
        mid, match = choose(store)
        record = store.load(mid, full=True)
        events = match_events(record.players, record.rules, record.dealer, record.actions)
    except PasurError as err:
        return {"error": render.message(err, render.Look())}
    show = shapes.show_json(mid, match)
    show["length"] = store.length(mid)  # as `show --json` adds them
    show["revision"] = store.expected(mid).token
    last = next((event_dict(e) for e in reversed(events) if isinstance(e, Played)), None)
    return {"show": show, "score": shapes.score_json(mid, match), "last": last}
