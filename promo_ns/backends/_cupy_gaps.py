"""Where CuPy (through array-api-compat) differs from NumPy: NumPy's outcome, computed with CuPy's kernels.

- compat's creation functions take ``device=`` and drop it on CuPy: they run
  under ``cupy.cuda.Device(device)`` instead, which refuses what is no device;
- ``arange`` of a float step into an integer dtype casts the step (NumPy: the
  difference of the first two values, cast);
- ``linspace`` cannot space complex bounds (it calls ``float(stop - start)``);
- ``vecdot`` of bools conjugates them into int8 (NumPy's: any of ``x1 & x2``);
- integer array indices out of bounds wrap around (NumPy raises IndexError), in
  indexing, ``take`` and ``take_along_axis``.

Each function takes the module it computes with (``cupy``, or NumPy standing in
for it in the CPU tests).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy

from promo_ns.backends._values import int_arange_terms, integer_arange, near_int64_edges

__all__ = ["arange", "bool_vecdot", "check_axis_bounds", "check_index_bounds", "linspace", "on_device"]


@contextlib.contextmanager
def _device(module: ModuleType, device: Any) -> Iterator[None]:
    if device is None:
        yield
        return
    with module.cuda.Device(device):  # int(device): ValueError/TypeError for what is no device id
        yield


def on_device(module: ModuleType, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Creation function ``fn`` of compat, run on its ``device=`` (compat ignores it on CuPy)."""

    @functools.wraps(fn)
    def created(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        with _device(module, device):
            return fn(*args, **kwargs)

    return created


def arange(
    module: ModuleType,
    base: Callable[..., Any],
    start: Any,
    /,
    stop: Any = None,
    step: Any = 1,
    *,
    dtype: Any = None,
    device: Any = None,
    **kwargs: Any,
) -> Any:
    """``base`` (compat's ``arange``) with NumPy's values for a float bound or step into an integer dtype.

    CuPy casts ``start`` and ``step`` to the dtype (``arange(5, 1, -1.5)``: 5, 4, 3);
    NumPy steps by the difference of its first two values, cast (5, 3, 1).  The
    cast overflows for a start or step the dtype cannot hold (a negative step
    into an unsigned dtype, a step of 300 into int8), and CuPy's own sums for
    bounds past int64's: those are summed in int64 instead (:func:`.int_arange_terms`).
    """
    kind = None if dtype is None else numpy.dtype(dtype).kind
    made = integer_arange(start, stop, step) if kind in ("i", "u") else None
    if made is None and kind in ("i", "u") and _cast_overflows(dtype, start, stop, step):
        made = int_arange_terms(start, stop, step)
    with _device(module, device):
        if made is None:
            return base(start, stop, step, dtype=dtype, **kwargs)
        n, first, delta = made
        return (module.arange(n, dtype=numpy.int64) * delta + first).astype(dtype)


def _cast_overflows(dtype: Any, start: Any, stop: Any, step: Any) -> bool:
    """Whether CuPy's ``arange`` of int bounds overflows casting its start and step to ``dtype``."""
    info = numpy.iinfo(dtype)
    first = 0 if stop is None else start
    return any(v.__class__ is int and not info.min <= v <= info.max for v in (first, step)) or (
        near_int64_edges(start, stop, step)
    )


def linspace(
    module: ModuleType,
    base: Callable[..., Any],
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    **kwargs: Any,
) -> Any:
    """``base`` (compat's ``linspace``), spacing complex bounds as NumPy does.

    The real and imaginary parts are spaced apart in float64 (NumPy's complex
    step is one per part), then taken as NumPy casts complex128: a real dtype
    keeps the real parts, bool is whether either part is nonzero.
    """
    with _device(module, device):
        if not (isinstance(start, complex) or isinstance(stop, complex)):
            return base(start, stop, num, dtype=dtype, **kwargs)
        a, b = complex(start), complex(stop)
        real, imag = (
            base(p, q, num, dtype=numpy.float64, **kwargs) for p, q in ((a.real, b.real), (a.imag, b.imag))
        )
        kind = "c" if dtype is None else numpy.dtype(dtype).kind
        if kind == "b":
            return (real != 0) | (imag != 0)
        if kind == "f":
            return real.astype(dtype)
        spaced = module.stack([real, imag], axis=-1).view(numpy.complex128)[..., 0]
        return spaced if dtype is None else spaced.astype(dtype, copy=False)


def bool_vecdot(module: ModuleType, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """``vecdot`` of two bool arrays as NumPy computes it: whether any pair along ``axis`` is both True."""
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(
            f"vecdot(): x1 and x2 must have the same size along axis {axis} (got shapes "
            f"{tuple(x1.shape)} and {tuple(x2.shape)})"
        )
    return module.any(module.logical_and(x1, x2), axis=axis)


def _consumed(part: Any) -> int:
    """How many of the array's axes index part ``part`` takes."""
    if part is None or part is Ellipsis or part is True or part is False:
        return 0
    kind = getattr(getattr(part, "dtype", None), "kind", None)
    return int(part.ndim) if kind == "b" else 1


def check_index_bounds(op: str, x: Any, key: Any) -> None:
    """Raise NumPy's IndexError where an integer array in ``key`` is out of ``x``'s bounds.

    CuPy wraps such indices around (``x[[0, 5]] = 9`` on 3 elements writes
    ``x[2]``).  Each integer array index costs one host sync: its elements
    must be looked at before anything is read or written.  Lists are looked
    at on the host; Python ints CuPy checks itself.
    """
    parts = key if isinstance(key, tuple) else (key,)
    consumed = [_consumed(p) for p in parts]
    axis = 0
    for part, taken in zip(parts, consumed, strict=True):
        if part is Ellipsis:
            axis += x.ndim - sum(consumed)
            continue
        if axis < x.ndim:
            check_axis_bounds(
                op, numpy.asarray(part) if isinstance(part, list) else part, axis, int(x.shape[axis])
            )
        axis += taken


def check_axis_bounds(op: str, part: Any, axis: int, n: int) -> None:
    """NumPy's IndexError where integer array ``part`` indexes beyond an axis of size ``n``."""
    kind = getattr(getattr(part, "dtype", None), "kind", None)
    if kind not in ("i", "u"):
        return
    if part.dtype.itemsize < 8:  # -n and n in the index's dtype: CuPy refuses Python ints beyond it
        part = part.astype(numpy.int64)
    bad = part >= n if kind == "u" else (part < -n) | (part >= n)
    if bool(bad.any()):  # the host sync
        value = int(part.reshape(-1)[bad.reshape(-1)][0])
        raise IndexError(
            f"{op}: index {value} is out of bounds for axis {axis} with size {n}; indices of that axis "
            f"go from {-n} to {n - 1}"
        )
