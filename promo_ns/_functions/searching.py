"""Searching, sorting and set functions: ``where`` promotes; ``argmax``/``argmin`` ask the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from promo_ns._convert import array_of, native, wrap, wrap_any, wrap_result
from promo_ns._dtypes import a_or_an, bool_
from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._operands import Space
from promo_ns._plan import compared, kernel, promoted
from promo_ns._plan_functions import planned_where

__all__ = ["DELEGATED", "FUNCTIONS"]

DELEGATED = (
    "count_nonzero",
    "nonzero",
    "take",
    "take_along_axis",
    "argsort",
    "sort",
)


def where(ns: Space, condition: Any, x1: Any, x2: Any, /) -> Any:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2``, in the policy's result dtype."""
    cond = array_of(ns, condition, "where")
    if condition.dtype is not bool_:
        raise TypeError(
            f"where() needs a bool condition, got {a_or_an(condition.dtype)} array; compare first, "
            "e.g. xp.where(c != 0, x1, x2)"
        )
    # on the condition's device: torch would copy a CPU 0-d condition, or fail in its own words
    dtype, (a, b) = promoted(ns, "where", (x1, x2), like=cond)
    return wrap_result(ns, "where", kernel(ns, "where", ns._backend.compat.where, cond, a, b), dtype)


def isin(ns: Space, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
    """Whether each element of ``x1`` is in ``x2`` (2025.12), compared in the dtype the policy promotes to."""
    a, b = compared(ns, "isin", x1, x2)
    return wrap(ns._backend.compat.isin(a, b, invert=invert), ns)


def searchsorted(ns: Space, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    """Indices where ``x2`` (an array, or a Python scalar from 2025.12) would be inserted into ``x1``."""
    if side not in ("left", "right"):  # torch's words were a RuntimeError
        raise ValueError(f"searchsorted() takes side='left' or side='right', not {side!r}")
    if x1.__class__ is ns.Array and x1.ndim != 1:  # torch searched each row; NumPy said "too deep"
        raise ValueError(
            f"searchsorted() takes a 1-d x1 (the sorted values), not a {x1.ndim}-d array; "
            "search each row on its own, or flatten it: xp.reshape(x1, (-1,))"
        )
    a, b = compared(ns, "searchsorted", x1, x2)
    found = kernel(
        ns, "searchsorted", ns._backend.compat.searchsorted, a, b, side=side, sorter=native(ns, sorter)
    )
    return wrap(found, ns)


class UniqueAllResult(NamedTuple):
    """What ``unique_all`` returns: the unique values, where each first occurs, the inverse, the counts."""

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    """What ``unique_counts`` returns."""

    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    """What ``unique_inverse`` returns."""

    values: Any
    inverse_indices: Any


_UNIQUE = ("unique_all", "unique_counts", "unique_inverse", "unique_values")


def _unique_fields(name: str) -> Callable[..., Any]:
    """``name`` (``unique_all``, ``unique_counts``, ...): the backend's own, else built by :func:`_unique`."""
    fields = {
        "unique_all": UniqueAllResult,
        "unique_counts": UniqueCountsResult,
        "unique_inverse": UniqueInverseResult,
        "unique_values": None,
    }[name]

    def unique(ns: Space, x: Any, /) -> Any:
        native_x = array_of(ns, x, name)
        try:
            out = getattr(ns._backend.compat, name)(native_x)
        except NotImplementedError as e:  # torch: no unique_all, no unique of complex numbers
            every = _unique(ns, native_x, name, e)
            out = every.values if fields is None else fields(*(getattr(every, f) for f in fields._fields))
        else:
            out = out if fields is None else fields(*out)
        return wrap_any(ns, out)

    unique.__name__ = unique.__qualname__ = name
    unique.__doc__ = f"``{name}`` of the Array API standard, alike on every backend (see ``_unique``)."
    return unique


def _unique(ns: Space, x: Any, name: str, error: Exception) -> UniqueAllResult:
    """Every result of ``unique_all`` of native ``x``, from the backend's ``unique_inverse``.

    A stable sort of the inverse indices gives each value's first flat index and
    its count.  Complex numbers the backend cannot make unique (torch) are told
    apart by the unique indices of their real and imaginary parts, in the
    lexicographic order NumPy sorts them in, and the values taken from ``x``.

    Raises
    ------
    TypeError
        The backend makes no values of ``x``'s dtype unique.
    """
    xp = ns._backend.compat
    try:
        values, inverse = xp.unique_inverse(x)
    except NotImplementedError:
        if not xp.isdtype(x.dtype, "complex floating"):
            raise TypeError(f"{ns._backend.name} has no {name!r} for {ns._backend.dtype(x)}") from error
        values = None
        im = xp.unique_inverse(xp.imag(x))
        codes = xp.unique_inverse(xp.real(x)).inverse_indices * im.values.shape[0] + im.inverse_indices
        inverse = xp.unique_inverse(codes).inverse_indices
    flat = xp.reshape(inverse, (-1,))
    n = flat.shape[0]
    order = xp.argsort(flat, stable=True)
    ranked = xp.take(flat, order)
    first = xp.concat([xp.ones((min(n, 1),), dtype=xp.bool, device=flat.device), ranked[1:] != ranked[:-1]])
    starts = xp.nonzero(first)[0]
    ends = xp.concat([starts[1:], xp.full((min(n, 1),), n, dtype=starts.dtype, device=flat.device)])
    indices = xp.take(order, starts)
    if values is None:
        values = xp.take(xp.reshape(x, (-1,)), indices)
    return UniqueAllResult(values, indices, inverse, ends - starts)


_SIGNATURES: dict[str, Callable[..., None]] = {
    "argmax": lambda x, /, *, axis=None, keepdims=False: None,
    "argmin": lambda x, /, *, axis=None, keepdims=False: None,
}
SIGNATURES.update(_SIGNATURES)

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "isin": isin,
    "searchsorted": searchsorted,
    **{name: _unique_fields(name) for name in _UNIQUE},
    "where": planned_where(where),
    **{name: decided(name) for name in ("argmax", "argmin")},
}
