"""The command line: the click group (``app``), the process around it (``process``: exit codes,
failed output), the screen (``screen``: width, CSV), the terminal reader (``terminal``), the
questions it asks (``questions``: which capture, a tally side by side, yes or no), a line typed in
the session (``typed``), the matches listing (``listing``), review and hint for the commands and
the session (``advice``), and one module per command (``commands``), none importing another.
Below it the store, the text layer and the engine."""
