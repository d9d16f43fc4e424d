"""The standard's functions where torch has no kernel (or its own rule) for a dtype, as NumPy computes them.

torch refuses ``isin``/``searchsorted`` of bool and complex tensors, sorts and
orders (``max``, ``argmax``, ...) no complex tensor, has no bool
``matmul``/``tensordot``/``vecdot``/``matrix_power``, no bfloat16 ``solve`` nor
integer ``matrix_rank``, no ``meshgrid`` of mixed dtypes, no ``linspace`` with
a complex bound and a real dtype, makes ``arange`` of float bounds into
integers its own way and checks a fill value in its own words.  Here each
computes NumPy's result from kernels torch has:

- a bool tensor is the uint8 tensor of its 0s and 1s; a bool product is
  NumPy's "or of ands", a float32 product (a sum of 0s and 1s is never 0 where
  one term is 1) compared with 0;
- complex numbers order as NumPy orders them (by real part, then imaginary
  part): each becomes the int64 *code* of that order, ``rank(real) * n +
  rank(imag)``, from ``unique`` of the parts of every operand together, so
  equal numbers get equal codes (a NaN is unequal to everything, as in ``==``);
- ``solve`` of bfloat16 and ``matrix_rank`` of bfloat16, bools and integers
  compute in float64, as NumPy's linalg does;
- a fill value is converted by NumPy first (its casts and its OverflowError).

Integer products where the device has no integer kernel (CUDA): see
:mod:`._torch_products`.

Where NumPy has no kernel either (``bitwise_invert`` of floats, ``linalg.cross``
of bools, ``solve`` of float16), every torch device raises, ``meta`` too.
Nothing leaves the device; on ``meta`` (dtypes and shapes only) the same steps
run on stand-ins.  Each wrapper looks at the dtype first; every other tensor
goes straight to torch's kernel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy
import torch

from promo_ns._dtypes import canonical, native
from promo_ns.backends import _torch_numerics as numerics
from promo_ns.backends import _torch_products as products
from promo_ns.backends import _values

__all__ = ["install", "numpy_fill"]

Tensor = torch.Tensor
_PYTHON_SCALARS = (bool, int, float, complex)


def _special(x: Any) -> bool:
    """Whether ``x`` is a bool or complex tensor (the dtypes torch lacks these kernels for)."""
    return isinstance(x, Tensor) and (x.dtype == torch.bool or x.is_complex())


def _codes(*xs: Tensor) -> list[Tensor]:
    """Real stand-ins of ``xs``: uint8 for bools, int64 codes in NumPy's complex order for complex numbers."""
    if xs[0].dtype == torch.bool:
        return [x.to(torch.uint8) for x in xs]
    if xs[0].device.type == "meta":
        return [torch.empty(x.shape, dtype=torch.int64, device=x.device) for x in xs]
    flat = torch.cat([x.reshape(-1) for x in xs])
    re = torch.unique(flat.real, return_inverse=True)[1]
    im_values, im = torch.unique(flat.imag, return_inverse=True)
    codes = re * im_values.numel() + im
    return [c.reshape(x.shape) for c, x in zip(torch.split(codes, [x.numel() for x in xs]), xs, strict=True)]


def _compared(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``isin`` or ``searchsorted`` of two bool (complex) tensors: on their uint8 values (order codes)."""

    @functools.wraps(fn)
    def compared(x1: Any, x2: Any, /, **kw: Any) -> Any:
        if not (_special(x1) and isinstance(x2, Tensor) and x2.dtype == x1.dtype):
            return fn(x1, x2, **kw)
        return fn(*_codes(x1, x2), **kw)

    return compared


def _sorting(fn: Callable[..., Any], argsort: Callable[..., Any], *, values: bool) -> Callable[..., Any]:
    """``sort`` (``values``) or ``argsort`` of complex tensors, in NumPy's order (``argsort``: of reals)."""

    @functools.wraps(fn)
    def ordered(x: Any, /, *, axis: int = -1, **kw: Any) -> Any:
        if not (isinstance(x, Tensor) and x.is_complex()):
            return fn(x, axis=axis, **kw)
        (codes,) = _codes(x)
        order = argsort(codes, axis=axis, **kw)
        return torch.take_along_dim(x, order, dim=axis) if values else order

    return ordered


def _last(x: Tensor, axis: int | Sequence[int] | None) -> tuple[Tensor, tuple[int, ...]]:
    """``x`` with the ``axis`` axes moved last and flattened into one; the kept axes' indices."""
    nd = x.ndim
    reduced = sorted(a % nd if nd else 0 for a in _values.reduced_axes(nd, axis))
    kept = tuple(a for a in range(nd) if a not in reduced)
    moved = x.permute(*kept, *reduced) if nd else x
    return moved.reshape(*(x.shape[a] for a in kept), -1), kept


def _extremum(fn: Callable[..., Any], *, index: bool, largest: bool) -> Callable[..., Any]:
    """``max``/``min`` (values) or ``argmax``/``argmin`` (``index``) of bool and complex tensors.

    A complex reduction gives the first NaN along the axes where there is one
    (NumPy's ``maximum`` propagates it), else the largest (smallest) number in
    NumPy's order; ``argmax``/``argmin`` of bools count them as 0 and 1.
    """

    @functools.wraps(fn)
    def extremum(x: Any, /, *args: Any, **kw: Any) -> Any:
        if not (isinstance(x, Tensor) and (x.is_complex() or (index and x.dtype == torch.bool))):
            return fn(x, *args, **kw)
        if not x.is_complex():
            return fn(*_codes(x), *args, **kw)
        if x.device.type == "meta":
            out = fn(*_codes(x), *args, **kw)
            return out if index else out.to(x.dtype)
        axis = args[0] if args else kw.get("axis")
        keepdims = kw.get("keepdims", kw.get("keepdim", False))
        if x.numel() == 0 or (axis is not None and index and not isinstance(axis, int)):
            return fn(x.real, *args, **kw)  # torch's error for an empty reduction, as on real numbers
        flat, kept = _last(x, axis)
        (codes,) = _codes(flat)
        nan = flat.isnan()
        best = torch.argmax(codes, dim=-1) if largest else torch.argmin(codes, dim=-1)
        at = torch.where(nan.any(dim=-1), torch.argmax(nan.to(torch.uint8), dim=-1), best)
        out = at if index else torch.take_along_dim(flat, at.unsqueeze(-1), dim=-1).squeeze(-1)
        if keepdims:
            out = out.reshape(tuple(x.shape[a] if a in kept else 1 for a in range(x.ndim)))
        return out

    return extremum


def _bool_product(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``matmul``/``tensordot``/``vecdot`` of two bool tensors: NumPy's or of ands."""

    @functools.wraps(fn)
    def product(x1: Any, x2: Any, /, **kw: Any) -> Any:
        if not (isinstance(x1, Tensor) and isinstance(x2, Tensor) and x1.dtype == x2.dtype == torch.bool):
            return fn(x1, x2, **kw)
        return fn(x1.to(torch.float32), x2.to(torch.float32), **kw) != 0

    return product


def _bool_matrix_power(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``linalg.matrix_power`` of a bool tensor: bool products by repeated squaring (an identity for 0)."""

    @functools.wraps(fn)
    def matrix_power(x: Any, /, *args: Any, **kw: Any) -> Any:
        n = args[0] if args else kw.get("n")
        if not (isinstance(x, Tensor) and x.dtype == torch.bool and isinstance(n, int)) or n < 0:
            return fn(x, *args, **kw)
        out = torch.eye(x.shape[-1], dtype=torch.bool, device=x.device).expand(x.shape).clone()
        square = x
        while n:
            if n & 1:
                out = torch.matmul(out.to(torch.float32), square.to(torch.float32)) != 0
            n >>= 1
            if n:
                square = torch.matmul(square.to(torch.float32), square.to(torch.float32)) != 0
        return out

    return matrix_power


def _in_float64(fn: Callable[..., Any], *, back: bool) -> Callable[..., Any]:
    """``linalg.solve``/``matrix_rank`` of bfloat16 (and, for ``matrix_rank``, bool and integer) tensors.

    NumPy computes those in float64 (its linalg reads bfloat16 and integers
    as float64); ``back``: the result is cast back to the operands' dtype.
    """

    @functools.wraps(fn)
    def in_float64(*args: Any, **kw: Any) -> Any:
        dtype = args[0].dtype if args and isinstance(args[0], Tensor) else None
        if dtype is None or not (
            dtype == torch.bfloat16 or (not back and not dtype.is_floating_point and not dtype.is_complex)
        ):
            return fn(*args, **kw)
        wide = [a.to(torch.float64) if isinstance(a, Tensor) and a.dtype == dtype else a for a in args]
        out = fn(*wide, **kw)
        return out.to(dtype) if back else out

    return in_float64


def _no_kernel(
    fn: Callable[..., Any], name: str, refused: Callable[[torch.dtype], bool]
) -> Callable[..., Any]:
    """``fn``, raising torch's CPU error for a dtype no torch device computes (``meta`` would give a dtype).

    ``bitwise_invert`` of floats, ``linalg.cross`` of bools (NumPy's subtracts
    them), ``linalg.solve`` of float16: the NotImplementedError the plan
    layer turns into promo_ns's TypeError, on every device alike.
    """

    @functools.wraps(fn)
    def checked(x: Any, /, *args: Any, **kw: Any) -> Any:
        if isinstance(x, Tensor) and refused(x.dtype):
            raise NotImplementedError(f"{name!r} not implemented for {x.dtype} tensors on any torch device")
        return fn(x, *args, **kw)

    return checked


def _meshgrid(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``meshgrid`` of tensors of several dtypes (torch's takes one dtype): each broadcast as it is."""

    @functools.wraps(fn)
    def meshgrid(*arrays: Any, indexing: str = "xy") -> Any:
        if len({getattr(a, "dtype", None) for a in arrays}) < 2 or indexing not in ("xy", "ij"):
            return fn(*arrays, indexing=indexing)
        flat = [a.reshape(-1) for a in arrays]
        axes = list(range(len(flat)))
        if indexing == "xy" and len(axes) > 1:
            axes[0], axes[1] = 1, 0
        shape = [0] * len(flat)
        for a, at in zip(flat, axes, strict=True):
            shape[at] = a.shape[0]
        return tuple(
            a.reshape([-1 if i == at else 1 for i in range(len(shape))]).expand(shape)
            for a, at in zip(flat, axes, strict=True)
        )

    return meshgrid


def _linspace(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``linspace`` into an integer, bool or real floating dtype as NumPy, JAX and Dask make it.

    A complex bound into a bool or real floating dtype: spaced in complex128,
    then cast (NumPy's bools are the nonzero numbers, its reals the real
    parts).  An integer or bool dtype: NumPy's values
    (:func:`._values.numpy_spacing`), where torch's differ (``linspace(-10, 10, 7)``
    has -7 and -4 in NumPy, -6 and -3 in torch), has no kernel (bool, uint16..64),
    or refuses a stop beyond the dtype that ``endpoint=False`` leaves out.
    """

    @functools.wraps(fn)
    def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, **kw: Any) -> Any:
        complex_bound = start.__class__ is complex or stop.__class__ is complex
        if dtype is not None and not complex_bound and not (dtype.is_floating_point or dtype.is_complex):
            spaced = _values.numpy_spacing(
                torch, start, stop, num, endpoint=kw.get("endpoint", True), float_dtype=torch.float64,
                device=kw.get("device"),
            )  # fmt: skip
            return spaced != 0 if dtype == torch.bool else torch.floor(spaced).to(dtype)
        if not complex_bound or dtype is None or dtype.is_complex:
            return fn(start, stop, num, dtype=dtype, **kw)
        spaced = fn(start, stop, num, dtype=torch.complex128, **kw)
        return spaced != 0 if dtype == torch.bool else spaced.real.to(dtype)

    return linspace


def _arange(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``arange`` of a float bound or step into an integer dtype, as NumPy makes it.

    (see :func:`._values.integer_arange`); torch casts the bounds first
    (``arange(3.5, dtype=int64)`` has 3 elements) or refuses a step that casts to 0.
    """

    @functools.wraps(fn)
    def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, **kw: Any) -> Any:
        made = None
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex or dtype == torch.bool):
            made = _values.integer_arange(start, stop, step)
            if made is None:  # torch refuses bounds past int64, and sizes past it in its own sums
                made = _big_int_arange(start, stop, step)
        elif dtype is not None and dtype.is_floating_point:
            terms = _values.float_arange_terms(start, stop, step)
            if terms is not None:  # NumPy's count and values: torch counted in floats
                n, first, delta, second = terms
                index = torch.arange(n, dtype=torch.float64, device=kw.get("device"))
                return torch.where(index == 1, second, index * delta + first).to(dtype)
        if made is None:
            return fn(start, stop, step, dtype=dtype, **kw)
        n, first, delta = made
        values = torch.arange(n, dtype=torch.int64, device=kw.get("device")) * delta + first
        return values.view(torch.uint64) if dtype == torch.uint64 else values.to(dtype)

    return arange


def _count_nonzero(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``count_nonzero`` over no axes (``axis=()``): each element's count, as in NumPy (torch counts all)."""

    @functools.wraps(fn)
    def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        if axis == ():
            return (x != 0).to(torch.int64)
        return fn(x, axis=axis, keepdims=keepdims)

    return count_nonzero


def _shift_of_no_axes(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fft.fftshift``/``ifftshift`` over no axes (``axes=()``): a copy, as NumPy's (torch's raises)."""

    @functools.wraps(fn)
    def shift(x: Any, /, *, axes: Any = None, **kwargs: Any) -> Any:
        return x.clone() if axes == () else fn(x, axes=axes, **kwargs)

    return shift


def shareable(x: Any, copy: bool | None, name: str) -> Any:
    """``x``, or a copy of a NumPy array torch cannot share: read-only data, negative strides.

    torch has no read-only tensors (one sharing such data writes through it) and
    no negative strides (its DLPack importer aborts the process on them).

    Raises
    ------
    ValueError
        ``copy=False`` forbids the copy: ``asarray``'s error (``from_dlpack``'s is the
        standard's BufferError).
    """
    if not isinstance(x, numpy.ndarray) or (x.flags.writeable and all(s >= 0 for s in x.strides)):
        return x
    if copy is False:
        raise (BufferError if name == "from_dlpack" else ValueError)(
            f"{name}(copy=False) cannot share a read-only or reversed (negative-stride) NumPy array with "
            "torch, whose tensors are all writable and forward; pass copy=None to copy it"
        )
    return numpy.array(x)


def _from_dlpack(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``from_dlpack``, copying a NumPy array torch cannot share (see :func:`shareable`)."""

    @functools.wraps(fn)
    def from_dlpack(x: Any, /, **kwargs: Any) -> Any:
        return fn(shareable(x, kwargs.get("copy"), "from_dlpack"), **kwargs)

    return from_dlpack


def _big_int_arange(start: Any, stop: Any, step: Any) -> tuple[int, int, int] | None:
    """``arange``'s terms (:func:`._values.int_arange_terms`) for int bounds near or past int64's.

    torch computes the size as ``stop - start + step`` in int64 ("invalid size,
    possible overflow") and takes no bound past int64 (a uint64 one).
    """
    return (
        _values.int_arange_terms(start, stop, step) if _values.near_int64_edges(start, stop, step) else None
    )


def numpy_fill(value: Any, dtype: torch.dtype, *, data: bool = False) -> Any:
    """Python scalar ``value`` for torch ``dtype`` as NumPy converts it (see :func:`._values.numpy_fill`)."""
    return _values.numpy_fill(value, native(canonical(dtype), numpy), data=data)


def _full(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def full(shape: Any, fill_value: Any, *, dtype: Any = None, **kw: Any) -> Any:
        if dtype is not None and fill_value.__class__ in _PYTHON_SCALARS:
            fill_value = numpy_fill(fill_value, dtype)
        return fn(shape, fill_value, dtype=dtype, **kw)

    return full


def _full_like(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, **kw: Any) -> Any:
        if fill_value.__class__ in _PYTHON_SCALARS and isinstance(x, Tensor):
            fill_value = numpy_fill(fill_value, x.dtype if dtype is None else dtype)
        return fn(x, fill_value, dtype=dtype, **kw)

    return full_like


def _diff(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``diff`` with a 0-d ``prepend`` or ``append`` spread along the axis, as NumPy's (torch refuses it)."""

    @functools.wraps(fn)
    def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
        ends = [prepend, append]
        for i, end in enumerate(ends):
            if isinstance(end, torch.Tensor) and end.ndim == 0 and x.ndim > 0:
                shape = list(x.shape)
                shape[axis] = 1
                ends[i] = end.expand(shape)
        return fn(x, axis=axis, n=n, prepend=ends[0], append=ends[1])

    return diff


def _rounded_once(astype: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``astype``, float64 into float16 rounded once as NumPy rounds it (:func:`_torch_numerics.to`)."""

    @functools.wraps(astype)
    def rounded_once(x: Tensor, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Tensor:
        if dtype == torch.float16 and isinstance(x, Tensor) and x.dtype == torch.float64:
            x = x if device is None else x.to(device)
            return numerics.to(x, dtype)  # a new tensor: copy=False has nothing to share
        return astype(x, dtype, copy=copy, device=device)

    return rounded_once


def _wrap(module: ModuleType, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    setattr(module, name, make(getattr(module, name)))


def install(compat: ModuleType) -> None:
    """Set this module's functions on ``compat`` (the adapter's own compat module), around its own."""
    argsort = compat.argsort
    _wrap(compat, "isin", _compared)
    _wrap(compat, "searchsorted", _compared)
    _wrap(compat, "sort", functools.partial(_sorting, argsort=argsort, values=True))
    _wrap(compat, "argsort", functools.partial(_sorting, argsort=argsort, values=False))
    for name, index, largest in (("max", False, True), ("min", False, False)):
        _wrap(compat, name, functools.partial(_extremum, index=index, largest=largest))
    for name, largest in (("argmax", True), ("argmin", False)):
        _wrap(compat, name, functools.partial(_extremum, index=True, largest=largest))
    for name in ("matmul", "tensordot", "vecdot"):
        for owner in (compat, compat.linalg):
            _wrap(owner, name, products.integer_product)
            _wrap(owner, name, _bool_product)
    _wrap(compat.linalg, "matrix_power", lambda f: products.integer_matrix_power(f, compat.linalg.matmul))
    _wrap(compat.linalg, "matrix_power", _bool_matrix_power)
    _wrap(compat.linalg, "solve", functools.partial(_in_float64, back=True))
    _wrap(compat.linalg, "matrix_rank", functools.partial(_in_float64, back=False))
    _wrap(compat, "meshgrid", _meshgrid)
    _wrap(compat, "astype", _rounded_once)
    _wrap(compat, "diff", _diff)
    _wrap(
        compat,
        "bitwise_invert",
        lambda f: _no_kernel(f, "bitwise_invert", lambda d: d.is_floating_point or d.is_complex),
    )
    _wrap(compat.linalg, "cross", lambda f: _no_kernel(f, "cross", lambda d: d == torch.bool))
    _wrap(compat.linalg, "solve", lambda f: _no_kernel(f, "solve", lambda d: d == torch.float16))
    _wrap(compat, "linspace", _linspace)
    _wrap(compat, "arange", _arange)
    _wrap(compat, "from_dlpack", _from_dlpack)
    _wrap(compat, "count_nonzero", _count_nonzero)
    _wrap(compat.fft, "fftshift", _shift_of_no_axes)
    _wrap(compat.fft, "ifftshift", _shift_of_no_axes)
    _wrap(compat, "full", _full)
    _wrap(compat, "full_like", _full_like)
