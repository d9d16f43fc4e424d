"""Algebraic checks of a policy: commutativity of its cells and associativity of its triples.

``python -m promo_ns check POLICY --op OP`` prints :func:`check`'s report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine.operands import Operand, PromotionError
from promo_ns._engine.resolution import resolve
from promo_ns.policies import Policy, Role

__all__ = ["PolicyCheck", "check"]

Answer = DType | None  #: a dtype, or None for a refusal


@dataclass
class PolicyCheck:
    """What :func:`check` found; ``str()`` gives a readable report."""

    policy: str
    op: str
    non_commutative: list[tuple[DType, DType, Answer, Answer]] = field(default_factory=list)
    non_associative: list[tuple[DType, DType, DType, Answer, Answer]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the op is commutative and associative on every n-d array dtype."""
        return not (self.non_commutative or self.non_associative)

    def __str__(self) -> str:
        def name(d: Answer) -> str:
            return "refused" if d is None else d.name

        lines = [
            f"policy {self.policy!r}, {self.op}: {len(self.non_commutative)} non-commutative cells, "
            f"{len(self.non_associative)} non-associative triples"
        ]
        lines += [
            f"  {a} {self.op} {b} = {name(ab)}, but {b} {self.op} {a} = {name(ba)}"
            for a, b, ab, ba in self.non_commutative
        ]
        op = self.op
        lines += [
            f"  ({a} {op} {b}) {op} {c} = {name(left)}, but {a} {op} ({b} {op} {c}) = {name(right)}"
            for a, b, c, left, right in self.non_associative
        ]
        return "\n".join(lines)


def check(policy: Policy, op: str = "add") -> PolicyCheck:
    """Where ``op`` under ``policy`` is not commutative or not associative, on n-d arrays.

    Parameters
    ----------
    policy
        The policy to check (registered or not).
    op
        An op name from :mod:`promo_ns._ops` (``"add"``, ``"less"``, ``"atan2"``, ...).

    Returns
    -------
    PolicyCheck
        The cells ``a op b`` that differ from ``b op a`` (a refusal counts as
        an answer), and the triples where ``(a op b) op c`` differs from
        ``a op (b op c)``, e.g. RFC 431's ``(u8 + i8) + f16`` against
        ``u8 + (i8 + f16)``; ``str()`` gives a readable report.

    Examples
    --------
    >>> from promo_ns import get_policy
    >>> from promo_ns.explore import check
    >>> check(get_policy("array-api"), "add").ok
    True
    """

    def combine(a: Answer, b: Answer) -> Answer:
        if a is None or b is None:
            return None
        try:
            return resolve(policy, op, Operand(a, Role.ND), Operand(b, Role.ND))
        except PromotionError:
            return None

    found = PolicyCheck(policy.name, op)
    for a, b in product(DTYPES, repeat=2):
        ab, ba = combine(a, b), combine(b, a)
        if ab is not ba and DTYPES.index(a) < DTYPES.index(b):
            found.non_commutative.append((a, b, ab, ba))
    for a, b, c in product(DTYPES, repeat=3):
        left, right = combine(combine(a, b), c), combine(a, combine(b, c))
        if left is not right:
            found.non_associative.append((a, b, c, left, right))
    return found
