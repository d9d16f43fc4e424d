"""Immutable values for policies: read-only mappings, and records whose attributes cannot be set.

A policy's compiled plans are cached per policy object, so a policy must never
change once made; these make every way of changing one raise instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import FrozenInstanceError, fields
from typing import Any, NoReturn, TypeVar

__all__ = ["FrozenDict", "freeze", "freeze_fields", "read_only"]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

_HOW = "make a changed copy with policy.derive(new_name, field=...) or dataclasses.replace(...)"


class FrozenDict(dict[K, V]):
    """A read-only dict: the mappings of a policy (lookups run at dict speed; every change raises).

    Its values are frozen too (:func:`freeze`): mappings become ``FrozenDict``,
    lists tuples, sets frozensets.
    """

    __slots__ = ()

    def __new__(cls, items: Mapping[K, V] | Iterable[tuple[K, V]] = (), /) -> FrozenDict[K, V]:
        self = super().__new__(cls)
        dict.update(self, {k: freeze(v) for k, v in dict(items).items()})
        return self

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = (), /) -> None:
        """Filled by ``__new__``: calling ``__init__`` again changes nothing."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"a promo_ns policy is immutable, and so are its mappings: {_HOW}")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict[K, V]:
        return self


def freeze(value: Any) -> Any:
    """``value`` made immutable: a mapping (nested ones too) as a :class:`FrozenDict`, a list as a tuple.

    Sets become frozensets and tuples have their items frozen; anything else
    is returned as it is (records such as ``Family`` freeze themselves).
    """
    if type(value) is FrozenDict:
        return value
    if isinstance(value, Mapping):
        return FrozenDict(value)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def freeze_fields(record: Any) -> None:
    """Make every field of frozen dataclass ``record`` immutable (:func:`freeze`), in ``__post_init__``."""
    for f in fields(record):
        value = getattr(record, f.name)
        frozen = freeze(value)
        if frozen is not value:
            object.__setattr__(record, f.name, frozen)


def read_only(cls: type[T]) -> type[T]:
    """Make setting or deleting an attribute of frozen dataclass ``cls`` raise, saying how to change one."""

    def set_attribute(self: T, name: str, value: Any) -> NoReturn:
        raise FrozenInstanceError(f"cannot set {name!r}: a {cls.__name__} is immutable; {_HOW}")

    def delete_attribute(self: T, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete {name!r}: a {cls.__name__} is immutable; {_HOW}")

    methods: dict[str, Callable[..., NoReturn]] = {
        "__setattr__": set_attribute,
        "__delattr__": delete_attribute,
    }
    for name, method in methods.items():
        method.__name__ = name
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        type.__setattr__(cls, name, method)
    return cls
