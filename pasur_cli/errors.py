"""The three kinds of wrong a player can be told about.

Each is a ValueError whose message is a sentence for the player: it names the input and says
what to do. The click layer turns NotationError into exit 2 and the other two into exit 1.
"""


class PasurError(ValueError):
    """Any error the engine reports to a player."""


class NotationError(PasurError):
    """Input text that is not a card, a card list or a rule option (bad notation)."""


class IllegalPlayError(PasurError):
    """A play, capture, table or tally the rules or the cards seen so far do not allow."""


class AmbiguousPlayError(PasurError):
    """A play that has several legal captures and none was named.

    ``options`` holds the legal captures (each a tuple of cards) so a caller can offer them;
    ``count`` how many exist (None: too many to count).
    """

    def __init__(self, message: str, options: list, count: int | None = None) -> None:
        super().__init__(message)
        self.options, self.count = options, count
