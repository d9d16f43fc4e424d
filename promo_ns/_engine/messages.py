"""Explanations: a refusal as a :class:`~promo_ns._engine.operands.PromotionError` that names its fix.

The message names the policy, the op, each operand's dtype and role
(:func:`describe_call`), why the policy refuses, and an explicit cast that
makes the op valid, found by deciding the cell again with the operands cast.
"""

from __future__ import annotations

from collections.abc import Sequence

from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine.decisions import _decide_many, result_cell
from promo_ns._engine.functions import _holds
from promo_ns._engine.operands import _DEFAULT_OF, Operand, PromotionError, Refusal, _kinds
from promo_ns._memo import per_policy
from promo_ns.policies._model import Policy, Role

__all__ = ["describe_call"]


def describe_call(op: str, operands: Sequence[Operand]) -> str:
    """``"add(x1: int8 (n-d array), x2: 1.5 (Python float))"``, ``"log(x: int8 (n-d array))"``: a call."""
    names = ["x"] if len(operands) == 1 else [f"x{i + 1}" for i in range(len(operands))]
    return f"{op}({', '.join(f'{n}: {o.describe()}' for n, o in zip(names, operands, strict=True))})"


def _fix(policy: Policy, op: str, family: str, operands: Sequence[Operand]) -> str:
    """An explicit cast that makes the op valid under ``policy``, in words."""
    if all(o.dtype is None for o in operands):
        return "Fix: make one operand an array first, e.g. xp.asarray(x1)."
    taken = policy.families[family].scalar_kinds if family in policy.families else None
    for i, o in enumerate(operands):
        if o.dtype is None and taken is not None and o.role.kind not in taken:
            value = f"{o.value!r}" if o.value is not None else f"the {o.role}"
            return f"Fix: {op!r} takes no {o.role} here; pass {value} as an int or float, e.g. x{i + 1}=1."
    return _cast_fix(policy, op, family, tuple((o.dtype, o.role) for o in operands))


@per_policy
def _cast_fix(policy: Policy, op: str, family: str, keys: tuple[tuple[DType | None, Role], ...]) -> str:
    """The cast :func:`_fix` suggests for operands ``keys`` (some an array), which depends on no value.

    Cached: code that tries op after op (a probe, a test grid) meets the same refusal often.
    """
    cast = _cast(policy, family, keys)
    if cast:
        return f"Fix: cast explicitly, e.g. {cast}."
    kinds = policy.families[family].kinds if family in policy.families else ""
    if kinds:
        return f"Fix: {op!r} takes {_kinds(kinds)} operands under this policy; cast with xp.astype first."
    return f"Fix: {op!r} is not available under this policy; switch policy with promo_ns.policy(...)."


@per_policy
def _cast(policy: Policy, family: str, keys: tuple[tuple[DType | None, Role], ...]) -> str:
    """The casts that make operands ``keys`` valid under ``family``: ``"xp.astype(x1, xp.int16)"``, or "".

    Cached per family, not per op: finding it decides the cell again per candidate dtype.
    """
    arrays = [(i, d) for i, (d, _) in enumerate(keys) if d is not None]
    # Operand order among equal categories: a set's order would change with the hash seed.
    dtypes = dict.fromkeys(d for _, d in arrays)
    targets = sorted(dtypes, key=lambda d: -d.category)
    for role in [r for d, r in keys if d is None]:
        default = policy.defaults.get(_DEFAULT_OF[role.kind])
        if default is not None and default not in targets:
            targets.append(default)
    holder = _int_holder(list(dtypes))  # integers: first a dtype that holds every operand's values
    wrapping = ""  # a cast that would wrap an integer operand's values: suggested only if nothing else works
    ints = [d for d in dtypes if d.kind in "iu"]
    for target in targets if holder is None else [holder, *targets]:
        trial = tuple((target, Role.ND) if d is not None else (d, r) for d, r in keys)
        if len(trial) == 2:  # the decision tables' cell, decided once
            decided = result_cell(policy, family, (*trial[0], *trial[1]))
        else:
            decided = _decide_many(policy, family, trial)[0]
        if not isinstance(decided, Refusal):
            casts = " and ".join(f"xp.astype(x{i + 1}, xp.{target})" for i, d in arrays if d is not target)
            if casts and target.kind in "biu" and not all(_holds(target, d) for d in ints):
                wrapping = wrapping or casts
            elif casts:
                return casts
    return wrapping


def _int_holder(dtypes: Sequence[DType]) -> DType | None:
    """The narrowest integer dtype that holds every value of ``dtypes``, all bool or integer; else None."""
    if not dtypes or any(d.kind not in "biu" for d in dtypes):
        return None
    holders = [d for d in DTYPES if d.kind in "iu" and all(_holds(d, x) for x in dtypes)]
    return min(holders, key=lambda d: (d.bits, d.kind != "u"), default=None)


def _error(
    policy: Policy, op: str, family: str, operands: Sequence[Operand], refusal: Refusal
) -> PromotionError:
    what = {
        "kind": f"{op!r} does not accept these operand kinds",
        "same_dtype": f"{op!r} does not promote arrays of different dtypes",
        "promotion": "no promotion is defined for these operand dtypes",
        "scalars": "at least one operand must be an array",
    }[refusal.why]
    return PromotionError(
        f"policy {policy.name!r} refuses {describe_call(op, operands)}: {what} "
        f"({policy.reference}). {_fix(policy, op, family, operands)}"
    )
