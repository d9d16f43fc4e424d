"""The checks of Python scalars against dtypes: what an int, float or complex operand may be.

:func:`int_limits` looks up, once per cell, what a Python int may be there
(the family's ``int_values`` rule, the ints the framework converts at all, the
range the rule holds it to); :func:`checked_int` and :func:`int_value` check
one.  :func:`checked_float` and :func:`checked_inexact` check a Python float or
complex converting to a dtype.  A value the policy refuses raises the policy's
error (OverflowError, or PromotionError under ``int_values="refuse"``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple, NoReturn

from promo_ns._dtypes import FLOAT_MAX, FLOAT_OVERFLOW, INT_RANGE, DType, a_or_an, bool_, holding, real_float
from promo_ns._engine.decisions import _promotion, cell, compute_cell, family_name, run
from promo_ns._engine.operands import Key, Operand, PromotionError, Refusal
from promo_ns._memo import per_policy
from promo_ns.policies._model import IntRule, Policy, Role

__all__ = [
    "IntLimits",
    "checked_float",
    "checked_inexact",
    "checked_int",
    "checks_inexact",
    "int_limits",
    "int_value",
]

#: The rules of a family without ``int_values`` of its own, by the policy's ``int_values``.
_DEFAULT_RULES: dict[str, Mapping[str, IntRule]] = {
    "wrap": {},
    "overflow": dict.fromkeys("biu", "fit"),
    "refuse": dict.fromkeys("biu", "fit"),
}


class IntLimits(NamedTuple):
    """What a Python int operand may be in one cell (see :func:`int_limits` and :func:`int_value`)."""

    rule: IntRule  #: the family's rule for the array operands' kind
    accepted: tuple[int, int] | None  #: the ints the framework converts at all; None: any
    fits: tuple[float, float] | None  #: the range the rule holds the int to; None: any
    dtype: DType  #: the dtype the int converts to
    integer: bool  #: the op gives a bool or integer result
    #: The ints that pass every check and that the kernel takes as they are (a two-operand cell's
    #: compute dtype holds them): no look at the rule is needed for them.
    plain: tuple[float, float]


def _value_range(dtype: DType, rule: IntRule) -> tuple[float, float] | None:
    """The values of ``dtype`` a Python int may have under ``rule`` (None: any, a bool takes ``bool(v)``)."""
    if dtype.kind in "iu":
        lo, hi = INT_RANGE[dtype]
        return (-hi, hi) if rule == "magnitude" and dtype.kind == "u" else (lo, hi)
    if dtype.kind in "fc":
        top = FLOAT_MAX[real_float(dtype)]
        return -top, top
    return None


@per_policy
def int_limits(policy: Policy, family_name: str, keys: tuple[Key | None, ...], index: int) -> IntLimits:
    """What the Python int at ``keys[index]`` may be in a cell of ``family_name`` under ``policy``.

    ``keys`` are the operands' ``(dtype, role)``, ``None`` for an absent one
    that holds a place (``clip``'s missing bound).  The family's rule is the
    one for the kind of the array operands' highest category (its
    ``int_right`` for the right operand of two); the int converts to the
    operands' plain promotion (the first operand's dtype where the family
    casts).  Under a policy whose ``int_values`` is ``"refuse"`` no rule
    wraps an int into a bool or integer result: ``"wrap"`` and
    ``"magnitude"`` hold it to the dtype's range there.
    """
    family = policy.families[family_name]
    present = tuple(k for k in keys if k is not None)
    decided = run(cell(policy, family, present)).result
    promoted = run(_promotion(policy, present)).result
    arrays = [d for d, _ in present if d is not None] or [promoted if isinstance(promoted, DType) else bool_]
    kind = max(arrays, key=lambda d: d.category).kind
    rules = family.int_right if len(keys) == 2 and index == 1 else None
    rules = rules if rules is not None else family.int_values
    rule = (rules if rules is not None else _DEFAULT_RULES[policy.int_values]).get(kind, "wrap")
    integer = isinstance(decided, DType) and decided.kind in "biu"
    if policy.int_values == "refuse" and integer and rule in ("wrap", "magnitude"):
        rule = _DEFAULT_RULES["refuse"].get(kind, rule)  # "refuse" lets no family wrap an int silently
    ranges = family.int_range if family.int_range is not None else policy.int_range
    if len(keys) == 2 and index == 0 and family.int_range_left is not None:
        ranges = family.int_range_left
    dtype = arrays[0] if family.cast is not None or not isinstance(promoted, DType) else promoted
    fits = None if rule == "wrap" else _value_range(dtype, rule)
    accepted = ranges.get(kind)
    plain = (-math.inf, math.inf) if len(present) == 2 else (0, -1)
    negative = (0, math.inf) if rule == "non-negative" and integer else None
    for bounds in (accepted, fits, negative, _unconverted(policy, family_name, present)):
        if bounds is not None:
            plain = (max(plain[0], bounds[0]), min(plain[1], bounds[1]))
    return IntLimits(rule, accepted, fits, dtype, integer, plain)


def _unconverted(policy: Policy, family_name: str, keys: tuple[Key, ...]) -> tuple[float, float] | None:
    """The Python ints the kernel of a two-operand cell takes as they are, in the dtype it computes in.

    An integer dtype's range; for a floating one, the ints within int64 it
    does not round to infinity; none for bool (``bool(v)`` converts them).
    """
    if len(keys) != 2:
        return None
    decided = compute_cell(policy, family_name, (keys[0][0], keys[0][1], keys[1][0], keys[1][1]))
    if isinstance(decided, Refusal) or decided[1].kind == "b":
        return (0, -1)
    compute = decided[1]
    if compute.kind in "iu":
        return INT_RANGE[compute]
    top = min(FLOAT_OVERFLOW[real_float(compute)] - 1, 2**63 - 1)
    return (-top, top)


def int_value(policy: Policy, op: str, operands: Sequence[Operand | None], index: int) -> int | float | None:
    """What the Python int ``operands[index]`` stands for in ``op`` under ``policy``, checked.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        The op, whose family's ``int_values`` and ``int_range`` apply.
    operands
        The op's operands in order; ``None`` holds the place of an absent one
        (``clip``'s missing bound).
    index
        The position of the Python int.

    Returns
    -------
    int or float or None
        The int itself, which the plan converts into the dtype the op computes
        in (modulo ``2**bits`` into an integer); ``math.inf`` or ``-math.inf``
        where the op compares exactly with an int beyond the dtype (rule
        ``"exact"``: the comparison then runs with that infinity); None where
        ``clip`` drops the bound (rule ``"bounds"``).

    Raises
    ------
    OverflowError
        The int is outside what the policy takes there (``PromotionError``
        under a policy whose ``int_values`` is ``"refuse"``).
    ValueError
        A negative exponent of an integer power (rule ``"non-negative"``).
    """
    value: int = operands[index].value  # type: ignore[union-attr,assignment]
    keys = tuple(None if o is None else (o.dtype, o.role) for o in operands)
    limits = int_limits(policy, family_name(policy, op), keys, index)
    return checked_int(policy, op, limits, value, index)


def checked_int(policy: Policy, op: str, limits: IntLimits, value: int, index: int) -> int | float | None:
    """:func:`int_value` of ``value`` at ``index``, with the cell's ``limits`` already looked up."""
    accepted = limits.accepted
    if accepted is not None and not accepted[0] <= value <= accepted[1]:
        _int_error(
            policy,
            f"Python int {value} is out of range for {op!r}: it takes Python ints in "
            f"{accepted[0]}..{accepted[1]}",
            _as_float_fix(policy, op, value),
        )
    fits = limits.fits
    if fits is None:
        return value
    lo, hi = fits
    if limits.rule == "non-negative" and value < 0 and limits.integer:
        raise ValueError(
            f"policy {policy.name!r} refuses {op!r} of {a_or_an(limits.dtype)} array with the Python int "
            f"{value}: integers to negative integer powers are not allowed ({policy.reference}). Fix: "
            f"cast the array to a floating dtype first, e.g. xp.astype(x, xp.float64) ** {value}."
        )
    if lo <= value <= hi:
        return value
    if limits.rule == "exact":
        return math.inf if value > hi else -math.inf
    if limits.rule == "bounds" and (value < lo) == (index == 1):
        return None
    shown = f"{lo:g}..{hi:g}" if isinstance(lo, float) else f"{lo}..{hi}"
    wider = holding(value, limits.dtype)
    if op == "setitem" or policy.families[family_name(policy, op)].cast is not None:  # x keeps its dtype
        fix = (
            f"Fix: the array keeps its dtype, {limits.dtype}; cast it to one that holds {value} first, "
            f"e.g. x = xp.astype(x, xp.{wider})."
        )
    else:
        fix = f"Fix: cast the array operand to a dtype that holds {value} first: xp.astype(x, xp.{wider})."
    _int_error(policy, f"Python int {value} is out of range for {limits.dtype} ({shown}) in {op!r}", fix)


def checked_float(policy: Policy, op: str, value: float, dtype: DType) -> float:
    """Python float ``value`` converted into integer ``dtype`` by ``op``'s cast: checked, never wrapped.

    Raises
    ------
    ValueError
        ``value`` is NaN.
    OverflowError
        ``value`` (``"within"``) or its integer part (``"truncated"``) is beyond ``dtype``.
    """
    family = policy.families.get(family_name(policy, op))
    rule = family.float_values if family is not None else "truncated"
    lo, hi = INT_RANGE[dtype]
    if math.isnan(value):
        raise ValueError(
            f"{op!r} cannot convert the Python float NaN into {a_or_an(dtype)} array under policy "
            f"{policy.name!r}; an integer has no NaN. Fix: a float array holds it, e.g. "
            "xp.astype(x, xp.float64)."
        )
    fits = lo <= value <= hi if rule == "within" else math.isfinite(value) and lo <= math.trunc(value) <= hi
    if not fits:
        raise OverflowError(
            f"Python float {value!r} is out of range for {dtype} ({lo}..{hi}) in {op!r} under policy "
            f"{policy.name!r} ({policy.reference}): it would not be written as it is. Fix: write a value "
            f"the dtype holds, or cast the array to a float dtype first, e.g. xp.astype(x, xp.float64)."
        )
    return value


def checks_inexact(policy: Policy, family_name: str, dtype: DType, role: Role, index: int) -> bool:
    """Whether a Python float or complex (``role``) at ``index``, converting to ``dtype``, is checked.

    See :attr:`Family.float_fits` and :attr:`Family.complex_to_real`.
    """
    family = policy.families.get(family_name)
    if family is None or role not in (Role.FLOAT, Role.COMPLEX):
        return False
    if role is Role.COMPLEX and dtype.kind in "iuf" and family.complex_to_real == "zero_imag":
        return True
    fits = (
        family.float_fits_right if index == 1 and family.float_fits_right is not None else family.float_fits
    )
    return dtype in fits


def checked_inexact(
    policy: Policy, op: str, value: float | complex, dtype: DType, index: int
) -> float | complex:
    """Python float or complex ``value`` at ``index`` of ``op``, converting to ``dtype``, checked.

    A float into an integer dtype is :func:`checked_float`'s; into a floating
    one, it must fit where the family's ``float_fits`` says; a complex into a
    real dtype must have no imaginary part where ``complex_to_real`` takes it.

    Raises
    ------
    OverflowError
        The value does not convert to ``dtype`` under the policy.
    ValueError
        A NaN into an integer dtype.
    """
    name = family_name(policy, op)
    if (
        value.__class__ is complex
        and dtype.kind in "iuf"
        and checks_inexact(policy, name, dtype, Role.COMPLEX, index)
    ):
        if value.imag != 0:
            raise OverflowError(
                f"Python complex {value!r} does not convert to {dtype} in {op!r} under policy "
                f"{policy.name!r} ({policy.reference}): its imaginary part is not 0. Fix: pass its real "
                f"part, or cast the array to a complex dtype first, e.g. xp.astype(x, xp.complex64)."
            )
        value = value.real
    if value.__class__ is float and dtype.kind in "iu":
        return checked_float(policy, op, value, dtype)
    if value.__class__ is float and checks_inexact(policy, name, dtype, Role.FLOAT, index):
        top = FLOAT_MAX[real_float(dtype)]
        if math.isfinite(value) and abs(value) > top:
            raise OverflowError(
                f"Python float {value!r} is out of range for {dtype} (-{top:g}..{top:g}) in {op!r} under "
                f"policy {policy.name!r} ({policy.reference}). Fix: pass a value the dtype holds, or cast "
                f"the array to a wider float first, e.g. xp.astype(x, xp.float64)."
            )
    return value


def _as_float_fix(policy: Policy, op: str, value: int) -> str:
    """The fix for a Python int the framework cannot convert at all: a Python float, into a float array."""
    if op == "setitem" or policy.families[family_name(policy, op)].cast is not None:  # x keeps its dtype
        return (
            f"Fix: write it as a Python float into an array of a floating dtype, e.g. "
            f"x = xp.astype(x, xp.float64), then pass {float(value)!r}."
        )
    return (
        f"Fix: pass it as a Python float, {float(value)!r}, with an array of a floating dtype, e.g. "
        "xp.astype(x, xp.float64)."
    )


def _int_error(policy: Policy, what: str, fix: str) -> NoReturn:
    """Raise the policy's error for a Python int value it refuses: ``what`` is wrong, and the ``fix``."""
    msg = f"{what} under policy {policy.name!r} ({policy.reference}). {fix}"
    if policy.int_values == "refuse":
        raise PromotionError(msg)
    raise OverflowError(msg)
