"""``Value``: the base of the engine's value types (Card, Rules, Play, SideScore, ...), with the
containers they use (``FrozenDict``) and the engine's bounded memo (``Memo``).

A value type is declared as a dataclass is, by annotated fields with optional defaults::

    class PileCount(Value):
        clubs: int = 0
        aces: int = 0

and is frozen (assigning raises AttributeError), slotted, compares and hashes only with its own
kind (``PileCount() != (0, 0)``), is frozen all the way down (a dict given to a field is kept as
a ``FrozenDict``, a list as a tuple: every value is hashable and equal by value), checks itself on
construction (``__post_init__`` raises ValueError, usually NotationError, for a value it cannot
hold), and serializes by field name
(``as_dict()`` / ``from_dict()``, so reordering fields never changes what was stored).

A metaclass, not ``dataclasses.dataclass(frozen=True, slots=True)``: it makes the same guarantees with methods
written once, where a dataclass compiles each class's methods with ``exec`` at every start-up (bench/README.md).
Type checkers see the classes as frozen dataclasses (``dataclass_transform``).
"""

from __future__ import annotations

from collections.abc import Collection
from operator import attrgetter
from typing import Any, ClassVar, NoReturn, Self, TypeVar, dataclass_transform

from pasur_cli.engine.arguments import wrong_type
from pasur_cli.engine.errors import NotationError, Plural

_MISSING: Any = object()
_CONTAINERS = frozenset((dict, list))  # what a value freezes (``frozen``)
K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict that cannot change once made: hashable, equal by value to any mapping with the same
    items, and still a dict for every reader (``json.dumps``, ``dict(...)``, ``isinstance``).

    >>> scores = FrozenDict({"Ali": 3})
    >>> scores["Ali"] = 0
    Traceback (most recent call last):
    TypeError: FrozenDict cannot be changed
    >>> hash(scores) == hash(FrozenDict(Ali=3)), scores == {"Ali": 3}
    (True, True)
    """

    __slots__ = ()

    def _frozen(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(f"{type(self).__name__} cannot be changed")

    __setitem__ = __delitem__ = __ior__ = _frozen
    clear = pop = popitem = setdefault = update = _frozen

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (dict(self),)

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


class Memo(dict[K, V]):
    """The one bounded memo for a hot loop that reads what it remembered as a dict (a function
    remembered by its arguments uses ``functools.lru_cache``): a dict that forgets everything
    before it would hold more than ``most`` entries, so memory stays bounded while a read stays a
    dict's ``get``.

    >>> memo: Memo[str, int] = Memo(2)
    >>> memo.keep("a", 1), memo.keep("b", 2), memo.get("a")
    (1, 2, 1)
    >>> memo.keep("c", 3), sorted(memo)
    (3, ['c'])
    """

    __slots__ = ("most",)

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (forgetting everything first when full); return it."""
        if len(self) >= self.most:
            self.clear()
        self[key] = value
        return value


def frozen(value: Any) -> Any:
    """``value`` with every dict in it a FrozenDict and every list a tuple (other values as they are)."""
    kind = value.__class__
    if kind is dict:
        for v in value.values():  # a dict of plain values (the usual one) copied as it is, without a call each
            if v.__class__ is dict or v.__class__ is list:
                return FrozenDict({k: frozen(v) for k, v in value.items()})
        return FrozenDict(value)
    if kind is list:
        for v in value:
            if v.__class__ is dict or v.__class__ is list:
                return tuple([frozen(v) for v in value])
        return tuple(value)
    return value


@dataclass_transform(frozen_default=True, eq_default=True)
class ValueMeta(type):
    """Turns a class body's annotated names into slots, field order and defaults."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> ValueMeta:
        annotations = namespace.get("__annotations__", {})
        fields = tuple(n for n, a in annotations.items() if not str(a).startswith(("ClassVar", "typing.ClassVar")))
        defaults = {n: namespace.pop(n) for n in fields if n in namespace}
        namespace["__slots__"] = fields + tuple(namespace.get("__slots__", ()))
        namespace["_fields"] = fields
        namespace["_defaults"] = defaults
        namespace["__match_args__"] = fields
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        if fields:
            getter = attrgetter(*fields)
            cls._values = (lambda self: getter(self)) if len(fields) > 1 else (lambda self: (getter(self),))  # type: ignore[attr-defined]
        return cls


class Value(metaclass=ValueMeta):
    """A frozen, slotted value compared by kind and fields; see the module's docstring."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if kwargs or len(args) != len(fields):
            args = self._arguments(args, kwargs)
        setter = object.__setattr__
        if _CONTAINERS.isdisjoint(map(type, args)):  # nothing to freeze (the usual value): each kept as given
            for name, value in zip(fields, args, strict=True):
                setter(self, name, value)
        else:
            for name, value in zip(fields, args, strict=True):
                kind = value.__class__
                setter(self, name, frozen(value) if kind is dict or kind is list else value)
        self.__post_init__()

    @classmethod
    def _made(cls, values: tuple[Any, ...]) -> Self:
        """The value of these fields (in order; none a dict or a list) that the caller knows its
        check passes, made without the generic constructor: what ``cls(*values)`` makes then.
        Private to the engine, for values made in bulk (an import scores thousands of deals).
        Raises ValueError when there are not as many values as fields."""
        made = object.__new__(cls)
        setter = object.__setattr__
        for name, value in zip(cls._fields, values, strict=True):
            setter(made, name, value)
        return made

    @classmethod
    def _arguments(cls, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Every field's value in order, from positional and keyword arguments and the defaults."""
        fields = cls._fields
        if not args and len(kwargs) == len(fields):  # every field by name (scoring makes values so): no defaults
            try:
                return tuple(map(kwargs.__getitem__, fields))
            except KeyError:
                pass  # a name that is no field: said below
        if len(args) > len(fields):
            raise NotationError(Plural("{kind} has {count} field, not {given}.",
                                       "{kind} has {count} fields, not {given}.", "count"),
                                kind=cls.__name__, count=len(fields), given=len(args))
        values = list(args)
        for name in fields[len(args):]:
            value = kwargs.pop(name, _MISSING)
            if value is _MISSING:
                value = cls._defaults.get(name, _MISSING)
                if value is _MISSING:
                    raise missing_field(cls.__name__, name)
            values.append(value)
        if kwargs:
            raise NotationError("{kind} has no field {names} (or one was given twice).", kind=cls.__name__,
                                names=", ".join(map(repr, kwargs)))
        return tuple(values)

    def __post_init__(self) -> None:
        """Check the fields; raise NotationError (a ValueError) for a value this type cannot hold."""

    def _values(self) -> tuple[Any, ...]:
        return ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be assigned")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be deleted")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, self._values()))

    def __repr__(self) -> str:
        inside = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{type(self).__name__}({inside})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self._values()

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (checked like a new value)."""
        return type(self)(**{**{n: getattr(self, n) for n in self._fields}, **changes})

    def as_dict(self) -> dict[str, Any]:
        """The fields by name; a field that is itself a Value (or a tuple of them) as its dict."""
        return {n: _plain(getattr(self, n)) for n in self._fields}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The value whose ``as_dict()`` is ``data``. Raises NotationError for what is not a dict, a
        name that is not a field or a missing field without a default; the value checks its fields
        as always."""
        required = [name for name in cls._fields if name not in cls._defaults]
        return cls(**check_fields(cls.__name__, data, cls._fields, required))


def missing_field(kind: str, name: str) -> NotationError:
    """The refusal of a ``kind`` made without its field ``name``."""
    return NotationError("{kind} needs the field {name}.", kind=kind, name=name)


def check_fields(kind: str, data: object, fields: Collection[str], required: Collection[str]) -> dict[str, Any]:
    """``data`` when it is a dict of ``fields`` holding every ``required`` one (what a ``kind`` is
    made from); raises NotationError naming what is wrong otherwise."""
    if not isinstance(data, dict):
        raise wrong_type(kind, data, dict)
    unknown = [k for k in data if k not in fields]
    if unknown:
        raise NotationError("{kind} has no field {names}.", kind=kind, names=", ".join(map(repr, unknown)))
    for name in required:
        if name not in data:
            raise missing_field(kind, name)
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, Value):
        return value.as_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
