"""Storage: the SQLite record book (``database``: matches, their logs, one transaction a change),
its snapshot cache (``snapshots``), where the file is (``paths``), its refusals (``errors``), and
the changes the commands record (``actions``: a table, a play, a tally, a take-back)."""
