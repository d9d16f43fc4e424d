"""The policy's ``float_scalars`` rules: how a floating array computes with a Python scalar.

:func:`_float_scalar_rule` says which rule of :attr:`Policy.float_scalars`
applies to a cell of a binary op (torch's ``"float32_opmath"`` for
float16/bfloat16 ``x * s``, ``"reciprocal_then_multiply"`` for ``s / x``, or the
default ``"scalar_rounded_first"``); the plan layer compiles a cell's plan by
it (:func:`promo_ns._plan.plans`), composing ``s / x`` of the kernels here.
:func:`fixed_scalar` checks and converts a cell's Python scalar for the kernel
each call, as the cell's plan says (ranges, a logical op's truth).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._convert import fit
from promo_ns._dtypes import DTYPES, FLOAT_MAX, DType, float32, real_float
from promo_ns._engine.scalars import checked_inexact, checked_int
from promo_ns._operands import Space
from promo_ns.backends import Backend, Plan
from promo_ns.policies import Policy, Role

#: The ops of :attr:`Policy.float_scalars`' operator forms, and their symbols there.
_SYMBOL = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//"}


#: Python scalars that compute with a float array by the policy's ``float_scalars``: a float, or an int.
_PY_REAL = ((None, Role.FLOAT), (None, Role.INT))


def _float_scalar_rule(
    policy: Policy,
    op: str,
    a: tuple[DType | None, Role],
    b: tuple[DType | None, Role],
    compute: DType,
    *,
    function: bool = False,
) -> str | None:
    """The policy's rule (:attr:`Policy.float_scalars`) for cell ``(a, b)`` of ``op``; None if none applies.

    A rule applies to a real floating array with a Python float or int, computing in the array's
    dtype, or, with the array first, a 0-d real array of another dtype that does not decide it;
    ``"reciprocal_then_multiply"`` to any Python scalar over a real array.  The ``"s op x"`` forms
    are the reflected operators' only: a ``function`` with the scalar first rounds it first
    (``torch.multiply(s, x)`` is not ``Tensor.__rmul__``, ``torch.divide(s, x)`` divides).
    """
    symbol = _SYMBOL.get(op)
    if symbol is None or (function and a[0] is None):
        return None
    x = b[0]
    reciprocal = policy.float_scalars.get("s / x") == "reciprocal_then_multiply"
    if symbol == "/" and reciprocal and a[0] is None and x is not None and x.kind in "biuf":
        return "reciprocal_then_multiply"
    if compute.kind != "f":
        return None
    lower_zero_d = b[1] is Role.ZERO_D and x is not None and x is not compute and x.kind in "biuf"
    if a[0] is compute and (b in _PY_REAL or lower_zero_d):
        form = f"x {symbol} s"
    elif a in _PY_REAL and b[0] is compute:
        form = f"s {symbol} x"
    else:
        return None
    rule = policy.float_scalars.get(form, "scalar_rounded_first")
    # float32 and wider compute in themselves: the bits of rounding the scalar first
    return "scalar_rounded_first" if rule == "float32_opmath" and compute.bits >= 32 else rule


def _kernel_rule(rule: str | None) -> str | None:
    """What the op's own kernel must compute for ``rule``.

    ``s / x`` as reciprocal then multiply is composed of other kernels: the
    division's own kernel is not used, and it divides as the default rule does.
    """
    return "scalar_rounded_first" if rule == "reciprocal_then_multiply" else rule


def _reciprocal_in(backend: Backend, reciprocal: Callable[[Any], Any], dtype: DType, x: Any) -> Any:
    """``reciprocal(x)`` computed in ``dtype`` (a bool or integer array's reciprocal is a float)."""
    return reciprocal(backend.astype(x, dtype))


def _reciprocal_then_multiply(
    reciprocal: Callable[[Any], Any], multiply: Callable[[Any, Any], Any], s: Any, x: Any
) -> Any:
    """``s / x`` as ``multiply(reciprocal(x), s)`` (torch's ``Tensor.__rtruediv__``)."""
    return multiply(reciprocal(x), s)


def fixed_scalar(op: str, ns: Space, plan: Plan, x: Any, y: Any, *, index: int) -> tuple[Any, Any, Plan]:
    """Native operands with the Python scalar at ``index`` checked and converted for the kernel, and the plan.

    A Python int is checked against the plan's ``ints`` (one of their
    ``plain`` ints goes as it is); one the policy compares exactly beyond its
    dtype makes the comparison run in float32 with an infinity in its place.
    A value converted to another Python type (an int beyond int64 for a
    floating kernel) leaves the native kernel for the backend's ``binary``.
    A logical op's float or complex becomes 1 or 0 of its type, its truth as
    the policy reads it (``Plan.truth``).
    """
    value = y if index else x
    truth = plan.truth
    if truth is not None and (value.__class__ is float or value.__class__ is complex):
        z = complex(value)  # a logical op reads its truth, as the policy reads it: 1 or 0 of its type
        read = value.__class__(not (abs(z.real) <= truth and abs(z.imag) <= truth))
        return (x, read, plan) if index else (read, y, plan)
    if value.__class__ is float:
        top = _FLOAT_TOP.get(plan.compute)
        if top is not None and -top <= value <= top:  # what checked_inexact() and fit() leave as it is
            return x, y, plan
    ints = plan.ints
    if ints is not None and value.__class__ is int:
        if ints.plain[0] <= value <= ints.plain[1]:
            return x, y, plan
        value = checked_int(ns.policy_now(), op, ints, value, index)
        if value.__class__ is float:  # +-inf: compared exactly beyond the dtype
            plan = plan._replace(compute=float32, direct=False, kernel=None)
    elif value.__class__ is float or value.__class__ is complex:
        checked_inexact(ns.policy_now(), op, value, plan.compute, index)
    converted = fit(value, plan.compute)
    if plan.kernel is not None and converted.__class__ is not value.__class__:
        plan = plan._replace(direct=False, kernel=None)
    return (x, converted, plan) if index else (converted, y, plan)


#: The largest finite value of each floating and complex dtype: a Python float within goes as it is.
_FLOAT_TOP = {d: FLOAT_MAX[real_float(d)] for d in DTYPES if d.kind in "fc"}
