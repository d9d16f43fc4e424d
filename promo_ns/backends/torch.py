"""The PyTorch adapter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import array_api_compat.torch as compat
import torch

from promo_ns._dtypes import DTYPES, DType, bool_, complex64, float16
from promo_ns._ops import NATIVE
from promo_ns.backends import DTypeMaps, Plan
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
