"""The compiled plans of binary cells: one per (policy, backend, op, operand codes), made on first use.

A plan says what :func:`promo_ns._plan.operator` does with two operands: the
result and compute dtypes, whether the backend's own kernel runs on them as
they are, the checks a Python scalar needs, and whether ``a op= b`` may store
the result.  A new policy compiles only the cells its code meets.
"""

from __future__ import annotations

from functools import partial

from promo_ns._dtypes import DType, bfloat16, complex64, float16, float32
from promo_ns._engine.decisions import compute_cell, family_name, promoted_cell
from promo_ns._engine.functions import function_dtype
from promo_ns._engine.operands import Refusal
from promo_ns._engine.resolution import inplace_allowed
from promo_ns._engine.scalars import checks_inexact, int_limits
from promo_ns._float_scalars import (
    _float_scalar_rule,
    _kernel_rule,
    _reciprocal_in,
    _reciprocal_then_multiply,
)
from promo_ns._memo import per_policy
from promo_ns._operands import _KEYS, _NK, code_of
from promo_ns.backends import Backend, Plan, Values
from promo_ns.policies import Family, Policy, Role

__all__ = ["plan_of", "plans", "refusals"]


_KIND = {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c"}


@per_policy
def plans(policy: Policy, backend: Backend, op: str, *, function: bool) -> list[Plan | None]:
    """The plans of ``op``'s cells under ``policy`` on ``backend``, indexed ``code1 * NK + code2``.

    Compiled a cell at a time (:func:`plan_of`): a cell is None until it is
    first used, and stays None where the policy refuses it.  ``function``: the
    cells of the function spelling (``xp.divide(s, x)``), where they are not
    the reflected operator's (the policy's ``"s op x"`` rules).
    """
    return [None] * (_NK * _NK)


@per_policy
def refusals(policy: Policy, op: str) -> dict[tuple[int, bool], str]:
    """The messages of ``op``'s refused cells of two arrays, by ``(code1 * NK + code2, in place)``.

    Filled by the plan layer the first time it raises each (a cell with a
    Python scalar names its value, so its message is not kept).
    """
    return {}


@per_policy
def _refused(policy: Policy, backend: Backend, op: str, *, function: bool) -> set[int]:
    """The cells of :func:`plans` compiled and found refused."""
    return set()


def plan_of(policy: Policy, backend: Backend, op: str, code: int, *, function: bool = False) -> Plan | None:
    """The plan of cell ``code`` (``code1 * NK + code2``) of ``op``, compiled on first use; None: refused."""
    cells = plans(policy, backend, op, function=function)
    plan = cells[code]
    if plan is None:
        refused = _refused(policy, backend, op, function=function)
        if code in refused:
            return None
        plan = _compile(policy, backend, op, _KEYS[code // _NK], _KEYS[code % _NK], function=function)
        if plan is None:
            refused.add(code)
        else:
            cells[code] = plan
    return plan


def _compile(
    policy: Policy,
    backend: Backend,
    op: str,
    a: tuple[DType | None, Role],
    b: tuple[DType | None, Role],
    *,
    function: bool,
) -> Plan | None:
    """The plan of cell ``(a, b)`` of ``op``, or None where the policy refuses it.

    A cell runs the native kernel on the operands as they are (``direct``) only
    where the backend's own promotion gives the same result and compute dtypes,
    plain promotion already reaches the compute dtype (no kernel maps int to
    float on its own), and the backend's ``not_native`` does not list it.
    """
    if a[0] is None and b[0] is None:  # no operator meets two Python scalars
        return None
    native_policy = backend.native_policy
    family = family_name(policy, op)
    k = (a[0], a[1], b[0], b[1])
    cell = compute_cell(policy, family, k)
    if isinstance(cell, Refusal):
        return None
    rules = policy.families.get(family)
    values = (
        Values() if rules is None else Values(rules.zero_divisor, rules.negative_powers, rules.zero_remainder)
    )
    result, compute = cell
    scalar = next((r for d, r in (a, b) if d is None), None)
    converts = scalar is not None and (
        (scalar is Role.INT and compute.kind in "iu")
        or "bifc".index(scalar.kind) > "bifc".index(_KIND[compute.kind])
    )
    ints = None if scalar is not Role.INT else int_limits(policy, family, (a, b), int(a[0] is not None))
    truth = _truth_limit(rules, family, scalar, compute)
    fix = (
        converts
        or ints is not None
        or truth is not None
        or (scalar is not None and checks_inexact(policy, family, compute, scalar, int(a[0] is not None)))
    )
    rule = _float_scalar_rule(policy, op, a, b, compute, function=function)
    direct = (
        not converts
        and promoted_cell(native_policy, k) is compute
        and compute_cell(native_policy, family_name(native_policy, op), k) == cell
        and _kernel_rule(rule) == _kernel_rule(_float_scalar_rule(native_policy, op, a, b, compute))
        and not any((o, d, compute) in backend.not_native for o in (op, None) for d in (a[0], b[0]))
    )
    inplace_ok = inplace_allowed(policy, op, a, b)
    kernel = None
    if direct:
        kernel = backend.kernel(op, a[0] or a[1], b[0] or b[1], compute, result, values=values)
    arrays = a[1] is Role.ND and b[1] is Role.ND and rule is None
    stored_as_computed = inplace_ok and direct and a[0] is compute and result is compute
    # setitem (x[key] = value): the backend's own store, where the value needs no check
    stores = (inplace_ok and not fix) if op == "setitem" else (arrays and stored_as_computed)
    plan = Plan(
        code_of(result, all(r is not Role.ND for _, r in (a, b))),
        compute,
        direct,
        result is not compute,
        fix,
        inplace_ok,
        kernel,
        ints=ints,
        values=values,
        arrays_kernel=kernel if arrays else None,
        inplace_kernel=backend.inplace_kernel(op, compute, values) if stores else None,
        truth=truth,
    )
    return plan if rule is None else _float_scalar_plan(op, plan, rule, policy, backend, cell=(a, b))


#: The largest magnitude that rounds to 0 in each floating dtype narrower than a Python float
#: (half its smallest subnormal, a tie that rounds to even), a complex's per part.
_ROUNDS_TO_ZERO = {float16: 2.0**-25, bfloat16: 2.0**-134, float32: 2.0**-150, complex64: 2.0**-150}


def _truth_limit(rules: Family | None, family: str, scalar: Role | None, compute: DType) -> float | None:
    """``Plan.truth`` of a logical op's Python float or complex computing in ``compute``; else None.

    Where ``compute`` holds every Python float, both readings of
    ``Family.scalar_truth`` agree and the kernel reads the value as it is.
    """
    if family != "logical" or rules is None or scalar not in (Role.FLOAT, Role.COMPLEX):
        return None
    limit = _ROUNDS_TO_ZERO.get(compute)
    if limit is None:
        return None
    return 0.0 if rules.scalar_truth == "as_written" else limit


def _float_scalar_plan(
    op: str,
    plan: Plan,
    rule: str,
    policy: Policy,
    backend: Backend,
    *,
    cell: tuple[tuple[DType | None, Role], tuple[DType | None, Role]],
) -> Plan:
    """``plan`` of ``op``'s cell ``(a, b)``, as the policy's ``rule`` computes it.

    See :func:`_float_scalar_rule`.

    ``"float32_opmath"``: a float16/bfloat16 cell computes in float32 and is
    rounded once.  ``"reciprocal_then_multiply"`` (``s / x``): the array's
    reciprocal (in the policy's ``reciprocal`` dtype for a bool or integer
    array), then the policy's ``x * s`` cell of that and the scalar.
    """
    compute = plan.compute
    if rule == "float32_opmath":
        kernel = plan.kernel if plan.direct else backend.rounded_kernel(op, float32, compute, plan.values)
        return plan._replace(compute=float32, rounded=compute, kernel=kernel)
    if rule == "reciprocal_then_multiply":
        a, b = cell
        x = b[0]
        assert x is not None  # the array of ``s / x``
        inverse = x if x.kind == "f" else function_dtype(policy, "reciprocal", x)
        code = code_of(inverse, b[1] is Role.ZERO_D) * _NK + _KEYS.index(a)
        times = plan_of(policy, backend, "multiply", code)
        assert times is not None  # a float array times a Python scalar: every policy computes it
        multiply = times.kernel or partial(backend.binary, "multiply", plan=times)
        reciprocal = backend.compat.reciprocal
        if inverse is not x:
            reciprocal = partial(_reciprocal_in, backend, reciprocal, inverse)
        return plan._replace(
            compute=times.compute,
            direct=False,
            kernel=partial(_reciprocal_then_multiply, reciprocal, multiply),
            rounded=times.rounded,
        )
    return plan
