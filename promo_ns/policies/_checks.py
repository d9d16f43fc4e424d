"""Checks of a policy record's fields against their declared types, with errors that say what is wrong.

Used by :class:`~promo_ns.policies.Family` and :class:`~promo_ns.policies.Policy`
when they are made: a field of the wrong type or outside its choices raises,
naming the field, what it must be and, for a misspelt name, the closest one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from functools import cache
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from promo_ns._words import closest

__all__ = ["check_fields", "check_kinds", "check_per_kind", "did_you_mean"]

_HINTS: dict[type, dict[str, Any]] = {}


def did_you_mean(value: object, choices: Iterable[str]) -> str:
    if not isinstance(value, str):
        return ""
    close = closest(value, choices)
    return f" (did you mean {close!r}?)" if close else ""


def describe(hint: Any) -> str:
    """``hint`` in words: ``one of 'same', 'category'``, ``a mapping of DType to DType``."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return f"one of {', '.join(map(repr, args))}"
    if origin in (Union, UnionType):
        return " or ".join("None" if a is type(None) else describe(a) for a in args)
    if origin is Mapping:
        return f"a mapping of {describe(args[0])} to {describe(args[1])}"
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {describe(args[0])}"
        return f"a ({', '.join(describe(a) for a in args)}) tuple"
    if origin is frozenset:
        return f"a frozenset of {describe(args[0])}"
    return str(getattr(hint, "__name__", hint))


def check_type(value: Any, hint: Any, where: str) -> None:
    """Raise unless ``value`` is of type ``hint`` (in the forms Policy and Family use), naming ``where``.

    Raises
    ------
    ValueError
        A value outside a ``Literal``'s, with the allowed values and the closest one.
    TypeError
        A value of another type.
    """
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return
    if origin is Literal:
        if not isinstance(value, str) or value not in args:
            raise ValueError(f"{where} must be {describe(hint)}, not {value!r}{did_you_mean(value, args)}")
        return
    if origin in (Union, UnionType):
        if value is None and type(None) in args:
            return
        arms = [a for a in args if a is not type(None)]
        if len(arms) == 1:
            check_type(value, arms[0], where)
            return
        for arm in arms:
            try:
                check_type(value, arm, where)
            except (TypeError, ValueError):
                continue
            return
    elif origin is Mapping:
        if isinstance(value, Mapping):
            for key, item in value.items():
                check_type(key, args[0], f"{where} (key {key!r})")
                check_type(item, args[1], f"{where}[{key!r}]")
            return
    elif origin is tuple:
        if isinstance(value, tuple):
            each = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
            if len(each) == len(value):
                for item, arm in zip(value, each, strict=True):
                    check_type(item, arm, f"{where} (item {item!r})")
                return
    elif origin is frozenset:
        if isinstance(value, (frozenset, set)):
            for item in value:
                check_type(item, args[0], f"{where} (item {item!r})")
            return
    elif isinstance(hint, type) and isinstance(value, hint):
        return
    shown = repr(value) if len(repr(value)) <= 60 else f"{repr(value)[:60]}..."
    raise TypeError(f"{where} must be {describe(hint)}, not {type(value).__name__} {shown}")


@cache
def fits(hint: Any) -> Callable[[Any], bool]:
    """A fast test of whether a value is of type ``hint``; :func:`_check` says why not."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return lambda v: True
    if origin is Literal:
        return lambda v: isinstance(v, str) and v in args
    if origin in (Union, UnionType):
        arms = [fits(a) for a in args]
        return lambda v: any(arm(v) for arm in arms)
    if origin is Mapping:
        key, item = fits(args[0]), fits(args[1])
        return lambda v: isinstance(v, Mapping) and all(map(key, v.keys())) and all(map(item, v.values()))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = fits(args[0])
        return lambda v: isinstance(v, tuple) and all(map(each, v))
    if origin is tuple:
        if all(isinstance(a, type) for a in args):  # a pair of DTypes: the keys of every grid
            return lambda v: isinstance(v, tuple) and len(v) == len(args) and all(map(isinstance, v, args))
        arms = [fits(a) for a in args]
        return lambda v: (
            isinstance(v, tuple) and len(v) == len(arms) and all(a(x) for a, x in zip(arms, v, strict=True))
        )
    if origin is frozenset:
        each = fits(args[0])
        return lambda v: isinstance(v, (frozenset, set)) and all(map(each, v))
    if hint is type(None):
        return lambda v: v is None
    return lambda v: isinstance(v, hint)


def check_kinds(value: str | None, where: str) -> None:
    if value is not None and set(value) - set("biufc"):
        raise ValueError(
            f"{where} must hold only kind letters of 'biufc' (bool, int, uint, float, complex), not {value!r}"
        )


def check_per_kind(value: Mapping[str, Any] | None, where: str) -> None:
    """Keys of a per-kind mapping are kind letters; a range's lowest is not above its highest."""
    for key, item in (value or {}).items():
        if len(key) != 1 or key not in "biufc":
            raise ValueError(
                f"{where} is keyed by one kind letter of 'biufc' (bool, int, uint, float, complex), "
                f"not {key!r}"
            )
        if isinstance(item, tuple) and item[0] > item[1]:
            raise ValueError(f"{where}[{key!r}] is the range {item}, whose lowest is above its highest")


def check_fields(record: Any, owner: str) -> None:
    """Check every field of dataclass ``record`` against its declared type (``owner`` names it in errors).

    Raises
    ------
    TypeError
        A field of another type than it is declared with.
    ValueError
        A value outside a ``Literal``'s choices (``inplace="smae"``), with the choices and the closest.
    """
    hints = _HINTS.get(type(record))
    if hints is None:
        hints = _HINTS[type(record)] = get_type_hints(type(record))
    for f in fields(record):
        value, hint = getattr(record, f.name), hints[f.name]
        if not fits(hint)(value):
            check_type(value, hint, f"{owner}: {f.name}")
