"""Statistical functions: accumulation dtypes and the dtypes of mean/std/var/max/min from the policy."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from promo_ns._context import innermost
from promo_ns._convert import array_of, wrap, wrap_result
from promo_ns._dtypes import DType, bfloat16, canonical, float16, float32
from promo_ns._engine.functions import accumulation_dtype, check_input_kind
from promo_ns._engine.operands import PromotionError
from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._operands import Space
from promo_ns._plan import finish, one_array
from promo_ns._plan_functions import planned
from promo_ns._plan_repeats import keep, repeating
from promo_ns._report import report_decided, report_uncast, traced
from promo_ns.backends._values import reduced_axes

__all__ = ["DELEGATED", "FUNCTIONS", "reduction"]

DELEGATED = ("all", "any", "diff")


#: Result dtypes whose reductions accumulate in float32, rounded once to them (each output of a
#: cumulative one), on every backend: NumPy, torch and JAX each accumulate them otherwise (NumPy's
#: float16 sum in float32 per 8,192 elements, its cumulative ones in float16; torch's prod in float16
#: lanes; ml_dtypes' bfloat16 in bfloat16), and no backend can give another's.
_IN_FLOAT32 = frozenset((float16, bfloat16))


def reduction(name: str, rule: str | None = None) -> Callable[..., Any]:
    """``name`` (``"sum"``, ``"linalg.trace"``), accumulating as the policy does for op ``rule``.

    A float16 or bfloat16 result accumulates in float32, from the values
    as that dtype holds them, and is rounded once (see :data:`_IN_FLOAT32`).
    """
    short = name.rpartition(".")[2]

    def reduce(ns: Space, x: Any, /, *, dtype: DType | None = None, **kwargs: Any) -> Any:
        native_x = array_of(ns, x, name)
        single = short.startswith("cumulative") and x.ndim == 0  # NumPy's: one element, of 1 dimension
        if single:
            native_x = ns._backend.compat.reshape(native_x, (1,))
        policy = ns.policy_now()
        given = dtype
        try:
            if dtype is None:
                dtype = accumulation_dtype(policy, rule or short, x.dtype)
            else:  # the input's kind may still be refused (array-api's sum of bool, dtype= or not)
                check_input_kind(policy, name, x.dtype)
        except PromotionError:
            report_decided(short, x, None)  # a compare hears of the refusal too
            raise
        if given is None:
            if dtype is not x.dtype:  # an implicit cast, for a trace: recorded by wrap_result once run
                traced(ns, short, x, dtype, dtype)
            else:
                report_uncast(short, x, dtype)
        else:
            dtype = canonical(dtype, f"{short}()'s dtype")
        backend = ns._backend
        if dtype in _IN_FLOAT32:  # wrap_result rounds the float32 result to dtype
            out = backend.accumulate(name, backend.astype(native_x, dtype), float32, **kwargs)
        else:
            out = backend.accumulate(name, native_x, dtype, **kwargs)
            repeatable = not (kwargs or single) and given is None and innermost() is None
            if repeatable and backend.dtype(backend.to_array(out)) is dtype:  # no rounding to repeat
                keep(ns, reduce, x._k, backend.accumulator(name, x.dtype, dtype), dtype)
        return wrap_result(ns, short, out, dtype)

    reduce.__name__ = reduce.__qualname__ = short
    reduce.__doc__ = f"``{name}`` of the Array API standard, accumulating in the active policy's dtype."
    return planned(reduce, partial(repeating, reduce))


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

_std = decided("std")
_var = decided("var")


def _whole(correction: Any) -> Any:
    """A whole float ``correction`` as an int: the backend's own default, so jax.jit compiles no cast."""
    return int(correction) if isinstance(correction, float) and correction.is_integer() else correction


def _no_count_left(x: Any, axis: Any, correction: Any) -> bool:
    """Whether ``correction`` is at least the number of elements reduced (known: Dask's may not be)."""
    try:
        shape = x.shape
        return bool(correction >= math.prod(shape[a] for a in reduced_axes(len(shape), axis)))
    except (AttributeError, TypeError, IndexError):  # not an array, an unknown size, a refused axis
        return False


def _nan_like(ns: Space, out: Any) -> Any:
    """NaN in every element of ``out`` (a result of ``var`` or ``std``), its dtype and shape kept."""
    return wrap(ns._backend.compat.multiply(out._x, math.nan), ns)


def var(
    ns: Space,
    x: Any,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: float = 0.0,
    keepdims: bool = False,
) -> Any:
    """``var``, with a whole ``correction`` passed on as an int.

    Where ``correction`` leaves no count to divide by, the standard's NaN on
    every backend (NumPy, torch and Dask divide by 0: infinity).
    """
    if _no_count_left(x, axis, correction):
        return _nan_like(ns, _var(ns, x, axis=axis, keepdims=keepdims))
    return _var(ns, x, axis=axis, correction=_whole(correction), keepdims=keepdims)


def std(
    ns: Space,
    x: Any,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: float = 0.0,
    keepdims: bool = False,
) -> Any:
    """``std``; a fractional ``correction`` as the square root of ``var``, as NumPy and torch compute it.

    array-api-compat's torch ``std`` takes whole corrections only; its ``var`` takes any.  No count
    left to divide by: NaN, as for ``var``.
    """
    if _no_count_left(x, axis, correction):
        return _nan_like(ns, _std(ns, x, axis=axis, keepdims=keepdims))
    if not isinstance(correction, float) or correction.is_integer():
        return _std(ns, x, axis=axis, correction=_whole(correction), keepdims=keepdims)
    result, native_x = one_array(ns, "std", x)
    compat = ns._backend.compat
    out = compat.var(native_x, axis=axis, correction=correction, keepdims=keepdims)
    return finish(ns, compat.sqrt(out), result, "std")


FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{name: reduction(name) for name in ("sum", "prod", "cumulative_sum", "cumulative_prod")},
    **{name: decided(name) for name in ("mean", "max", "min")},
    "std": std,
    "var": var,
}
