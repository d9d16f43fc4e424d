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
    native,
    uint8,
    uint16,
    uint32,
    uint64,
)
from promo_ns._ops import NATIVE
from promo_ns.backends import _torch_unsigned as unsigned
from promo_ns.backends._base import DTypeMaps, Plan
from promo_ns.policies import Role, get_policy

__all__ = ["TorchBackend"]

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

#: Unsigned dtypes torch can store and cast on the CPU but has few kernels for: computed
#: exactly through the signed dtype of the same size (see :mod:`._torch_unsigned`).
_WIDE_UNSIGNED = frozenset((uint16, uint32, uint64))
#: Binary ops torch's CPU computes in uint16/32/64 itself: their same-dtype cells stay direct.
_CPU_UNSIGNED_KERNELS = frozenset(
    ("multiply", "equal", "not_equal", "bitwise_and", "bitwise_or", "bitwise_xor")
)


class TorchBackend(DTypeMaps):
    """PyTorch: TensorIterator casts on the fly where torch's own promotion gives the policy's dtype."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "torch"
        self.module = torch
        self.compat = unsigned.exact_compat(compat)
        self.array_type: type = torch.Tensor
        self.native_policy = get_policy("pytorch")
        # The pytorch policy gives complex64 where torch makes complex32, torch
        # refuses bool tensors in subtraction whatever the other operand, has no
        # bool pow kernel (but for the exponents True and False), and its CPU has
        # no kernels for most ops in uint16/32/64: those cells go through binary(),
        # which computes them exactly (on the CPU) or natively (meta).
        self.not_native = frozenset(
            {(None, float16, complex64)}
            | {("subtract", bool_, d) for d in DTYPES if d is not bool_}
            | {("pow", bool_, bool_)}
            | {
                (op, d, c)
                for op in NATIVE
                if op not in _CPU_UNSIGNED_KERNELS
                for d in DTYPES
                for c in _WIDE_UNSIGNED
            }
        )
        self._fn = {op: getattr(torch, names[1]) for op, names in NATIVE.items()}
        #: (device type, op, compute dtype) where torch has no kernel off the CPU (found on first use).
        self._missing: set[tuple[str, str, DType]] = set()

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
            x, y = (_rounded(v, plan.compute) if v.__class__ is float else v for v in (x, y))
        if not isinstance(x, torch.Tensor):
            if op in _SCALAR_FIRST:
                return (x, y) if plan.direct else (x, y.to(c))
            return torch.scalar_tensor(x, dtype=c, device=y.device), y.to(c)
        if not isinstance(y, torch.Tensor):
            if op in _SCALAR_SECOND:
                return (x, y) if plan.direct else (x.to(c), y)
            return x.to(c), torch.scalar_tensor(y, dtype=c, device=x.device)
        return (x, y) if plan.direct else (x.to(c), y.to(c))

    def kernel(
        self, op: str, x: DType | Role, y: DType | Role, compute: DType, result: DType
    ) -> Callable[[Any, Any], Any] | None:
        """The torch function, unless it takes no Python scalar in that place (or a bool to subtract).

        TensorIterator casts mixed operands on the fly, in one kernel.  A
        Python scalar before a tensor in ``add`` and ``multiply`` goes second,
        as in ``Tensor.__radd__``/``__rmul__`` (``mul`` computes a float16
        tensor with a second, scalar operand in float32, the scalar unrounded).
        """
        if (isinstance(x, Role) and op not in _SCALAR_FIRST) or (
            isinstance(y, Role) and op not in _SCALAR_SECOND
        ):
            return None
        if op == "subtract" and Role.BOOL in (x, y):
            return None
        fn = self._fn.get(op)
        if fn is not None and isinstance(x, Role) and op in _COMMUTATIVE:
            return partial(_scalar_second, fn)
        return fn

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``.

        uint16/32/64 compute dtypes: see :meth:`_unsigned`.
        """
        if op == "pow" and plan.compute is bool_:  # no kernel: 0 and 1 to powers of 0 and 1 in uint8
            return self.binary(op, x, y, plan._replace(compute=uint8)).to(torch.bool)
        if plan.compute in _WIDE_UNSIGNED:
            out = self._unsigned(op, x, y, plan)
            if out is not None:
                return out
        x, y = self._operands(op, x, y, plan)
        out = self._fn[op](x, y)
        return out if plan.rounded is None else out.to(self.native_dtype(plan.rounded))

    def inplace(self, op: str, x: Any, y: Any, plan: Plan) -> None:
        """``x op= y`` computed in ``plan.compute``; torch casts the result into ``x``'s dtype."""
        if op == "pow" and plan.compute is bool_:
            x.copy_(self.binary(op, x, y, plan))
            return
        if plan.compute in _WIDE_UNSIGNED:
            out = self._unsigned(op, x, y, plan)
            if out is not None:
                x.copy_(out)
                return
        a, b = self._operands(op, x, y, plan)
        self._fn[op](a, b, out=x)

    def _unsigned(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` in uint16/32/64 where torch has no kernel, exactly; None where it has one.

        The CPU computes through the signed dtype of the same size (see
        :mod:`._torch_unsigned`); ``meta`` has every kernel (it computes dtypes
        only); other devices run torch's kernel where it exists, found on first use.

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
        if kind != "cpu" and (kind, op, plan.compute) not in self._missing:
            try:
                a, b = self._operands(op, x, y, plan)
                return self._fn[op](a, b)
            except NotImplementedError:
                self._missing.add((kind, op, plan.compute))
            except (RuntimeError, ValueError):  # a Python int past int64: computed below
                pass
        return unsigned.binary(op, x, y, self.native_dtype(plan.compute))

    def accumulate(self, name: str, x: Any, dtype: DType, **kwargs: Any) -> Any:
        """``compat.<name>(x, dtype=...)``; uint16/32/64 where torch has no kernel accumulate in int64.

        torch's CPU has no kernels for those dtypes (other devices are tried
        first); sums and products are ring operations, so int64 arithmetic
        (mod 2**64) then a cast gives the exact unsigned result.
        """
        owner, _, fname = name.rpartition(".")
        fn = getattr(getattr(compat, owner) if owner else compat, fname)
        if dtype in _WIDE_UNSIGNED and x.device.type != "meta":
            if x.device.type != "cpu":
                try:
                    return fn(x, dtype=self.native_dtype(dtype), **kwargs)
                except NotImplementedError:
                    pass
            return fn(x, dtype=torch.int64, **kwargs).to(self.native_dtype(dtype))
        return fn(x, dtype=self.native_dtype(dtype), **kwargs)

    def astype(self, x: Any, dtype: DType) -> Any:
        """``x`` as ``dtype``, without a copy when it already is."""
        return x.to(self.native_dtype(dtype))

    def scalar(self, value: Any, dtype: DType, like: Any) -> Any:
        """A 0-d tensor of ``value`` as ``dtype`` on ``like``'s device."""
        return torch.scalar_tensor(value, dtype=self.native_dtype(dtype), device=like.device)

    def same_device(self, x: Any, y: Any) -> bool:
        """Whether two tensors live on the same device."""
        return bool(x.device == y.device)

    def to_array(self, x: Any) -> Any:
        """Torch results are tensors already."""
        return x

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """``compat.asarray``; NumPy input with negative strides is copied first (torch takes none).

        Python data for the ``meta`` device is made on the CPU first: ``meta``
        checks no value (an int beyond the dtype would pass silently).
        """
        if type(obj).__module__ == "numpy" and any(s < 0 for s in getattr(obj, "strides", ())):
            obj = numpy.ascontiguousarray(obj)
        device = kwargs.get("device")
        if device is not None and torch.device(device).type == "meta" and isinstance(obj, (list, tuple, int)):
            return compat.asarray(obj, **{**kwargs, "device": "cpu"}).to(device)
        return compat.asarray(obj, **kwargs)

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]``; slices with negative steps through ``flip`` (torch has no negative strides)."""
        reversed_dims, key = _positive_steps(x, key)
        return (unsigned.flip(x, reversed_dims) if reversed_dims else x)[key]

    def setitem(self, x: Any, key: Any, value: Any) -> None:
        """``x[key] = value``, leaving ``x`` untouched if it raises.

        Integer index tensors on the CPU are bounds-checked before writing (torch
        writes the elements before a bad index, then raises).  Negative-step
        slices write through the positive-step slice of the same elements, the
        value reversed along those axes.  uint16/32/64 write through their signed
        bits where torch has no kernel (``index_put`` on the CPU).
        """
        if value.__class__ is int and value > _INT64_MAX and x.dtype == torch.uint64:
            value = torch.scalar_tensor(value, dtype=x.dtype, device=x.device)
        keys = key if isinstance(key, tuple) else (key,)
        for k in keys:
            index = isinstance(k, torch.Tensor) and not (k.dtype.is_floating_point or k.dtype == torch.bool)
            if index and k.device.type == "cpu":  # a bool mask selects: no bounds to check
                _check_bounds(x, keys, k)
        reversed_dims, positive = _positive_steps(x, key)
        if not reversed_dims:
            try:
                _assign(x, key, value)
            except RuntimeError as e:  # torch's shape errors, raised before writing
                shape = tuple(value.shape) if isinstance(value, torch.Tensor) else ()
                raise ValueError(
                    f"cannot assign a value of shape {shape} to the selection of shape "
                    f"{tuple(x[key].shape)}: {e}"
                ) from e
            return
        target = unsigned.flip(x, reversed_dims)[positive]  # a copy: only its shape is used
        result_dims = _result_dims(x.ndim, keys, reversed_dims)
        if isinstance(value, torch.Tensor):
            value = unsigned.flip(value.broadcast_to(target.shape), result_dims)
        _assign(x, _flip_key(x, key), value)


_INT64_MAX = 2**63 - 1


def _rounded(value: float, dtype: DType) -> float:
    """Python float ``value`` rounded to ``dtype`` as NumPy rounds it, the reference of rounding it first.

    NumPy rounds to float16 once, torch through float32; both round to
    bfloat16 through float32.
    """
    return float(numpy.asarray(value, dtype=native(dtype, numpy)))


def _scalar_second(fn: Callable[[Any, Any], Any], scalar: Any, tensor: Any) -> Any:
    """``fn(tensor, scalar)``: a reflected ``scalar op tensor`` as torch's operator computes it."""
    return fn(tensor, scalar)


def _assign(x: Any, key: Any, value: Any) -> None:
    """``x[key] = value``; uint16/32/64 through their signed bits where torch has no kernel."""
    try:
        x[key] = value
    except NotImplementedError:
        if x.dtype not in unsigned.SIGNED:
            raise
        x.view(unsigned.SIGNED[x.dtype])[key] = unsigned.setitem_value(x, value)


def _expanded(ndim: int, keys: tuple[Any, ...]) -> list[Any]:
    """``keys`` with the Ellipsis written out as full slices (one per axis it stands for)."""
    consumed = sum(1 for k in keys if k is not None and k is not Ellipsis and not _is_bool_tensor(k)) + sum(
        k.ndim for k in keys if _is_bool_tensor(k)
    )
    out: list[Any] = []
    for k in keys:
        if k is Ellipsis:
            out += [slice(None)] * (ndim - consumed)
        else:
            out.append(k)
    return out


def _is_bool_tensor(k: Any) -> bool:
    return isinstance(k, torch.Tensor) and k.dtype == torch.bool


def _negative_slices(x: Any, key: Any) -> list[tuple[int, int, slice]]:
    """``(position in the expanded key, axis of x, slice)`` of every slice with a negative step."""
    keys = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in keys):
        return []
    out = []
    axis = 0
    for i, k in enumerate(_expanded(x.ndim, keys)):
        if k is None:
            continue
        if isinstance(k, slice) and k.step is not None and k.step < 0:
            out.append((i, axis, k))
        axis += k.ndim if _is_bool_tensor(k) else 1
    return out


def _positive_steps(x: Any, key: Any) -> tuple[tuple[int, ...], Any]:
    """The axes to flip and the key that selects, on the flipped array, what ``key`` selects on ``x``."""
    found = _negative_slices(x, key)
    if not found:
        return (), key
    keys = _expanded(x.ndim, key if isinstance(key, tuple) else (key,))
    for i, axis, k in found:
        n = int(x.shape[axis])
        start, stop, step = k.indices(n)
        count = len(range(start, stop, step))
        first = n - 1 - start
        keys[i] = slice(first, first + count * -step, -step) if count else slice(0, 0)
    return tuple(axis for _, axis, _ in found), tuple(keys)


def _flip_key(x: Any, key: Any) -> tuple[Any, ...]:
    """The key with positive steps selecting on ``x`` itself the elements a negative-step ``key`` selects."""
    keys = _expanded(x.ndim, key if isinstance(key, tuple) else (key,))
    for i, axis, k in _negative_slices(x, key):
        start, stop, step = k.indices(int(x.shape[axis]))
        picked = range(start, stop, step)
        keys[i] = slice(picked[-1], picked[0] + 1, -step) if picked else slice(0, 0)
    return tuple(keys)


def _result_dims(ndim: int, keys: tuple[Any, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """The dimensions of ``x[keys]`` that the given axes of ``x`` (sliced, not indexed) become."""
    if any(isinstance(k, torch.Tensor) for k in keys):
        raise IndexError(
            "promo_ns cannot assign through a negative-step slice combined with an index array on torch; "
            "write the slice with a positive step, or index with an array alone"
        )
    out, axis, dim = [], 0, 0
    for k in _expanded(ndim, keys):
        if k is None:
            dim += 1
            continue
        if isinstance(k, slice):
            if axis in axes:
                out.append(dim)
            dim += 1
        axis += 1
    return tuple(out)


def _check_bounds(x: Any, keys: tuple[Any, ...], index: Any) -> None:
    """Raise IndexError, naming the index and the axis, for an integer index tensor out of ``x``'s bounds."""
    axis = 0
    for k in _expanded(x.ndim, keys):
        if k is index:
            break
        if k is not None:
            axis += k.ndim if _is_bool_tensor(k) else 1
    if axis >= x.ndim or index.numel() == 0:
        return
    n = int(x.shape[axis])
    bad = index[(index >= n) | (index < -n)]
    if bad.numel():
        raise IndexError(
            f"index {int(bad[0])} is out of bounds for axis {axis} with size {n}; nothing was written"
        )
