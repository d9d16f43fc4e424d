"""Element-wise functions: binary ones are the plan layer's operators; one-array ones ask the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._convert import array_of, wrap, wrap_result
from promo_ns._dtypes import DTYPES
from promo_ns._functions._common import decided
from promo_ns._operands import Space
from promo_ns._ops import FUNCTION_FAMILY, NATIVE
from promo_ns._plan import finish, kernel, one_array, promoted
from promo_ns._plan_functions import planned_clip

__all__ = ["BINARY", "DELEGATED", "FUNCTIONS"]

#: Binary element-wise functions: each is the plan layer's ``binary_function``.
BINARY = tuple(NATIVE)

DELEGATED = (
    "bitwise_invert",
    "conj",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "logical_not",
    "real",
    "signbit",
)

_DECIDED = (
    *("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1"),
    *("floor", "log", "log1p", "log2", "log10", "negative", "positive", "reciprocal", "round", "sign"),
    *("sin", "sinh", "square", "sqrt", "tan", "tanh", "trunc"),
)
assert all(name in FUNCTION_FAMILY for name in _DECIDED)


def clip(ns: Space, x: Any, /, min: Any = None, max: Any = None) -> Any:
    """``x`` limited to ``[min, max]``; bounds combine with ``x`` under the active policy's ``clip`` rules."""
    native_x = array_of(ns, x, "clip")
    if min is None and max is None:  # a copy of x (Dask's clip of bool has no kernel: it calls positive)
        return wrap(ns._backend.compat.asarray(native_x, copy=True), ns)
    dtype, (a, lo, hi) = promoted(ns, "clip", [x, min, max], optional=True)
    return wrap_result(ns, "clip", kernel(ns, "clip", ns._backend.compat.clip, a, lo, hi), dtype)


_sign = decided("sign")


def sign(ns: Space, x: Any, /) -> Any:
    """``sign``; of a complex array ``x / |x|`` (0 at 0), by the library's own kernel (torch's ``sgn``).

    array-api-compat divides by ``abs(x)`` as a complex number, up to 3 ulp
    from the components' quotients that NumPy's ``sign`` and torch's ``sgn``
    compute.
    """
    if x.__class__ is ns.Array and DTYPES[x._k >> 1].kind == "c":
        result, native_x = one_array(ns, "sign", x)  # the policy's refusal first
        module = ns._backend.module
        return finish(ns, getattr(module, "sgn", module.sign)(native_x), result, "sign")
    return _sign(ns, x)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "clip": planned_clip(clip),
    **{name: decided(name) for name in _DECIDED},
    "sign": sign,
}
