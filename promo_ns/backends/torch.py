"""The PyTorch adapter."""

from __future__ import annotations

from typing import Any

import array_api_compat.torch as compat
import torch

from promo_ns._dtypes import DType, canonical
from promo_ns._ops import NATIVE
from promo_ns.backends import Plan
from promo_ns.policies import get_policy

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


class TorchBackend:
    """PyTorch: TensorIterator casts on the fly where torch's own promotion gives the policy's dtype."""

    def __init__(self) -> None:
        self.name = "torch"
        self.module = torch
        self.compat = compat
        self.array_type: type = torch.Tensor
        self.native_policy = get_policy("pytorch")
        self._fn = {op: getattr(torch, names[1]) for op, names in NATIVE.items()}
        self._native: dict[DType, Any] = {}
        self._canonical: dict[Any, DType] = {}

    def dtype(self, x: Any) -> DType:
        """The canonical dtype of tensor ``x``."""
        found = self._canonical.get(x.dtype)
        if found is None:
            found = self._canonical[x.dtype] = canonical(x.dtype)
        return found

    def native_dtype(self, dtype: DType) -> Any:
        """The torch dtype of ``dtype``."""
        found = self._native.get(dtype)
        if found is None:
            found = self._native[dtype] = getattr(torch, dtype.name)
        return found

    def _operands(self, op: str, x: Any, y: Any, plan: Plan) -> tuple[Any, Any]:
        """Tensors in the compute dtype, Python scalars as the torch function takes them.

        A tensor is cast unless torch computes in that dtype already; a scalar
        becomes a 0-d tensor on the device where the function takes no scalar.
        """
        c = self.native_dtype(plan.compute)
        if isinstance(x, torch.Tensor):
            if not plan.direct:
                x = x.to(c)
        elif op not in _SCALAR_FIRST:
            x = torch.scalar_tensor(x, dtype=c, device=y.device)
        if isinstance(y, torch.Tensor):
            if not plan.direct:
                y = y.to(c)
        elif op not in _SCALAR_SECOND:
            y = torch.scalar_tensor(y, dtype=c, device=x.device)
        return x, y

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``."""
        x, y = self._operands(op, x, y, plan)
        return self._fn[op](x, y)

    def inplace(self, op: str, x: Any, y: Any, plan: Plan) -> None:
        """``x op= y`` computed in ``plan.compute``; torch casts the result into ``x``'s dtype."""
        a, b = self._operands(op, x, y, plan)
        self._fn[op](a, b, out=x)

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
