"""The command line: the click group (``app``), the terminal reader, one module per command."""
