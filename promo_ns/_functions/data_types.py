"""Data type functions: ``result_type`` and ``can_cast`` ask the policy; ``astype`` is an explicit cast."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from promo_ns._context import innermost
from promo_ns._convert import (
    array_of,
    native,
    native_device,
    operand_of,
    promoted_operand,
    unknown_device,
    wrap,
)
from promo_ns._dtypes import DType, canonical, real_float
from promo_ns._engine.functions import check_astype
from promo_ns._engine.operands import PromotionError
from promo_ns._engine.resolution import can_cast as engine_can_cast
from promo_ns._engine.resolution import resolve_many
from promo_ns._operands import Space
from promo_ns._plan_functions import planned
from promo_ns._plan_products import planned_result_type
from promo_ns._plan_repeats import keep, repeating_astype
from promo_ns._report import report_resolved

__all__ = ["FUNCTIONS", "finfo_object", "iinfo_object"]


class finfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """Machine limits of a floating-point dtype."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


class iinfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: DType


def astype(ns: Space, x: Any, dtype: DType, /, *, copy: bool = True, device: Any = None) -> Any:
    """``x`` cast to ``dtype``: an explicit cast, which the policy refuses only by kind (``astype_kinds``)."""
    repeatable = device is None and dtype.__class__ is DType and x.__class__ is ns.Array and x._ns is ns
    repeatable = repeatable and copy.__class__ is bool
    native_x = array_of(ns, x, "astype")
    wanted = canonical(dtype, "astype()'s dtype")
    check_astype(ns.policy_now(), x.dtype, wanted)
    target = native(ns, wanted)
    cast = ns._backend.compat.astype
    try:
        out = cast(native_x, target, copy=copy, device=native_device(ns, device))
    except (RuntimeError, ValueError, TypeError, AttributeError, AssertionError) as e:  # torch's: no CUDA
        error = unknown_device(ns, "astype", device, e)
        if error is None:
            raise
        raise error from e
    if repeatable and innermost() is None:  # kept under the dtype, copy=False's under ~code
        keep(ns, dtype, x._k if copy else ~x._k, ns._backend.caster(copy), wanted)
    return wrap(out, ns)


def result_type(ns: Space, *arrays_and_dtypes: Any) -> DType:
    """The dtype the active policy gives to combining the arguments (arrays, dtypes, scalars).

    NumPy scalars count as the 0-d arrays they are, as in operators.
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type() needs at least one array or dtype")
    # One operand too goes to the engine: it decides whether Python scalars alone
    # have a dtype (they do where the policy types them strongly).
    operands = [operand_of(ns, promoted_operand(ns, a, "result_type")) for a in arrays_and_dtypes]
    try:
        dtype = resolve_many(ns.policy_now(), "result_type", operands)
    except (PromotionError, OverflowError) as e:
        report_resolved("result_type", operands, None, type(e).__name__)
        raise
    report_resolved("result_type", operands, dtype)
    return dtype


def can_cast(ns: Space, from_: Any, to: DType, /) -> bool:
    """Whether the active policy casts ``from_`` to ``to`` (its ``can_cast`` rule).

    By default that is ``result_type(from_, to) == to``; a policy may follow
    its framework's own table instead (PyTorch's: by category).  ``from_``
    counts as its dtype (an n-d array of it), whatever the array's shape.
    """
    dtype = from_.dtype if from_.__class__ is ns.Array else None
    if dtype is None:
        if isinstance(from_, (bool, int, float, complex)):
            raise TypeError(
                f"can_cast() takes a dtype or an array, not the Python {type(from_).__name__} {from_!r}; "
                "pass its dtype, e.g. xp.result_type(x) for the dtype the policy gives it"
            )
        dtype = _dtype_argument(ns, from_, "can_cast()'s from_")
    return engine_can_cast(ns.policy_now(), dtype, canonical(to, "can_cast()'s to"))


_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(ns: Space, dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
    """Whether ``dtype`` is ``kind`` (a dtype, a kind name such as ``"integral"``, or a tuple of them)."""
    if isinstance(kind, tuple):
        return any(isdtype(ns, dtype, k) for k in kind)
    dtype = canonical(dtype, "isdtype()'s dtype")
    if kind.__class__ is DType:
        return dtype is kind
    if kind not in _KINDS:
        raise ValueError(f"unknown dtype kind {kind!r}; expected a dtype or one of {', '.join(_KINDS)}")
    return dtype.kind in _KINDS[str(kind)]


def _dtype_argument(ns: Space, x: Any, what: str) -> DType:
    """The dtype ``x`` names where a dtype or a promo_ns array is taken: a bare native array raises."""
    if x.__class__ is not DType and hasattr(x, "shape"):
        array_of(ns, x, what.partition("(")[0])  # raises: a bare native array, or another backend's
    return canonical(x, what)


def _info_dtype(ns: Space, type: Any, name: str, kinds: str) -> tuple[DType, Any]:
    """The dtype of ``type`` (a dtype or an array) and its native one; a TypeError unless of ``kinds``."""
    dtype = type.dtype if type.__class__ is ns.Array else _dtype_argument(ns, type, f"{name}()'s argument")
    if dtype.kind not in kinds:
        takes, other = (
            ("floating-point (real or complex)", "iinfo") if name == "finfo" else ("integer", "finfo")
        )
        fix = f"use xp.{other}() for {dtype}" if dtype.kind != "b" else "bool has no machine limits"
        raise TypeError(f"{name}() takes {takes} dtypes or arrays, not {dtype}; {fix}")
    return dtype, ns._backend.native_dtype(dtype)


def finfo(ns: Space, type: DType | Any, /) -> finfo_object:
    """Machine limits of a floating-point dtype (complex: of its real part)."""
    dtype, native_dtype = _info_dtype(ns, type, "finfo", "fc")
    if dtype.name == "bfloat16" and ns._backend.name == "numpy":
        import ml_dtypes

        f = ml_dtypes.finfo(native_dtype)  # type: ignore[no-untyped-call]
    else:
        f = ns._backend.compat.finfo(native_dtype)
    return finfo_object(
        int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real_float(dtype)
    )


def iinfo(ns: Space, type: DType | Any, /) -> iinfo_object:
    """Machine limits of an integer dtype."""
    dtype, native_dtype = _info_dtype(ns, type, "iinfo", "iu")
    i = ns._backend.compat.iinfo(native_dtype)
    return iinfo_object(int(i.bits), int(i.max), int(i.min), dtype)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "astype": planned(astype, repeating_astype),
    "result_type": planned_result_type(result_type),
    "can_cast": can_cast,
    "isdtype": isdtype,
    "finfo": finfo,
    "iinfo": iinfo,
}
