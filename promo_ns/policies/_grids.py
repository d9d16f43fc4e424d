"""Operand roles and the grids of a policy: parsed from text in the shape of the frameworks' own tables.

A grid is rows x columns (``-`` for a refused cell, ``.`` for one never
consulted); :func:`grid`, :func:`scalar_grid` and :func:`function_grid` parse
the three kinds a policy has.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Literal

from promo_ns._dtypes import BY_NAME, BY_SHORT, DType
from promo_ns.policies._checks import did_you_mean

__all__ = [
    "ARRAY_ROLES",
    "FLOAT_SCALAR_FORMS",
    "FUNCTION_FAMILIES",
    "GRID_EXAMPLE",
    "SCALAR_COLUMNS",
    "SCALAR_ROLES",
    "FloatScalarRule",
    "FunctionGrid",
    "Grid",
    "Role",
    "ScalarGrid",
    "cast_grid",
    "check_diagonal",
    "delegated_grid",
    "function_grid",
    "grid",
    "parse_dtype",
    "scalar_grid",
]


class Role(enum.Enum):
    """How an operand takes part in promotion."""

    ND = "n-d array"
    ZERO_D = "0-d array"
    NP_SCALAR = "NumPy scalar"
    BOOL = "Python bool"
    INT = "Python int"
    FLOAT = "Python float"
    COMPLEX = "Python complex"

    # Members are singletons compared by identity: hash them so too, in C (Enum's hashes the name in
    # Python, and each decision-table lookup hashes two roles).
    __hash__ = object.__hash__

    @property
    def is_scalar(self) -> bool:
        """True for the Python scalar roles."""
        return self in _PY_KIND

    @property
    def kind(self) -> str:
        """The kind letter (``"bifc"``) of a Python scalar role."""
        return _PY_KIND[self]

    @property
    def default_key(self) -> str:
        """The key of :attr:`Policy.defaults` for a Python scalar role (``"float"``)."""
        return _DEFAULT_KEY[self]

    def __str__(self) -> str:
        return self.value


_PY_KIND: dict[Role, str] = {Role.BOOL: "b", Role.INT: "i", Role.FLOAT: "f", Role.COMPLEX: "c"}
ARRAY_ROLES: tuple[Role, ...] = (Role.ND, Role.ZERO_D, Role.NP_SCALAR)
SCALAR_ROLES: tuple[Role, ...] = tuple(_PY_KIND)
#: Column headers of a scalar grid, in order.
SCALAR_COLUMNS: dict[str, Role] = {
    "bool": Role.BOOL,
    "int": Role.INT,
    "float": Role.FLOAT,
    "complex": Role.COMPLEX,
}
_DEFAULT_KEY: dict[Role, str] = {role: key for key, role in SCALAR_COLUMNS.items()}

Grid = Mapping[tuple[DType, DType], DType]
ScalarGrid = Mapping[tuple[DType, Role], DType]
FunctionGrid = Mapping[tuple[str, DType], DType]

#: The operator forms of a floating array ``x`` with a Python float ``s``: the keys of
#: :attr:`Policy.float_scalars` (and the cases of the edge probe's ``float_scalars`` section).
FLOAT_SCALAR_FORMS: tuple[str, ...] = (
    *("x + s", "s + x", "x - s", "s - x", "x * s", "s * x", "x / s", "s / x", "x // s", "s // x"),
)
#: How a floating array and a Python float compute together (see :attr:`Policy.float_scalars`).
FloatScalarRule = Literal["scalar_rounded_first", "float32_opmath", "reciprocal_then_multiply"]

#: Families of one-array functions whose result dtype the policy decides: the columns of a
#: policy's ``functions`` grid (see :data:`promo_ns._ops.FUNCTION_FAMILY` for the functions in each).
FUNCTION_FAMILIES: tuple[str, ...] = (
    "float",
    "reciprocal",
    "abs",
    "negative",
    "positive",
    "sign",
    "square",
    "rounding",
    "round",
    "mean",
    "std",
    "var",
    "extrema",
    "argextrema",
    "linalg",
    "linalg_values",
    "norm",
    "matrix_rank",
    "fft",
    "rfft",
    "irfft",
)


def parse_dtype(token: str) -> DType:
    found = BY_SHORT.get(token) or BY_NAME.get(token)
    if found is None:
        close = did_you_mean(token, [*BY_SHORT, *BY_NAME])
        raise ValueError(f"unknown dtype {token!r} in a policy grid{close}")
    return found


#: What a grid looks like, for the errors about grids.
GRID_EXAMPLE = """
         i8  i16
    i8   i8  i16
    i16  i16 i16"""


def _rows(text: str) -> tuple[list[str], list[list[str]]]:
    if not isinstance(text, str):
        raise TypeError(f"a grid is text, not {type(text).__name__}; it looks like this:{GRID_EXAMPLE}")
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise ValueError(
            "the table is empty; a table is a header of dtypes, then one row per dtype with a cell per "
            f"column (short dtype names, '-' for refused), e.g.:{GRID_EXAMPLE}"
        )
    header, body = lines[0], lines[1:]
    for row in body:
        if len(row) != len(header) + 1:
            raise ValueError(f"grid row {row[0]!r} has {len(row) - 1} cells for {len(header)} columns")
    return header, body


def check_diagonal(cells: Mapping[tuple[DType, DType], DType | None]) -> None:
    """A dtype with itself always gives itself: the engine never looks those cells up."""
    for (a, b), value in cells.items():
        if a is b and value is not a:
            raise ValueError(
                f"the cell of {a} with {a} says {value or 'refused'}, but a dtype with itself always "
                f"gives itself (the engine never looks that cell up): write {a.short} or '.' there. "
                f"To refuse {a} in some ops, leave its kind out of those op families' kinds."
            )


def grid(text: str) -> dict[tuple[DType, DType], DType]:
    """Parse an array-with-array grid: a header of dtypes, then one row per dtype.

    Cells are short dtype names (``i8``, ``bf16``, ``c128``), ``-`` for refused,
    or ``.`` for a cell the policy never consults.  A dtype with itself always
    gives itself, so a diagonal cell must be that dtype or ``.``.

    Raises
    ------
    ValueError
        An unknown dtype, a row of the wrong length, or a diagonal cell that is
        neither its dtype nor ``.``.
    """
    header, body = _rows(text)
    cols = [parse_dtype(c) for c in header]
    cells = {
        (parse_dtype(row[0]), col): None if cell == "-" else parse_dtype(cell)
        for row in body
        for col, cell in zip(cols, row[1:], strict=True)
        if cell != "."
    }
    check_diagonal(cells)
    return {key: value for key, value in cells.items() if value is not None}


def scalar_grid(text: str) -> dict[tuple[DType, Role], DType]:
    """Parse an array-with-Python-scalar grid: header ``bool int float complex``, a row per dtype."""
    header, body = _rows(text)
    unknown = [c for c in header if c not in SCALAR_COLUMNS]
    if unknown:
        raise ValueError(
            f"unknown columns {unknown} in a scalar grid{did_you_mean(unknown[0], SCALAR_COLUMNS)}; "
            f"its columns are {', '.join(SCALAR_COLUMNS)}"
        )
    cols = [SCALAR_COLUMNS[c] for c in header]
    return {
        (parse_dtype(row[0]), col): parse_dtype(cell)
        for row in body
        for col, cell in zip(cols, row[1:], strict=True)
        if cell != "-"
    }


def function_grid(text: str) -> dict[tuple[str, DType], DType]:
    """Parse a one-array function grid: a header of function families, then one row per input dtype.

    Cells are the result's short dtype name, or ``-`` where the policy refuses
    the function on that input dtype.

    Raises
    ------
    ValueError
        An unknown family or dtype, or a row of the wrong length.
    """
    header, body = _rows(text)
    unknown = [c for c in header if c not in FUNCTION_FAMILIES]
    if unknown:
        raise ValueError(
            f"unknown function families {unknown} in a grid; known: {', '.join(FUNCTION_FAMILIES)}"
        )
    return {
        (family, parse_dtype(row[0])): parse_dtype(cell)
        for row in body
        for family, cell in zip(header, row[1:], strict=True)
        if cell != "-"
    }


def cast_grid(text: str) -> frozenset[tuple[DType, DType]]:
    """Parse a ``can_cast`` table: a header of ``to`` dtypes, one row per ``from_`` dtype.

    A cell is ``Y`` where ``from_`` casts to ``to``, ``-`` where it does not;
    a dtype always casts to itself.

    Raises
    ------
    ValueError
        An unknown dtype, a row of the wrong length, or a cell other than ``Y``
        or ``-`` (the diagonal ``-`` too).
    """
    header, body = _rows(text)
    cols = [parse_dtype(c) for c in header]
    pairs = set()
    for row in body:
        source = parse_dtype(row[0])
        for col, cell in zip(cols, row[1:], strict=True):
            if cell not in ("Y", "-") or (cell == "-" and col is source):
                raise ValueError(
                    f"the can_cast cell of {source} to {col} is {cell!r}: write 'Y' (casts) or '-' (does "
                    "not), and 'Y' where a dtype meets itself"
                )
            if cell == "Y":
                pairs.add((source, col))
    return frozenset(pairs)


def delegated_grid(text: str) -> dict[tuple[str, DType], DType | None]:
    """Parse a table of the functions the standard gives a dtype: a header of names, a row per input dtype.

    Cells are the result's short dtype name, ``-`` where the framework refuses
    that input dtype, or ``.`` where it gives the standard's dtype.

    Raises
    ------
    ValueError
        An unknown dtype, a row of the wrong length.
    """
    header, body = _rows(text)
    return {
        (name, parse_dtype(row[0])): None if cell == "-" else parse_dtype(cell)
        for row in body
        for name, cell in zip(header, row[1:], strict=True)
        if cell != "."
    }
