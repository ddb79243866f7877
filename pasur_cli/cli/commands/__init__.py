"""One module per pasur command, each loaded only when its command runs (see cli.COMMANDS)."""
