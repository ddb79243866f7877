"""A library caller's arguments, checked: the one place an argument of a public function that has
the wrong type, or a number out of its range, is refused, as a NotationError naming the argument,
what it must be and the value given (so a script gets a PasurError, never a TypeError from deep
inside, and nothing is recorded).

>>> check_whole("effort", 0, 1, 4096)
Traceback (most recent call last):
pasur_cli.engine.errors.NotationError: effort must be a whole number from 1 to 4096, not 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from pasur_cli.engine.errors import NotationError, shorten


def shown(value: object) -> str:
    """A value as a refusal names it: its ``repr``, at most 40 characters."""
    return shorten(repr(value), 40)


def wrong_type(name: str, value: object, *kinds: type) -> NotationError:
    """The refusal of ``value`` given as ``name``, which must be of one of ``kinds``."""
    return NotationError("{name} must be of type {kind}, not {value}.", name=name,
                         kind=" | ".join(kind.__name__ for kind in kinds), value=shown(value))


def not_a_choice(name: str, text: object, choices: Iterable[str]) -> NotationError:
    """The refusal of ``text`` given as ``name``, which must be one of ``choices``."""
    return NotationError("{name}={text!r} is not allowed: choose one of {choices}.", name=name, text=text,
                         choices=", ".join(choices))


def check_type(name: str, value: object, *kinds: type) -> None:
    """Raise NotationError (``wrong_type``) unless ``value`` is of one of ``kinds`` (a bool is no
    whole number)."""
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise wrong_type(name, value, *kinds)


def check_whole(name: str, value: object, least: int, most: int | None = None) -> int:
    """``value`` when it is a whole number from ``least`` to ``most`` (None: no upper bound);
    raises NotationError naming the range otherwise."""
    if value.__class__ is int and least <= value and (most is None or value <= most):
        return value
    if most is None:
        raise NotationError("{name} must be a whole number, {least} or more, not {value}.", name=name, least=least,
                            value=shown(value))
    raise NotationError("{name} must be a whole number from {least} to {most}, not {value}.", name=name,
                        least=least, most=most, value=shown(value))


def check_items(name: str, value: object, *kinds: type, mapping: bool = False) -> None:
    """Raise NotationError (``wrong_type``) unless ``value`` is a list or tuple (with ``mapping``:
    a dict from names) whose every item (value) is of one of ``kinds``."""
    if mapping:
        if not isinstance(value, dict):
            raise wrong_type(name, value, dict)
        for key, item in value.items():
            check_type(f"{name}'s key", key, str)
            check_type(f"{name}[{key!r}]", item, *kinds)
        return
    if not isinstance(value, list | tuple):
        raise wrong_type(name, value, list, tuple)
    for index, item in enumerate(value):
        check_type(f"{name}[{index}]", item, *kinds)
