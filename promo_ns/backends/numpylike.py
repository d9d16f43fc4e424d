"""The NumPy-like adapter, shared by NumPy and CuPy (one class, parameterized by module)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from functools import partial
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy

from promo_ns._dtypes import (
    DType,
    bfloat16,
    bool_,
    canonical,
    float16,
    float32,
    float64,
    uint8,
)
from promo_ns._ops import INPLACE_OPERATORS, NATIVE
from promo_ns.backends import _cupy_gaps, _cupy_ufuncs
from promo_ns.backends._base import DTypeMaps, KernelErrors, Patched, Plan, Values, cast_before, named
from promo_ns.backends._cupy_compat import CupyCompat, asarray_keeping_sign, has_negative_zero
from promo_ns.backends._values import into, signed_counts, zero_divisor_error
from promo_ns.policies import Role, get_policy

__all__ = ["NumpyLike"]

#: From about this many elements NumPy's cast-then-op in place beats its buffered casting loop.
_CAST_INTO_OUTPUT = 1 << 14


def _size(x: Any) -> int:
    return int(getattr(x, "size", 1))


def _compute_in(ufunc: Any, c: Any, x: Any, y: Any) -> Any:
    """``ufunc(x, y)`` computed in NumPy dtype ``c``, casting inside the ufunc.

    NumPy casts through a small buffer, chunk by chunk; on large arrays it is
    faster to cast the operand of the result's shape straight into the output
    array and run the ufunc in place on it, which needs no memory beyond the output.
    """
    if _size(x) < _CAST_INTO_OUTPUT and _size(y) < _CAST_INTO_OUTPUT:
        return ufunc(x, y, dtype=c, casting="unsafe")
    shape = numpy.broadcast_shapes(x.shape, y.shape)
    out = None
    if x.dtype != c and x.shape == shape:
        x = out = x.astype(c)
    elif y.dtype != c and y.shape == shape:
        y = out = y.astype(c)
    return ufunc(x, y, out=out, dtype=c, casting="unsafe")


def _rounded_once(ufunc: Any, c: Any, rounded: Any, x: Any, y: Any) -> Any:
    """``ufunc(x, y)`` of an array and a Python float or 0-d array in ``c``, rounded once to ``rounded``.

    The float converts to ``c`` (NEP 50: a Python float takes the array's
    dtype), as does a 0-d array.  Small arrays are cast, computed and rounded
    back, which is quicker than a ufunc's buffered casts; large ones are
    computed chunk by chunk into the output, which needs no memory beyond it.
    """
    array = x if hasattr(x, "dtype") and x.ndim >= getattr(y, "ndim", 0) else y
    if array.size < _CAST_INTO_OUTPUT:
        if hasattr(x, "dtype"):
            x = x.astype(c)
        if hasattr(y, "dtype"):
            y = y.astype(c)
        return ufunc(x, y).astype(rounded)
    return ufunc(x, y, out=numpy.empty_like(array, dtype=rounded), dtype=c, casting="unsafe")


#: Integer ops whose zero divisor the policy answers (:attr:`Values.zero_divisor`).
_DIVISION = frozenset(("floor_divide", "remainder"))


def _raising_zero_divisor(op: str, ufunc: Any, x: Any, y: Any, **kwargs: Any) -> Any:
    """NumPy's integer ``ufunc(x, y)`` (``//``, ``%``), raising ZeroDivisionError for a divisor of 0.

    NumPy gives 0 there and flags a division by zero: ``errstate`` makes the
    flag an error, with no pass over the operands of its own.
    """
    with numpy.errstate(divide="raise"):
        try:
            return ufunc(x, y, **kwargs)
        except FloatingPointError:
            raise zero_divisor_error(op) from None


def _xla_zero_divisor(
    op: str, module: ModuleType, ufunc: Any, x: Any, y: Any, /, *, out: Any = None, **kwargs: Any
) -> Any:
    """Integer ``ufunc(x, y)`` (``//``, ``%``) with XLA's values where ``y`` is 0 (``zero_divisor="xla"``).

    The remainder is 0, as NumPy's (without its warning); the quotient -1
    for a signed 0, -2 for any other signed ``x``, the dtype's maximum for
    unsigned: XLA's all-ones quotient, less one where ``floor_divide``
    corrects it.  Read before ``out=`` overwrites ``x``.
    """
    with numpy.errstate(divide="ignore"):
        r = ufunc(x, y, **kwargs)
    if op == "remainder":
        return into(out, r)
    dtype = numpy.dtype(r.dtype)
    if dtype.kind == "u":
        fill = module.asarray(numpy.iinfo(dtype).max, dtype=dtype)
    else:
        fill = module.where(module.asarray(x) == 0, -1, -2).astype(dtype)
    return into(out, module.where(module.asarray(y) == 0, fill, r))


def _checking_zero_divisor(op: str, ufunc: Any, x: Any, y: Any, **kwargs: Any) -> Any:
    """CuPy's integer ``ufunc(x, y)`` (``//``, ``%``), raising ZeroDivisionError for a divisor of 0.

    CuPy flags nothing: the divisor is looked at first.
    """
    if bool((y == 0).any()) if hasattr(y, "dtype") else y == 0:
        raise zero_divisor_error(op)
    return ufunc(x, y, **kwargs)


def _store(op: str, out: Any, result: Any) -> None:
    """``out[...] = result`` of in-place ``op``, refusing a result of another shape as ufuncs' ``out=`` do.

    (NumPy's setitem would drop a result's leading 1s: a 0-d ``x`` would take a result of shape (1,).)
    """
    if result.shape != out.shape:
        raise ValueError(
            f"non-broadcastable output operand with shape {out.shape} doesn't match the broadcast "
            f"shape {result.shape}; an in-place op never changes x's shape"
        )
    out[...] = result


def _negative_powers(module: ModuleType, ufunc: Any, x: Any, y: Any, **kwargs: Any) -> Any:
    """Integer ``ufunc(x, y)`` (``power``) with the rule ``"compute"`` for negative exponents.

    NumPy refuses a negative exponent (ValueError), before computing: only
    then are they computed, as PyTorch's kernel does (``1 ** -n`` is 1,
    ``(-1) ** -n`` is -1 or 1, any other base 0), on top of the powers of the
    others.  The bases and exponents are those of the compute dtype (``dtype=``, a
    0-d uint8 255 is int8's -1).
    """
    try:
        return ufunc(x, y, **kwargs)
    except ValueError:
        pass
    c = kwargs.get("dtype")
    if c is not None:
        x, y = (v.astype(c) if hasattr(v, "dtype") and v.dtype != c else v for v in (x, y))
    negative = y < 0
    powers = ufunc(x, module.where(negative, 0, y) if hasattr(y, "dtype") else 0, **kwargs)
    odd = (y & 1) == 1
    one = module.asarray((x == 1) | ((x == -1) & ~odd)).astype(powers.dtype)
    minus_one = module.asarray((x == -1) & odd).astype(powers.dtype)
    return module.where(negative, one - minus_one, powers)


def _dividend_signed(ufunc: Any, x: Any, y: Any, **kwargs: Any) -> Any:
    """Floating ``ufunc(x, y)`` (``remainder``) whose zeros take ``x``'s sign (``zero_remainder="dividend"``).

    NumPy gives them ``y``'s, as Python's ``%``; a nonzero remainder has
    ``y``'s sign under both rules.
    """
    signs = x if kwargs.get("out") is None else numpy.copysign(1.0, x)  # before out= overwrites x
    out = numpy.asarray(ufunc(x, y, **kwargs))
    return numpy.copysign(out, signs, out=out, where=out == 0)


#: (op, compute dtype) NumPy has no loop for -> the dtype computing it exactly, cast back after:
#: bool ``**`` (0 and 1 to powers of 0 and 1 stay 0 and 1 in uint8).
_EXACT_IN: dict[tuple[str, DType], DType] = {("pow", bool_): uint8}


class _NumpyLinalg(Patched):
    """``array_api_compat.numpy.linalg`` whose ``matrix_power`` of bfloat16 returns bfloat16.

    ml_dtypes' bfloat16 has no matmul loop: NumPy multiplies in float32 and
    returns float32; the result is rounded back to bfloat16, torch's and JAX's dtype.
    """

    def matrix_power(self, x: Any, /, *args: Any, **kwargs: Any) -> Any:
        """``compat.linalg.matrix_power``, rounded back to bfloat16 for a bfloat16 ``x``."""
        out = self._base.matrix_power(x, *args, **kwargs)
        return out.astype(x.dtype) if x.dtype.name == "bfloat16" and out.dtype != x.dtype else out


def _with_signed_counts(fn: Callable[..., Any], name: str, position: int | None) -> Callable[..., Any]:
    """``fn`` (``repeat``, ``searchsorted``), its uint64 argument ``name`` (or at ``position``) as int64.

    See :func:`._values.signed_counts`; ``fn``'s own signature and errors are kept.
    """

    @functools.wraps(fn)
    def signed(*args: Any, **kwargs: Any) -> Any:
        if position is not None and len(args) > position:
            args = (*args[:position], signed_counts(args[position]), *args[position + 1 :])
        if name in kwargs:
            kwargs[name] = signed_counts(kwargs[name])
        return fn(*args, **kwargs)

    return signed


class _NumpyCompat(Patched):
    """``array_api_compat.numpy`` with ``clip`` exact on ml_dtypes' bfloat16, which has no clip loop.

    ``repeat`` and ``searchsorted`` take uint64 ``repeats`` and ``sorter``.

    A bfloat16 array and bounds clip in float32, which holds each of their
    values exactly, and the result is cast back: no value is rounded.
    ``linalg.matrix_power`` of bfloat16 returns bfloat16 (see :class:`_NumpyLinalg`).
    """

    def __init__(self, base: ModuleType) -> None:
        super().__init__(base)
        self.linalg = _NumpyLinalg(base.linalg)
        self.repeat = _with_signed_counts(base.repeat, "repeats", 1)
        self.searchsorted = _with_signed_counts(base.searchsorted, "sorter", None)

    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """``compat.clip``, through float32 for a bfloat16 ``x``."""
        if x.dtype.name != "bfloat16":
            return self._base.clip(x, min, max)
        lo, hi = (b.astype(numpy.float32) if hasattr(b, "astype") else b for b in (min, max))
        return self._base.clip(x.astype(numpy.float32), lo, hi).astype(x.dtype)


class NumpyLike(DTypeMaps, KernelErrors):
    """NumPy or CuPy: ufuncs cast inside the kernel through ``dtype=``, so no operand is copied."""

    #: How NumPy (and CuPy, and Dask through NumPy) say a kernel has no loop for the dtypes.
    no_loop_words = (
        *("No loop matching", "did not contain a loop", "not supported for the input types"),
        "boolean subtract",
        *("unsupported in linalg", "Parameters of such types are not supported"),  # NumPy's linalg, Dask's
        "of arguments for cupy_",  # CuPy's ufuncs: "Wrong type (int32) of arguments for cupy_copysign"
    )

    def __init__(self, name: str, module: str | None = None, array_type: str = "ndarray") -> None:
        super().__init__()
        self.name = name
        self.module = import_module(module or name)
        self.compat = import_module(f"array_api_compat.{module or name}")
        # CuPy's gaps are filled for CuPy only (Dask's adapter is this class too, with its own fill-ins)
        self._cupy = name == "cupy"
        if name == "numpy":
            self.compat = _NumpyCompat(self.compat)
        elif self._cupy:
            self.compat = CupyCompat(self.compat, self.module)
        self.native_policy = get_policy("numpy")
        self.not_native: frozenset[tuple[str | None, DType, DType]] = frozenset()
        self.array_type: type = getattr(self.module, array_type)
        self._ufunc = {op: getattr(self.module, names[0]) for op, names in NATIVE.items()}
        self._numpy = name == "numpy"
        #: (op, compute dtype) -> CuPy's ufunc giving NumPy's values (see :meth:`_cupy_ufunc`).
        self._cupy_ufuncs: dict[tuple[str, DType], Any] = {}
        #: ``module.asarray``; on CuPy one that keeps a 0-d negative zero.
        self._asarray: Callable[..., Any] = (
            partial(asarray_keeping_sign, self.module) if self._cupy else self.module.asarray
        )
        # ml_dtypes' bfloat16 loops cast only from bool/int8/uint8: other
        # operands are cast before the ufunc runs.
        self._cast_first = frozenset((bfloat16,))

    def kernel(
        self, op: str, x: DType | Role, y: DType | Role, compute: DType, result: DType, *, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """The ufunc of ``op``; for NumPy arrays of mixed dtypes, one that casts large arrays first.

        Where NumPy's kernel does not give the policy's ``values``, the ufunc
        is one that does (see :meth:`_valued`).
        """
        if op not in self._ufunc:
            return None
        ufunc: Callable[..., Any] = self._valued(op, compute, values)
        mixed = {x, y} != {compute} and isinstance(x, DType) and isinstance(y, DType)
        if compute in self._cast_first or not (self._numpy and mixed and result is compute):
            return ufunc
        return partial(_compute_in, ufunc, self.native_dtype(compute))

    def _valued(self, op: str, compute: DType, values: Values) -> Any:
        """The ufunc of ``op`` computing in ``compute``, giving the policy's ``values`` where NumPy does not.

        Only integer ``//`` and ``%`` (``zero_divisor="raise"``), integer
        ``**`` (``negative_powers="compute"``) and floating ``%``
        (``zero_remainder="dividend"``) differ from NumPy's kernels; on CuPy,
        signed integer ``**`` refuses negative exponents as NumPy does, and
        see :meth:`_cupy_ufunc`.  The function takes the ufunc's arguments.
        """
        ufunc = self._cupy_ufunc(op, compute) if self._cupy else self._ufunc[op]
        if compute.kind == "f" and op == "remainder" and values.zero_remainder == "dividend":
            where = _dividend_signed if self._numpy else partial(_cupy_ufuncs.dividend_signed, self.module)
            return partial(where, ufunc)
        if compute.kind not in "iu":
            return ufunc
        if op in _DIVISION and values.zero_divisor == "raise":
            return partial(_raising_zero_divisor if self._numpy else _checking_zero_divisor, op, ufunc)
        if op in _DIVISION and values.zero_divisor == "xla":
            return partial(_xla_zero_divisor, op, self.module, ufunc)
        if op == "pow" and compute.kind == "i" and values.negative_powers == "compute":
            return partial(_negative_powers, self.module, ufunc)
        if op == "pow" and compute.kind == "i" and self._cupy:
            return partial(_cupy_ufuncs.checking_exponents, ufunc)
        return ufunc

    def _cupy_ufunc(self, op: str, compute: DType) -> Any:
        """CuPy's ufunc of ``op`` computing in ``compute`` with NumPy's values (see :mod:`._cupy_ufuncs`).

        Floating ``floor_divide`` and ``remainder``, and float16 ``nextafter``, are NumPy's; a ufunc
        whose ``dtype=`` picks a
        loop of other inputs (int8 ``power``: bool's) gets its operands cast first;
        a complex op CuPy has no kernel for raises first (:data:`._cupy_ufuncs.NO_KERNEL`).
        """
        found = self._cupy_ufuncs.get((op, compute))
        if found is None:
            found = ufunc = self._ufunc[op]
            if (op, compute) in _cupy_ufuncs.NO_KERNEL:
                found = partial(_cupy_ufuncs.no_kernel, op, compute)
            elif compute is not bfloat16:  # refused on CuPy (see :meth:`dtype`)
                c = self.native_dtype(compute)
                if op in _cupy_ufuncs.FLOAT_DIVISION and compute in (float16, float32, float64):
                    found = partial(_cupy_ufuncs.FLOAT_DIVISION[op], self.module, self._asarray, c)
                elif op == "nextafter" and compute is float16:
                    found = partial(_cupy_ufuncs.float16_nextafter, self.module, self._asarray)
                elif _cupy_ufuncs.loop_casts_operands(ufunc, c):
                    found = partial(_cupy_ufuncs.cast_first, self._asarray, ufunc, c)
            self._cupy_ufuncs[(op, compute)] = found
        return found

    def _canonical_of(self, dtype: Any) -> DType:
        """The canonical dtype of ``dtype``; on CuPy, a TypeError for bfloat16.

        CuPy 14 makes arrays of ml_dtypes' bfloat16 (``cupy.asarray`` of a NumPy
        one, DLPack), experimental and not in every kernel: promo_ns takes none.
        """
        found = canonical(dtype)
        if found is bfloat16 and self._cupy:
            raise TypeError(
                "the cupy backend has no bfloat16 dtype: promo_ns takes no CuPy array of ml_dtypes' "
                "bfloat16 (experimental in CuPy 14, not in every kernel); cast it first, e.g. "
                "x.astype(cupy.float32), or use the numpy/torch backend for bfloat16."
            )
        return found

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``, casting inside the ufunc (and into ``plan.rounded``).

        Only cells NumPy does not already promote as the policy does come here:
        :meth:`kernel` gives every ``direct`` cell a function of its own.
        """
        exact = _EXACT_IN.get((op, plan.compute))
        if exact is not None:
            return self.astype(self.binary(op, x, y, plan._replace(compute=exact)), plan.compute)
        ufunc = self._valued(op, plan.compute, plan.values)
        c = self.native_dtype(plan.compute)
        if plan.rounded is not None:
            return self.to_array(_rounded_once(ufunc, c, self.native_dtype(plan.rounded), x, y))
        # A Python scalar goes in as a 0-d array of the compute dtype: ufuncs
        # refuse some scalar casts (bfloat16) and range-check others (NEP 50).
        if not isinstance(x, self.array_type):
            x = self._asarray(x, dtype=c)
        if not isinstance(y, self.array_type):
            y = self._asarray(y, dtype=c)
        # CuPy has no signature= to pick a comparison's loop: cast first there too.
        if plan.compute in self._cast_first or (plan.to_bool and not self._numpy):
            return self.to_array(ufunc(self.astype(x, plan.compute), self.astype(y, plan.compute)))
        if plan.to_bool:
            return self.to_array(ufunc(x, y, signature=(c, c, None), casting="unsafe"))
        if self._numpy:
            return self.to_array(_compute_in(ufunc, c, x, y))
        return self.to_array(ufunc(x, y, dtype=c, casting="unsafe"))

    def rounded_kernel(
        self, op: str, compute: DType, rounded: DType, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """The ufunc computing in ``compute``, rounded once to ``rounded``, as :meth:`binary` computes it."""
        if op not in self._ufunc or (op, compute) in _EXACT_IN:
            return None
        c, r = self.native_dtype(compute), self.native_dtype(rounded)
        return partial(_rounded_once, self._valued(op, compute, values), c, r)

    def inplace_kernel(self, op: str, compute: DType, values: Values) -> Callable[..., Any] | None:
        """Python's in-place operator (``x += y``: the ufunc, ``out=x``) where :meth:`inplace` runs the ufunc.

        Not for integer ``**`` (it raises on a negative exponent after writing
        the elements before it), for a ufunc giving the policy's values
        (:meth:`_valued`), nor where the operands are cast first.  For
        ``setitem``, NumPy's ``x[key] = value`` (what :meth:`setitem` runs);
        none on CuPy, whose indices are checked first.
        """
        if op == "setitem":
            return operator.setitem if self._numpy else None
        if (op, compute) in _EXACT_IN or compute in self._cast_first or op not in self._ufunc:
            return None
        if (op == "pow" and compute.kind in "iu") or self._valued(op, compute, values) is not self._ufunc[op]:
            return None
        return INPLACE_OPERATORS.get(op)

    def inplace(self, op: str, x: Any, y: Any, plan: Plan, out: Any = None) -> None:
        """``x op= y`` computed in ``plan.compute`` and stored into ``x`` (or into ``out``).

        ``out``, an array of ``x``'s dtype and shape, takes the result instead
        of ``x`` where ``x`` must stay as it is (a Dask chunk).  Integer ``pow``
        raises on a negative exponent after writing the elements before it, and
        integer ``//`` and ``%`` on a zero divisor where the policy raises:
        they compute into a temporary, and ``x`` is written only on success.
        """
        if out is None:
            out = x
        if (op, plan.compute) in _EXACT_IN:
            _store(op, out, self.binary(op, x, y, plan))
            return
        ufunc = self._valued(op, plan.compute, plan.values)
        raising = op in _DIVISION and plan.values.zero_divisor == "raise"
        if (op == "pow" or raising) and plan.compute.kind in "iu":
            c = self.native_dtype(plan.compute)
            result = ufunc(
                x,
                self._asarray(y, dtype=c) if not isinstance(y, self.array_type) else y,
                dtype=c,
                casting="unsafe",  # the policy decided the dtypes: uint8 **= int8 computes in uint8
            )
            _store(op, out, result)
            return
        if plan.direct:
            ufunc(x, y, out=out, casting="unsafe")
            return
        c = self.native_dtype(plan.compute)
        if not isinstance(y, self.array_type):
            y = self._asarray(y, dtype=c)
        if plan.compute in self._cast_first:
            ufunc(self.astype(x, plan.compute), self.astype(y, plan.compute), out=out, casting="unsafe")
        else:
            ufunc(x, y, out=out, dtype=c, casting="unsafe")

    def accumulate(self, name: str, x: Any, dtype: DType, **kwargs: Any) -> Any:
        """``compat.<name>(x, dtype=...)`` (``sum``, ``prod``, ``cumulative_sum``, ``linalg.trace``, ...).

        On CuPy a complex ``x`` is cast to a real ``dtype`` first, as NumPy's
        reduction casts each element: CuPy's reduction kernels cannot compile that cast.
        """
        return self.accumulator(name, self.dtype(x), dtype)(x, **kwargs)

    def accumulator(self, name: str, x: DType, dtype: DType) -> Callable[..., Any]:
        """:meth:`accumulate` of ``name`` for arrays of ``x`` into ``dtype``: a function of the array."""
        fn = partial(named(self.compat, name), dtype=self.native_dtype(dtype))
        if self._cupy and x.kind == "c" and dtype.kind != "c":
            return partial(cast_before, self.astype, dtype, fn)  # CuPy's kernels cannot cast complex to real
        return fn

    def caster(self, copy: bool) -> Callable[[Any, Any], Any]:
        """NumPy: the array's own ``astype``, which ``compat.astype`` calls; else ``compat.astype``."""
        if self._numpy:  # NumPy parses a keyword slower than it copies 100 elements: copy=True is its default
            astype: Callable[..., Any] = self.module.ndarray.astype
            return astype if copy else partial(astype, copy=False)
        return super().caster(copy)

    def astype(self, x: Any, dtype: DType) -> Any:
        """``x`` as ``dtype``, without a copy when it already is."""
        return x.astype(self.native_dtype(dtype), copy=False)

    def scalar(self, value: object, dtype: DType, like: Any) -> Any:
        """A 0-d array of ``value`` as ``dtype`` on ``like``'s device."""
        if self._numpy:
            return self.module.asarray(value, dtype=self.native_dtype(dtype))
        with like.device:
            return self._asarray(value, dtype=self.native_dtype(dtype))

    def same_device(self, x: Any, y: Any) -> bool:
        """Whether two arrays live on the same device (always, for NumPy)."""
        return self._numpy or bool(x.device == y.device)

    def to_array(self, x: Any) -> Any:
        """A native result as an array: 0-d ops give NumPy scalars."""
        return x if x.__class__ is self.array_type else self.module.asarray(x)

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """``compat.asarray``."""
        return self.compat.asarray(obj, **kwargs)

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]`` (CuPy's integer array indices are checked first: it wraps them around)."""
        if self._cupy:
            _cupy_gaps.check_index_bounds("getitem", x, key)
        return x[key]

    def setitem(self, x: Any, key: Any, value: Any) -> None:
        """``x[key] = value`` (NumPy checks indices before writing; CuPy's are checked first here).

        ml_dtypes' bfloat16 meets an array value that does not fit one element
        with a TypeError ("expected number"), where NumPy's dtypes raise the
        ValueError of a shape that does not broadcast: that ValueError here too.
        """
        if self._cupy:
            _cupy_gaps.check_index_bounds("setitem", x, key)  # CuPy wraps them around
            if has_negative_zero(value):
                value = self.compat.zero_safe(value, x)  # CuPy fills a scalar zero with a memset: +0.0
        try:
            x[key] = value
        except TypeError as e:
            if "expected number" not in str(e) or not hasattr(value, "shape"):
                raise
            raise ValueError(
                f"setitem: cannot assign a value of shape {tuple(value.shape)} to the selection of shape "
                f"{tuple(x[key].shape)}; the value must broadcast to it"
            ) from None
