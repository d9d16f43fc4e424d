"""The errors every adapter raises where the policy's values refuse (:class:`~._base.Values`), and fills."""

from __future__ import annotations

import math
from typing import Any

import numpy

__all__ = [
    "check_counts",
    "check_sorter",
    "float_arange_terms",
    "int_arange_terms",
    "integer_arange",
    "into",
    "negative_power_error",
    "numpy_ends",
    "numpy_fill",
    "numpy_spacing",
    "reduced_axes",
    "signed_counts",
    "taken_axis",
    "zero_divisor_error",
]


def integer_arange(start: Any, stop: Any, step: Any) -> tuple[int, int, int] | None:
    """NumPy's ``arange`` of a float bound or step into an integer dtype: (length, first value, difference).

    NumPy's length is ``ceil((stop - start) / step)``; its values are the first
    two cast to the dtype and repeated differences of those
    (``arange(0, 2, 0.5, dtype=int8)`` is four zeros, ``arange(3.5, dtype=int64)``
    four values).  None where no bound is a float, or one is not finite, or
    the step is 0: the backend's own ``arange`` answers.
    """
    if stop is None:
        start, stop = 0, start
    bounds = (start, stop, step)
    if all(v.__class__ is not float for v in bounds) or not all(map(math.isfinite, bounds)) or step == 0:
        return None
    first = int(start)
    return max(0, math.ceil((stop - start) / step)), first, int(start + step) - first


def int_arange_terms(start: Any, stop: Any, step: Any) -> tuple[int, int, int] | None:
    """``arange`` of int bounds as (length, first value, difference), the last two as int64 bits.

    ``arange(length, dtype=int64) * difference + first``, wrapping in int64, has
    the bits of NumPy's values in a 64-bit dtype, and cast, in a narrower one:
    for bounds near or past int64's, and steps a narrow dtype cannot hold (a
    negative one into an unsigned dtype), where a library's own ``arange``
    overflows.  The length is NumPy's: the exact difference of the bounds,
    divided by the step in floating point (``arange(0, 2**63, 2**63 - 1)`` has
    one value).  None unless the three are ints and the step is nonzero.
    """
    if stop is None:
        start, stop = 0, start
    if any(v.__class__ is not int for v in (start, stop, step)) or step == 0:
        return None
    first, delta = ((v + 2**63) % 2**64 - 2**63 for v in (start, step))
    return max(0, math.ceil((stop - start) / step)), first, delta


def float_arange_terms(start: Any, stop: Any, step: Any) -> tuple[int, float, float, float] | None:
    """NumPy's float ``arange`` of int bounds past float64's exact ints: (length, first, step, second).

    NumPy counts from the bounds' exact difference (a library counting in floats finds none from
    10**17 to 10**17 + 4), takes ``float(start)`` and ``float(start + step)`` as the first two values
    and spaces the rest by their difference.  None for other bounds: the library's own ``arange``.
    """
    bounds = (start, 0 if stop is None else stop, step)
    if not all(v.__class__ is int for v in bounds) or max(map(abs, bounds)) <= 2**53:
        return None
    low = 0 if stop is None else start
    terms = int_arange_terms(start, stop, step)
    first, second = float(low), float(low + step)
    return (0 if terms is None else terms[0]), first, second - first, second


def near_int64_edges(start: Any, stop: Any, step: Any) -> bool:
    """Whether a bound, or a bound and the step, of ``arange``'s int bounds can leave int64."""
    bounds = (start, 0 if stop is None else stop)
    return all(v.__class__ is int for v in (*bounds, step)) and max(map(abs, bounds)) + abs(step) >= 2**63


def numpy_spacing(
    module: Any, start: float, stop: float, num: int, *, endpoint: bool, float_dtype: Any, **kwargs: Any
) -> Any:
    """``linspace``'s values as NumPy computes them for an integer or bool dtype (``module``'s array).

    NumPy spaces in float64 as ``arange(num) * step + start`` with ``stop``
    last, then floors for an integer dtype (a bool is the nonzero ones).
    torch and JAX space otherwise (torch counts the second half down from
    ``stop``, JAX's ``-25`` is ``-24.999999999999996``), which a floor turns into
    a whole unit and a 0 into True; torch truncates toward zero.
    ``kwargs``: ``module.arange``'s (the device).
    """
    first, delta, div = _terms(start, stop, num, endpoint)
    y = _spaced(module.arange(num, dtype=float_dtype, **kwargs), first, delta, div)
    if endpoint and num > 1:
        y = module.where(module.arange(num, **kwargs) == num - 1, float(stop), y)
    return y


def numpy_ends(start: float, stop: float, num: int, *, endpoint: bool) -> list[float]:
    """The first and (``num`` > 1) the last of :func:`numpy_spacing`'s ``num`` > 0 values, before a floor."""
    first, delta, div = _terms(start, stop, num, endpoint)
    ends = [_spaced(0.0, first, delta, div)]
    if num > 1:
        ends.append(float(stop) if endpoint else _spaced(float(num - 1), first, delta, div))
    return ends


def _terms(start: float, stop: float, num: int, endpoint: bool) -> tuple[float, float, int]:
    """NumPy's terms of ``linspace``: the first value, the difference and the number of steps."""
    return float(start), float(stop) - float(start), num - 1 if endpoint else num


def _spaced(index: Any, first: float, delta: float, div: int) -> Any:
    """NumPy's ``linspace`` value at ``index`` (a float, or an array of them): a NaN difference gives NaN."""
    if div > 0:
        step = delta / div
        return index / div * delta + first if step == 0 else index * step + first
    return index * delta + first


def reduced_axes(ndim: int, axis: Any) -> Any:
    """The axes a reduction over ``axis`` (None: every axis; one axis; a tuple or list of them) reduces."""
    return range(ndim) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)


def numpy_fill(value: Any, dtype: Any, *, data: bool = False) -> Any:
    """Python scalar ``value`` as NumPy fills ``dtype`` with it: cast, or NumPy's OverflowError/ValueError.

    ``data``: as ``np.asarray(value, dtype=...)`` converts it (a float beyond an
    integer dtype raises), else as ``np.full`` does (it casts).  Returns a
    Python scalar (a float for bfloat16), for a backend whose own checks differ.
    """
    filled = numpy.asarray(value, dtype=dtype) if data else numpy.full((), value, dtype=dtype)
    return float(filled) if filled.dtype.name == "bfloat16" else filled.item()


def zero_divisor_error(op: str) -> ZeroDivisionError:
    """The error of an integer ``op`` (``floor_divide``, ``remainder``) with a divisor of 0."""
    return ZeroDivisionError(
        f"{op}(): integer division by zero (the policy's framework raises here, as the policy does on "
        "every backend); mask the zero divisors first, e.g. xp.where(y == 0, 1, y), or divide in a "
        "floating dtype."
    )


def negative_power_error() -> ValueError:
    """The error of an integer power with a negative integer exponent, where the policy refuses it."""
    return ValueError(
        "pow(): integers to negative integer powers are not allowed (the policy's framework refuses "
        "them, as the policy does on every backend); cast the base to a floating dtype first, e.g. "
        "xp.astype(x, xp.float64) ** y."
    )


def into(out: Any, result: Any) -> Any:
    """``result``, written into ``out`` where an in-place op gave one (``out=``)."""
    if out is None:
        return result
    out[...] = result
    return out


def signed_counts(v: Any) -> Any:
    """``v``, a uint64 NumPy-like array (``repeats``, a ``sorter``) as int64; anything else as it is.

    NumPy casts such arguments to its index type "safely", which uint64 is not
    (its raw TypeError, or "could not parse sorter argument").  A value beyond
    int64 becomes int64's largest, still too large a count or index for any
    array, which the library refuses as such (a cast would make it negative).
    """
    if getattr(v, "dtype", None) != numpy.uint64:
        return v
    return v.clip(None, numpy.uint64(2**63 - 1)).astype(numpy.int64)


def check_counts(low: int, high: int) -> None:
    """NumPy's ValueError for ``repeat``'s counts from ``low`` to ``high`` (int64; uint64 saturated).

    A count of int64's largest (a uint64 beyond it, saturated) makes an array
    larger than any library holds; a cumulative sum of it would wrap around.
    """
    if low < 0:
        raise ValueError("repeat(): repeats may not contain negative values")
    if high >= 2**63 - 1:
        raise ValueError("repeat(): a count of 2**63 - 1 or more makes an array too large")


def check_sorter(low: int, high: int, n: int, size: int) -> None:
    """NumPy's ValueError for ``size`` ``sorter`` indices, ``low`` to ``high``, into ``n`` values."""
    if size != n:
        raise ValueError(f"searchsorted(): the sorter has {size} indices for the {n} elements of x1")
    if low < 0 or high >= n:
        raise ValueError(f"searchsorted(): sorter index out of range (x1 has {n} elements)")


def taken_axis(x: Any, indices: Any, axis: Any, *, along: bool) -> tuple[int, int] | None:
    """The axis that ``take`` (``along``: ``take_along_axis``) of ``x`` reads ``indices`` from, and its size.

    ``axis`` None is the flattened array (axis 0 of ``x.size``).  None where
    the library's own error comes first: an axis that is no int or out of
    range, or for ``take_along_axis`` indices of another number of dimensions.
    """
    if axis is None:
        return 0, math.prod(x.shape)
    ndim = len(x.shape)
    if not (isinstance(axis, int) and -ndim <= axis < ndim) or (
        along and getattr(indices, "ndim", None) != ndim
    ):
        return None
    return axis % ndim, int(x.shape[axis])
