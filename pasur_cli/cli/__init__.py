"""The command line: the click group (``app``), the process around it (``process``: exit codes,
failed output), the screen (``screen``: width, CSV), the terminal reader (``terminal``), the
questions it asks (``questions``: which capture, a tally side by side, yes or no), the matches
listing (``listing``), and one module per command (``commands``), none importing another."""
