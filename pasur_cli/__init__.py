"""pasur: a command-line referee and scorekeeper for Pasur, the Iranian fishing card game."""

__version__ = "0.1.0"
