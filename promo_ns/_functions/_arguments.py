"""The standard's rules for arguments that are not data, checked before a backend sees them.

The libraries take these arguments apart in their own ways: NumPy's ``tril``
broadcasts a 1-d array to a matrix and takes ``k=1.5``, torch's refuses both in
its own words; Dask's ``eye`` takes ``k=1.0``; NumPy's ``meshgrid`` flattens a
matrix, torch's refuses it with a ``RuntimeError``.  A rule here gives one
promo_ns error, the same on every backend, that says what to pass instead.  A
rule has the standard's signature of its function (so a misnamed keyword is a
TypeError naming the function) and returns nothing; the function then runs
with the arguments as they were given.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from promo_ns._array import Array

__all__ = ["RULES", "with_rules"]


def _integer(name: str, parameter: str, value: Any) -> int:
    """``value`` of ``name``'s ``parameter`` as a Python int (a bool or a float is no int here)."""
    if value.__class__ is not bool:
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{name}()'s {parameter} must be an int, not {type(value).__name__} {value!r}")


def _at_least_2d(name: str, x: Any) -> None:
    if x.__class__ is Array and x.ndim < 2:  # anything else: the function's own refusal
        raise ValueError(
            f"{name}() takes an array of at least 2 dimensions (a stack of matrices), not one of "
            f"shape {tuple(x.shape)}; for a vector v: xp.{name}(v[None, :])"
        )


def tril(x: Any, /, *, k: int = 0) -> None:
    """A matrix (or a stack) and an int diagonal offset."""
    _at_least_2d("tril", x)
    _integer("tril", "k", k)


def triu(x: Any, /, *, k: int = 0) -> None:
    """A matrix (or a stack) and an int diagonal offset."""
    _at_least_2d("triu", x)
    _integer("triu", "k", k)


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> None:
    """An int diagonal offset (the sizes are checked with the other creation functions')."""
    _integer("eye", "k", k)


def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> None:
    """A count of differences that is a non-negative int."""
    if _integer("diff", "n", n) < 0:
        raise ValueError(f"diff()'s n counts the differences taken: it must be >= 0, not {n!r}")


def meshgrid(*arrays: Any, indexing: str = "xy") -> None:
    """Vectors (or 0-d arrays, as one element) and ``'xy'`` or ``'ij'``."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid()'s indexing must be 'xy' or 'ij', not {indexing!r}")
    for i, x in enumerate(arrays):
        if x.__class__ is Array and x.ndim > 1:
            raise ValueError(
                f"meshgrid() takes 1-d arrays; array {i} has shape {tuple(x.shape)}: pass "
                f"xp.reshape(x, (-1,)) for its elements in order"
            )


#: The rules, by the function's name in the namespace.
RULES: dict[str, Callable[..., None]] = {rule.__name__: rule for rule in (tril, triu, eye, diff, meshgrid)}


def with_rules(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` checking its arguments by ``name``'s rule first, if it has one; else ``fn`` itself."""
    rule = RULES.get(name)
    if rule is None:
        return fn

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Any:
        rule(*args, **kwargs)
        return fn(*args, **kwargs)

    return checked
