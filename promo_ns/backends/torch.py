"""The PyTorch adapter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import array_api_compat.torch as compat
import torch

from promo_ns._dtypes import DTYPES, DType, bool_, complex64, float16
from promo_ns._ops import NATIVE
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

#: Unsigned dtypes torch can store and cast on the CPU but not compute with.
_NO_CPU_KERNELS = frozenset(("uint16", "uint32", "uint64"))


class TorchBackend(DTypeMaps):
    """PyTorch: TensorIterator casts on the fly where torch's own promotion gives the policy's dtype."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "torch"
        self.module = torch
        self.compat = compat
        self.array_type: type = torch.Tensor
        self.native_policy = get_policy("pytorch")
        # The pytorch policy gives complex64 where torch makes complex32, and
        # torch refuses bool tensors in subtraction whatever the other operand.
        self.not_native = frozenset(
            {(None, float16, complex64)} | {("subtract", bool_, d) for d in DTYPES if d is not bool_}
        )
        self._fn = {op: getattr(torch, names[1]) for op, names in NATIVE.items()}

    def _operands(self, op: str, x: Any, y: Any, plan: Plan) -> tuple[Any, Any]:
        """Tensors in the compute dtype, Python scalars as the torch function takes them.

        A tensor is cast unless torch computes in that dtype already.  Where the
        function takes no scalar, the scalar becomes a 0-d tensor of the compute
        dtype on the other operand's device, and that operand is cast too.
        """
        c = self.native_dtype(plan.compute)
        if op == "subtract":  # torch refuses bools in subtraction, Python bools too
            x, y = (int(v) if v.__class__ is bool else v for v in (x, y))
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

        TensorIterator casts mixed operands on the fly, in one kernel.
        """
        if (isinstance(x, Role) and op not in _SCALAR_FIRST) or (
            isinstance(y, Role) and op not in _SCALAR_SECOND
        ):
            return None
        if op == "subtract" and Role.BOOL in (x, y):
            return None
        return self._fn.get(op)

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``."""
        x, y = self._operands(op, x, y, plan)
        return self._fn[op](x, y)

    def inplace(self, op: str, x: Any, y: Any, plan: Plan) -> None:
        """``x op= y`` computed in ``plan.compute``; torch casts the result into ``x``'s dtype."""
        a, b = self._operands(op, x, y, plan)
        self._fn[op](a, b, out=x)

    def accumulate(self, name: str, x: Any, dtype: DType, **kwargs: Any) -> Any:
        """``compat.<name>(x, dtype=...)``; uint16/32/64 on the CPU accumulate in int64.

        torch has no CPU kernels for those dtypes; sums and products are ring
        operations, so int64 arithmetic (mod 2**64) then a cast gives the exact
        unsigned result.
        """
        owner, _, fname = name.rpartition(".")
        fn = getattr(getattr(compat, owner) if owner else compat, fname)
        if dtype.name in _NO_CPU_KERNELS and x.device.type == "cpu":
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
        """``compat.asarray``; NumPy input with negative strides is copied first (torch takes none)."""
        if type(obj).__module__ == "numpy" and any(s < 0 for s in getattr(obj, "strides", ())):
            import numpy

            obj = numpy.ascontiguousarray(obj)
        return compat.asarray(obj, **kwargs)

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]``; slices with negative steps through ``flip`` (torch has no negative strides)."""
        reversed_dims, key = _positive_steps(x, key)
        return (x.flip(reversed_dims) if reversed_dims else x)[key]

    def setitem(self, x: Any, key: Any, value: Any) -> None:
        """``x[key] = value``, leaving ``x`` untouched if it raises.

        Integer index tensors on the CPU are bounds-checked before writing (torch
        writes the elements before a bad index, then raises).  Negative-step
        slices write through the positive-step slice of the same elements, the
        value reversed along those axes.
        """
        keys = key if isinstance(key, tuple) else (key,)
        for k in keys:
            index = isinstance(k, torch.Tensor) and not (k.dtype.is_floating_point or k.dtype == torch.bool)
            if index and k.device.type == "cpu":  # a bool mask selects: no bounds to check
                _check_bounds(x, keys, k)
        reversed_dims, positive = _positive_steps(x, key)
        if not reversed_dims:
            try:
                x[key] = value
            except RuntimeError as e:  # torch's shape errors, raised before writing
                shape = tuple(value.shape) if isinstance(value, torch.Tensor) else ()
                raise ValueError(
                    f"cannot assign a value of shape {shape} to the selection of shape "
                    f"{tuple(x[key].shape)}: {e}"
                ) from e
            return
        target = x.flip(reversed_dims)[positive]  # a copy: only its shape is used
        result_dims = _result_dims(x.ndim, keys, reversed_dims)
        if isinstance(value, torch.Tensor):
            value = value.broadcast_to(target.shape).flip(result_dims)
        x[_flip_key(x, key)] = value


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
