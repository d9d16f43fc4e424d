"""torch's ``take``, ``take_along_axis``, ``repeat`` and ``searchsorted`` with NumPy's argument checks.

Index tensors are checked against the axis before torch reads with them (an
index out of bounds stops a CUDA kernel at a device-side assert), counts and
sorters are read as int64 (torch has no unsigned kernels for them on the
CPU), and a float ``x1`` with NaN is searched as NumPy orders NaN: last.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import torch

from promo_ns.backends._torch_index import INDEX_DTYPES, INTEGER_DTYPES, check_bounds, int64_indices
from promo_ns.backends._values import check_counts, check_sorter, taken_axis

__all__ = ["bounds_checked", "counts_checked", "sorter_checked"]

Tensor = torch.Tensor
_INT64_MAX = 2**63 - 1


def bounds_checked(take: Callable[..., Tensor], *, default_axis: int | None) -> Callable[..., Tensor]:
    """``take`` or ``take_along_axis`` (``default_axis``: its ``axis`` unless given), indices checked first.

    On every device but ``meta``: on the CPU, ``take_along_dim`` reads other
    elements and ``index_select`` of an axis raises a RuntimeError ("INDICES
    element is out of DATA bounds").  Indices of a dtype torch's kernel does
    not take go to it as int64 (int8 ones raised its RuntimeError);
    ``take_along_axis``'s indices of another number of dimensions get the
    library's shape error first.
    """
    takes = INDEX_DTYPES if default_axis is None else frozenset((torch.int64,))

    @functools.wraps(take)
    def checked(x: Tensor, indices: Any, /, **kwargs: Any) -> Tensor:
        integral = isinstance(x, Tensor) and isinstance(indices, Tensor) and indices.dtype in INTEGER_DTYPES
        along = default_axis is not None
        taken = taken_axis(x, indices, kwargs.get("axis", default_axis), along=along) if integral else None
        if taken is None:  # other indices, axes or shapes: the library's words come first
            return take(x, indices, **kwargs)
        dim, n = taken
        if indices.dtype not in takes:
            indices = int64_indices(indices, dim, n, write=False)
        check_bounds(indices, dim, n)
        return take(x, indices, **kwargs)

    return checked


def _int64_saturated(v: Tensor) -> Tensor:
    """Integer tensor ``v`` as int64; a uint64 value beyond int64 as int64's largest (not negative)."""
    if v.dtype != torch.uint64:
        return v.to(torch.int64)
    bits = v.view(torch.int64)
    return torch.where(bits < 0, _INT64_MAX, bits)


def counts_checked(repeat: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``repeat``, its ``repeats`` tensor as int64 (no unsigned kernel on the CPU), none negative.

    Raises
    ------
    ValueError
        A negative count, in NumPy's words (torch's is a RuntimeError), or one beyond int64.
    """

    @functools.wraps(repeat)
    def checked(x: Tensor, repeats: Any, /, *args: Any, **kwargs: Any) -> Tensor:
        if isinstance(repeats, Tensor) and repeats.dtype in INTEGER_DTYPES:
            repeats = _int64_saturated(repeats)
            if repeats.numel() and repeats.device.type != "meta":
                low, high = torch.stack(torch.aminmax(repeats)).tolist()  # one host sync
                check_counts(low, high)
        return repeat(x, repeats, *args, **kwargs)

    return checked


def sorter_checked(searchsorted: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``searchsorted``, its ``sorter`` as int64 (torch takes no other), each index one of ``x1``'s.

    Raises
    ------
    ValueError
        A sorter index out of range, in NumPy's words (torch's is a RuntimeError).
    """

    @functools.wraps(searchsorted)
    def checked(x1: Tensor, x2: Any, /, *args: Any, sorter: Any = None, **kwargs: Any) -> Tensor:
        if isinstance(sorter, Tensor) and sorter.dtype in INTEGER_DTYPES:
            sorter, n = _int64_saturated(sorter), int(x1.shape[-1]) if x1.ndim else 0
            if sorter.numel() and sorter.device.type != "meta":
                low, high = torch.stack(torch.aminmax(sorter)).tolist()  # one host sync
                check_sorter(low, high, n, sorter.numel())
        if isinstance(x1, Tensor) and x1.dtype.is_floating_point and not args:
            return _nan_last(searchsorted, x1, x2, sorter, kwargs)
        return searchsorted(x1, x2, *args, sorter=sorter, **kwargs)

    return checked


def _nan_last(
    searchsorted: Callable[..., Tensor], x1: Tensor, x2: Any, sorter: Any, kwargs: dict[str, Any]
) -> Tensor:
    """``searchsorted`` of a floating ``x1`` as NumPy orders NaN: after every number.

    Torch's search compares with ``<``, so a NaN in ``x1`` misleads it.  Its
    NaNs search as infinities, each index at most the count of numbers; a
    NaN in ``x2`` goes before ``x1``'s NaNs (``side="left"``) or after them.
    No host sync.
    """
    nan = torch.isnan(x1)
    found = searchsorted(x1.masked_fill(nan, math.inf), x2, sorter=sorter, **kwargs)
    numbers = (~nan).sum(dtype=found.dtype)
    found = torch.minimum(found, numbers)
    nan_at = numbers if kwargs.get("side", "left") == "left" else x1.shape[-1]
    if isinstance(x2, Tensor):
        return torch.where(torch.isnan(x2), nan_at, found)
    return torch.zeros_like(found) + nan_at if isinstance(x2, float) and math.isnan(x2) else found
