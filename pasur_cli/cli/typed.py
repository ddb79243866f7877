"""A line typed in the session, read the way the session understands it.

The session is where a table types everything, so it takes what people at a table type: a play
with who played it (``sara 7c``, ``7c sara``, ``sara: 7c``, ``7c --by sara``), a line copied from
a shell or the README (``pasur play 7h --take "4d 3h"``, ``pasur score``), and a command's options
(``score --all``, ``new Ali Sara --rules pagat``). ``read_line`` turns the text into a ``Line``; the
session carries it out. Nothing here decides a play: a named player is checked by the engine
(``Match.verify_play(..., by=...)``), exactly as `pasur play --by` is.

>>> line = read_line('pasur play 7h --take "4d, 3h" --by=Sara', {}, ["Ali", "Sara"])
>>> line.command, line.words, line.by, line.shell
('play', ['7h', '4d', '3h'], 'Sara', True)
>>> read_line("sa: 10c", {}, ["Ali", "Sara"]).by, read_line("10c ali", {}, ["Ali", "Sara"]).words
('Sara', ['10c'])
>>> read_line("score --all", {"score": "score"}, []).options
{'all': []}
"""

from __future__ import annotations

import shlex

from pasur_cli.engine.cards import parse_card
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.names import name_key, names_starting

# `pasur COMMAND` typed in the session: the session's command of the same name ("play" is a card)
SHELL_COMMANDS = {"play": "play", "deal": "deal", "show": "show", "score": "score", "undo": "undo",
                  "tally": "tally", "matches": "matches", "new": "new", "help": "help", "session": "session"}
FLAGS = {"all", "solo"}  # options that take no value


class Line:
    """What a typed line asks for: ``command`` ("play": cards, a play or a deal's table; or a
    session command; or "elsewhere": a pasur command the session does not run, in ``words[0]``),
    its ``words``, the player it names (``by``), its ``options`` (name: values) and whether it
    was typed as a shell command (``shell``)."""

    __slots__ = ("by", "command", "options", "shell", "words")

    def __init__(self, command: str, words: list[str], by: str | None = None,
                 options: dict[str, list[str]] | None = None, shell: bool = False) -> None:
        self.command, self.words, self.by, self.shell = command, words, by, shell
        self.options = options or {}

    def __repr__(self) -> str:
        return f"Line({self.command!r}, {self.words!r}, by={self.by!r}, options={self.options!r})"


def split(text: str) -> list[str]:
    """The words of a line, quotes read as a shell reads them (``--take "4d 3h"``), commas as
    spaces; a quote left open is read as a letter."""
    text = text.replace(",", " ")
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _options(words: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The plain words, and each ``--name`` (or ``--name=value``) with the words after it."""
    plain: list[str] = []
    options: dict[str, list[str]] = {}
    current: list[str] | None = None
    for word in words:
        if word.startswith("--") and len(word) > 2:
            name, eq, value = word[2:].partition("=")
            current = options.setdefault(name.lower(), [])
            if eq:
                current.extend(split(value))
            if name.lower() in FLAGS or eq:
                current = None
        elif current is not None:
            current.append(word)
        else:
            plain.append(word)
    return plain, options


def _names(word: str, players: list[str]) -> str | None:
    """The player ``word`` names (a whole name or a beginning of one, ``sara:`` too), when it is
    not a card. Raises IllegalPlayError (from the engine) for a beginning of several names."""
    word = word.rstrip(":")
    try:
        parse_card(word)
    except NotationError:
        pass
    else:
        return None
    found = names_starting(players, word)
    if len(found) > 1:
        from pasur_cli.engine.errors import IllegalPlayError
        raise IllegalPlayError("{name!r} begins more than one name ({players}): type more of it.", name=word,
                               players=", ".join(found))
    return found[0] if found else None


def read_line(text: str, commands: dict[str, str], players: list[str]) -> Line | None:
    """The ``Line`` typed (None for an empty one). ``commands``: every word of a session command
    (by ``name_key``) to its command; ``players``: the match's, for a named player.

    Raises NotationError for ``--by`` without a name, IllegalPlayError for a beginning of two
    names."""
    words = split(text)
    shell = bool(words) and name_key(words[0]) == "pasur"
    if shell:
        words = words[1:]
    if not words:
        return Line("help", [], shell=True) if shell else None
    first = name_key(words[0])
    if shell and first in SHELL_COMMANDS:
        command, words = SHELL_COMMANDS[first], words[1:]
    elif shell and first.isascii() and first.isalpha() and first not in commands and _names(words[0], players) is None:
        return Line("elsewhere", words, shell=True)  # `pasur rules`, `pasur stats`...
    elif first in commands:
        command, words = commands[first], words[1:]
    elif first == "play":
        command, words = "play", words[1:]
    else:
        command = "play"
    plain, options = _options(words)
    by = None
    if command in ("play", "deal"):
        by = _played_by(plain, options, players)
        plain += options.pop("take", [])
    plain = [w for word in plain for w in word.split()]  # a quoted list is its cards
    return Line(command, plain, by, options, shell)


def _played_by(plain: list[str], options: dict[str, list[str]], players: list[str]) -> str | None:
    """The player a play or a table names: ``--by NAME`` (taken out of ``options``), else a name
    first or last among the ``plain`` words (taken out of them), else None. Raises NotationError
    for ``--by`` without one name, IllegalPlayError for a beginning of two names."""
    named = options.pop("by", None)
    if named is not None:
        if len(named) != 1:
            raise NotationError("--by takes one name, e.g. --by {name}.", name=players[0] if players else "Ali")
        return named[0]
    for at in (0, -1):
        if plain:
            by = _names(plain[at], players)
            if by is not None:
                del plain[at]
                return by
    return None
