"""Statistical functions: accumulation dtypes and the dtypes of mean/std/var/max/min from the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._dtypes import DType, canonical
from promo_ns._engine import accumulation_dtype
from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._plan import Space, native, wrap_result

__all__ = ["DELEGATED", "FUNCTIONS", "reduction"]

DELEGATED = ("all", "any", "diff")


def reduction(name: str, rule: str | None = None) -> Callable[..., Any]:
    """``name`` (``"sum"``, ``"linalg.trace"``), accumulating as the policy does for op ``rule``."""
    short = name.rpartition(".")[2]

    def reduce(ns: Space, x: Any, /, *, dtype: DType | None = None, **kwargs: Any) -> Any:
        if x.__class__ is not ns.Array:
            raise TypeError(f"{short}() takes a promo_ns array, not {type(x).__name__}")
        policy = ns.policy_now()
        dtype = accumulation_dtype(policy, rule or short, x.dtype) if dtype is None else canonical(dtype)
        out = ns._backend.accumulate(name, native(ns, x), dtype, **kwargs)
        return wrap_result(ns, short, out, dtype)

    reduce.__name__ = reduce.__qualname__ = short
    reduce.__doc__ = f"``{name}`` of the Array API standard, accumulating in the active policy's dtype."
    return reduce


_SIGNATURES: dict[str, Callable[..., None]] = {
    "sum": lambda x, /, *, axis=None, dtype=None, keepdims=False: None,
    "prod": lambda x, /, *, axis=None, dtype=None, keepdims=False: None,
    "cumulative_sum": lambda x, /, *, axis=None, dtype=None, include_initial=False: None,
    "cumulative_prod": lambda x, /, *, axis=None, dtype=None, include_initial=False: None,
    "trace": lambda x, /, *, offset=0, dtype=None: None,
    "mean": lambda x, /, *, axis=None, keepdims=False: None,
    "std": lambda x, /, *, axis=None, correction=0.0, keepdims=False: None,
    "var": lambda x, /, *, axis=None, correction=0.0, keepdims=False: None,
    "max": lambda x, /, *, axis=None, keepdims=False: None,
    "min": lambda x, /, *, axis=None, keepdims=False: None,
}
SIGNATURES.update(_SIGNATURES)

FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{name: reduction(name) for name in ("sum", "prod", "cumulative_sum", "cumulative_prod")},
    **{name: decided(name) for name in ("mean", "std", "var", "max", "min")},
}
