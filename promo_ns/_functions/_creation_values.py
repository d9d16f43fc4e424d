"""Python values that creation functions take: their checks against a dtype, and their conversions.

Nothing is lost silently: a value a dtype cannot hold is promo_ns's
OverflowError (NaN's a ValueError) on every backend, where the libraries
wrap, cast to an undefined value or raise in their own words.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy

from promo_ns._convert import is_numpy_like, is_numpy_scalar
from promo_ns._dtypes import FLOAT_MAX, INT_RANGE, DType, a_or_an, canonical, int64, uint64
from promo_ns.backends._values import integer_arange, numpy_ends

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "PYTHON_SCALARS",
    "as_python",
    "buffer_data",
    "check_int_range",
    "check_no_copy",
    "check_spaced",
    "checked_fill",
    "floats_with_big_ints",
    "holding",
    "into_real",
    "leaves_of",
    "offers_array",
    "python_scalars",
    "ragged",
    "short",
]


def short(x: Any) -> str:
    shown = repr(x)
    return shown if len(shown) <= 40 else f"{shown[:40]}..."


PYTHON_SCALARS = (bool, int, float, complex)
INT64_MIN, INT64_MAX = INT_RANGE[int64]


def holding(low: int, high: int) -> str:
    """The fix for ints from ``low`` to ``high`` beyond a dtype: the int dtype holding them, or a float."""
    holder = next((d for d in (int64, uint64) if INT_RANGE[d][0] <= low and high <= INT_RANGE[d][1]), None)
    return f"pass dtype=xp.{holder}" if holder is not None else "pass a floating dtype, e.g. dtype=xp.float64"


def floats_with_big_ints(obj: Any) -> bool:
    """Whether Python data ``obj`` is Python scalars alone, with an int beyond int64 among them."""
    leaves = list(leaves_of(obj))
    return all(v.__class__ in PYTHON_SCALARS for v in leaves) and any(
        v.__class__ is int and not INT64_MIN <= v <= INT64_MAX for v in leaves
    )


def check_no_copy(obj: Any, dtype: DType | None) -> None:
    """Raise where ``asarray(obj, dtype=dtype, copy=False)`` needs a copy, alike on every backend.

    Python data always needs one, and so does an array of another dtype (JAX
    made both silently; NumPy and torch raised in their own words).

    Raises
    ------
    ValueError
        ``obj`` is Python data, or an array whose dtype is not ``dtype``.
    """
    if isinstance(obj, (list, tuple, bool, int, float, complex)):
        raise ValueError(
            "asarray(copy=False) cannot make an array of Python data without copying it; pass copy=None, "
            "which copies only where it must"
        )
    have = getattr(obj, "dtype", None)
    if dtype is None or have is None:
        return
    try:
        have = canonical(have)
    except TypeError:  # a dtype promo_ns has not: the backend says what it does with it
        return
    if have is not dtype:
        raise ValueError(
            f"asarray(copy=False) cannot make {a_or_an(dtype)} array of {have} data without a copy; "
            "pass copy=None, or leave out dtype="
        )


def offers_array(x: Any) -> bool:
    """Whether ``x`` offers itself as an array (``__array__``, ``__dlpack__``, ``__array_interface__``)."""
    return any(hasattr(x, a) for a in ("__array__", "__dlpack__", "__array_interface__"))


def buffer_data(obj: Any) -> Any:
    """``obj`` as a NumPy array of its buffer's own dtype, if it only offers the buffer protocol; else None.

    A ``memoryview`` of int16 data, an ``array.array('d')``, a ``bytearray`` (uint8)
    hold typed values, as an array does (NumPy and array-api-strict read them
    so).  torch reads every buffer as float32 (and refuses one whose length is
    no multiple of 4), and the others took one as Python data of the policy's
    default dtype.  ``bytes`` and ``str`` (NumPy's string scalars) are none of
    these.  No copy is made, but of a buffer in the other byte order.
    """
    if isinstance(obj, (str, bytes)) or is_numpy_like(obj):
        return None
    if offers_array(obj):
        return None
    try:
        view = memoryview(obj)
    except TypeError:
        return None
    data = numpy.asarray(view)
    named = numpy.dtype(data.dtype.name) if data.dtype.kind in "biufc" else data.dtype
    if data.dtype.isnative and data.dtype == named:
        return data.view(named)  # 'Q' and 'L' are uint64 alike; torch reads only one of them
    return data.astype(named)  # a big-endian buffer: its values, in the machine's order


def ragged(obj: Any) -> str | None:
    """The lengths at the first level where nested sequences ``obj`` differ, or None where they do not."""
    level = [obj]
    while level and all(isinstance(v, (list, tuple)) for v in level):
        lengths = {len(v) for v in level}
        if len(lengths) > 1:
            return "lengths " + ", ".join(map(str, sorted(lengths))) + " side by side"
        level = [item for v in level for item in v]
    if level and any(isinstance(v, (list, tuple)) for v in level):
        return "a sequence beside a scalar"
    return None


def into_real(obj: Any, dtype: DType) -> Any:
    """Python data ``obj`` for a real ``dtype``, each float checked as NumPy converts it.

    A float into an integer dtype is its integer part, which must fit (NumPy
    raised in its own words, torch refused a fraction below 0 into uint8); NaN
    is a ValueError.

    Raises
    ------
    TypeError
        A Python complex among the data, as NumPy and torch refuse it (also with a zero imaginary part).
    """
    if dtype.kind not in "iuf" or not any(isinstance(v, (float, complex)) for v in leaves_of(obj)):
        return obj
    return _real(obj, dtype)


def _real(obj: Any, dtype: DType) -> Any:
    """:func:`into_real` of ``obj``, nested data holding a float or complex somewhere."""
    if isinstance(obj, (list, tuple)):
        return type(obj)(_real(v, dtype) for v in obj)
    if obj.__class__ is bool or obj.__class__ is int:
        return obj
    if obj.__class__ is complex:
        raise TypeError(
            f"asarray() cannot make {a_or_an(dtype)} array of the Python complex {obj!r}: a real dtype takes "
            f"no complex number. Fix: pass a complex dtype, e.g. dtype=xp.complex128, or the real parts"
        )
    value = checked_fill("asarray", obj, dtype, "make")
    return int(value) if dtype.kind in "iu" else value


def leaves_of(obj: Any) -> Iterator[Any]:
    if isinstance(obj, (list, tuple)):
        for item in obj:
            yield from leaves_of(item)
    else:
        yield obj


def python_scalars(obj: Any) -> Any:
    if isinstance(obj, (list, tuple)):
        return type(obj)(python_scalars(v) for v in obj)
    return obj.item() if is_numpy_like(obj) else obj


def checked_fill(name: str, value: Any, dtype: DType, doing: str = "fill") -> Any:
    """Python scalar fill ``value`` for ``dtype`` (a complex as its real part for a real dtype), checked.

    Nothing is lost silently: a float fills an integer dtype with its integer part, as a cast does; NaN,
    an infinity or one beyond the dtype's range has none (NumPy's cast gives an
    undefined value, torch raises), nor has an int beyond it (NumPy and torch
    raise in their words, Dask when computing, JAX wraps it).  A complex fills an
    integer or floating dtype only without an imaginary part (a bool takes its truth).
    ``doing``: what ``name`` does with the value, for the message (``"space"``: ``linspace``).

    Raises
    ------
    OverflowError
        The value is beyond ``dtype`` or has an imaginary part for a real dtype.
    ValueError
        A NaN for an integer dtype.
    """
    made = {"fill": f"{a_or_an(dtype)} array with", "space": f"{dtype} values to"}.get(
        doing, f"{a_or_an(dtype)} array of"
    )
    if value.__class__ is complex and dtype.kind in "iuf":
        if value.imag != 0:
            raise OverflowError(
                f"{name}() cannot {doing} {made} the Python complex {value!r}: its "
                f"imaginary part would be lost. Fix: pass its real part, {value.real!r}, or a complex "
                "dtype, e.g. dtype=xp.complex128"
            )
        value = value.real
    if value.__class__ is int and dtype.kind in "iu":
        lo, hi = INT_RANGE[dtype]
        if not lo <= value <= hi:
            raise OverflowError(
                f"{name}() cannot {doing} {made} the Python int {short(value)}: {dtype} holds no such "
                f"value ({lo}..{hi}). Fix: {holding(value, value)}, or pass a value in range"
            )
        return value
    if value.__class__ is not float or dtype.kind not in "iu":
        return value
    lo, hi = INT_RANGE[dtype]
    if math.isfinite(value) and lo <= math.trunc(value) <= hi:
        return value
    error = ValueError if math.isnan(value) else OverflowError
    raise error(
        f"{name}() cannot {doing} {made} the Python float {value!r}: {dtype} holds "
        f"no such value ({lo}..{hi}). Fix: make a float array, e.g. dtype=xp.float64, or pass a value "
        "in range"
    )


def as_python(v: Any) -> Any:
    """A NumPy real scalar as the Python number it holds; anything else as it is."""
    return v.item() if is_numpy_scalar(v) and v.dtype.kind in "iuf" else v


def check_int_range(start: float, stop: float | None, step: float, dtype: DType, *, default: bool) -> None:
    """Raise unless ``arange``'s values, first to last, fit integer ``dtype`` (backends wrap them).

    Of float bounds the values are NumPy's: the first two cast, and their difference repeated
    (:func:`~promo_ns.backends._values.integer_arange`).

    Raises
    ------
    OverflowError
        A value beyond ``dtype``.
    """
    first, last = (0, start) if stop is None else (start, stop)
    made = integer_arange(start, stop, step)
    count, value, delta = (
        made if made is not None else (-((first - last) // step) if step else 0, first, step)
    )
    if count <= 0:
        return  # no values (or a zero step: the backend's error)
    low, high = sorted((value, value + (count - 1) * delta))
    lo, hi = INT_RANGE[dtype]
    if lo <= low and high <= hi:
        return
    whose = "the policy's default integer dtype " if default else ""
    raise OverflowError(
        f"arange() from {first} to {last} by {step} reaches {low if low < lo else high}, out of range "
        f"of {whose}{dtype} ({lo}..{hi}); {holding(int(low), int(high))}, or bounds in range."
    )


def check_spaced(
    start: int | float | complex, stop: int | float | complex, num: int, endpoint: bool, dtype: DType
) -> None:
    """Check that ``dtype`` holds the first and the last of ``linspace``'s ``num`` values (``num`` > 0).

    They are computed as NumPy computes them, in float64 (an integer dtype
    takes their floors), so a bound of int64 or uint64 may round beyond it.

    Raises
    ------
    OverflowError
        An integer dtype without one of them (NumPy's cast gives an undefined value, torch raises
        in its words), or a floating one without its magnitude (NumPy's cast gives an infinity,
        torch raises).
    ValueError
        A NaN for an integer dtype.
    """
    if isinstance(start, complex) or isinstance(stop, complex) or dtype.kind not in "iuf":
        return
    for which, value in zip(("first", "last"), numpy_ends(start, stop, num, endpoint=endpoint), strict=False):
        if dtype.kind == "f":
            bad = math.isfinite(value) and abs(value) > FLOAT_MAX[dtype]
            held = f"-{FLOAT_MAX[dtype]:g}..{FLOAT_MAX[dtype]:g}"
        else:
            lo, hi = INT_RANGE[dtype]
            bad = not math.isfinite(value) or not lo <= math.floor(value) <= hi
            held = f"{lo}..{hi}"
        if bad:
            floors = "" if dtype.kind == "f" else " and floors"
            nan = math.isnan(value)
            detail = f"has no {dtype} value" if nan else f"is beyond {dtype} ({held})"
            raise (ValueError if nan else OverflowError)(
                f"linspace() cannot space {dtype} values from {short(start)} to {short(stop)}: the {which} "
                f"value, {value!r} as NumPy computes it in float64{floors}, {detail}. "
                "Fix: pass dtype=xp.float64, or bounds in range"
            )
