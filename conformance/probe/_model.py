"""The probe's data: dtypes, operand tokens and their values, and the :class:`Case`.

See :mod:`conformance.probe._space` for the token grammar.  NumPy-free and framework-free.
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DTYPES",
    "EDGE_SCALARS",
    "SCALARS",
    "Case",
    "Operand",
    "arrays",
    "edge_values",
    "np_scalars",
    "one_values",
    "operand",
    "rotated",
]


DTYPES: tuple[str, ...] = (
    *("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    *("float16", "bfloat16", "float32", "float64", "complex64", "complex128"),
)

# --- operands -----------------------------------------------------------------------------------

_INT_BITS = {
    "int8": 8,
    "int16": 16,
    "int32": 32,
    "int64": 64,
    "uint8": 8,
    "uint16": 16,
    "uint32": 32,
    "uint64": 64,
}
#: (max, smallest normal, smallest subnormal) of each real float dtype.
FLOAT_LIMITS: dict[str, tuple[float, float, float]] = {
    "float16": (65504.0, 2.0**-14, 2.0**-24),
    "bfloat16": (3.3895313892515355e38, 2.0**-126, 2.0**-133),
    "float32": (3.4028234663852886e38, 2.0**-126, 2.0**-149),
    "float64": (1.7976931348623157e308, 2.0**-1022, 5e-324),
}
_COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}


def int_range(dtype: str) -> tuple[int, int]:
    """The smallest and largest value of an integer dtype."""
    bits = _INT_BITS[dtype]
    return (0, 2**bits - 1) if dtype.startswith("u") else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def kind_letter(dtype: str) -> str:
    """``b``, ``i``, ``u``, ``f`` or ``c``."""
    return "b" if dtype == "bool" else dtype[0] if dtype[0] in "iuc" else "f"


def edge_values(dtype: str) -> list[Any]:
    """The ``edge`` values of ``dtype``: zeros, ones, its limits, subnormals, infinities, NaN."""
    k = kind_letter(dtype)
    if k == "b":
        return [False, True]
    if k in "iu":
        lo, hi = int_range(dtype)
        half = 2 ** (_INT_BITS[dtype] - 1)
        return sorted({0, 1, 2, 3, hi, hi - 1, lo, lo + 1, half - 1} | ({-1, -2} if k == "i" else {half}))
    if k == "f":
        big, tiny, sub = FLOAT_LIMITS[dtype]
        out = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.5,
            3.0,
            big,
            -big,
            tiny,
            sub,
            -sub,
            math.inf,
            -math.inf,
            math.nan,
        ]
        if dtype in ("float32", "float64"):
            out += [65504.0, 65520.0, 2.0**63]
        return out
    part = FLOAT_LIMITS[_COMPLEX_PART[dtype]][0]
    inf, nan = math.inf, math.nan
    return [
        0j, complex(-0.0, 0.0), 1 + 0j, -1 + 0j, 1j, 1 - 1j, 0.5 + 2j, complex(part, 0), complex(inf, 0),
        complex(0, -inf), complex(nan, 0), complex(inf, nan), complex(nan, 1.0),
    ]  # fmt: skip


def one_values(dtype: str, shape: str) -> Any:
    """The ``one`` (benign) values of ``dtype`` in ``shape``."""
    k = kind_letter(dtype)
    rows: dict[str, list[Any]] = {
        "b": [True, False, True],
        "i": [1, 2, 3],
        "u": [1, 2, 3],
        "f": [0.5, 2.0, 3.0],
        "c": [1 + 1j, 2 + 0j, 0.5 - 1j],
    }
    row = rows[k]
    scalar: Any = {"b": True, "i": 2, "u": 2, "f": 1.5, "c": 1.5 + 0.5j}[k]
    if shape == "0d":
        return scalar
    if shape == "nd":
        return row
    if shape == "sorted":
        return [False, True, True] if k == "b" else sorted(row, key=lambda v: (abs(v), str(v)))
    if shape == "vec4":
        return [row[0], row[1], row[2], row[0]]
    if shape == "m23":
        return [row, row[::-1]]
    if shape == "idx":
        return [1, 0]
    if shape == "idx2":
        return [[1, 0, 2], [0, 2, 1]]
    if shape == "mat":  # 2 I + 1: symmetric positive definite, exact in every dtype (bool: the identity)
        on, off = (True, False) if k == "b" else (3, 1)
        return [[on if i == j else off for j in range(3)] for i in range(3)]
    raise ValueError(f"no shape {shape!r}")


@dataclass(frozen=True)
class Operand:
    """A token, parsed: ``what`` is array, py, np, dtype, literal or none."""

    what: str
    dtype: str | None = None
    value: Any = None  #: nested Python lists for an array
    shape: str = ""


def _py(kind: str, text: str) -> Any:
    if kind == "bool":
        return text == "True"
    return {"int": int, "float": float, "complex": complex}[kind](text)


@functools.lru_cache(maxsize=4096)
def operand(token: str) -> Operand:
    """The operand a token describes (see the module docstring)."""
    head, _, rest = token.partition(":")
    if token == "none":
        return Operand("none")
    if head == "py":
        kind, _, text = rest.partition(":")
        return Operand("py", kind, _py(kind, text))
    if head == "np":
        dtype, _, text = rest.partition(":")
        return Operand(
            "np",
            dtype,
            _py({"b": "bool", "i": "int", "u": "int", "f": "float"}.get(kind_letter(dtype), "complex"), text),
        )
    if head == "dt":
        return Operand("dtype", rest)
    if head == "lit":
        return Operand("literal", value=ast.literal_eval(rest))
    shape, _, cls = rest.partition(":")
    if cls == "edge":
        values: Any = edge_values(head)
        if shape == "col":
            values = [[v] for v in values]
        elif shape == "0d":
            values = values[len(values) // 2]
    else:
        values = one_values(head, shape)
    return Operand("array", head, values, shape)


# --- cases --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One call: ``kind`` (from :func:`kind_of`), op, spelling, operand tokens, keyword tokens."""

    kind: str
    op: str
    spelling: str
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        """The case's stable name: ``op|spelling|arg|arg|name=arg``."""
        return "|".join((self.op, self.spelling, *self.args, *(f"{k}={v}" for k, v in self.kwargs)))


def arrays(shapes: tuple[str, ...] = ("nd", "0d"), cls: str = "one") -> list[str]:
    return [f"{d}:{s}:{cls}" for s in shapes for d in DTYPES]


#: The Python scalars of the promotion grid, and the scalars at and beyond the dtypes' limits.
SCALARS = ("py:bool:True", "py:int:2", "py:float:1.5", "py:complex:(1.5+0.5j)")
EDGE_SCALARS = tuple(
    f"py:{type(v).__name__}:{v!r}"
    for v in (
        True, False, 0, 1, -1, 127, 128, 255, 256, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -(2**63) - 1,
        0.0, -0.0, 5e-324, 65504.0, 70000.0, 3.5e38, 1e300, math.inf, -math.inf, math.nan,
        complex(math.inf, 0), complex(math.nan, 0),
    )
)  # fmt: skip


def np_scalars() -> list[str]:
    return [f"np:{d}:{operand(f'{d}:0d:one').value!r}" for d in DTYPES]


def rotated(op_index: int, lefts: list[str], rights: list[str], salt: int = 0) -> Iterator[tuple[str, str]]:
    """Every (left dtype, right dtype) once, their roles rotated, so every dtype meets every role."""
    by_dtype_l = [[t for t in lefts if operand(t).dtype == d] for d in DTYPES]
    by_dtype_r = [[t for t in rights if operand(t).dtype == d] for d in DTYPES]
    for i, ls in enumerate(by_dtype_l):
        for j, rs in enumerate(by_dtype_r):
            if ls and rs:
                n = i + j + op_index + salt
                yield ls[n % len(ls)], rs[(n // len(ls)) % len(rs)]
