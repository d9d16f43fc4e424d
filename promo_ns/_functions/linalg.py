"""Linear algebra: products promote their operands; ``linalg`` of integers computes in the policy's float."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._convert import wrap_result
from promo_ns._engine.functions import COMPLEX_LIKE
from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._functions.statistical import reduction
from promo_ns._operands import Space
from promo_ns._ops import FUNCTION_FAMILY
from promo_ns._plan import kernel, promoted
from promo_ns._plan_products import planned_product

__all__ = ["EXTENSION_DELEGATED", "EXTENSION_FUNCTIONS", "FUNCTIONS"]

#: ``linalg`` functions whose dtype follows from their input as it is.
EXTENSION_DELEGATED = ("diagonal", "matrix_power", "matrix_transpose")
_DECIDED = tuple(name.partition(".")[2] for name in FUNCTION_FAMILY if name.startswith("linalg."))


def _combining(name: str, module: str | None = None) -> Callable[..., Any]:
    def combine(ns: Space, x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        dtype, (a, b) = promoted(ns, name, (x1, x2))
        owner = ns._backend.compat if module is None else getattr(ns._backend.compat, module)
        return wrap_result(ns, name, kernel(ns, name, getattr(owner, name), a, b, **kwargs), dtype)

    combine.__name__ = combine.__qualname__ = name
    combine.__doc__ = f"``{name}(x1, x2)`` of the Array API standard, in the active policy's result dtype."
    return planned_product(name, module, combine)  # the general path: combine


_SIGNATURES: dict[str, Callable[..., None]] = {
    "matmul": lambda x1, x2, /: None,
    "tensordot": lambda x1, x2, /, *, axes=2: None,
    "vecdot": lambda x1, x2, /, *, axis=-1: None,
    "cross": lambda x1, x2, /, *, axis=-1: None,
    "outer": lambda x1, x2, /: None,
    "solve": lambda x1, x2, /: None,
    "cholesky": lambda x, /, *, upper=False: None,
    "matrix_norm": lambda x, /, *, keepdims=False, ord="fro": None,
    "matrix_rank": lambda x, /, *, rtol=None: None,
    "pinv": lambda x, /, *, rtol=None: None,
    "qr": lambda x, /, *, mode="reduced": None,
    "svd": lambda x, /, *, full_matrices=True: None,
    "vector_norm": lambda x, /, *, axis=None, keepdims=False, ord=2: None,
}
SIGNATURES.update(_SIGNATURES)

FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: _combining(name) for name in ("matmul", "tensordot", "vecdot")
}
EXTENSION_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{
        name: _combining(name, "linalg")
        for name in ("matmul", "tensordot", "vecdot", "cross", "outer", "solve")
    },
    "trace": reduction("linalg.trace", "sum"),
    **{name: decided(f"linalg.{name}") for name in _DECIDED},
    **{name.rpartition(".")[2]: decided(name, like=like) for name, like in COMPLEX_LIKE.items()},
}
