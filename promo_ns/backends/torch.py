"""The PyTorch adapter."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import array_api_compat.torch as compat
import numpy
import torch

from promo_ns._dtypes import (
    DTYPES,
    DType,
    bfloat16,
    bool_,
    complex64,
    float16,
    float32,
    native,
    uint8,
    uint16,
    uint32,
    uint64,
)
from promo_ns._ops import NATIVE
from promo_ns.backends import _torch_arguments as arguments
from promo_ns.backends import _torch_index as index
from promo_ns.backends import _torch_kernels as kernels
from promo_ns.backends import _torch_numerics as numerics
from promo_ns.backends import _torch_scalars as scalars
from promo_ns.backends import _torch_unsigned as unsigned
from promo_ns.backends._base import DTypeMaps, KernelErrors, Plan, Values, inplace_result, named
from promo_ns.backends._torch_writable import (
    GradientLeafError,
    InferenceTensorError,
    check_not_a_leaf,
    check_writable,
)
from promo_ns.policies import Role, get_policy

__all__ = ["GradientLeafError", "InferenceTensorError", "TorchBackend", "check_writable"]

#: ops whose torch function takes a Python scalar as its first / second argument.
_SCALAR_FIRST = frozenset(
    (
        *("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow"),
        *("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"),
    )
)
_SCALAR_SECOND = _SCALAR_FIRST | {
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "copysign",
}

#: ops whose reflected operator (``Tensor.__radd__``, ``__rmul__``) calls the function with the scalar second.
_COMMUTATIVE = frozenset(("add", "multiply"))
#: float dtypes torch computes in float32 ("opmath") with a Python scalar kept at its own precision.
_REDUCED = frozenset((float16, bfloat16))
#: dtypes whose ``pow`` checks a Python float exponent against their range (CUDA's float32 and
#: complex64 kernels too: "value cannot be converted to type float without overflow"); an
#: exponent beyond it is an infinity, which gives the same powers.
_CHECKED_EXPONENT = _REDUCED | {float32, complex64}

#: integer ops whose zero divisor torch answers with an error (NumPy with 0): the policy decides.
_DIVISION = frozenset(("floor_divide", "remainder"))
#: the true and floor divisions, which CUDA computes with a scalar divisor's reciprocal.
_DIVIDES = frozenset(("divide", "floor_divide"))
#: (op, compute dtype) torch has no kernel for on any device, nor NumPy: refused up front (torch's
#: ``meta`` raises RuntimeErrors for these where the CPU has no kernel).
_NO_KERNEL = frozenset(
    {("subtract", bool_), ("logaddexp", bool_)} | {("floor_divide", d) for d in DTYPES if d.kind in "bc"}
)
#: torch's words for an ``out=`` it refuses before writing: of a lower kind than the result, or
#: sharing memory with an input (``x[1:] += x[:-1]``); computed into a temporary instead.
_REFUSED_OUT = (
    "can't be cast to the desired output type",
    "can't be cast because it is not safe",  # meta's words
    "and the written-to tensor refer to a single memory location",
)

#: Unsigned dtypes torch can store and cast on the CPU but has few kernels for: computed
#: exactly through the signed dtype of the same size (see :mod:`._torch_unsigned`).
_WIDE_UNSIGNED = frozenset((uint16, uint32, uint64))
#: Reductions whose compat function, over every axis without keywords, is torch's own (``accumulator``).
_WHOLE: dict[str, Callable[..., Any]] = {"sum": torch.sum, "prod": torch.prod}
#: Binary ops torch's CPU computes in uint16/32/64 itself (CUDA does not: ``"mul_cuda" not
#: implemented for 'UInt16'``): its kernel there, the emulation off the CPU where it has none.
_CPU_UNSIGNED_KERNELS = frozenset(
    ("multiply", "equal", "not_equal", "bitwise_and", "bitwise_or", "bitwise_xor")
)


class TorchBackend(DTypeMaps, KernelErrors):
    """PyTorch: TensorIterator casts on the fly where torch's own promotion gives the policy's dtype."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "torch"
        self.module = torch
        self.compat = unsigned.exact_compat(compat)
        self.compat.imag = numerics.imag(compat.imag)  # type: ignore[attr-defined]
        kernels.install(self.compat)
        self.compat.take = arguments.bounds_checked(self.compat.take, default_axis=None)
        self.compat.take_along_axis = arguments.bounds_checked(self.compat.take_along_axis, default_axis=-1)
        self.compat.repeat = arguments.counts_checked(self.compat.repeat)
        self.compat.searchsorted = arguments.sorter_checked(self.compat.searchsorted)
        self.array_type: type = torch.Tensor
        self.native_policy = get_policy("pytorch")
        # The pytorch policy gives complex64 where torch makes complex32, torch
        # refuses bool tensors in subtraction whatever the other operand, has no
        # bool pow kernel (but for the exponents True and False), and its CPU has
        # no kernels for most ops in uint16/32/64 (CUDA for fewer still): those cells go
        # through binary(), which computes them exactly where torch has no kernel.
        self.not_native = frozenset(
            {(None, float16, complex64)}
            | {("subtract", bool_, d) for d in DTYPES if d is not bool_}
            | {("pow", bool_, bool_)}
            | {(op, d, c) for op in NATIVE for d in DTYPES for c in _WIDE_UNSIGNED}
        )
        self._fn: dict[str, Callable[..., Any]] = {op: getattr(torch, n[1]) for op, n in NATIVE.items()}
        #: (op, compute dtype) of ``x op= y`` computed into a temporary: they compute in steps, or
        #: can fail after writing part of an ``out=`` (see :meth:`inplace`).
        self._temporary = frozenset(
            {(op, d) for op in (*_DIVISION, "pow") for d in DTYPES if d.kind in "biu"}
            | {("pow", d) for d in DTYPES if d.kind == "c"}
            | {(op, d) for op in numerics.COMPLEX_ORDER for d in DTYPES if d.kind == "c"}
            | _NO_KERNEL
        )
        #: (device type, op, compute dtype) where torch has no kernel: the CPU's known, others found in use.
        self._missing: set[tuple[str, str, DType]] = {
            ("cpu", op, c) for op in NATIVE if op not in _CPU_UNSIGNED_KERNELS for c in _WIDE_UNSIGNED
        }

    def _operands(self, op: str, x: Any, y: Any, plan: Plan) -> tuple[Any, Any]:
        """Tensors in the compute dtype, Python scalars as the torch function takes them.

        A tensor is cast unless torch computes in that dtype already.  Where the
        function takes no scalar, the scalar becomes a 0-d tensor of the compute
        dtype on the other operand's device, and that operand is cast too.
        """
        c = self.native_dtype(plan.compute)
        if op == "subtract":  # torch refuses bools in subtraction, Python bools too
            x, y = (int(v) if v.__class__ is bool else v for v in (x, y))
        if plan.compute in _REDUCED and not plan.direct:  # torch's mul/div would keep a float unrounded
            x, y = (_rounded(v, plan.compute, c) if v.__class__ is float else v for v in (x, y))
        elif op == "pow" and plan.compute in _CHECKED_EXPONENT and y.__class__ is float:
            y = numerics.in_range(y, c)
        if not isinstance(x, torch.Tensor):
            if op in _SCALAR_FIRST:
                return (x, y) if plan.direct else (x, y.to(c))
            return numerics.scalar_tensor(x, c, y.device), y.to(c)
        if not isinstance(y, torch.Tensor):
            if op in _SCALAR_SECOND:
                return (x, y) if plan.direct else (x.to(c), y)
            return x.to(c), numerics.scalar_tensor(y, c, x.device)
        return (x, y) if plan.direct else (x.to(c), y.to(c))

    def kernel(
        self, op: str, x: DType | Role, y: DType | Role, compute: DType, result: DType, *, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """The torch function, unless it takes no Python scalar in that place (or a bool to subtract).

        TensorIterator casts mixed operands on the fly, in one kernel.  A
        Python scalar before a tensor in ``add`` and ``multiply`` goes second,
        as in ``Tensor.__radd__``/``__rmul__`` (``mul`` computes a float16
        tensor with a second, scalar operand in float32, the scalar unrounded).
        Where torch's outcome is not the policy's (or, beyond ``values``,
        NumPy's), the function gives it (see :meth:`_valued`).
        """
        if (isinstance(x, Role) and op not in _SCALAR_FIRST) or (
            isinstance(y, Role) and op not in _SCALAR_SECOND
        ):
            return None
        if (op == "subtract" and Role.BOOL in (x, y)) or (op, compute) in _NO_KERNEL:
            return None
        fn = self._fn.get(op)
        if fn is None:
            return None
        scalar = isinstance(x, Role) or isinstance(y, Role)
        if _read_otherwise(op, compute) and (scalar or (x, y) != (compute, compute)):  # a scalar, a lower 0-d
            # off the CPU, torch reads a scalar (a lower 0-d tensor) its own way
            fn = self._as_on_cpu(op, fn, compute, scalar_first=isinstance(x, Role), direct=True)
        if isinstance(x, Role) and op in _COMMUTATIVE:
            return partial(_scalar_second, fn)
        if op == "pow" and y is Role.FLOAT and compute in _CHECKED_EXPONENT:
            return partial(_float_power, fn, self.native_dtype(compute))
        return self._valued(op, compute, fn, values)

    def _valued(
        self, op: str, compute: DType, fn: Callable[[Any, Any], Any], values: Values
    ) -> Callable[[Any, Any], Any]:
        """``fn`` computing ``op`` in ``compute``: the policy's ``values``, and NumPy's outcome elsewhere.

        Integer ``//`` and ``%`` by zero give 0 or raise, integer powers refuse
        or compute negative exponents, a floating ``%`` of 0 takes the sign
        ``values`` says (torch's: the dividend's); complex orderings
        order as NumPy does and complex ``x ** 0`` is 1 (see :mod:`._torch_numerics`).
        """
        kind = compute.kind
        if kind == "c" and op in numerics.COMPLEX_ORDER:
            return numerics.complex_order(op, self.native_dtype(compute))
        if op == "pow" and kind == "c":
            return numerics.unit_power(fn)
        if op == "pow" and kind == "i":
            if values.negative_powers == "compute":
                return partial(numerics.negative_powers, fn)
            return partial(_integer_power, fn)
        if op in _DIVISION and kind in "iu":
            return numerics.divisor_rule(op, fn, values.zero_divisor)
        if op == "remainder" and kind == "f" and values.zero_remainder == "divisor":
            return partial(numerics.divisor_signed, fn)
        return fn

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``, with the policy's outcome where torch's differs.

        uint16/32/64 compute dtypes: see :meth:`_unsigned`; the rest: see :meth:`_valued`.

        Raises
        ------
        TypeError
            A bool subtraction or ``logaddexp``, a bool or complex floor
            division: torch (on every device), as NumPy, has no kernel for them.
        """
        compute = plan.compute
        if compute is bool_ and op == "pow":  # no kernel: 0 and 1 to powers of 0 and 1 in uint8
            return self.binary(op, x, y, plan._replace(compute=uint8)).to(torch.bool)
        if (op, compute) in _NO_KERNEL:
            logical = "use xp.logical_xor(x1, x2), or " if op == "subtract" else ""
            raise TypeError(
                f"torch has no {op!r} kernel for {compute} (NumPy has none either), the dtype the policy "
                f"computes this {op!r} in; {logical}cast the operands to another dtype first."
            )
        if compute in _WIDE_UNSIGNED:
            out = self._unsigned(op, x, y, plan)
            if out is not None:
                return out
        x, y = self._operands(op, x, y, plan)
        fn = self._valued(op, compute, self._fn[op], plan.values)
        if _read_otherwise(op, compute) and not (_is_array(x) and _is_array(y)):
            fn = self._as_on_cpu(
                op, fn, compute, scalar_first=not isinstance(x, torch.Tensor), direct=plan.direct
            )
        out = fn(x, y)
        return out if plan.rounded is None else out.to(self.native_dtype(plan.rounded))

    def _as_on_cpu(
        self, op: str, fn: Callable[[Any, Any], Any], compute: DType, *, scalar_first: bool, direct: bool
    ) -> Callable[[Any, Any], Any]:
        """``fn`` giving the policy's bits off the CPU (see :mod:`._torch_scalars`).

        A direct cell follows torch's own rule for its form (``float32_opmath``
        or the scalar rounded first); the others' scalars are rounded already.
        """
        form = scalars.form(op, scalar_first=scalar_first)
        opmath = (
            direct and compute in _REDUCED and self.native_policy.float_scalars.get(form) == "float32_opmath"
        )
        return scalars.as_on_cpu(op, fn, self.native_dtype(compute), opmath=opmath)

    def inplace_kernel(self, op: str, compute: DType, values: Values) -> Callable[..., Any] | None:
        """Torch's in-place method (``x.add_(y)``) where :meth:`inplace` computes straight into ``x``.

        Torch checks the shapes, dtypes and devices before it writes, except
        that it writes an inference tensor before refusing it: that one takes
        the full path.  Not where :meth:`inplace` computes into a temporary
        (see there), nor for a function giving the policy's values
        (:meth:`_valued`).  For ``setitem``, ``x[mask] = scalar``
        (:func:`_torch_index.mask_store`).
        """
        if op == "setitem":
            return index.mask_store
        fn = self._fn.get(op)
        if fn is None or self._in_temporary(op, compute, values):
            return None
        if self._valued(op, compute, fn, values) is not fn:
            return None
        method = getattr(torch.Tensor, f"{NATIVE[op][1]}_", None)  # maximum has none
        return None if method is None else _in_place(method)

    def _in_temporary(self, op: str, compute: DType, values: Values) -> bool:
        """Whether ``x op= y`` computes into a temporary whatever ``y`` is (see :meth:`inplace`)."""
        return (
            (op, compute) in self._temporary
            or compute in _WIDE_UNSIGNED
            or (op == "remainder" and values.zero_remainder == "divisor" and compute.kind == "f")
        )

    def inplace(self, op: str, x: Any, y: Any, plan: Plan) -> None:
        """``x op= y`` computed in ``plan.compute`` and stored into ``x``; ``x`` is untouched if it raises.

        A ``y`` that broadcasts ``x`` to another shape raises first.  Where the
        op cannot fail once started, torch computes straight into ``x``
        (``out=x``, casting into its dtype); ops that can (or that compute in
        steps: integer division, powers, uint16/32/64, complex orderings, a
        floating ``%`` whose zeros take the divisor's sign) compute into a
        temporary, written into ``x`` once it succeeded, as do ops autograd
        records (``x`` or ``y`` requiring its gradient), which ``out=`` refuses.
        """
        check_writable(f"in-place {op!r}", x)
        check_not_a_leaf(f"in-place {op!r}", x)
        if isinstance(y, torch.Tensor) and y.shape != x.shape and y.ndim:  # a 0-d y always fits
            self._check_fits(op, x, y, plan)
        if isinstance(y, torch.Tensor) and (_differentiated(x, y) if y is x else _shared(x, y)):
            # torch reads a y sharing x's memory as it writes x, NumPy reads it first; autograd keeps
            # the y of x *= x, which the store would change
            y = y.clone()
        if _differentiated(x, y):  # from a copy of x, which autograd may keep for the gradient (x **= y)
            _store(op, x, inplace_result(self, op, x.clone(), y, plan))
            return
        if self._in_temporary(op, plan.compute, plan.values) or (
            _read_otherwise(op, plan.compute) and _scalar_like(y) and scalars.off_cpu(x, y)
        ):
            _store(op, x, inplace_result(self, op, x, y, plan))
            return
        a, b = self._operands(op, x, y, plan)
        try:
            self._fn[op](a, b, out=x)
        except RuntimeError as e:  # refused before writing: an out= of a lower kind, or sharing memory with y
            if index.SELF_OVERLAP in str(e):
                raise index.shared_memory_error(f"in-place {op!r}", x) from e
            if not any(words in str(e) for words in _REFUSED_OUT):
                raise
            _store(op, x, inplace_result(self, op, x, y, plan))

    def _check_fits(self, op: str, x: Any, y: Any, plan: Plan) -> None:
        """Raise NumPy's ValueError unless ``x op y`` has ``x``'s shape; the op's own errors first.

        NumPy resolves the loop before it broadcasts: a ``y`` that does not fit
        raises the TypeError of a missing kernel first (found here on one
        element of each operand's dtype).  A ``y`` that broadcasts ``x`` to a
        larger shape is computed (into a temporary, as NumPy's in-place ops
        that can fail are), so a zero divisor or a negative power raises first.
        """
        try:
            shape: tuple[int, ...] | None = numpy.broadcast_shapes(tuple(x.shape), tuple(y.shape))
        except ValueError:
            shape = None
        if shape == tuple(x.shape):
            return
        if shape is None:  # one element of each: the kernel's dtype errors
            x1, y1 = (torch.ones((1,) * min(v.ndim, 1), dtype=v.dtype, device=v.device) for v in (x, y))
            self.binary(op, x1, y1, plan)
        else:
            self.binary(op, x, y, plan)
        if shape is None:
            raise ValueError(
                f"in-place {op!r}: operands could not be broadcast together with shapes {tuple(x.shape)} "
                f"and {tuple(y.shape)}"
            )
        raise ValueError(
            f"in-place {op!r}: non-broadcastable output operand with shape {tuple(x.shape)} doesn't match "
            f"the broadcast shape {shape} (with an operand of shape {tuple(y.shape)}); x op= y keeps x's "
            f"shape: write x = xp.{op}(x, y) for the broadcast result."
        )

    def _unsigned(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` in uint16/32/64, exactly; None on ``meta``, where the caller runs torch's kernel.

        Torch's kernel runs where the device has one (the CPU's are known,
        other devices' found on first use; ``meta`` has every kernel, it
        computes dtypes only); elsewhere the signed dtype of the same size
        computes it (see :mod:`._torch_unsigned`).

        Raises
        ------
        TypeError
            ``op`` has no exact method in that dtype (true division and the
            float functions give no unsigned result), on every device but ``meta``.
        """
        device = (x if isinstance(x, torch.Tensor) else y).device
        kind = device.type
        if kind == "meta":
            return None
        if op not in unsigned.EMULATED:
            raise unsigned.no_exact_method(
                op, plan.compute, device, f"its result is not a {plan.compute} of the operands' values"
            )
        dtype = self.native_dtype(plan.compute)
        rule = plan.values.zero_divisor
        divide = partial(numerics.divisor_rule, op, rule=rule) if op in _DIVISION else _plain
        if (kind, op, plan.compute) not in self._missing:
            try:
                return divide(self._fn[op])(*self._operands(op, x, y, plan))
            except NotImplementedError:
                self._missing.add((kind, op, plan.compute))
            except (RuntimeError, ValueError):  # a Python int past int64: computed below
                pass
        return divide(partial(_emulated, op, dtype))(x, y)

    def accumulate(self, name: str, x: Any, dtype: DType, **kwargs: Any) -> Any:
        """``compat.<name>(x, dtype=...)``; uint16/32/64 where torch has no kernel accumulate in int64.

        A bool cumulative sum (product) is NumPy's logical or (and) along the axis.

        torch's CPU has no kernels for those dtypes (other devices are tried
        first); sums and products are ring operations, so int64 arithmetic
        (mod 2**64) then a cast gives the exact unsigned result.
        """
        fn = named(compat, name)
        if dtype is bool_ and name.startswith("cumulative_"):
            # torch has no bool cumsum/cumprod kernels: NumPy's logical or/and as 0/1 counts in int64
            return fn(x.to(torch.bool), dtype=torch.int64, **kwargs) != 0
        if dtype in _WIDE_UNSIGNED and x.device.type != "meta":
            if x.device.type != "cpu":
                try:
                    return fn(x, dtype=self.native_dtype(dtype), **kwargs)
                except NotImplementedError:
                    pass
            return fn(x, dtype=torch.int64, **kwargs).to(self.native_dtype(dtype))
        return fn(x, dtype=self.native_dtype(dtype), **kwargs)

    def accumulator(self, name: str, x: DType, dtype: DType) -> Callable[..., Any]:
        """:meth:`accumulate` of ``name`` for arrays of ``x`` into ``dtype``: a function of the array."""
        if dtype in _WIDE_UNSIGNED or (dtype is bool_ and name.startswith("cumulative_")):
            return partial(self.accumulate, name, dtype=dtype)
        if name in _WHOLE:  # over every axis, compat's function is torch's, less its frames
            return partial(_WHOLE[name], dtype=self.native_dtype(dtype))
        return partial(named(compat, name), dtype=self.native_dtype(dtype))

    def astype(self, x: Any, dtype: DType) -> Any:
        """``x`` as ``dtype``, without a copy when it already is (float64 into float16: rounded once)."""
        return numerics.to(x, self.native_dtype(dtype))

    def scalar(self, value: Any, dtype: DType, like: Any) -> Any:
        """A 0-d tensor of ``value`` as ``dtype`` on ``like``'s device (a float past its range: infinite)."""
        return numerics.scalar_tensor(value, self.native_dtype(dtype), like.device)

    def same_device(self, x: Any, y: Any) -> bool:
        """Whether two tensors live on the same device (the CPU is one)."""
        return (x.is_cpu and y.is_cpu) or x.device == y.device  # type: ignore[no-any-return]

    def to_array(self, x: Any) -> Any:
        """Torch results are tensors already."""
        return x

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """``compat.asarray``; a NumPy array torch cannot share (read-only, negative strides) is copied.

        See :func:`._torch_kernels.shareable` (with ``copy=False``, a ValueError).

        Python data for the ``meta`` device is made on the CPU first: ``meta``
        checks no value (an int beyond the dtype would pass silently).  A
        Python float or complex number with a ``dtype`` is converted as NumPy
        converts it (see :func:`._torch_kernels.numpy_fill`).
        """
        obj = kernels.shareable(obj, kwargs.get("copy"), "asarray")
        if type(obj).__module__ in ("numpy", "ml_dtypes") and str(getattr(obj, "dtype", "")) == "bfloat16":
            # torch reads no ml_dtypes bfloat16: the same bits, through uint16
            data = numpy.asarray(obj)  # ascontiguousarray alone makes a 0-d array 1-d
            bits = numpy.ascontiguousarray(data).view(numpy.uint16).reshape(data.shape)
            obj = torch.from_numpy(bits).view(torch.bfloat16)
        dtype = kwargs.get("dtype")
        if dtype is not None and obj.__class__ in (float, complex):  # NumPy's cast, or its OverflowError
            obj = kernels.numpy_fill(obj, dtype, data=True)
        device = kwargs.get("device")
        if device is not None and torch.device(device).type == "meta" and isinstance(obj, (list, tuple, int)):
            return compat.asarray(obj, **{**kwargs, "device": "cpu"}).to(device)
        if isinstance(obj, torch.Tensor):  # its own requires_grad, said (torch warns where it is not)
            kwargs.setdefault("requires_grad", obj.requires_grad)
        if dtype == torch.float16 and (
            obj.__class__ in (list, tuple) or str(getattr(obj, "dtype", "")) in ("float64", "torch.float64")
        ):  # doubles rounded once, as NumPy rounds them (torch rounds them through float32)
            return numerics.to(compat.asarray(obj, **{**kwargs, "dtype": torch.float64}), dtype)
        return compat.asarray(obj, **kwargs)

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]``, the key read as NumPy reads it (see :mod:`._torch_index`)."""
        return index.getitem(x, key)

    def setitem(self, x: Any, key: Any, value: Any) -> None:
        """``x[key] = value``, every key part checked first: ``x`` is left untouched if it raises."""
        check_writable("setitem", x)
        check_not_a_leaf("setitem", x)
        index.setitem(x, key, value)


def _rounded(value: float, dtype: DType, torch_dtype: torch.dtype) -> float:
    """Python float ``value`` rounded to ``dtype`` as NumPy rounds it, the reference of rounding it first.

    NumPy rounds to float16 once, torch through float32; both round to
    bfloat16 through float32.  A value beyond the range is rounded first
    (``torch_dtype``: ``dtype``'s), which NumPy would warn of.
    """
    return float(numpy.asarray(numerics.in_range(value, torch_dtype), dtype=native(dtype, numpy)))


def _plain(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``fn`` as it is (an op with no zero divisor to mind)."""
    return fn


def _emulated(op: str, dtype: torch.dtype, x: Any, y: Any) -> Any:
    """``op(x, y)`` computed exactly in unsigned ``dtype`` with signed kernels."""
    return unsigned.binary(op, x, y, dtype)


def _integer_power(fn: Callable[[Any, Any], Any], x: Any, y: Any) -> Any:
    """``fn(x, y)``, an integer power, refusing a negative exponent (``negative_powers="raise"``)."""
    numerics.check_exponent(y)
    return fn(x, y)


def _float_power(fn: Callable[[Any, Any], Any], dtype: torch.dtype, x: Any, y: float) -> Any:
    """``fn(x, y)``, a Python float exponent beyond float ``dtype``'s range rounded as a cast rounds it."""
    return fn(x, numerics.in_range(y, dtype))


def _store(op: str, x: Any, out: Any) -> None:
    """Write the result ``out`` of ``x op= y`` into ``x`` (its real part into a real ``x``, as a cast)."""
    try:
        x.copy_(numerics.cast(out, x.dtype))
    except RuntimeError as e:
        if index.SELF_OVERLAP not in str(e):
            raise
        raise index.shared_memory_error(f"in-place {op!r}", x) from e


def _is_array(x: Any) -> bool:
    """Whether operand ``x`` is a tensor of one or more dimensions."""
    return isinstance(x, torch.Tensor) and x.ndim > 0


def _in_place(method: Callable[[Any, Any], Any]) -> Callable[[Any, Any], None]:
    """``method(x, y)``, torch's in-place method, for what torch checks: a ValueError, writing nothing, else.

    Torch writes an inference tensor before refusing it, takes a ``y`` on the
    meta device for a CPU ``x`` (writing nothing), on the meta device checks
    no shapes of some methods (``floor_divide_``), and computes views of one
    tensor element by element (``b[2::2] += b[:-2:2]`` reads elements it has
    written): those take the full path, as does ``x op= x`` (autograd keeps
    its ``y``).  Tensors sharing memory without being views of one tensor
    (``torch.from_numpy`` of two overlapping NumPy views) are not seen here.
    """

    def run(x: Any, y: Any) -> None:
        if x.is_inference() or x.is_meta or y.is_meta or y is x or y._base is not None or x._base is y:
            raise ValueError("an inference tensor, the meta device or views: the full path checks them")
        method(x, y)

    return run


def _shared(x: Any, y: Any) -> bool:
    """Whether tensors ``x`` and ``y`` may share memory; a sparse one shares none.

    Plain tensors: whether their storages' memory overlaps (views of one
    tensor, or of one NumPy array); a subclass (FakeTensor, whose data
    pointer is not to be read): whether they view one storage.
    """
    if x.layout is not torch.strided or y.layout is not torch.strided:
        return False
    if x.__class__ is not torch.Tensor or y.__class__ is not torch.Tensor:
        return bool(torch._C._is_alias_of(x, y))  # type: ignore[attr-defined]
    sx, sy = x.untyped_storage(), y.untyped_storage()
    start_x, start_y = sx.data_ptr(), sy.data_ptr()
    return bool(start_x < start_y + sy.nbytes() and start_y < start_x + sx.nbytes())


def _differentiated(x: Any, y: Any) -> bool:
    """Whether autograd records ``x op= y``, which torch's ``out=`` refuses: it computes into a temporary."""
    return torch.is_grad_enabled() and (x.requires_grad or (isinstance(y, torch.Tensor) and y.requires_grad))


def _read_otherwise(op: str, compute: DType) -> bool:
    """Whether CUDA's ``op`` in ``compute`` reads a scalar operand otherwise than the policies' rules."""
    return op in scalars.OPS and (compute in _REDUCED or (compute.kind == "f" and op in _DIVIDES))


def _scalar_like(y: Any) -> bool:
    """Whether operand ``y`` is a Python scalar or a 0-d tensor (read otherwise off the CPU)."""
    return not isinstance(y, torch.Tensor) or y.ndim == 0


def _scalar_second(fn: Callable[[Any, Any], Any], scalar: Any, tensor: Any) -> Any:
    """``fn(tensor, scalar)``: a reflected ``scalar op tensor`` as torch's operator computes it."""
    return fn(tensor, scalar)
