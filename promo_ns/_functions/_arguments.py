"""The standard's rules for arguments that are not data, checked before a backend sees them.

The libraries take these arguments apart in their own ways: NumPy's ``tril``
broadcasts a 1-d array to a matrix and takes ``k=1.5``, torch's refuses both in
its own words; Dask's ``eye`` takes ``k=1.0``; NumPy's ``meshgrid`` flattens a
matrix, torch's refuses it with a ``RuntimeError``; Dask's ``permute_dims``
takes ``()`` as a transpose.  A rule here gives one promo_ns error, the same on
every backend, that says what to pass instead.  A rule has the standard's
signature of its function (so a misnamed keyword is a TypeError naming the
function) and returns the keywords it replaces by values of the same meaning
that every backend takes, if any: ``tril``'s ``k=2**63`` is any ``k`` past the
matrix's corner (torch overflowed, JAX wrapped), ``diff``'s ``n`` past the
length it differences gives the same empty array (NumPy, JAX and Dask looped
``n`` times).  The function then runs with the arguments so given.
"""

from __future__ import annotations

import functools
import inspect
import math
import operator
from collections.abc import Callable
from typing import Any

from promo_ns._array import Array

__all__ = ["RULES", "with_rules"]

#: What a rule returns: the keywords it replaces, or None.
Replaced = dict[str, Any] | None


def _integer(name: str, parameter: str, value: Any) -> int:
    """``value`` of ``name``'s ``parameter`` as a Python int (a bool or a float is no int here)."""
    if value.__class__ is not bool:
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{name}()'s {parameter} must be an int, not {type(value).__name__} {value!r}")


def _known(*sizes: Any) -> list[int] | None:
    """The sizes, where every one is known (Dask's may be NaN); else None."""
    return list(sizes) if all(s.__class__ is int for s in sizes) else None


def _at_least_2d(name: str, x: Any) -> None:
    if x.__class__ is Array and x.ndim < 2:  # anything else: the function's own refusal
        raise ValueError(
            f"{name}() takes an array of at least 2 dimensions (a stack of matrices), not one of "
            f"shape {tuple(x.shape)}; for a vector v: xp.{name}(v[None, :])"
        )


def _diagonal(name: str, x: Any, k: Any) -> Replaced:
    """A matrix (or a stack) and an int diagonal offset, brought within the matrix's corners."""
    _at_least_2d(name, x)
    k = _integer(name, "k", k)
    corner = _known(*x.shape[-2:]) if x.__class__ is Array else None
    if corner is None:
        return None
    rows, cols = corner
    within = min(max(k, -rows), cols)  # an offset past a corner keeps every element, or none
    return None if within == k else {"k": within}


def tril(x: Any, /, *, k: int = 0) -> Replaced:
    """A matrix (or a stack) and an int diagonal offset."""
    return _diagonal("tril", x, k)


def triu(x: Any, /, *, k: int = 0) -> Replaced:
    """A matrix (or a stack) and an int diagonal offset."""
    return _diagonal("triu", x, k)


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Replaced:
    """Int sizes (a bool is none: NumPy refused ``eye(True)``, JAX made one row) and diagonal offset."""
    _integer("eye", "n_rows", n_rows)
    if n_cols is not None:
        _integer("eye", "n_cols", n_cols)
    _integer("eye", "k", k)
    return None


def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Replaced:
    """A count of differences that is a non-negative int, at most the length it differences."""
    count = _integer("diff", "n", n)
    if count < 0:
        raise ValueError(f"diff()'s n counts the differences taken: it must be >= 0, not {n!r}")
    if x.__class__ is Array and x.ndim == 0:  # NumPy's diff returned one with n=0, torch refused it
        raise ValueError(
            "diff() takes an array of at least 1 dimension, not a 0-d one; e.g. xp.diff(x[None])"
        )
    if x.__class__ is not Array or axis.__class__ is not int or not -x.ndim <= axis < x.ndim:
        return None  # the function's own refusal
    ends = [
        e.shape[axis] if e.__class__ is Array and e.ndim == x.ndim else 1
        for e in (prepend, append)
        if e is not None
    ]
    length = _known(x.shape[axis], *ends)
    if length is None or count <= sum(length):
        return None
    return {"n": sum(length)}  # every difference past the length is of an empty array


def meshgrid(*arrays: Any, indexing: str = "xy") -> Replaced:
    """Vectors (or 0-d arrays, as one element) and ``'xy'`` or ``'ij'``."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid()'s indexing must be 'xy' or 'ij', not {indexing!r}")
    for i, x in enumerate(arrays):
        if x.__class__ is Array and x.ndim > 1:
            raise ValueError(
                f"meshgrid() takes 1-d arrays; array {i} has shape {tuple(x.shape)}: pass "
                f"xp.reshape(x, (-1,)) for its elements in order"
            )
    return None


def permute_dims(x: Any, /, axes: tuple[int, ...]) -> Replaced:
    """Each of ``x``'s axes once (each named once: :func:`~._common.checking_axes`)."""
    if x.__class__ is Array and isinstance(axes, (tuple, list)) and len(axes) != x.ndim:
        raise ValueError(
            f"permute_dims()'s axes {tuple(axes)!r} must name each of x's {x.ndim} axes once, in "
            f"their new order; e.g. {tuple(reversed(range(x.ndim)))!r} reverses them"
        )
    return None


def reshape(x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Replaced:
    """A shape of ``x``'s number of elements, with at most one size -1 (JAX's error was a TypeError)."""
    sizes = _known(x.size, *shape) if x.__class__ is Array and isinstance(shape, (tuple, list)) else None
    if sizes is None:
        return None  # an int shape, a lazy size: the function's own
    total = sizes[0]
    known = [s for s in shape if s != -1]
    size = math.prod(known)
    left = len(shape) - len(known)
    fits = size == total if not left else left == 1 and size > 0 and total % size == 0
    if not fits or any(s < -1 for s in shape):
        raise ValueError(
            f"reshape() cannot make an array of shape {tuple(x.shape)} ({total} elements) into shape "
            f"{tuple(shape)}: the sizes must multiply to {total}, with at most one -1 for the size left"
        )
    return None


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Replaced:
    """No axes (``axis=()``) roll nothing, as in NumPy (torch rolled the flattened array, Dask raised)."""
    if not (isinstance(axis, (tuple, list)) and not axis):
        return None
    if isinstance(shift, (tuple, list)) and len(shift) > 1:
        raise ValueError(
            f"roll()'s shift {tuple(shift)!r} has {len(shift)} values for no axes: pass one shift per axis"
        )
    return {"shift": 0, "axis": None}


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Replaced:
    """Counts as an int, or an array of an integer dtype and at most one dimension.

    NumPy took ``2.0`` and ``True`` as counts, torch and Dask refused them in their
    own words, and JAX's refusal of ``2.0`` stayed in its cache: ``repeat(x, 2)`` failed after it.
    """
    if x.__class__ is not Array:
        return None  # the function's own refusal of x comes first
    if repeats.__class__ is Array:
        if repeats.dtype.kind not in "iu":
            raise TypeError(
                f"repeat()'s repeats must be of an integer dtype, not {repeats.dtype}; "
                "cast them first: xp.astype(repeats, xp.int64)"
            )
        if repeats.ndim > 1:
            raise ValueError(
                f"repeat()'s repeats are an int or one count per element along the axis (one dimension), "
                f"not an array of shape {tuple(repeats.shape)}"
            )
        return None
    if repeats.__class__ is bool or not hasattr(repeats, "__index__"):
        raise TypeError(
            f"repeat()'s repeats must be an int or an array of an integer dtype, not "
            f"{type(repeats).__name__} {repeats!r}"
        )
    count = operator.index(repeats)
    if not 0 <= count < 2**63:
        raise ValueError(f"repeat()'s count {count} must be at least 0 and below 2**63")
    return None


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Replaced:
    """A ``sorter`` of an integer dtype (Dask took a float one, torch and JAX refused in their words)."""
    if x1.__class__ is Array and sorter.__class__ is Array and sorter.dtype.kind not in "iu":
        raise TypeError(
            f"searchsorted()'s sorter holds indices, of an integer dtype, not {sorter.dtype}; "
            "e.g. sorter=xp.argsort(x1)"
        )
    return None


#: The rules, by the function's name in the namespace.
RULES: dict[str, Callable[..., Replaced]] = {
    rule.__name__: rule
    for rule in (tril, triu, eye, diff, meshgrid, permute_dims, reshape, roll, repeat, searchsorted)
}


def with_rules(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` checking its arguments by ``name``'s rule first, if it has one; else ``fn`` itself."""
    rule = RULES.get(name)
    if rule is None:
        return fn

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Any:
        replaced = rule(*args, **kwargs)
        if replaced is None:
            return fn(*args, **kwargs)
        given = inspect.signature(rule).bind(*args, **kwargs)  # a replaced argument may be positional
        given.arguments.update(replaced)
        return fn(*given.args, **given.kwargs)

    return checked
