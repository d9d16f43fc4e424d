"""One table: every op that combines operands, and the op family whose rule it follows."""

from __future__ import annotations

from typing import Final

__all__ = ["FAMILY", "family_of"]

#: op name -> op family (see :data:`promo_ns.policies._model.FAMILIES`).
FAMILY: Final[dict[str, str]] = {
    **dict.fromkeys(("add", "subtract", "multiply"), "arithmetic"),
    "pow": "power",
    **dict.fromkeys(("floor_divide", "remainder"), "real_arithmetic"),
    **dict.fromkeys(("maximum", "minimum"), "extrema"),
    "divide": "true_divide",
    **dict.fromkeys(("equal", "not_equal"), "comparison"),
    **dict.fromkeys(("less", "less_equal", "greater", "greater_equal"), "ordering"),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor"), "logical"),
    **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor"), "bitwise"),
    **dict.fromkeys(("bitwise_left_shift", "bitwise_right_shift"), "shift"),
    **dict.fromkeys(("atan2", "hypot", "copysign", "nextafter", "logaddexp"), "float_only"),
    **dict.fromkeys(("where", "result_type", "concat", "stack"), "common"),
    **dict.fromkeys(("matmul", "tensordot", "vecdot"), "linalg"),
}


def family_of(op: str) -> str:
    """The op family of ``op``.

    Raises
    ------
    ValueError
        For an op that does not combine operands.
    """
    try:
        return FAMILY[op]
    except KeyError:
        raise ValueError(f"{op!r} is not an op that combines operands; known: {', '.join(FAMILY)}") from None
