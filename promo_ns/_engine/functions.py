"""The dtypes of functions of one array: reductions, delegated functions, float-only functions.

What the policy gives ``sum``/``prod``/``cumulative_*`` (:func:`accumulation_dtype`),
``conj``/``real``/``isnan``-like functions (:func:`delegated_dtype`), ``log``/``mean``/
``linalg.inv``-like functions (:func:`function_dtype`), and which kinds a function
or ``astype`` takes at all; :func:`cast_target` names the dtype a refusal's fix
suggests.
:func:`one_array_plan` gives a one-array function's result dtype and the dtype it computes in.
"""

from __future__ import annotations

from collections.abc import Sequence

from promo_ns._dtypes import (
    DTYPES,
    INT_RANGE,
    DType,
    bool_,
    complex64,
    complex128,
    float32,
    float64,
    int64,
    real_float,
    uint8,
)
from promo_ns._engine.operands import PromotionError, _kinds
from promo_ns._memo import per_policy
from promo_ns._ops import FUNCTION_FAMILY
from promo_ns.policies._model import Policy

__all__ = [
    "COMPLEX_LIKE",
    "accumulation_dtype",
    "cast_target",
    "check_astype",
    "check_input_kind",
    "complex_like",
    "delegated_dtype",
    "function_dtype",
    "one_array_plan",
]


#: One-array functions decided by another's grid cell, whose results are complex (eig computes like inv).
COMPLEX_LIKE: dict[str, str] = {"linalg.eig": "linalg.inv", "linalg.eigvals": "linalg.inv"}


def complex_like(dtype: DType) -> DType:
    """The complex dtype of ``dtype``'s precision: what ``eig`` gives of a matrix computed in ``dtype``."""
    return complex128 if dtype in (float64, complex128) else complex64


def accumulation_dtype(policy: Policy, op: str, dtype: DType) -> DType:
    """The dtype ``op`` (``sum``/``prod``/``cumulative_sum``/``cumulative_prod``) accumulates ``dtype`` in.

    Raises
    ------
    PromotionError
        The policy's reductions do not take ``dtype``'s kind.
    """
    if dtype.kind not in policy.accumulate_kinds:
        allowed = _kinds(policy.accumulate_kinds)
        takes = [d for d in DTYPES if d.kind in policy.accumulate_kinds]
        fix = (
            f"cast explicitly first, e.g. {op}(xp.astype(x, xp.{cast_target(dtype, takes)}))"
            if takes
            else "switch policy with promo_ns.policy(...)"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes {allowed} arrays "
            f"({policy.reference}). Fix: {fix}."
        )
    return policy.accumulate_ops.get(op, policy.accumulate).get(dtype, dtype)


#: The significand bits of each floating dtype: the integers it holds exactly.
_SIGNIFICAND = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53, "complex64": 24, "complex128": 53}


def _holds(target: DType, dtype: DType) -> bool:
    """Whether every value of ``dtype`` converts to ``target`` exactly."""
    if dtype.kind == "b" or target is dtype:
        return True
    if dtype.kind in "iu":
        lo, hi = INT_RANGE[dtype]
        if target.kind in "iu":
            return INT_RANGE[target][0] <= lo and hi <= INT_RANGE[target][1]
        return target.kind in "fc" and 2 ** _SIGNIFICAND[target.name] >= max(-lo, hi)
    return target.category >= dtype.category and _SIGNIFICAND[target.name] >= _SIGNIFICAND[dtype.name]


def cast_target(dtype: DType, takes: Sequence[DType]) -> DType:
    """The dtype of ``takes`` to suggest casting a ``dtype`` array to, where a function refuses ``dtype``.

    The narrowest one of the same or a higher category that holds every
    value of ``dtype`` exactly (a float at least float32), real for a real
    input; else the widest real one, else the widest.
    """
    real = [d for d in takes if d.kind != "c" or dtype.kind == "c"] or list(takes)
    ranked = sorted((d for d in real if d.category >= dtype.category), key=lambda d: (d.category, d.bits))
    for target in ranked:
        if _holds(target, dtype) and (target.kind not in "fc" or real_float(target).bits >= 32):
            return target
    return ranked[-1] if ranked else real[-1]


def delegated_dtype(policy: Policy, op: str, dtype: DType) -> DType:
    """The dtype ``policy`` gives the function ``op`` of :data:`~promo_ns._ops.DELEGATED_DTYPES` of ``dtype``.

    The policy's ``delegated`` table where it has the cell, else the
    standard's: ``conj`` and ``bitwise_invert`` keep ``dtype``, ``real`` and
    ``imag`` give its real dtype, the others bool.  Every backend's result is
    cast to it: one policy, one dtype (NumPy's ``conj`` of bool is int8,
    torch's and JAX's bool).

    Raises
    ------
    PromotionError
        The policy refuses ``op`` on ``dtype`` (its framework raises there).
    """
    found = policy.delegated.get((op, dtype), _STANDARD)
    if found is None:
        takes = sorted({d for (f, d), r in policy.delegated.items() if f == op and r}, key=DTYPES.index)
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes "
            f"{', '.join(map(str, takes)) or 'no'} arrays ({policy.reference}). Fix: cast explicitly "
            f"first, e.g. {op}(xp.astype(x, xp.{takes[-1] if takes else 'complex64'}))."
        )
    if found is not _STANDARD:
        return found  # type: ignore[return-value]
    if op in ("conj", "bitwise_invert"):
        return dtype
    return real_float(dtype) if op in ("real", "imag") else bool_


#: A cell missing from a policy's ``delegated`` table: the standard's dtype.
_STANDARD = object()


def function_dtype(policy: Policy, op: str, dtype: DType) -> DType:
    """The result dtype of the one-array function ``op`` (``log``, ``mean``, ``linalg.inv``) of ``dtype``.

    Raises
    ------
    PromotionError
        The policy refuses ``op`` on ``dtype`` (its framework raises there).
    """
    family = FUNCTION_FAMILY[op]
    found = policy.functions.get((family, dtype))
    if found is None:
        takes = sorted({d for f, d in policy.functions if f == family}, key=DTYPES.index)
        fix = (
            f"cast explicitly first, e.g. {op}(xp.astype(x, xp.{cast_target(dtype, takes)}))"
            if takes
            else "switch policy with promo_ns.policy(...)"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): its {family!r} functions take "
            f"{', '.join(map(str, takes)) or 'no'} arrays ({policy.reference}). Fix: {fix}."
        )
    return found


def check_input_kind(policy: Policy, op: str, dtype: DType) -> None:
    """Refuse ``op`` (of :data:`promo_ns._ops.INPUT_KIND_OPS`) of a ``dtype`` array if ``policy`` does.

    Raises
    ------
    PromotionError
        ``policy.input_kinds`` gives ``op`` no array of ``dtype``'s kind.
    """
    kinds = policy.input_kinds.get(op)
    if kinds is not None and dtype.kind not in kinds:
        # the nearest dtype the op takes: a float for a float or complex array, else an integer
        nearest = (float64, int64) if dtype.kind in "fc" else (int64, float64)
        target = next(d for d in (*nearest, complex128, bool_) if d.kind in kinds)
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes {_kinds(kinds)} arrays "
            f"({policy.reference}). Fix: cast explicitly first, e.g. {op}(xp.astype(x, xp.{target}))."
        )


def check_astype(policy: Policy, dtype: DType, target: DType) -> None:
    """Refuse ``astype`` of a ``dtype`` array to ``target`` where ``policy.astype_kinds`` does.

    Raises
    ------
    PromotionError
        The policy casts no array of ``dtype``'s kind to ``target``'s.
    """
    kinds = policy.astype_kinds.get(dtype.kind)
    if kinds is not None and target.kind not in kinds:
        fix = (
            f"keep the real part first, xp.astype(xp.real(x), xp.{target}), or the magnitude, xp.abs(x)"
            if dtype.kind == "c" and target.kind != "b"
            else "compare explicitly, e.g. x != 0 for a bool array"
            if target.kind == "b"
            else f"cast to a {_kinds(kinds)} dtype"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses astype(x: {dtype} array, {target}): it casts {dtype} only "
            f"to {_kinds(kinds)} dtypes ({policy.reference}). Fix: {fix}."
        )


#: Statistics of a float16/bfloat16 array that compute in float32 (torch's, JAX's and NumPy's float16
#: ones accumulate there; ml_dtypes' bfloat16 and NumPy's float16 var would not).
_STATISTICS = frozenset(("mean", "std", "var"))


@per_policy
def one_array_plan(policy: Policy, op: str, dtype: DType) -> tuple[DType, DType]:
    """The result dtype of ``op`` on a ``dtype`` array under ``policy``, and the dtype it computes in.

    A real input computes in the real float of a float or complex result (a
    float16 or bfloat16 ``mean``, ``std`` or ``var`` in float32, as every
    backend's ``sum`` of them does: see ``_functions.statistical``); a
    complex input stays complex; a bool input with a bool or integer result
    computes in uint8 (backends lack bool kernels for ``abs``, ``argmax``, ...),
    or float32 for ``mean``, ``std`` and ``var``;
    any other input computes in its own dtype.
    """
    result = function_dtype(policy, op, dtype)
    if dtype.kind == "c":
        compute = result if result.kind == "c" else dtype
    elif result.kind in "fc":
        compute = real_float(result)
        if op in _STATISTICS and compute.bits == 16:  # float16/bfloat16: summed in float32, rounded once
            compute = float32
    elif dtype is bool_:  # a statistic in a float: uint8's would truncate a mean of 2/3 to 0 on torch
        compute = float32 if op in _STATISTICS else uint8
    else:
        compute = dtype
    return result, compute
