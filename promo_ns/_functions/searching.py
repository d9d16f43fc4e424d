"""Searching, sorting and set functions: ``where`` promotes; ``argmax``/``argmin`` ask the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._dtypes import bool_
from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._plan import Space, array_of, compared, device_error, native, promoted, wrap, wrap_result

__all__ = ["DELEGATED", "FUNCTIONS"]

DELEGATED = (
    "count_nonzero",
    "nonzero",
    "take",
    "take_along_axis",
    "unique_all",
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


_SIGNATURES: dict[str, Callable[..., None]] = {
    "argmax": lambda x, /, *, axis=None, keepdims=False: None,
    "argmin": lambda x, /, *, axis=None, keepdims=False: None,
}
SIGNATURES.update(_SIGNATURES)

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "isin": isin,
    "searchsorted": searchsorted,
    "where": where,
    **{name: decided(name) for name in ("argmax", "argmin")},
}
