"""Storage: the SQLite record book (``database``) and the changes the commands record (``actions``)."""
