"""PyTorch's spellings of every probe case, for the ``pytorch`` policy: ``python -m conformance.probe.torch``.

Each standard function is torch's function of that meaning (``equal`` is
``torch.eq``, ``concat`` ``torch.cat``, ``std`` ``torch.std(x, correction=0)``,
``result_type`` of dtypes ``torch.promote_types``); ``method`` is the Tensor
method (``a.add(b)``) and ``method_`` its in-place form (``a.add_(b)``).

Where the CPU has no kernel for a dtype (uint16/32/64 arithmetic) or a function
takes no Python scalar (``torch.atan2(t, 1.5)``), torch still decides the dtype:
as :mod:`conformance.frameworks.torch` does, the call runs again on stand-ins
(int64 tensors on the CPU, to see torch accept the op; then the ``meta``
device, or operands wrapped by ``torch.result_type``'s rule) and the
observation is the decided dtype with its values marked not computed.
Refusals are recognised by the messages of :mod:`conformance.frameworks.torch`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from conformance.frameworks.torch import _FUNCTION_REFUSALS, _REFUSALS
from conformance.probe import _driver
from conformance.probe._driver import Absent
from conformance.probe._space import Case

_NO_CPU_KERNELS = (torch.uint16, torch.uint32, torch.uint64)


class _RefusedError(RuntimeError):
    """A function failed for its input dtype on every device torch can tell us about."""


#: Further messages of torch's dtype checks (beyond the frameworks checker's lists).
_MORE_REFUSALS = (
    "not implemented for tensors with non-complex dtypes",
    "Result type",
    "result type",
    "cannot be safely cast",
    "is not supported for",
    "must have the same dtype",
    "expected both inputs to have same dtype",
    "Expected object of scalar type",
    "must be floating point",
    "must be of floating",
    "only supports floating-point",
    "Boolean value of Tensor",
    "Subtraction, the `-` operator, with",
    "Negation, the `-` operator, on a bool tensor",
    "Found dtype",
    "dtype mismatch",
    "promote",
    "can't be cast",
    "same dtype",
)
_VALUE_ERRORS = {
    "ZeroDivisionError": "ZeroDivisionError",
    "Overflow": "OverflowError",
    "without overflow": "OverflowError",
    "out of bounds": "OverflowError",
}


def _all_dims(x: Any) -> tuple[int, ...]:
    return tuple(range(x.ndim))


def _result_type(*parts: Any) -> Any:
    if all(isinstance(p, torch.dtype) for p in parts):
        out = parts[0]
        for p in parts[1:]:
            out = torch.promote_types(out, p)
        return out
    if len(parts) == 2 and not any(isinstance(p, torch.dtype) for p in parts):
        return torch.result_type(*parts)
    if len(parts) == 1:
        return parts[0].dtype if isinstance(parts[0], torch.Tensor) else torch.result_type(parts[0], parts[0])
    raise Absent


def _trace(x: Any, dtype: Any = None) -> Any:
    if dtype is None:
        return torch.trace(x)
    return torch.sum(torch.diagonal(x, dim1=-2, dim2=-1), dim=-1, dtype=dtype)


def _can_cast(a: Any, b: Any) -> Any:
    return torch.can_cast(a.dtype if isinstance(a, torch.Tensor) else a, b)


def _searchsorted(a: Any, b: Any) -> Any:
    return torch.searchsorted(a, b)


_T = torch
#: The standard's name -> torch's call taking the standard's arguments.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "equal": torch.eq, "not_equal": torch.ne, "less": torch.lt, "less_equal": torch.le,
    "greater": torch.gt, "greater_equal": torch.ge, "divide": torch.true_divide,
    "bitwise_invert": torch.bitwise_not,
    "cumulative_sum": lambda x, dtype=None: torch.cumsum(x, 0, dtype=dtype),
    "cumulative_prod": lambda x, dtype=None: torch.cumprod(x, 0, dtype=dtype),
    "std": lambda x: torch.std(x, correction=0), "var": lambda x: torch.var(x, correction=0),
    "max": lambda x: torch.amax(x, _all_dims(x)), "min": lambda x: torch.amin(x, _all_dims(x)),
    "diff": torch.diff, "count_nonzero": torch.count_nonzero,
    "linalg.trace": _trace, "linalg.matrix_power": torch.linalg.matrix_power,
    "linalg.matrix_transpose": lambda x: x.mT, "matrix_transpose": lambda x: x.mT,
    "linalg.tensordot": lambda a, b, axes=2: torch.tensordot(a, b, dims=axes),
    "tensordot": lambda a, b, axes=2: torch.tensordot(a, b, dims=axes),
    "vecdot": torch.linalg.vecdot, "linalg.outer": torch.outer,
    "result_type": _result_type, "concat": lambda *xs: torch.cat(xs), "stack": lambda *xs: torch.stack(xs),
    "clip": lambda x, lo=None, hi=None: torch.clamp(x, lo, hi),
    "meshgrid": lambda *xs: torch.meshgrid(*xs, indexing="xy"), "broadcast_arrays": torch.broadcast_tensors,
    "searchsorted": _searchsorted, "astype": lambda x, d: x.to(d), "can_cast": _can_cast,
    "finfo": torch.finfo, "iinfo": torch.iinfo, "broadcast_shapes": torch.broadcast_shapes,
    "asarray": lambda x, dtype=None: torch.asarray(x, dtype=dtype),
    "linspace": lambda a, b, n, dtype=None: torch.linspace(a, b, n, dtype=dtype),
    "eye": lambda n, dtype=None: torch.eye(n, dtype=dtype),
    "flip": lambda x: torch.flip(x, _all_dims(x)), "expand_dims": torch.unsqueeze,
    "permute_dims": torch.permute, "repeat": torch.repeat_interleave, "unstack": torch.unbind,
    "sort": lambda x: torch.sort(x).values, "argsort": lambda x: torch.argsort(x, stable=True),
    "nonzero": lambda x: torch.nonzero(x, as_tuple=True), "unique_values": torch.unique,
    "unique_counts": lambda x: torch.unique(x, return_counts=True),
    "unique_inverse": lambda x: torch.unique(x, return_inverse=True),
    "take": torch.take,
    "take_along_axis": lambda x, i: torch.take_along_dim(x, i, dim=-1),
}  # fmt: skip
#: Names torch spells the standard's way but has no function of (``isdtype``, ``unique_all``, ...).
ABSENT = frozenset(("isdtype", "unique_all"))
#: Binary ops' Tensor methods, where the name differs from the function's.
METHODS: dict[str, str] = {
    "subtract": "sub", "multiply": "mul", "divide": "div", "pow": "pow", "equal": "eq",
    "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge",
}  # fmt: skip


def _lookup(op: str) -> Callable[..., Any]:
    if op in FUNCTIONS:
        return FUNCTIONS[op]
    if op in ABSENT:
        raise Absent
    found: Any = torch
    for part in op.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise Absent
    return found  # type: ignore[no-any-return]


def _stand_in(x: Any) -> Any:
    """An int64 tensor for an unsigned one whose kernels the CPU lacks; anything else as it is."""
    if isinstance(x, torch.Tensor) and x.dtype in _NO_CPU_KERNELS:
        return x.to(torch.int64)
    return x


def _wrapped_number(value: Any, dtype: Any) -> Any:
    """A Python number as torch's wrapped number, cast into ``dtype`` as TensorIterator casts it.

    ``c10::Scalar`` holds a bool, an int64 (a uint64 from ``2**63``; beyond, "Overflow"), a double or
    a complex double; the kernel reads it in the common dtype, an int wrapping modulo ``2**bits``
    (as ``torch.add(int8_tensor, 128)`` does).  ``torch.tensor(128, dtype=torch.int8)`` would
    check the value instead, which no op taking a scalar does.
    """
    if isinstance(value, bool):
        held = torch.bool
    elif isinstance(value, int):
        held = torch.uint64 if value >= 2**63 else torch.int64
    else:
        held = torch.float64 if isinstance(value, float) else torch.complex128
    return torch.tensor(value, dtype=held).to(dtype)


def _meta(x: Any) -> Any:
    if isinstance(x, torch.Tensor):
        return x.to("meta")
    if isinstance(x, (list, tuple)):
        return type(x)(_meta(v) for v in x)
    return x


class Torch:
    """The :class:`~conformance.probe._driver.Adapter` of PyTorch (CPU)."""

    name = "torch"
    version = str(torch.__version__)
    policy = "pytorch"

    def array(self, values: Any, dtype: str) -> Any:
        return torch.tensor(values, dtype=self.dtype(dtype))

    def scalar(self, value: Any, dtype: str) -> Any:
        raise Absent

    def dtype(self, name: str) -> Any:
        return getattr(torch, name)

    def function(self, case: Case) -> Callable[..., Any]:
        return _lookup(case.op)

    def method(self, case: Case) -> Callable[..., Any]:
        name = METHODS.get(case.op, case.op) + ("_" if case.spelling == "method_" else "")
        if not hasattr(torch.Tensor, name):
            raise Absent
        return lambda a, b: getattr(a, name)(b)

    def copy(self, x: Any) -> Any:
        return x.clone()

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if not isinstance(x, torch.Tensor):
            return None
        name = str(x.dtype).removeprefix("torch.")
        if x.device.type == "meta":
            return name, None
        x = x.detach().resolve_conj().resolve_neg()
        if x.dtype == torch.bfloat16:
            x = x.float()
        if x.dtype == torch.complex32:
            x = x.to(torch.complex64)
        return name, x.numpy()

    def dtype_name(self, x: Any) -> str | None:
        return str(x).removeprefix("torch.") if isinstance(x, torch.dtype) else None

    def _refusal(self, exc: BaseException) -> bool:
        msg = str(exc).split("\n")[0]
        return any(r in msg for r in _REFUSALS + _FUNCTION_REFUSALS + _MORE_REFUSALS) or any(
            needle in msg for needle in _VALUE_ERRORS
        )

    def classify(self, exc: BaseException, case: Case) -> str:
        msg = str(exc).split("\n")[0]
        for needle, cls in _VALUE_ERRORS.items():
            if needle in msg or type(exc).__name__ == cls:
                return f"error: {cls}"
        if isinstance(exc, (TypeError,)) and ("must be Tensor" in msg or "invalid combination" in msg):
            return f"unsupported: no such overload: {msg[:80]}"
        if any(r in msg for r in _REFUSALS + _FUNCTION_REFUSALS + _MORE_REFUSALS):
            return "refused"
        if isinstance(exc, _RefusedError):
            return "refused"
        if isinstance(exc, NotImplementedError) or "not implemented for" in msg:
            return f"unsupported: {msg[:80]}"  # no kernel: not a decision on dtypes
        if isinstance(exc, (IndexError, ValueError)):
            return f"error: {type(exc).__name__}"
        return f"unsupported: {type(exc).__name__}: {msg[:80]}"

    def fallback(self, case: Case, args: list[Any], kwargs: dict[str, Any], exc: BaseException) -> Any:
        """Torch's decision where the CPU has no kernel (uint16/32/64) or the function no scalar overload."""
        msg = str(exc)
        unsigned = isinstance(exc, NotImplementedError) and any(
            f"'{t}'" in msg for t in ("UInt16", "UInt32", "UInt64")
        )
        no_overload = isinstance(exc, TypeError) and ("must be Tensor" in msg or "invalid combination" in msg)
        if unsigned:
            _driver.call(
                self, case, [_stand_in(a) for a in args], kwargs
            )  # torch takes the op (raises if not)
            return _driver.call(self, case, [_meta(a) for a in args], kwargs)
        if case.kind in ("elementwise", "reduction", "fft", "linalg") and not self._refusal(exc):
            # as conformance.frameworks.torch: a function's kernel gap is decided on ``meta``;
            # linalg's meta functions check no dtype, so its kernels' dispatch is its dtype check
            if case.kind == "linalg":
                raise _RefusedError(str(exc).split("\n")[0]) from exc
            try:
                return _driver.call(self, case, [_meta(a) for a in args], kwargs)
            except Exception as meta:
                raise _RefusedError(str(exc).split("\n")[0]) from meta
        if no_overload and case.kind == "binary" and len(args) == 2:
            common = torch.result_type(*args)
            out = self._in_dtype(case, args, kwargs, common)
            # an op computing integers in a float (atan2, copysign) reads the scalar in that float
            computes = isinstance(out, torch.Tensor) and (out.is_floating_point() or out.is_complex())
            if computes and not (common.is_floating_point or common.is_complex):
                return self._in_dtype(case, args, kwargs, out.dtype)
            return out
        raise exc

    def _in_dtype(self, case: Case, args: list[Any], kwargs: dict[str, Any], dtype: Any) -> Any:
        """``case`` on its operands cast into ``dtype``, Python scalars as torch's wrapped numbers."""
        wrapped = [a.to(dtype) if isinstance(a, torch.Tensor) else _wrapped_number(a, dtype) for a in args]
        try:
            return _driver.call(self, case, wrapped, kwargs)
        except Exception as again:
            return self.fallback(case, wrapped, kwargs, again)


def main() -> None:
    """Write ``tests/reference/probe-pytorch.json.gz``."""
    _driver.main(Torch(), "python -m conformance.probe.torch")


if __name__ == "__main__":
    main()
