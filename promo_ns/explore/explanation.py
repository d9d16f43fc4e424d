"""``explain``: one op's answer under a policy, and the rule that decided it, step by step.

``python -m promo_ns explain POLICY OP OPERAND OPERAND`` prints :func:`explain`'s report.
"""

from __future__ import annotations

from typing import NamedTuple

from promo_ns._dtypes import DType
from promo_ns._engine.decisions import cell, family_name, run
from promo_ns._engine.messages import describe_call
from promo_ns._engine.operands import Operand, PromotionError
from promo_ns._engine.resolution import resolve
from promo_ns.policies import Family, Policy

__all__ = ["Explanation", "explain"]


def _roles(policy: Policy, family: Family | None) -> str:
    """The policy's role model, in words, with ``family``'s override of it."""
    if policy.roles == "weak-scalars":
        return (
            "every array counts with its own dtype, 0-d arrays and NumPy scalars too; "
            "a Python scalar is weak: it adapts to the arrays' dtype through the scalar grid"
        )
    text = (
        "operands rank in priority classes, n-d arrays above 0-d arrays above Python scalars; a lower "
        f"class counts only when its category (bool < integer < float < complex) is {policy.cross_when}"
    )
    when = family.zero_d_cross_when if family is not None else None
    if when is not None and when != policy.cross_when:
        text += "; for this op, 0-d arrays count against n-d arrays " + (
            "whatever their category" if when == "always" else f"when their category is {when}"
        )
    return text


class Explanation(NamedTuple):
    """What :func:`explain` found: the answer, and the rule that gave it, step by step."""

    policy: Policy
    op: str
    operands: tuple[Operand, ...]
    result: DType | None
    error: Exception | None
    steps: tuple[str, ...]

    def __str__(self) -> str:
        answer = f"-> {self.result}" if self.error is None else f"-> refused ({type(self.error).__name__})"
        call = describe_call(self.op, self.operands)
        lines = [f"policy {self.policy.name!r} ({self.policy.reference}): {call} {answer}"]
        lines += [f"  {i}. {step}" for i, step in enumerate(self.steps, 1)]
        if self.error is not None:
            lines.append(f"  {self.error}")
        return "\n".join(lines)


def explain(policy: Policy, op: str, a: Operand, b: Operand) -> Explanation:
    """The result of binary ``op`` on ``a`` and ``b`` under ``policy``, with the rule that decided.

    The steps are the reasons of the stages that compile the engine's lookup
    tables (:func:`promo_ns._engine.decisions.cell`), so the explanation and the op's own
    answer cannot disagree.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        An op name from :mod:`promo_ns._ops` (``"add"``, ``"less"``, ``"atan2"``, ...).
    a, b
        The operands, left then right.

    Returns
    -------
    Explanation
        The result dtype (or the error :func:`~promo_ns._engine.resolution.resolve` raises),
        and each step of the decision in words; ``str()`` gives a readable report.

    Raises
    ------
    ValueError
        ``op`` does not combine operands.

    Examples
    --------
    >>> from promo_ns import get_policy
    >>> from promo_ns._dtypes import int8, uint8
    >>> from promo_ns._engine.operands import Operand
    >>> from promo_ns.policies import Role
    >>> explain(get_policy("numpy"), "add", Operand(uint8, Role.ND), Operand(int8, Role.ND)).steps[-1]
    'the array grid gives int16 for uint8 with int8'
    """
    name = family_name(policy, op)
    family = policy.families.get(name)
    decision = run(cell(policy, family, [(a.dtype, a.role), (b.dtype, b.role)]))
    steps = (f"{op!r} follows the rules of the {name!r} op family", _roles(policy, family), *decision.reasons)
    try:
        return Explanation(policy, op, (a, b), resolve(policy, op, a, b), None, steps)
    except (PromotionError, OverflowError, ValueError) as exc:  # ValueError: a negative int exponent
        return Explanation(policy, op, (a, b), None, exc, steps)
