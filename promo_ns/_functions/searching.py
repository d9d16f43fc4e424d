"""Searching, sorting and set functions: ``where`` promotes; ``argmax``/``argmin`` ask the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from promo_ns._dtypes import bool_
from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._plan import (
    Space,
    array_of,
    compared,
    device_error,
    native,
    promoted,
    wrap,
    wrap_any,
    wrap_result,
)

__all__ = ["DELEGATED", "FUNCTIONS"]

DELEGATED = (
    "count_nonzero",
    "nonzero",
    "take",
    "take_along_axis",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "argsort",
    "sort",
)


def where(ns: Space, condition: Any, x1: Any, x2: Any, /) -> Any:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2``, in the policy's result dtype."""
    cond = array_of(ns, condition, "where")
    if condition.dtype is not bool_:
        raise TypeError(
            f"where() needs a bool condition, got a {condition.dtype} array; compare first, "
            "e.g. xp.where(c != 0, x1, x2)"
        )
    # torch would copy a CPU 0-d condition, or fail in its own words
    same = ns._backend.same_device
    for x in (x1, x2):
        if x.__class__ is ns.Array and x._ns._backend is ns._backend and not same(cond, x._x):
            raise device_error(cond, x._x)
    dtype, (a, b) = promoted(ns, "where", (x1, x2), like=cond)
    return wrap_result(ns, "where", ns._backend.compat.where(condition._x, a, b), dtype)


def isin(ns: Space, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
    """Whether each element of ``x1`` is in ``x2`` (2025.12), compared in the dtype the policy promotes to."""
    a, b = compared(ns, "isin", x1, x2)
    return wrap(ns._backend.compat.isin(a, b, invert=invert), ns)


def searchsorted(ns: Space, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    """Indices where ``x2`` (an array, or a Python scalar from 2025.12) would be inserted into ``x1``."""
    a, b = compared(ns, "searchsorted", x1, x2)
    return wrap(ns._backend.compat.searchsorted(a, b, side=side, sorter=native(ns, sorter)), ns)


class UniqueAllResult(NamedTuple):
    """What ``unique_all`` returns: the unique values, where each first occurs, the inverse, the counts."""

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


def unique_all(ns: Space, x: Any, /) -> Any:
    """``unique_all`` of the Array API standard; built where the backend has none (torch).

    There the backend's ``unique_inverse`` runs once, and a stable sort of the
    inverse indices gives each value's first flat index and its count.
    """
    native_x = array_of(ns, x, "unique_all")
    xp = ns._backend.compat
    try:
        return wrap_any(ns, UniqueAllResult(*xp.unique_all(native_x)))
    except NotImplementedError:  # array-api-compat's torch: torch has no unique_all
        pass
    values, inverse = xp.unique_inverse(native_x)
    flat = xp.reshape(inverse, (-1,))
    n = flat.shape[0]
    order = xp.argsort(flat, stable=True)
    ranked = xp.take(flat, order)
    first = xp.concat([xp.ones((min(n, 1),), dtype=xp.bool, device=flat.device), ranked[1:] != ranked[:-1]])
    starts = xp.nonzero(first)[0]
    ends = xp.concat([starts[1:], xp.full((min(n, 1),), n, dtype=starts.dtype, device=flat.device)])
    return wrap_any(ns, UniqueAllResult(values, xp.take(order, starts), inverse, ends - starts))


_SIGNATURES: dict[str, Callable[..., None]] = {
    "argmax": lambda x, /, *, axis=None, keepdims=False: None,
    "argmin": lambda x, /, *, axis=None, keepdims=False: None,
}
SIGNATURES.update(_SIGNATURES)

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "isin": isin,
    "searchsorted": searchsorted,
    "unique_all": unique_all,
    "where": where,
    **{name: decided(name) for name in ("argmax", "argmin")},
}
