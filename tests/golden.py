"""Golden tables: the engine's answer for every cell, compared with a framework's observations."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from conformance.frameworks import _cells, _fidelity
from promo_ns import PromotionError
from promo_ns._dtypes import BY_NAME
from promo_ns._engine.functions import accumulation_dtype
from promo_ns._engine.operands import Operand
from promo_ns._engine.resolution import resolve
from promo_ns.policies import Policy
from promo_ns.policies._model import Role

_ROLES = {"nd": Role.ND, "0d": Role.ZERO_D, **{k: Role(f"Python {k}") for k in _cells.SCALAR_KINDS}}
#: The engine op answering each probed op.
_ENGINE_OP = {"iadd": "add", "add_out_of_range": "add"}


@cache
def observations(policy: str) -> dict[str, Any]:
    """The framework's observations for ``policy`` (live where cheap), probed once per process."""
    return _fidelity.observations(policy)


def to_operand(token: str, op: str, left: str) -> Operand:
    """The engine operand of a cell token."""
    head, role = token.split(":")
    if head == "py":
        value = (
            _cells.INT_RANGES[left.split(":", maxsplit=1)[0]][1] + 1
            if op in _cells.OUT_OF_RANGE_OPS
            else _cells.SCALAR_VALUES[role]
        )
        return Operand(None, _ROLES[role], value)
    return Operand(BY_NAME[head], _ROLES[role])


def answer(policy: Policy, op: str, key: str) -> str:
    """The engine's answer for a cell, in the observations' vocabulary."""
    tokens = key.split("|")
    operands = [to_operand(t, op, tokens[0]) for t in tokens]
    if op in _cells.UNARY_OPS:
        dtype = operands[0].dtype
        assert dtype is not None
        try:
            return accumulation_dtype(policy, op, dtype).name
        except PromotionError:
            return "refused"
    try:
        a, b = operands
        return resolve(policy, _ENGINE_OP.get(op, op), a, b, inplace=op == "iadd").name
    except PromotionError:
        return "refused"
    except OverflowError:
        return "overflow"


def diff(
    policy: Policy,
    observed: Mapping[str, Mapping[str, str]],
    deviation: Callable[[str, str, str], bool] = lambda op, key, seen: False,
) -> list[str]:
    """Every cell where the engine disagrees with an observation the framework decided.

    Cells the framework could not run (``"unsupported: ..."``) are not compared;
    ``deviation(op, key, observed)`` marks documented deviations.
    """
    rows = []
    for op, cells in observed.items():
        for key, seen in cells.items():
            if seen.startswith("unsupported") or deviation(op, key, seen):
                continue
            got = answer(policy, op, key)
            if got != seen:
                rows.append(f"{op:<20} {key:<28} framework={seen:<12} promo_ns={got}")
    return rows


def report(policy: Policy, rows: list[str], limit: int = 80) -> str:
    """A cell-by-cell diff for an assertion message."""
    head = f"{len(rows)} cells differ between policy {policy.name!r} and {policy.reference}:"
    more = [f"... and {len(rows) - limit} more"] if len(rows) > limit else []
    return "\n".join([head, *rows[:limit], *more])
