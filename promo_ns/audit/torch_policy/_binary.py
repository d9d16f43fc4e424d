"""Torch's spellings of the binary elementwise ops, ``where`` and ``x[key] = value``, and their operands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from promo_ns._ops import COMPARISONS, NATIVE, OPERATORS
from promo_ns._plan import INPLACE, NORMAL, PREPARE, REFLECTED, operator
from promo_ns.audit.torch_policy._call import is_operand

__all__ = ["FUNCTION", "OPERATOR_PATHS", "SPELLINGS", "operands"]

#: How a torch callable spells an op: the function (``torch.add``, ``Tensor.add``), or an
#: operator mode of :func:`promo_ns._plan.operator` (``x + y``, ``1 + x``, ``x += y``/``x.add_(y)``;
#: ``PREPARE``: ``x[key] = value``, the value checked and converted as ``x``'s setitem takes it).
FUNCTION = -1
#: torch names of the standard's ops where torch spells them otherwise (``torch.sub``).
_TORCH_ALIASES = {
    **{op: (op,) for op in ("subtract", "multiply", "greater", "greater_equal", "less", "less_equal")},
    "not_equal": ("not_equal",),
    "divide": ("divide", "true_divide"),
    "atan2": ("arctan2",),
}


def _spellings() -> dict[Callable[..., Any], tuple[str, int]]:
    """Every torch callable of a binary op (functions, methods, operators) -> (op, spelling)."""
    out: dict[Callable[..., Any], tuple[str, int]] = {}
    for op, (_, name) in NATIVE.items():
        for alias in (name, *_TORCH_ALIASES.get(op, ())):
            for owner in (torch, torch.Tensor):
                if (fn := getattr(owner, alias, None)) is not None:
                    out[fn] = (op, FUNCTION)
            if (fn := getattr(torch.Tensor, f"{alias}_", None)) is not None:
                out[fn] = (op, INPLACE)
        if op in OPERATORS:
            dunder = OPERATORS[op]
            out[getattr(torch.Tensor, f"__{dunder}__")] = (op, NORMAL)
            if op not in COMPARISONS:
                out[getattr(torch.Tensor, f"__r{dunder}__")] = (op, REFLECTED)
                out[getattr(torch.Tensor, f"__i{dunder}__")] = (op, INPLACE)
    out[torch.where] = ("where", FUNCTION)
    out[torch.Tensor.where] = ("where", FUNCTION)
    out[torch.Tensor.__setitem__] = ("setitem", PREPARE)
    return out


SPELLINGS = _spellings()
#: (op, operator mode) -> promo_ns's binary path of that spelling, taking a promo_ns array first.
OPERATOR_PATHS = {(op, mode): operator(op, mode) for op, mode in set(SPELLINGS.values()) if mode != FUNCTION}


def operands(op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any] | None:
    """The op's operands from torch's arguments; None unless they are tensors and Python or NumPy scalars.

    Those of ``x[key] = value`` are ``x`` and ``value``.
    """
    arity = 3 if op == "where" else 2
    values = [args[0], args[2]] if op == "setitem" and len(args) == 3 else list(args)
    for name in ("input", "other") if op != "where" else ("condition", "input", "other"):
        if name in kwargs:
            values.append(kwargs.pop(name))
    if kwargs:  # out=, alpha=, rounding_mode=: torch's own function
        return None
    if len(values) != arity or not all(map(is_operand, values)):
        return None
    if not isinstance(values[0], torch.Tensor) and not isinstance(values[-1], torch.Tensor):
        return None
    return values
