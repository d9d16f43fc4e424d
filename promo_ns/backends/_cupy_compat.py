"""array-api-compat's CuPy namespace with CuPy's gaps filled: what the NumPy-like adapter calls on CuPy.

CuPy makes 0-d arrays with ``fill``, which writes a zero with a memset: a
negative zero becomes +0.0 (:func:`asarray_keeping_sign`); the rest of the
gaps (devices, ``arange``, ``linspace``, ``vecdot``, index bounds) are
computed in :mod:`._cupy_gaps`.  ``module`` is ``cupy`` (NumPy stands in for
it in the CPU tests).
"""

from __future__ import annotations

import cmath
import math
from functools import cache, partial
from types import ModuleType
from typing import Any

import numpy
from array_api_compat.common._linalg import EigResult

from promo_ns.backends import _cupy_gaps
from promo_ns.backends._base import Patched
from promo_ns.backends._values import check_counts, check_sorter, signed_counts, taken_axis

__all__ = ["CupyCompat", "asarray_keeping_sign", "has_negative_zero"]


def has_negative_zero(value: object) -> bool:
    """Whether scalar ``value`` is -0.0 or a complex number with a -0.0 part."""
    if not isinstance(value, (float, complex, numpy.floating, numpy.complexfloating)):
        return False
    z = complex(value)
    return any(part == 0 and math.copysign(1.0, part) < 0 for part in (z.real, z.imag))


def asarray_keeping_sign(module: ModuleType, obj: Any, /, **kwargs: Any) -> Any:
    """``cupy.asarray(obj, **kwargs)`` keeping a negative zero.

    CuPy makes a 0-d array with ``fill``, which writes a zero with a memset:
    -0.0 becomes +0.0.  A 0-d negative zero is copied over as a 1-d array instead.
    """
    if has_negative_zero(obj.item() if isinstance(obj, numpy.ndarray) and obj.ndim == 0 else obj):
        return module.asarray(numpy.asarray([obj]), **kwargs).reshape(())
    return module.asarray(obj, **kwargs)


@cache
def _reciprocal_of_zero(dtype: numpy.dtype[Any]) -> Any:
    """NumPy's integer ``reciprocal`` of 0 in ``dtype`` on this machine, computed once per dtype."""
    with numpy.errstate(all="ignore"):
        return numpy.reciprocal(numpy.zeros((), dtype=dtype))


def _one_kernel_bounds(x: Any, low: Any, high: Any) -> tuple[Any, Any] | None:
    """``clip``'s bounds as scalars of ``x``'s dtype for CuPy's clip kernel, or None where it differs.

    CuPy's kernel is ``high`` where ``low > high``, else ``low`` where ``x < low``,
    else ``high`` where ``x > high``, else ``x``: compat's values where ``x`` is
    floating and the bounds are Python numbers it holds, no NaN, in order (a
    missing one is an infinity).  Scalars of the dtype are kernel arguments, with no copy to
    the GPU, and keep a negative zero.
    """
    if x.dtype.kind != "f" or (low is None and high is None):
        return None
    top = float(numpy.finfo(x.dtype).max)
    given = [b for b in (low, high) if b is not None]
    if not all(b.__class__ in (int, float) and abs(b) <= top for b in given):  # a NaN is no <= top
        return None
    scalar = x.dtype.type
    bounds = scalar(-math.inf if low is None else low), scalar(math.inf if high is None else high)
    return bounds if bounds[0] <= bounds[1] else None  # crossed bounds: CuPy's high, compat's NaN for NaN


def _integral(values: Any) -> bool:
    """Whether ``values`` is a nonempty array of an integer dtype (counts or indices to check)."""
    return getattr(getattr(values, "dtype", None), "kind", None) in ("i", "u") and values.size > 0


class _CupyLinalg(Patched):
    """``array_api_compat.cupy.linalg``: ``eig`` returns the standard's named tuple (CuPy's: a tuple).

    ``vecdot`` of bools is NumPy's (see :func:`._cupy_gaps.bool_vecdot`).
    """

    def __init__(self, base: ModuleType, module: ModuleType) -> None:
        super().__init__(base)
        self._module = module

    def eig(self, x: Any, /) -> Any:
        """``cupy.linalg.eig`` as ``EigResult(eigenvalues, eigenvectors)``."""
        return EigResult(*self._base.eig(x))

    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        """``compat.vecdot``; of two bool arrays NumPy's bool (compat's conjugates bools into int8)."""
        if x1.dtype.kind == "b" and x2.dtype.kind == "b":
            return _cupy_gaps.bool_vecdot(self._module, x1, x2, axis=axis)
        return self._base.vecdot(x1, x2, axis=axis)


#: DLPack's device type of the CPU (``kDLCPU``)
_DLPACK_CPU = 1
#: compat's CuPy creation functions that drop ``device=`` (``arange``, ``linspace``, ``full``: methods).
_CREATION = ("empty", "empty_like", "eye", "ones", "ones_like", "zeros", "zeros_like")
#: compat's CuPy ``fft`` creation functions, which refuse every ``device=`` but "cpu" (and drop that).
_FFT_CREATION = ("fftfreq", "rfftfreq")


class CupyCompat(Patched):
    """``array_api_compat.cupy`` with CuPy's gaps filled.

    - ``full``/``full_like`` keep a negative zero: CuPy fills a zero with a
      memset, which writes +0.0 (the value is copied from a 0-d array instead).
    - ``clip`` selects with ``where``: compat's clip assigns through boolean
      masks, and CuPy waits for the GPU to count each mask (25x a native clip).
    - ``linalg.eig`` returns the standard's named tuple.
    - ``logical_not`` takes complex arrays, and an integer ``reciprocal`` of
      zero is NumPy's value (CuPy has no complex loop; its integer loop gives 0).
    - ``take`` and ``take_along_axis`` raise NumPy's IndexError for an index
      out of bounds (CuPy wraps it around).
    - ``asarray`` keeps a 0-d negative zero; ``from_dlpack`` takes ``device=`` and ``copy=True``,
      and copies data on the CPU to the GPU (CuPy refuses it).
    - ``repeat`` and ``searchsorted`` take uint64 ``repeats`` and ``sorter``, and refuse a negative
      count or a sorter index out of range as NumPy does (CuPy wraps them around).
    - creation functions run on their ``device=`` (compat drops it); ``arange``,
      ``linspace`` and ``vecdot`` give NumPy's values where CuPy's differ
      (see :mod:`._cupy_gaps`).

    ``module`` is ``cupy`` (NumPy stands in for it in the CPU tests).
    """

    def __init__(self, base: ModuleType, module: ModuleType) -> None:
        super().__init__(base)
        self._module = module
        self.linalg = _CupyLinalg(base.linalg, module)
        self.fft = Patched(base.fft)
        for owner, names in ((self, _CREATION), (self.fft, _FFT_CREATION)):
            for name in names:
                setattr(owner, name, _cupy_gaps.on_device(module, getattr(owner._base, name)))
        self.vecdot = self.linalg.vecdot
        self.arange = partial(_cupy_gaps.arange, module, base.arange)
        self.linspace = partial(_cupy_gaps.linspace, module, base.linspace)

    def full(
        self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None, **kwargs: Any
    ) -> Any:
        """``compat.full``, keeping the sign of a zero ``fill_value``."""
        return self._filled(self._base.full, shape, fill_value, dtype=dtype, device=device, **kwargs)

    def full_like(
        self, x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None, **kwargs: Any
    ) -> Any:
        """``compat.full_like``, keeping the sign of a zero ``fill_value``."""
        return self._filled(self._base.full_like, x, fill_value, dtype=dtype, device=device, **kwargs)

    def _filled(self, make: Any, first: Any, fill_value: Any, **kwargs: Any) -> Any:
        """``make(first, fill_value, **kwargs)`` on its device, a negative zero written over CuPy's +0.0."""
        out = _cupy_gaps.on_device(self._module, make)(first, fill_value, **kwargs)
        if has_negative_zero(fill_value):
            out[...] = self.zero_safe(fill_value, out)
        return out

    def asarray(self, obj: Any, /, **kwargs: Any) -> Any:
        """``compat.asarray``, keeping a 0-d negative zero (see :func:`asarray_keeping_sign`)."""
        return asarray_keeping_sign(self._base, obj, **kwargs)

    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """``cupy.from_dlpack``, which takes no ``device=`` and refuses ``copy=True`` from a GPU array.

        The array comes over as its exporter gives it, then is copied (or
        moved to ``device``) by CuPy.  CuPy refuses an exporter on the CPU: its
        data is copied to the GPU instead, as ``asarray`` copies it (BufferError
        for ``copy=False``, as the GPU cannot share it).
        """
        where = getattr(x, "__dlpack_device__", None)
        if where is not None and where()[0] == _DLPACK_CPU:
            if copy is False:
                raise BufferError(
                    "from_dlpack(copy=False): the array's data is on the CPU, which a CuPy array "
                    "cannot share; pass copy=True (or leave copy=None) to copy it to the GPU"
                )
            host = x if isinstance(x, numpy.ndarray) else numpy.from_dlpack(x)
            return self.asarray(host, device=device)
        try:
            out = self._base.from_dlpack(x, copy=copy)
        except BufferError:
            if not copy:
                raise
            out = self._base.from_dlpack(x).copy()  # CuPy's exporter copies to the CPU only
        if device is None or device == out.device:
            return out
        return self._base.asarray(out, device=device, copy=True)

    def zero_safe(self, value: Any, like: Any) -> Any:
        """Scalar ``value`` as a 0-d array of ``like``'s dtype on its device, a negative zero kept."""
        return self.asarray(value, dtype=like.dtype, device=like.device)

    def logical_not(self, x: Any, /) -> Any:
        """``compat.logical_not``; of a complex array, whether each element is zero (CuPy has no loop)."""
        return x == 0 if x.dtype.kind == "c" else self._base.logical_not(x)

    def reciprocal(self, x: Any, /) -> Any:
        """``compat.reciprocal``; an integer zero's is NumPy's on this machine (CuPy's integer loop: 0)."""
        out = self._base.reciprocal(x)
        if x.dtype.kind not in "iu":
            return out
        return self._base.where(x == 0, self.asarray(_reciprocal_of_zero(x.dtype), device=x.device), out)

    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """``compat.repeat``, an integer array of counts checked first (see :func:`.check_counts`)."""
        repeats = signed_counts(repeats)
        if _integral(repeats):
            check_counts(*self._extremes(repeats))
        return self._base.repeat(x, repeats, axis=axis)

    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """``compat.searchsorted``, an integer ``sorter``'s indices checked first (CuPy wraps them)."""
        if _integral(sorter):
            sorter = signed_counts(sorter)
            n = int(x1.shape[-1]) if x1.ndim else 0
            check_sorter(*self._extremes(sorter), n, sorter.size)
        return self._base.searchsorted(x1, x2, side=side, sorter=sorter)

    def _extremes(self, values: Any) -> tuple[int, int]:
        """The least and the greatest of a nonempty integer array, read in one host sync."""
        low, high = self._module.stack((values.min(), values.max())).tolist()
        return int(low), int(high)

    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """``compat.take``, the indices checked against the axis first (one host sync)."""
        if (taken := taken_axis(x, indices, axis, along=False)) is not None:
            _cupy_gaps.check_axis_bounds("take", indices, *taken)
        return self._base.take(x, indices, axis=axis)

    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        """``compat.take_along_axis``, the indices checked against the axis first (one host sync).

        Indices of another number of dimensions get CuPy's shape error first, as NumPy gives its own.
        """
        if (taken := taken_axis(x, indices, axis, along=True)) is not None:
            _cupy_gaps.check_axis_bounds("take_along_axis", indices, *taken)
        return self._base.take_along_axis(x, indices, axis=axis)

    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """``compat.clip``: the bound where ``x`` is beyond it or the bound is nan, else ``x``.

        A Python scalar bound that is no NaN needs no NaN check: two kernels a bound, not four.
        Where both bounds are such, or None, and ``x`` is floating, CuPy's own clip
        kernel gives these values in one launch (:func:`_one_kernel_bounds`).
        """
        if (kernel_bounds := _one_kernel_bounds(x, min, max)) is not None:
            return self._module.clip(x, *kernel_bounds)
        integral = x.dtype.kind in "iu"
        limits = (int(numpy.iinfo(x.dtype).min), int(numpy.iinfo(x.dtype).max)) if integral else None
        out = x
        for bound, beyond, lower in ((min, self._base.less, True), (max, self._base.greater, False)):
            if bound is None:
                continue
            if type(bound) is int and limits and (bound <= limits[0] if lower else bound >= limits[1]):
                continue  # a Python int at or past the dtype's own limit clips nothing (compat's rule)
            b = bound.astype(x.dtype, copy=False) if hasattr(bound, "dtype") else self.zero_safe(bound, x)
            maybe_nan = not integral and (hasattr(bound, "dtype") or cmath.isnan(bound))
            take = beyond(out, b) | self._base.isnan(b) if maybe_nan else beyond(out, b)
            out = self._base.where(take, b, out)
        return out.copy() if out is x else out
