"""The Array wrapper: a native array, its namespace, and its operand code; every dunder a one-liner.

Binary operators are the plan layer's :func:`promo_ns._plan.operator`, one
closure per (op, mode); everything else delegates to the namespace or the
native array.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from math import isnan
from typing import Any

import array_api_compat

from promo_ns._context import held_trace, innermost, tracer
from promo_ns._convert import defers_to, native_device, unknown_device, wrap
from promo_ns._dtypes import DType, a_or_an, uint64
from promo_ns._operands import _NK, _SCALAR_CODE, NO_ARRAY, Space, dtype_of_code
from promo_ns._plan import (
    INPLACE,
    NORMAL,
    PREPARE,
    REFLECTED,
    kernel_failure,
    meet,
    operator,
    prepared_done,
)

__all__ = ["Array", "dlpack_exporter", "unwrap"]


# --- the wrapper ---------------------------------------------------------------------------

#: ``x[key] = value``'s checks of ``value`` (the binary path of ``setitem`` in ``PREPARE`` mode).
_checked_setitem = operator("setitem", PREPARE)


class Array:
    """An array of a promo_ns namespace: a native array plus the namespace whose policy it follows.

    Created by the namespace's functions (``xp.asarray(...)``), never directly.
    Binary operators follow the active policy: the innermost
    ``promo_ns.policy(...)`` block's, else the namespace's.
    """

    __slots__ = ("_k", "_ns", "_p", "_x")

    _x: Any  #: the native array
    _ns: Space  #: the namespace
    _p: dict[Any, Any]  #: the namespace's plans (``_ns._plans``), read by the hot paths
    _k: int  #: the operand code: dtype and 0-d bit

    def __init__(self) -> None:
        raise TypeError("create promo_ns arrays with a namespace: xp.asarray(obj)")

    # -- attributes --
    @property
    def dtype(self) -> DType:
        """The canonical dtype (``str(a.dtype) == "float32"``)."""
        return dtype_of_code(self._k)

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The shape, as a tuple of ints.

        A size a lazy array knows only once computed (Dask's nan) is computed here where conversions
        compute (the default: :func:`promo_ns.backends.dask.compute_conversions`); else it is None.
        """
        shape = tuple(self._x.shape)
        if float in map(type, shape):
            return _unknown_sizes(self, shape)
        return shape

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return int(self._x.ndim)

    @property
    def size(self) -> int | None:
        """The number of elements; None where a size is unknown (see :attr:`shape`)."""
        n: int | None = 1
        for s in self.shape:
            n = None if s is None or n is None else n * s
        return n

    @property
    def device(self) -> Any:
        """The native device the data lives on."""
        return array_api_compat.device(self._x)

    @property
    def T(self) -> Array:  # noqa: N802 - the standard's name
        """The transpose of a 2-d array."""
        return _wrap(self._x.T, self._ns)

    @property
    def mT(self) -> Array:  # noqa: N802 - the standard's name
        """The transpose of the last two axes."""
        return _wrap(self._ns._backend.compat.matrix_transpose(self._x), self._ns)

    def to_device(self, device: Any, /, *, stream: int | Any | None = None) -> Array:
        """A copy of the array on ``device`` (the array itself when already there)."""
        try:
            return _wrap(
                array_api_compat.to_device(self._x, native_device(self._ns, device), stream=stream), self._ns
            )
        except (RuntimeError, ValueError, TypeError, AttributeError, AssertionError) as e:  # torch's: no CUDA
            error = unknown_device(self._ns, "to_device", device, e)
            if error is None:
                raise
            raise error from e

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        ns = self._ns
        if api_version is None or api_version == ns.__array_api_version__:
            return ns
        return ns.versioned(api_version)

    # -- conversion --
    def __bool__(self) -> bool:
        return bool(_eager(self, "bool"))

    def __int__(self) -> int:
        x = _eager(_zero_d(self, "int"), "int")
        # torch's int() goes through int64; a lazy Dask array (computing conversions) has no item()
        return int(x.item() if self.dtype is uint64 and hasattr(x, "item") else x)

    def __float__(self) -> float:
        return float(_eager(_zero_d(self, "float"), "float"))

    def __complex__(self) -> complex:
        return complex(_eager(_zero_d(self, "complex"), "complex"))

    def __format__(self, format_spec: str, /) -> str:
        # A 0-d array formats as its Python scalar (f"{x:.2f}"), as NumPy's and torch's do.
        if not format_spec:
            return str(self)
        if self._x.ndim != 0:
            raise TypeError(
                f"format spec {format_spec!r} given for {a_or_an(str(self.ndim) + '-d')} array; only a 0-d "
                "array formats as a number: format its elements one by one, e.g. f'{x[0]:.2f}'"
            )
        convert = {"b": bool, "f": float, "c": complex}.get(self.dtype.kind, int)
        return format(convert(self), format_spec)

    def __index__(self) -> int:
        x = _eager(_zero_d(self, "operator.index"), "__index__")
        if hasattr(x, "__index__") and not (self.dtype is uint64 and hasattr(x, "item")):
            return int(x.__index__())
        # torch's uint64 goes through int64; CuPy's arrays have no __index__
        if self.dtype.kind not in "iu" or self.ndim != 0:
            raise TypeError(
                f"only a 0-d integer array converts to an index, not {a_or_an(str(self.ndim) + '-d')} "
                f"{self.dtype} array; index with int(x) of an integer array"
            )
        return int(x.item())

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        given = {"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy}
        kwargs = {k: v for k, v in given.items() if v is not None}
        try:
            return dlpack_exporter(self, "__dlpack__")(**kwargs)
        except BufferError:
            # CuPy copies to the CPU only: a copy on the array's own device is exported as it is
            if copy is not True or not _is_own_device(self, dl_device):
                raise
            kwargs.pop("copy")
            return self._ns._backend.compat.asarray(self._x, copy=True).__dlpack__(**kwargs)
        except (ValueError, RuntimeError) as e:
            if copy is not False or _is_own_device(self, dl_device):
                raise
            raise BufferError(
                f"this array cannot be exported to the DLPack device {dl_device} without a copy ({e}); "
                "pass copy=None or copy=True"
            ) from e

    def __dlpack_device__(self) -> tuple[Any, int]:
        return dlpack_exporter(self, "__dlpack_device__")()  # type: ignore[no-any-return]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        backend = self._ns._backend
        if backend.name == "numpy":
            return backend.module.asarray(self._x, dtype=dtype, copy=copy)
        return self._x.__array__(dtype)

    def __repr__(self) -> str:
        if self._k == NO_ARRAY:  # a pytree node holding a leaf that is no array
            return f"promo_ns.Array({self._x!r})"
        return f"promo_ns.Array({self._x!r}, dtype={self.dtype}, policy={self._ns.policy.name!r})"

    # -- indexing, iteration, copying --
    def __getitem__(self, key: Any, /) -> Array:
        return _wrap(self._ns._backend.getitem(self._x, _native_key(key)), self._ns)

    def __len__(self) -> int:
        if self._x.ndim == 0:
            raise TypeError("len() of a 0-d array; use x.shape or x.size")
        return _length(self, "len()")

    def __iter__(self) -> Iterator[Array]:
        if self._x.ndim == 0:
            raise TypeError("iteration over a 0-d array; use float(x), int(x) or x[()]")
        return (self[i] for i in range(_length(self, "iteration")))

    def __reduce__(self) -> tuple[Any, ...]:
        return (wrap, (self._x, self._ns))

    def __copy__(self) -> Array:
        # An independent copy on every backend, as NumPy's ndarray.__copy__ (torch's shares memory).
        return _wrap(self._ns._backend.asarray(self._x, copy=True), self._ns)

    def __deepcopy__(self, memo: dict[int, Any]) -> Array:
        return _wrap(copy.deepcopy(self._x, memo), self._ns)

    def __setitem__(self, key: Any, value: Any, /) -> None:
        p = self._p
        if key.__class__ is Array and key._p is p and innermost() is None:  # x[mask] = 0.5
            code = _SCALAR_CODE.get(value.__class__)
            cells = p.get("setitem")
            cell = None if code is None or cells is None else cells[self._k * _NK + code]
            store = None if cell is None else cell.inplace_kernel
            if store is not None:  # a Python scalar the cell takes as it is, and the backend's own store
                try:
                    stored = store(self._x, key._x, value)
                except Exception as e:  # the full path's error, without storing (and warning) twice
                    raise kernel_failure(self._ns, "setitem", e, (self._x, key._x, value))  # noqa: B904 - cause set
                if stored is not NotImplemented:  # else nothing was written: the full path checks the key
                    return
        plan, _, y = _checked_setitem(self, value)
        native_key = key._x if key.__class__ is Array else _native_key(key)
        try:
            updated = self._ns._backend.setitem(self._x, native_key, y)
        except Exception as e:
            raise kernel_failure(self._ns, "setitem", e, (self._x, native_key, y))  # noqa: B904 - its cause is set
        if updated is not None:  # an immutable backend's new array (JAX): the wrapper rebinds
            self._x = updated
        if innermost() is not None:
            prepared_done("setitem", self, value, plan, y)

    # -- unary operators --
    def __neg__(self) -> Array:
        return self._ns.negative(self)  # type: ignore[no-any-return]

    def __pos__(self) -> Array:
        return self._ns.positive(self)  # type: ignore[no-any-return]

    def __abs__(self) -> Array:
        return self._ns.abs(self)  # type: ignore[no-any-return]

    def __invert__(self) -> Array:
        return self._ns.bitwise_invert(self)  # type: ignore[no-any-return]

    # -- binary operators: one path (see _operator) --
    __add__ = operator("add", NORMAL, defer=True)
    __radd__ = operator("add", REFLECTED)
    __iadd__ = operator("add", INPLACE, defer=True)
    __sub__ = operator("subtract", NORMAL, defer=True)
    __rsub__ = operator("subtract", REFLECTED)
    __isub__ = operator("subtract", INPLACE, defer=True)
    __mul__ = operator("multiply", NORMAL, defer=True)
    __rmul__ = operator("multiply", REFLECTED)
    __imul__ = operator("multiply", INPLACE, defer=True)
    __truediv__ = operator("divide", NORMAL, defer=True)
    __rtruediv__ = operator("divide", REFLECTED)
    __itruediv__ = operator("divide", INPLACE, defer=True)
    __floordiv__ = operator("floor_divide", NORMAL, defer=True)
    __rfloordiv__ = operator("floor_divide", REFLECTED)
    __ifloordiv__ = operator("floor_divide", INPLACE, defer=True)
    __mod__ = operator("remainder", NORMAL, defer=True)
    __rmod__ = operator("remainder", REFLECTED)
    __imod__ = operator("remainder", INPLACE, defer=True)
    __pow__ = operator("pow", NORMAL, defer=True)
    __rpow__ = operator("pow", REFLECTED)
    __ipow__ = operator("pow", INPLACE, defer=True)
    __and__ = operator("bitwise_and", NORMAL, defer=True)
    __rand__ = operator("bitwise_and", REFLECTED)
    __iand__ = operator("bitwise_and", INPLACE, defer=True)
    __or__ = operator("bitwise_or", NORMAL, defer=True)
    __ror__ = operator("bitwise_or", REFLECTED)
    __ior__ = operator("bitwise_or", INPLACE, defer=True)
    __xor__ = operator("bitwise_xor", NORMAL, defer=True)
    __rxor__ = operator("bitwise_xor", REFLECTED)
    __ixor__ = operator("bitwise_xor", INPLACE, defer=True)
    __lshift__ = operator("bitwise_left_shift", NORMAL, defer=True)
    __rlshift__ = operator("bitwise_left_shift", REFLECTED)
    __ilshift__ = operator("bitwise_left_shift", INPLACE, defer=True)
    __rshift__ = operator("bitwise_right_shift", NORMAL, defer=True)
    __rrshift__ = operator("bitwise_right_shift", REFLECTED)
    __irshift__ = operator("bitwise_right_shift", INPLACE, defer=True)
    __eq__ = operator("equal", NORMAL, defer=True)
    __ne__ = operator("not_equal", NORMAL, defer=True)
    __lt__ = operator("less", NORMAL, defer=True)
    __le__ = operator("less_equal", NORMAL, defer=True)
    __gt__ = operator("greater", NORMAL, defer=True)
    __ge__ = operator("greater_equal", NORMAL, defer=True)

    def __matmul__(self, other: Any, /) -> Any:
        if other.__class__ is self.__class__:
            if other._ns is not self._ns:
                meet(self, other, "matmul", NORMAL)
        elif defers_to(other, "__rmatmul__"):
            return NotImplemented
        return self._ns.matmul(self, other)

    def __rmatmul__(self, other: Any, /) -> Any:
        if other.__class__ is self.__class__ and other._ns is not self._ns:
            meet(self, other, "matmul", REFLECTED)
        return self._ns.matmul(other, self)

    def __imatmul__(self, other: Any, /) -> Any:
        if other.__class__ is not self.__class__ and defers_to(other, "__rmatmul__"):
            return NotImplemented
        operator("matmul", PREPARE)(self, other)  # refused as x1 @= x2, before the product is computed
        t = tracer()
        # The product's casts go to the trace only once the in-place op has run (threads may share it).
        with nullcontext(None) if t is None else held_trace() as product:
            result = self._ns.matmul(self, other)
        if tuple(result._x.shape) != tuple(self._x.shape):
            raise ValueError(f"in-place matmul would change the shape {self.shape} to {result.shape}")
        updated = self._ns._backend.setitem(self._x, ..., result._x)
        if updated is not None:
            self._x = updated
        if t is not None and product is not None:
            t.add(product.records)
        return self

    __hash__ = None  # type: ignore[assignment]
    # NumPy defers its binary operators to ours: np.float32(1) + a follows the policy.
    __array_ufunc__ = None


def _wrap(x: Any, ns: Space) -> Array:
    """Native ``x`` as an Array of ``ns`` (the plan layer's :func:`~promo_ns._convert.wrap`, typed)."""
    a: Array = wrap(x, ns)
    return a


def _zero_d(a: Array, convert: str) -> Array:
    """``a``, a 0-d array; a TypeError for any other, as NumPy's (torch's and Dask's take one element).

    Raises
    ------
    TypeError
        ``a`` has one or more axes.
    """
    if a._x.ndim != 0:
        raise TypeError(
            f"only a 0-d array converts to a Python scalar with {convert}(), not one of shape "
            f"{tuple(a.shape)}; take the element first, e.g. {convert}(x[0]) or {convert}(xp.reshape(x, ()))"
        )
    return a


def _eager(a: Array, convert: str) -> Any:
    """The native array of ``a`` for ``convert`` to a Python scalar; a ValueError where that is refused.

    A lazy array (Dask) computes its graph here, as Dask's own arrays do,
    unless its conversions were turned off; and it refuses when
    ``array_api_compat.is_lazy_array`` asks, which learns that an array of a
    type it does not know is lazy from ``bool()`` raising.

    Raises
    ------
    ValueError
        The conversion would compute a lazy array's graph where that is refused.
    """
    backend = a._ns._backend
    if backend.lazy and (backend.refuses_conversions or _asked_whether_lazy()):
        raise ValueError(
            f"{convert}() of a lazy {backend.name} array would compute its graph; lazy arrays refuse "
            "it, as the Array API standard says. Compute explicitly where you mean to, e.g. "
            f"{convert}(promo_ns.unwrap(x).compute()), or keep the value an array (xp.where, xp.any)."
        )
    return a._x


def _unknown_sizes(a: Array, shape: tuple[Any, ...]) -> tuple[int | None, ...]:
    """The shape of ``a``, whose native ``shape`` has unknown (nan) sizes: computed, or None for them.

    They are computed (once: the native array keeps them) unless the backend refuses conversions
    or ``array_api_compat.is_lazy_array`` asks (through ``array_api_compat.size``).
    """
    backend = a._ns._backend
    if not backend.refuses_conversions and not _asked_whether_lazy(4):
        a._x = backend.computed_sizes(a._x)
        shape = tuple(a._x.shape)
    return tuple(None if isinstance(s, float) and isnan(s) else s for s in shape)


#: The code of ``array_api_compat.is_lazy_array``, which calls ``bool()`` and ``size()`` to ask.
_IS_LAZY_ARRAY = getattr(array_api_compat.is_lazy_array, "__code__", None)


def _asked_whether_lazy(depth: int = 3) -> bool:
    """Whether the conversion under way is ``array_api_compat.is_lazy_array`` asking, ``depth`` frames up.

    3 for a conversion (_asked_whether_lazy <- _eager <- __bool__ <- the caller), 4 for a shape
    (_asked_whether_lazy <- _unknown_sizes <- shape <- array_api_compat.size <- the caller).
    """
    try:
        frame = sys._getframe(depth)
    except ValueError:  # called from no Python frame at all
        return False
    return frame.f_code is _IS_LAZY_ARRAY


def dlpack_exporter(a: Array, method: str) -> Any:
    """The native array's DLPack ``method``; a BufferError where its library exports none (Dask).

    Raises
    ------
    BufferError
        The backend's arrays have no DLPack export: the standard's error for an array that cannot export.
    """
    found = getattr(a._x, method, None)
    if found is None:
        raise BufferError(
            f"{a._ns._backend.name} arrays cannot be exported through DLPack; compute or convert "
            "first, e.g. xp.asarray(np.asarray(x)) in another namespace"
        )
    return found


def _is_own_device(a: Array, dl_device: tuple[Any, int] | None) -> bool:
    """Whether a DLPack export to ``dl_device`` stays on the device ``a`` is on (None: it does)."""
    if dl_device is None:
        return True
    kind, index = a.__dlpack_device__()
    return (int(dl_device[0]), dl_device[1]) == (int(kind), index)


def _length(a: Array, what: str) -> int:
    """The size of ``a``'s first axis; a TypeError where a lazy array does not know it yet."""
    n = a.shape[0]
    if n is None:
        raise TypeError(
            f"{what} of an array whose length is unknown until it is computed "
            "(a lazy array after a boolean mask or unique); compute it first"
        )
    return int(n)


def unwrap(x: Any) -> Any:
    """The native array inside a promo_ns Array (zero-copy); anything else is returned as is."""
    return x._x if x.__class__ is Array else x


#: Index parts passed on as they are; anything else is checked by :func:`_native_part`.
_KEY_CLASSES = frozenset({int, bool, slice, type(Ellipsis), type(None)})


def _native_key(key: Any) -> Any:
    """An index key with promo_ns arrays unwrapped; an IndexError naming a part of the wrong kind."""
    cls = key.__class__
    if cls in _KEY_CLASSES:
        return key
    if cls is tuple:
        return tuple(k if k.__class__ in _KEY_CLASSES else _native_part(k) for k in key)
    return _native_part(key)


def _native_part(part: Any) -> Any:
    if part.__class__ is Array:
        return part._x
    if isinstance(part, list):
        for k in part:
            _native_part(k)
        return part
    if hasattr(part, "__index__") or hasattr(part, "dtype"):  # NumPy ints, native index arrays
        return part
    raise IndexError(
        f"an index is an int, a slice, ..., None, or an integer or boolean array (or a tuple of "
        f"these); got {type(part).__name__} {part!r}. Convert it first, e.g. int(i) for a "
        "whole-number float, or xp.asarray(indices) for a list of indices."
    )
