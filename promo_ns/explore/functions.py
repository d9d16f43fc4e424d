"""One-array functions and reductions in the explorer: their dtypes per input dtype, as text.

``python -m promo_ns table POLICY --op log`` prints :func:`function_table`,
``explain POLICY log int32`` :func:`explain_function`, and ``diff A B --op
sum`` :func:`function_diff`.  A one-array function's dtype is a column of the
policy's ``functions`` grid (``promo_ns._ops.FUNCTION_FAMILY`` names it); a
reduction that accumulates (``sum``, ``prod``, ``cumulative_*``) takes the
policy's ``accumulate`` map, when called without ``dtype=``.
"""

from __future__ import annotations

from collections.abc import Sequence

from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine.functions import accumulation_dtype, function_dtype
from promo_ns._engine.operands import Operand, PromotionError
from promo_ns._ops import FAMILY, FUNCTION_FAMILY
from promo_ns._words import closest
from promo_ns.explore.explanation import Explanation
from promo_ns.explore.tables import legend_dtypes, paint
from promo_ns.policies import Policy, Role

__all__ = [
    "ACCUMULATING",
    "check_count",
    "explain_function",
    "function_diff",
    "function_table",
    "function_verb",
    "is_function",
]

#: The reductions whose dtype is the policy's accumulation dtype (without ``dtype=``).
ACCUMULATING = ("sum", "prod", "cumulative_sum", "cumulative_prod")


def is_function(op: str) -> bool:
    """Whether ``op`` is a one-array function or an accumulating reduction (not an op of two operands)."""
    return op in FUNCTION_FAMILY or op in ACCUMULATING


def _result(policy: Policy, op: str, dtype: DType) -> DType:
    """The dtype of ``op`` on a ``dtype`` array under ``policy``; PromotionError where refused."""
    if op in ACCUMULATING:
        return accumulation_dtype(policy, op, dtype)
    return function_dtype(policy, op, dtype)


def _results(policy: Policy, op: str) -> list[DType | None]:
    """``op``'s result dtype per input dtype, in :data:`DTYPES` order (None: refused)."""
    out: list[DType | None] = []
    for d in DTYPES:
        try:
            out.append(_result(policy, op, d))
        except PromotionError:
            out.append(None)
    return out


def _what(policy: Policy, op: str) -> str:
    """What decides ``op``'s dtype under ``policy``, in words."""
    if op in ACCUMULATING:
        table = f"the {op} map" if op in policy.accumulate_ops else "the accumulate map"
        return f"a reduction: without dtype=, it accumulates in the dtype {table} of the policy gives"
    return (
        f"a one-array function: its dtype is the {FUNCTION_FAMILY[op]!r} column of the policy's function grid"
    )


def function_table(policy: Policy, op: str, *, color: bool = False) -> str:
    """The result dtype of one-array function (or reduction) ``op`` for each input dtype, as text.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        A one-array function (``"log"``, ``"mean"``, ``"linalg.inv"``) or a
        reduction that accumulates (``"sum"``).
    color
        Paint each result by its kind (ANSI).

    Returns
    -------
    str
        The heading, a row of input dtypes over a row of results, and a legend.
    """
    results = _results(policy, op)
    width = 5
    inputs = "".join(f"{d.short:>{width}}" for d in DTYPES)
    answers = "".join(paint(f"{(r.short if r else '-'):>{width}}", r, color) for r in results)
    return "\n\n".join(
        [
            f"policy {policy.name!r} ({policy.reference}): {op}, {_what(policy, op)}",
            f" input{inputs}\nresult{answers}",
            f"result: the dtype of {op}(x) for an array x of the input dtype; -: refused, the function "
            f"raises PromotionError\n{legend_dtypes(color)}",
        ]
    )


def explain_function(policy: Policy, op: str, x: Operand) -> Explanation:
    """The dtype of one-array function (or reduction) ``op`` on array ``x`` under ``policy``, and why.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        A one-array function or a reduction that accumulates.
    x
        The array operand (a dtype, n-d or 0-d: the dtype decides alone).

    Returns
    -------
    Explanation
        The result dtype, or the PromotionError the function raises, and the steps.

    Raises
    ------
    ValueError
        ``x`` is a Python scalar: these functions take an array.
    """
    dtype = _check_array(op, x)
    steps = [f"{op!r} is {_what(policy, op)}"]
    try:
        result = _result(policy, op, dtype)
    except PromotionError as exc:
        where = "takes no" if op in ACCUMULATING else "has no cell for"
        steps.append(f"{'it' if op in ACCUMULATING else 'the grid'} {where} {x.dtype}: refused")
        return Explanation(policy, op, (x,), None, exc, tuple(steps))
    steps.append(f"{'the map' if op in ACCUMULATING else 'the grid'} gives {result} for {x.dtype}")
    return Explanation(policy, op, (x,), result, None, tuple(steps))


def function_diff(chosen: Sequence[Policy], op: str, *, color: bool = False) -> str:
    """The input dtypes where the ``chosen`` policies give one-array function ``op`` different dtypes."""
    if len(chosen) < 2:
        raise ValueError("diff needs two or more policies")
    columns = [_results(p, op) for p in chosen]
    rows = [(d, [c[i] for c in columns]) for i, d in enumerate(DTYPES) if len({c[i] for c in columns}) > 1]
    names = ", ".join(repr(p.name) for p in chosen[:-1]) + f" and {chosen[-1].name!r}"
    if not rows:
        return f"{names} agree on {op} of every input dtype"
    cols = max(10, *(len(p.name) for p in chosen))
    width = len(op) + 2 + max(len(str(d)) for d, _ in rows)
    lines = [f"{len(rows)} input dtypes of {op} where {names} disagree"]
    lines.append(" " * width + "".join(f"  {p.name:>{cols}}" for p in chosen))
    for d, answers in rows:
        cells = "".join("  " + paint(f"{(r.name if r else 'refused'):>{cols}}", r, color) for r in answers)
        lines.append(f"{f'{op}({d})':{width}}{cells}")
    lines.append("refused: the policy raises PromotionError on an array of that dtype")
    return "\n".join(lines)


def check_count(op: str, operands: Sequence[Operand]) -> None:
    """A ValueError where ``explain`` got a number of operands that ``op`` does not take."""
    wanted = 1 if is_function(op) else 2
    if len(operands) != wanted:
        what = "one array (a dtype)" if wanted == 1 else "two operands"
        given = ", ".join(o.describe() for o in operands)
        others = [*FUNCTION_FAMILY, *ACCUMULATING] if len(operands) == 1 else list(FAMILY)
        close = closest(op, others)
        mean = f"; did you mean {close!r}?" if close else ""
        raise ValueError(f"{op} takes {what}, got {len(operands)}: {given}{mean}")
    if wanted == 1:
        _check_array(op, operands[0])


def _check_array(op: str, x: Operand) -> DType:
    """The dtype of function ``op``'s operand ``x``; a ValueError where ``x`` is no array."""
    if x.dtype is None or x.role not in (Role.ND, Role.ZERO_D):
        raise ValueError(f"{op} takes one array: write its dtype (int8, f32:0d), not {x.describe()}")
    return x.dtype


def function_verb(
    verb: str, chosen: Sequence[Policy], op: str, operands: Sequence[Operand], color: bool
) -> str:
    """What ``table``, ``explain`` (of ``operands``) or ``diff`` prints for function ``op``."""
    if verb == "table":
        return function_table(chosen[0], op, color=color)
    if verb == "explain":
        return str(explain_function(chosen[0], op, operands[0]))
    return function_diff(chosen, op, color=color)
