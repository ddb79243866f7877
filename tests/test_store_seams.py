"""The store's seams of issue 30: the current match is the store's decision, a match resumes from
its snapshot through the engine's own constructor, a result is JSON in one place, the rules are
stored as their own JSON and a file of the schema before opens and migrates."""

from __future__ import annotations

import pytest
from matchbook import stored_match

from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import Store
from pasur_cli.store.errors import NoMatchError, StoreError


def test_the_current_match_is_the_newest_unfinished_else_the_newest(db):
    finished = stored_match(db, ["Ali", "Sara"], parse_rules("pagat", ["fixed_deals=1"]), 3, 1)
    assert finished.finished
    store = Store(db)
    assert store.current()[0] == 1  # only a finished match: still the one shown
    store.close()
    going = stored_match(db, ["Mina", "Reza"], parse_rules("pagat", ["fixed_deals=3"]), 4, 1)
    assert not going.finished
    store = Store(db)
    mid, match = store.current()
    assert (mid, match.players, len(match.results)) == (2, ["Mina", "Reza"], 1)
    assert store.current(1)[1].players == ["Ali", "Sara"]  # named: that one, finished or not
    with pytest.raises(NoMatchError):
        store.current(9)
    store.close()


def test_a_file_without_matches_has_no_current_match(db, pasur):
    Store(db, create=True).close()
    store = Store(db)
    with pytest.raises(StoreError, match="there is no match yet"):
        store.current()
    store.close()
    assert "there is no match yet" in pasur("show").output
