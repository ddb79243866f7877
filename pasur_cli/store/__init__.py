"""Storage: the SQLite record book (``database.Store``, made of one class a job: ``health`` opens
and checks the file, ``reads`` answers the queries, ``standings`` lists every match, ``writes``
makes each change one transaction of a ``change``), what a stored match is read as (``records``),
its snapshot cache (``snapshots``, resumed from by ``resume``, its chains checked once a
connection by ``chains``), the file's schema (``schema``), where the file is (``paths``), its
refusals (``errors``), and the changes the commands record (``actions``: a table, a play, a tally,
a take-back)."""
