"""Importing a match into the database it was exported from: the same match by its content (the
same players, rules, first dealer and plays), not only a record imported before. At a terminal
it asks (pexpect, 80x24); otherwise it needs --again."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest


def exported(pasur, tmp_path) -> str:
    pasur("new", "Ali", "Reza")
    pasur("deal", "2C", "5H", "9D", "3S")
    pasur("play", "10C")
    path = tmp_path / "match.json"
    assert pasur("export", "-o", path).exit_code == 0
    return str(path)


def count(pasur) -> int:
    return len(json.loads(pasur("matches", "--json").output))


def test_a_match_exported_from_this_database_needs_again(pasur, tmp_path):
    path = exported(pasur, tmp_path)
    refused = pasur("import", path)
    assert refused.exit_code == 1 and count(pasur) == 1
    assert "this record is match 1 of this database already (the same players, rules and plays)" in refused.output
    assert "--again" in refused.output
    assert pasur("import", path, "--again").exit_code == 0 and count(pasur) == 2


def test_a_match_played_on_after_its_export_is_another_match(pasur, tmp_path):
    path = exported(pasur, tmp_path)
    pasur("play", "KS")
    assert pasur("import", path).exit_code == 0 and count(pasur) == 2


def test_the_content_is_what_counts_not_the_file(pasur, tmp_path):
    path = exported(pasur, tmp_path)
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    record["created"] = "2020-01-01T00:00:00Z"  # another file, the same match
    for action in record["actions"]:
        action["at"] = "2020-01-01T00:00:00Z"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(record), encoding="utf-8")
    refused = pasur("import", str(other))
    assert refused.exit_code == 1 and "is match 1 of this database already" in refused.output and count(pasur) == 1


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("answer,matches", [("n", 1), ("y", 2)])
def test_at_a_terminal_it_asks(pasur, db, tmp_path, answer, matches):
    path = exported(pasur, tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "import", path], env=env, encoding="utf-8",
                          timeout=20, dimensions=(24, 80))
    child.expect(r"This record is match 1 of this database \(the same players, rules and\s+plays\)\. Import it"
                 r" again\s+as a new match\? \[y/N\]: ")
    child.sendline(answer)
    child.expect(pexpect.EOF)
    child.close()
    assert count(pasur) == matches and child.exitstatus == (0 if answer == "y" else 1)


def test_the_content_is_checked_in_the_transaction_that_stores(pasur, db, tmp_path):
    """Two imports at once: the check made before the question is made again where the match is
    stored, so a match that arrived meanwhile is refused there, storing nothing."""
    from pasur_cli.engine.record import read_record
    from pasur_cli.store.database import Store
    from pasur_cli.store.errors import AlreadyImported
    record = read_record(Path(exported(pasur, tmp_path)).read_text(encoding="utf-8"))
    store = Store(str(db), write=True)
    try:
        with pytest.raises(AlreadyImported, match="is match 1 of this database already"):
            store.create(record.players, record.rules, record.dealer, record.actions, record.times, record.match,
                         record.fingerprint, record.created, once=True)
        assert store.match_ids() == [1]
    finally:
        store.close()
