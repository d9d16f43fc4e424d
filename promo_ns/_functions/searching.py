"""Searching, sorting and set functions: ``where`` promotes; ``argmax``/``argmin`` ask the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._dtypes import bool_
from promo_ns._functions._common import decided
from promo_ns._plan import Space, promoted, wrap_result

__all__ = ["DELEGATED", "FUNCTIONS"]

DELEGATED = (
    "count_nonzero",
    "nonzero",
    "searchsorted",
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
    if condition.__class__ is not ns.Array or condition.dtype is not bool_:
        got = getattr(condition, "dtype", type(condition).__name__)
        raise TypeError(f"where() needs a bool promo_ns array as its condition, got {got}")
    dtype, (a, b) = promoted(ns, "where", (x1, x2), like=condition._x)
    return wrap_result(ns, "where", ns._backend.compat.where(condition._x, a, b), dtype)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "where": where,
    **{name: decided(name) for name in ("argmax", "argmin")},
}
