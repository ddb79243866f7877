"""Presentation: sentences in the reader's language (``render``, ``render_stats``, ``i18n`` and
its catalogs), text and table layout (``layout``), the ``--json`` shapes (``shapes``), and a
tally read as a person types it in their language (``tally_input``)."""
