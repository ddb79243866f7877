"""The command line: the click group (``app``), the process around it (``process``: exit codes,
failed output), the screen (``screen``: width, CSV), the terminal reader (``terminal``), the
questions it asks (``questions``: which capture, a tally side by side, yes or no), a line typed in
the session (``typed``), the matches listing (``listing``), review and hint for the commands and
the session (``advice``), and one module per command (``commands``), none importing another.
Below it the store, the text layer and the engine.

``run`` is the ``pasur`` process (the console script and ``python -m pasur_cli``)."""


def run() -> None:
    """Run the ``pasur`` command line once and exit (see ``process.run``).

    Python's cycle collector is turned off before click and pasur are imported: a command that
    ends once it has printed frees everything when it ends, and the collector would otherwise walk
    every object each import makes, again and again. The session and the scoreboard, which run
    for hours, turn it back on when they start; ``PasurGroup.invoke`` pauses it for each command
    typed in the session."""
    import gc
    gc.disable()
    from pasur_cli.cli.app import run as run_app
    run_app()
