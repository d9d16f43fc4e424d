"""One table: every op that combines operands, and the op family whose rule it follows."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final

__all__ = [
    "COMPARISONS",
    "DELEGATED_DTYPES",
    "FAMILY",
    "FUNCTION_FAMILY",
    "INPLACE_OPERATORS",
    "INPUT_KIND_OPS",
    "NATIVE",
    "OPERATORS",
    "UNPROMOTED",
    "family_of",
]

#: op name -> op family (see :data:`promo_ns.policies._model.FAMILIES`).
FAMILY: Final[dict[str, str]] = {
    **dict.fromkeys(("add", "subtract", "multiply"), "arithmetic"),
    "pow": "power",
    **dict.fromkeys(("floor_divide", "remainder"), "real_arithmetic"),
    **dict.fromkeys(("maximum", "minimum"), "extrema"),
    "divide": "true_divide",
    **dict.fromkeys(("equal", "not_equal", "isin"), "comparison"),
    **dict.fromkeys(("less", "less_equal", "greater", "greater_equal", "searchsorted"), "ordering"),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor"), "logical"),
    **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor"), "bitwise"),
    **dict.fromkeys(("bitwise_left_shift", "bitwise_right_shift"), "shift"),
    **dict.fromkeys(("atan2", "hypot", "copysign", "nextafter", "logaddexp"), "float_only"),
    **dict.fromkeys(("result_type", "concat", "stack"), "common"),
    "where": "where",
    "clip": "clip",
    "setitem": "setitem",
    **dict.fromkeys(("matmul", "tensordot", "vecdot", "cross", "outer", "solve"), "linalg"),
}

#: Ops that combine arrays but promote none: a policy may still put one in a family of its
#: ``op_families`` to hold the arrays to it (torch.meshgrid: "expects all tensors to have the same
#: dtype"); where none names one, they take any dtypes.
UNPROMOTED: Final[tuple[str, ...]] = ("meshgrid",)

_FLOAT_FUNCTIONS = (
    *("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan", "tanh"),
    *("exp", "expm1", "log", "log1p", "log2", "log10", "sqrt"),
)
_LINALG_FUNCTIONS = (
    *("linalg.cholesky", "linalg.det", "linalg.eigh", "linalg.inv", "linalg.pinv", "linalg.qr"),
    *("linalg.slogdet", "linalg.svd"),
)
_FFT_FUNCTIONS = ("fft.fft", "fft.ifft", "fft.fftn", "fft.ifftn")

#: one-array function -> the column of a policy's ``functions`` grid that decides its result dtype
#: (see :data:`promo_ns.policies._model.FUNCTION_FAMILIES`).  Functions share a column only where
#: every reference framework gives them the same dtypes (measured by ``conformance/frameworks``).
#: For the tuple-valued ``eigh``, ``slogdet`` and ``svd`` the ``linalg`` column is the dtype of the
#: outputs that keep the input's kind (eigenvectors; sign; U and Vh); their real-valued outputs
#: (eigenvalues; log|det|; S) are the real dtype of the same precision.
FUNCTION_FAMILY: Final[dict[str, str]] = {
    **dict.fromkeys(_FLOAT_FUNCTIONS, "float"),
    "reciprocal": "reciprocal",
    "abs": "abs",
    "negative": "negative",
    "positive": "positive",
    "sign": "sign",
    "square": "square",
    **dict.fromkeys(("ceil", "floor", "trunc"), "rounding"),
    "round": "round",
    "mean": "mean",
    "std": "std",
    "var": "var",
    **dict.fromkeys(("max", "min"), "extrema"),
    **dict.fromkeys(("argmax", "argmin"), "argextrema"),
    **dict.fromkeys(_LINALG_FUNCTIONS, "linalg"),
    **dict.fromkeys(("linalg.eigvalsh", "linalg.svdvals"), "linalg_values"),
    **dict.fromkeys(("linalg.matrix_norm", "linalg.vector_norm"), "norm"),
    "linalg.matrix_rank": "matrix_rank",
    **dict.fromkeys(_FFT_FUNCTIONS, "fft"),
    **dict.fromkeys(("fft.rfft", "fft.rfftn", "fft.ihfft"), "rfft"),
    **dict.fromkeys(("fft.irfft", "fft.irfftn", "fft.hfft"), "irfft"),
}

#: One-array functions whose result dtype the backend decides unless a policy's ``delegated``
#: table says otherwise (see :attr:`promo_ns.policies.Policy.delegated`).
DELEGATED_DTYPES: Final[tuple[str, ...]] = (
    *("all", "any", "conj", "imag", "real", "logical_not", "bitwise_invert"),
    *("isfinite", "isinf", "isnan", "signbit"),
)

#: Functions whose input kinds a policy may restrict (``Policy.input_kinds``) where no promotion
#: decides them: they keep their input's dtype, give bool, or accumulate in the ``dtype=`` asked.
#: The standard defines ``logical_not`` for bool only, ``imag`` for complex, ``sum`` for numbers.
INPUT_KIND_OPS: Final[tuple[str, ...]] = (
    *("logical_not", "bitwise_invert", "conj", "imag", "real", "isfinite", "isinf", "isnan", "signbit"),
    *("sort", "argsort", "diff", "all", "any", "fft.fftshift", "fft.ifftshift", "linalg.matrix_power"),
    *("sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace"),
)

#: binary elementwise op -> (NumPy/CuPy ufunc name, torch function name).
NATIVE: Final[dict[str, tuple[str, str]]] = {
    "add": ("add", "add"),
    "subtract": ("subtract", "sub"),
    "multiply": ("multiply", "mul"),
    "divide": ("true_divide", "div"),
    "floor_divide": ("floor_divide", "floor_divide"),
    "remainder": ("remainder", "remainder"),
    "pow": ("power", "pow"),
    "maximum": ("maximum", "maximum"),
    "minimum": ("minimum", "minimum"),
    "equal": ("equal", "eq"),
    "not_equal": ("not_equal", "ne"),
    "less": ("less", "lt"),
    "less_equal": ("less_equal", "le"),
    "greater": ("greater", "gt"),
    "greater_equal": ("greater_equal", "ge"),
    "logical_and": ("logical_and", "logical_and"),
    "logical_or": ("logical_or", "logical_or"),
    "logical_xor": ("logical_xor", "logical_xor"),
    "bitwise_and": ("bitwise_and", "bitwise_and"),
    "bitwise_or": ("bitwise_or", "bitwise_or"),
    "bitwise_xor": ("bitwise_xor", "bitwise_xor"),
    "bitwise_left_shift": ("left_shift", "bitwise_left_shift"),
    "bitwise_right_shift": ("right_shift", "bitwise_right_shift"),
    "atan2": ("arctan2", "atan2"),
    "hypot": ("hypot", "hypot"),
    "copysign": ("copysign", "copysign"),
    "nextafter": ("nextafter", "nextafter"),
    "logaddexp": ("logaddexp", "logaddexp"),
}


#: The Python operator of each binary op that has one: ``x.__<name>__(y)`` (the language's list).
OPERATORS: Final[dict[str, str]] = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
    "floor_divide": "floordiv", "remainder": "mod", "pow": "pow",
    "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
    "bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift",
    "equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
    "greater": "gt", "greater_equal": "ge",
}  # fmt: skip
#: ``x op= y`` of each op with a Python in-place operator, on native arrays (``operator.iadd``).
INPLACE_OPERATORS: Final[dict[str, Callable[[Any, Any], Any]]] = {
    op: getattr(operator, f"i{name}") for op, name in OPERATORS.items() if hasattr(operator, f"i{name}")
}
#: The comparisons: no reflected or in-place operator of their own.
COMPARISONS: Final[frozenset[str]] = frozenset(
    ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
)


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
