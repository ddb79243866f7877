"""Presentation: sentences in the reader's language (``render``, ``render_stats``, ``i18n`` and
its catalogs under ``locale/``, rebuilt by ``i18n_tools``), text and table layout (``layout``),
the ``--json`` shapes (``shapes``), a review and a hint as sentences and JSON (``review``), and a
tally read as a person types it in their language (``tally_input``). Below it only the engine."""
