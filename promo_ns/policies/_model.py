"""What a policy is made of: operand roles, op families, grids, and the :class:`Policy` record.

Nothing here decides a dtype; :mod:`promo_ns._engine` turns a :class:`Policy`
into lookups.  Grids are written as text in the same shape as the frameworks'
own documents (rows x columns, ``-`` for a refused cell) and parsed by
:func:`grid` and :func:`scalar_grid`.
"""

from __future__ import annotations

import difflib
import enum
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib import import_module
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from promo_ns._dtypes import BY_NAME, BY_SHORT, DType
from promo_ns._ops import FAMILY

__all__ = [
    "FLOAT_SCALAR_FORMS",
    "FUNCTION_FAMILIES",
    "Family",
    "Policy",
    "Role",
    "function_grid",
    "get_policy",
    "grid",
    "is_registered",
    "policies",
    "register",
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

    @property
    def is_scalar(self) -> bool:
        """True for the Python scalar roles."""
        return self in _PY_KIND

    @property
    def kind(self) -> str:
        """The kind letter (``"bifc"``) of a Python scalar role."""
        return _PY_KIND[self]

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

Grid = Mapping[tuple[DType, DType], DType]
ScalarGrid = Mapping[tuple[DType, Role], DType]
FunctionGrid = Mapping[tuple[str, DType], DType]

#: The operator forms of a floating array ``x`` with a Python float ``s``: the keys of
#: :attr:`Policy.float_scalars` (and the cases of the edge probe's ``float_scalars`` section).
FLOAT_SCALAR_FORMS: tuple[str, ...] = ("x + s", "s + x", "x - s", "s - x", "x * s", "s * x", "x / s", "s / x")
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


def _dtype(token: str) -> DType:
    found = BY_SHORT.get(token) or BY_NAME.get(token)
    if found is None:
        close = _did_you_mean(token, [*BY_SHORT, *BY_NAME])
        raise ValueError(f"unknown dtype {token!r} in a policy grid{close}")
    return found


#: What a grid looks like, for the errors about grids.
_GRID_EXAMPLE = """
         i8  i16
    i8   i8  i16
    i16  i16 i16"""


def _rows(text: str) -> tuple[list[str], list[list[str]]]:
    if not isinstance(text, str):
        raise TypeError(f"a grid is text, not {type(text).__name__}; it looks like this:{_GRID_EXAMPLE}")
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise ValueError(
            "the table is empty; a table is a header of dtypes, then one row per dtype with a cell per "
            f"column (short dtype names, '-' for refused), e.g.:{_GRID_EXAMPLE}"
        )
    header, body = lines[0], lines[1:]
    for row in body:
        if len(row) != len(header) + 1:
            raise ValueError(f"grid row {row[0]!r} has {len(row) - 1} cells for {len(header)} columns")
    return header, body


def _check_diagonal(cells: Mapping[tuple[DType, DType], DType | None]) -> None:
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
    cols = [_dtype(c) for c in header]
    cells = {
        (_dtype(row[0]), col): None if cell == "-" else _dtype(cell)
        for row in body
        for col, cell in zip(cols, row[1:], strict=True)
        if cell != "."
    }
    _check_diagonal(cells)
    return {key: value for key, value in cells.items() if value is not None}


def scalar_grid(text: str) -> dict[tuple[DType, Role], DType]:
    """Parse an array-with-Python-scalar grid: header ``bool int float complex``, a row per dtype."""
    header, body = _rows(text)
    unknown = [c for c in header if c not in SCALAR_COLUMNS]
    if unknown:
        raise ValueError(
            f"unknown columns {unknown} in a scalar grid{_did_you_mean(unknown[0], SCALAR_COLUMNS)}; "
            f"its columns are {', '.join(SCALAR_COLUMNS)}"
        )
    cols = [SCALAR_COLUMNS[c] for c in header]
    return {
        (_dtype(row[0]), col): _dtype(cell)
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
        (family, _dtype(row[0])): _dtype(cell)
        for row in body
        for family, cell in zip(header, row[1:], strict=True)
        if cell != "-"
    }


#: What a Python int operand's value does in an op family (see :attr:`Family.int_values`).
IntRule = Literal["wrap", "fit", "magnitude", "non-negative", "exact", "bounds"]


@dataclass(frozen=True)
class Family:
    """How one op family promotes.

    Attributes
    ----------
    kinds
        Kinds (``"biufc"`` letters) an array operand and the promoted dtype may
        have; others are refused.  (A Python scalar's kind is checked by the
        promotion itself, and by ``scalar_kinds``.)
    scalar_kinds
        Kinds (``"bifc"`` letters) a Python scalar operand may have; ``None``:
        any the promotion takes.  (torch refuses subtraction with any bool
        operand, a Python ``True`` too.)
    result
        ``"promoted"``: the (mapped) promoted dtype; ``"bool"``: always ``bool``.
    operand_map
        When the promoted dtype is a key here, each operand (a Python scalar
        counting as the promoted dtype) becomes the dtype the map gives it and
        they promote again: NumPy's float-only ufuncs have no integer loops and
        take the smallest float loop every input casts to safely.
    result_map
        Dtypes the promoted dtype becomes (true division: integers to a float).
    same_dtype
        No promotion at all: arrays must share one dtype, and a Python scalar
        takes that dtype when its category is not above the array's.
    strong
        0-d arrays and Python scalars (as the policy's ``scalar_dtypes``)
        promote exactly like n-d arrays.
    result_kinds
        Kinds the (mapped) result may have; ``None``: ``kinds``.  (TF's true
        division takes bool operands but has no bool result.)
    arrays
        Array-with-array grid of this family, in place of the policy's
        ``arrays``; it may be asymmetric (Paddle's ``matmul`` casts some right
        operands to the left's dtype but not the other way round).
    scalars
        Array-with-Python-scalar cells this family decides itself, keyed by
        (array dtype, scalar role) whichever side the scalar is on: the cell's
        dtype replaces the promoted one (the framework converts the scalar to
        the array's dtype, e.g. Paddle's ``copysign``).
    zero_d_cross_when
        For ``roles="priority"``: when a 0-d array counts against n-d arrays,
        in place of the policy's ``cross_when``; ``"always"``: whatever the
        categories, through ``cross`` (Paddle's ``floor_divide``).
    cast
        No promotion: the result has the first operand's dtype, and other
        operands are cast into it.  ``"any"``: every operand, a 0-d array of
        any dtype too (``x[key] = v`` in NumPy, PyTorch and Paddle);
        ``"category"``: operands of the first's category (bool < int < float
        < complex), and Python scalars of a lower one, while others are
        refused (the standard's ``clip``: the result has ``x``'s dtype, and
        bounds of another kind are unspecified).  A Python scalar converts as
        Python converts it to that dtype's kind (``int(1.5)`` is 1,
        ``bool(z)`` is ``z != 0``), so a Python complex into a real dtype other
        than bool is refused (``float(1+2j)`` raises).
    int_values
        What a Python int operand's value does, per kind (``"biufc"``) of the
        array operands (of the highest category among them); a kind missing
        here is ``"wrap"``.  ``None``: the policy's ``int_values`` decides.
        The int converts to the dtype the operands promote to (for ``cast``,
        the first operand's):

        ``"wrap"``
            As a cast would: modulo ``2**bits`` into an integer dtype, rounded
            into a float (PyTorch's ``int8_tensor + 1000``).
        ``"fit"``
            It must lie in that dtype's range (a float dtype's finite range),
            else it is refused (NEP 50's OverflowError; PyTorch's ``clamp`` of
            float16 with ``2**31``).
        ``"magnitude"``
            As ``"fit"``, but an unsigned dtype also takes negatives down to
            ``-max``, which wrap as two's complement (PyTorch's checked
            conversion: ``torch.where(c, uint8_tensor, -255)`` writes 1).
        ``"non-negative"``
            As ``"fit"``, and a negative int is refused where the result is
            bool or integer ("Integers to negative integer powers are not
            allowed"), for an exponent (``int_right`` of ``power``).
        ``"exact"``
            The op sees the exact value: an int beyond the dtype takes part as
            an infinity of its sign, in float32, so it compares as beyond every
            element and is true (NumPy 2: ``uint8_array < 1000`` is all true,
            ``logical_and(uint8_array, 256)`` too).
        ``"bounds"``
            For ``clip(x, min, max)``: a bound beyond the dtype on the side
            that clips nothing (``min`` below its minimum, ``max`` above its
            maximum) is dropped; any other must fit (NumPy 2's ``clip``).
    int_right
        ``int_values`` for a Python int on the right of a two-operand op of
        this family, where the framework treats it otherwise than on the left
        (the exponent of ``x ** s``; PyTorch's ``s / x`` is ``reciprocal(x) * s``,
        its ``x / s`` promotes with ``s``); ``None``: ``int_values``.
    int_range
        Per array kind, the Python ints the framework converts at all,
        ``(lowest, highest)``: any other is refused, whatever the rule
        (PyTorch makes a Python int an int64, or a uint64 from ``2**63``);
        a kind missing here takes any int.  ``None``: the policy's ``int_range``.
    """

    kinds: str = "biufc"
    scalar_kinds: str | None = None
    result: Literal["promoted", "bool"] = "promoted"
    operand_map: Mapping[DType, DType] = field(default_factory=dict)
    result_map: Mapping[DType, DType] = field(default_factory=dict)
    same_dtype: bool = False
    strong: bool = False
    result_kinds: str | None = None
    arrays: Grid | None = None
    scalars: ScalarGrid = field(default_factory=dict)
    zero_d_cross_when: Literal["higher", "different", "always"] | None = None
    cast: Literal["any", "category"] | None = None
    int_values: Mapping[str, IntRule] | None = None
    int_right: Mapping[str, IntRule] | None = None
    int_range: Mapping[str, tuple[int, int]] | None = None

    def __post_init__(self) -> None:
        _validate(self, "Family")


#: Op families every policy describes (see :mod:`promo_ns._ops` for the ops in each).
FAMILIES: tuple[str, ...] = (
    "arithmetic",
    "power",
    "real_arithmetic",
    "extrema",
    "true_divide",
    "comparison",
    "ordering",
    "logical",
    "bitwise",
    "shift",
    "float_only",
    "common",
    "where",
    "clip",
    "setitem",
    "linalg",
)


@dataclass(frozen=True)
class Policy:
    """A dtype-promotion policy, as data.

    Attributes
    ----------
    name
        Registered name, e.g. ``"pytorch"``.
    summary
        One line saying what the policy does.
    reference
        The framework (and version) whose decisions the policy reproduces.
    arrays
        Array-with-array grid (missing cell: refused).
    roles
        How 0-d arrays and Python scalars take part:

        ``"weak-scalars"``
            0-d arrays and NumPy scalars are arrays like any other; a Python
            scalar combines with an array through ``scalars``.
        ``"priority"``
            PyTorch-style priority classes: n-d arrays, then 0-d arrays, then
            Python scalars (typed by ``scalar_dtypes``).  A lower class counts
            only when its category (bool < int < float < complex) is higher than
            that of the classes above it; it then combines through ``cross``.
    scalars
        Array-with-Python-scalar grid, for ``roles="weak-scalars"``.
    scalar_dtypes
        The dtype each Python scalar kind stands for, for ``roles="priority"``.
    zero_d
        For ``roles="priority"``: the grid between two 0-d arrays (defaults to ``arrays``).
    cross
        For ``roles="priority"``: row = the higher class's dtype, column = the
        dtype of a lower class of higher category (defaults to ``arrays``).
    cross_when
        For ``roles="priority"``: a lower class counts when its category is
        ``"higher"`` (PyTorch) or merely ``"different"`` (Paddle).
    families
        Per op family rules; a family missing here refuses every cell.
    op_families
        Ops this policy groups differently from :data:`promo_ns._ops.FAMILY`
        (op name -> a family name of ``families``).
    accumulate
        The dtype ``sum``/``prod``/``cumulative_*`` accumulate in, per input
        dtype; a dtype missing here accumulates in itself.
    accumulate_ops
        Per op (``"prod"``, ``"cumulative_sum"``, ...), a map used in place of
        ``accumulate`` for that op.
    accumulate_kinds
        Kinds those reductions accept.
    functions
        The result dtype of each one-array function family per input dtype
        (:func:`function_grid`); a missing cell refuses the function on that dtype.
    int_values
        What a Python int beyond the dtype it converts to does in op families
        without ``int_values`` of their own: ``"wrap"`` (silently, like the
        framework), ``"overflow"`` or ``"refuse"`` (bool and integer arrays
        take the rule ``"fit"``).  It also names the error of every refused
        Python int value: ``PromotionError`` for ``"refuse"``, else
        ``OverflowError`` (NEP 50's); a negative exponent the rule
        ``"non-negative"`` refuses is a ``ValueError`` (NumPy's).
    int_range
        Per array kind (``"biufc"``), the Python ints the framework converts
        at all, ``(lowest, highest)``, in op families without an ``int_range``
        of their own; a kind missing here takes any int.
    inplace
        When ``x1 op= x2`` may keep ``x1``'s dtype: ``"same"`` (only when the
        promoted dtype is ``x1``'s), ``"category"`` (the promoted dtype's
        category, bool < int < float < complex, is not above ``x1``'s: PyTorch's
        ``can_cast``) or ``"same_kind"`` (NumPy's: kinds ordered b < u < i < f < c).
    inplace_as_nd
        Array roles (0-d arrays, NumPy scalars) that take part in in-place ops
        as n-d arrays (Paddle's ``Tensor.add_`` and the other in-place methods
        apply the n-d rule to 0-d tensors).
    defaults
        Default dtypes: keys ``"bool"``, ``"int"``, ``"float"``, ``"complex"``, ``"index"``.
    nested
        How ``asarray`` of nested data holding arrays (``[a, b, 1.5]``) decides
        its dtype: ``"strong-scalars"`` (the elements promote as arrays, a Python
        scalar as ``defaults``' dtype of its kind: torch's ``tensor``, NumPy's
        ``asarray``), ``"weak-scalars"`` (arrays promote, Python scalars join
        as in operators: TF's ``asarray``) or ``"refused"`` (arrays inside
        nested data raise: array-api-strict).
    nested_rules
        The registered policy whose promotion decides nested data, where the
        framework's creation function follows another's (Paddle's
        ``to_tensor`` goes through NumPy); ``None``: this policy's.
    float_scalars
        How a real floating array ``x`` (n-d or 0-d) and a Python float ``s``
        (or int) compute together, per operator form of :data:`FLOAT_SCALAR_FORMS`
        (``"x * s"``, ``"s / x"``, ...; the functions ``add``, ``subtract``,
        ``multiply`` and ``divide`` with the scalar on the same side too),
        where the result has ``x``'s dtype; a form missing here is
        ``"scalar_rounded_first"``:

        ``"scalar_rounded_first"``
            ``s`` is rounded to ``x``'s dtype, and the op computes in that
            dtype (NumPy's weak scalars).
        ``"float32_opmath"``
            A float16 or bfloat16 ``x`` computes in float32 with ``s`` rounded
            only to float32, and the result is rounded once to ``x``'s dtype
            (PyTorch's "opmath"); wider dtypes as ``"scalar_rounded_first"``.
        ``"reciprocal_then_multiply"``
            ``"s / x"`` only: ``reciprocal(x)``, in ``x``'s dtype, times ``s``
            by the policy's ``"x * s"`` rule (PyTorch's ``Tensor.__rtruediv__``).
    deviations
        Every deliberate difference from the reference framework, in words.
    """

    name: str
    summary: str
    reference: str
    arrays: Grid
    roles: Literal["weak-scalars", "priority"]
    families: Mapping[str, Family]
    defaults: Mapping[str, DType]
    op_families: Mapping[str, str] = field(default_factory=dict)
    scalars: ScalarGrid = field(default_factory=dict)
    scalar_dtypes: Mapping[Role, DType] = field(default_factory=dict)
    zero_d: Grid | None = None
    cross: Grid | None = None
    cross_when: Literal["higher", "different"] = "higher"
    accumulate: Mapping[DType, DType] = field(default_factory=dict)
    accumulate_ops: Mapping[str, Mapping[DType, DType]] = field(default_factory=dict)
    accumulate_kinds: str = "biufc"
    functions: FunctionGrid = field(default_factory=dict)
    int_values: Literal["wrap", "overflow", "refuse"] = "wrap"
    int_range: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    inplace: Literal["same", "category", "same_kind"] = "same"
    inplace_as_nd: frozenset[Role] = frozenset()
    nested: Literal["strong-scalars", "weak-scalars", "refused"] = "strong-scalars"
    nested_rules: str | None = None
    float_scalars: Mapping[str, FloatScalarRule] = field(default_factory=dict)
    deviations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"a policy's name is a non-empty str, not {self.name!r}")
        _validate(self, f"policy {self.name!r}")

    def __hash__(self) -> int:
        return hash(self.name)

    @classmethod
    def from_table(
        cls,
        name: str,
        arrays: str | Grid,
        *,
        scalars: str | ScalarGrid | None = None,
        like: str | Policy = "array-api",
        **changes: Any,
    ) -> Policy:
        """A policy built from an array-with-array table, taking its other rules from ``like``.

        Parameters
        ----------
        name
            The new policy's name (register it with :func:`promo_ns.register`).
        arrays
            The array-with-array table, as text in the shape :func:`grid`
            parses (a header of dtypes, one row per dtype, ``-`` for refused),
            or as a mapping from dtype pairs to dtypes.  A missing cell is
            refused; a dtype with itself always gives itself.  Under
            ``roles="priority"`` the table also decides between classes (the
            ``cross`` and ``zero_d`` grids are reset to it).
        scalars
            An array-with-Python-scalar table (text for :func:`scalar_grid`, or
            a mapping), for ``roles="weak-scalars"``; default: ``like``'s.
        like
            The policy (or its registered name) whose roles, op families
            (with their own grids, such as Paddle's ``matmul``), defaults and
            other fields the new one takes.
        **changes
            Other fields to set (``summary``, ``reference``, ``roles``, ...).

        Returns
        -------
        Policy
            The new policy.

        Raises
        ------
        ValueError
            The table names an unknown dtype, has a row of the wrong length or
            a diagonal cell other than its dtype; or ``scalars`` is given for a
            priority policy.
        KeyError
            ``like`` names no registered policy.
        """
        _check_changes("from_table", changes)
        base = get_policy(like)
        changes.setdefault("summary", f"{name}: a custom table, with {base.name}'s other rules")
        changes.setdefault("reference", f"a custom table, other rules from {base.name!r}")
        changes.setdefault("deviations", ())
        changes.setdefault("cross", None)
        changes.setdefault("zero_d", None)
        if scalars is not None:
            if changes.get("roles", base.roles) != "weak-scalars":
                raise ValueError(
                    f"scalars= is a grid for roles='weak-scalars', but {base.name!r} ranks Python scalars "
                    "by priority (scalar_dtypes); pass like= a weak-scalar policy, or scalar_dtypes=..."
                )
            changes["scalars"] = scalar_grid(scalars) if isinstance(scalars, str) else dict(scalars)
        if not isinstance(arrays, (str, Mapping)):
            raise TypeError(
                f"from_table() takes the array table as text or a mapping of dtype pairs to dtypes, not "
                f"{type(arrays).__name__}; as text it looks like this:{_GRID_EXAMPLE}"
            )
        table = grid(arrays) if isinstance(arrays, str) else dict(arrays)
        _check_diagonal(table)
        return replace(base, name=name, arrays=table, **changes)

    def derive(
        self,
        name: str,
        *,
        cells: Mapping[tuple[DType | str, DType | str], DType | str | None] | None = None,
        symmetric: bool = True,
        **changes: Any,
    ) -> Policy:
        """A new policy: this one with some array-grid cells and fields changed.

        Parameters
        ----------
        name
            The new policy's name (register it with :func:`promo_ns.register`).
        cells
            Array-with-array cells to change, keyed by dtype pairs (``DType``,
            name or short name: ``("i8", "f16")``); a value of ``None`` refuses
            the cell.  A dtype with itself always gives itself.
        symmetric
            Change ``(b, a)`` with ``(a, b)``.
        **changes
            Other fields to replace (``summary``, ``int_values``, ...).

        Returns
        -------
        Policy
            The derived policy; this one is unchanged.

        Raises
        ------
        ValueError
            An unknown dtype, or a diagonal cell (a dtype with itself) other than its dtype.
        """
        _check_changes("derive", changes)
        if "arrays" in changes:
            raise TypeError(
                "derive() changes the array grid cell by cell through cells={(a, b): dtype}; for a whole "
                f"new grid use promo_ns.Policy.from_table(name, text, like={self.name!r})"
            )
        arrays = dict(self.arrays)
        for (a, b), value in (cells or {}).items():
            da, db = _dtype(str(a)), _dtype(str(b))
            _check_diagonal({(da, db): None if value is None else _dtype(str(value))})
            for key in ((da, db), (db, da)) if symmetric else ((da, db),):
                if value is None:
                    arrays.pop(key, None)
                else:
                    arrays[key] = _dtype(str(value))
        changes.setdefault("summary", f"{self.name} with {len(cells or {})} array cells changed")
        return replace(self, name=name, arrays=arrays, **changes)

    def __eq__(self, other: object) -> bool:
        return self is other


# --- validation: a Policy and a Family hold what their fields say ----------------------------

#: The keys of ``Policy.defaults``.
DEFAULT_KINDS: tuple[str, ...] = ("bool", "int", "float", "complex", "index")
_HINTS: dict[type, dict[str, Any]] = {}


def _did_you_mean(value: object, choices: Iterable[str]) -> str:
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_changes(method: str, changes: Mapping[str, Any]) -> None:
    """A TypeError for a keyword of ``derive``/``from_table`` that names no field of Policy."""
    names = [f.name for f in fields(Policy)]
    for key in changes:
        if key not in names:
            raise TypeError(
                f"{method}() got {key!r}, which is no field of Policy{_did_you_mean(key, names)}; "
                f"its fields: {', '.join(names)}"
            )


def _describe(hint: Any) -> str:
    """``hint`` in words: ``one of 'same', 'category'``, ``a mapping of DType to DType``."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return f"one of {', '.join(map(repr, args))}"
    if origin in (Union, UnionType):
        return " or ".join("None" if a is type(None) else _describe(a) for a in args)
    if origin is Mapping:
        return f"a mapping of {_describe(args[0])} to {_describe(args[1])}"
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {_describe(args[0])}"
        return f"a ({', '.join(_describe(a) for a in args)}) tuple"
    if origin is frozenset:
        return f"a frozenset of {_describe(args[0])}"
    return str(getattr(hint, "__name__", hint))


def _check(value: Any, hint: Any, where: str) -> None:
    """Raise unless ``value`` is of type ``hint`` (in the forms Policy and Family use), naming ``where``.

    Raises
    ------
    ValueError
        A value outside a ``Literal``'s, with the allowed values and the closest one.
    TypeError
        A value of another type.
    """
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return
    if origin is Literal:
        if not isinstance(value, str) or value not in args:
            raise ValueError(f"{where} must be {_describe(hint)}, not {value!r}{_did_you_mean(value, args)}")
        return
    if origin in (Union, UnionType):
        if value is None and type(None) in args:
            return
        arms = [a for a in args if a is not type(None)]
        if len(arms) == 1:
            _check(value, arms[0], where)
            return
        for arm in arms:
            try:
                _check(value, arm, where)
            except (TypeError, ValueError):
                continue
            return
    elif origin is Mapping:
        if isinstance(value, Mapping):
            for key, item in value.items():
                _check(key, args[0], f"{where} (key {key!r})")
                _check(item, args[1], f"{where}[{key!r}]")
            return
    elif origin is tuple:
        if isinstance(value, tuple):
            each = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
            if len(each) == len(value):
                for item, arm in zip(value, each, strict=True):
                    _check(item, arm, f"{where} (item {item!r})")
                return
    elif origin is frozenset:
        if isinstance(value, (frozenset, set)):
            for item in value:
                _check(item, args[0], f"{where} (item {item!r})")
            return
    elif isinstance(hint, type) and isinstance(value, hint):
        return
    shown = repr(value) if len(repr(value)) <= 60 else f"{repr(value)[:60]}..."
    raise TypeError(f"{where} must be {_describe(hint)}, not {type(value).__name__} {shown}")


@cache
def _fits(hint: Any) -> Callable[[Any], bool]:
    """A fast test of whether a value is of type ``hint``; :func:`_check` says why not."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return lambda v: True
    if origin is Literal:
        return lambda v: isinstance(v, str) and v in args
    if origin in (Union, UnionType):
        arms = [_fits(a) for a in args]
        return lambda v: any(arm(v) for arm in arms)
    if origin is Mapping:
        key, item = _fits(args[0]), _fits(args[1])
        return lambda v: isinstance(v, Mapping) and all(map(key, v.keys())) and all(map(item, v.values()))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = _fits(args[0])
        return lambda v: isinstance(v, tuple) and all(map(each, v))
    if origin is tuple:
        if all(isinstance(a, type) for a in args):  # a pair of DTypes: the keys of every grid
            return lambda v: isinstance(v, tuple) and len(v) == len(args) and all(map(isinstance, v, args))
        arms = [_fits(a) for a in args]
        return lambda v: (
            isinstance(v, tuple) and len(v) == len(arms) and all(a(x) for a, x in zip(arms, v, strict=True))
        )
    if origin is frozenset:
        each = _fits(args[0])
        return lambda v: isinstance(v, (frozenset, set)) and all(map(each, v))
    if hint is type(None):
        return lambda v: v is None
    return lambda v: isinstance(v, hint)


def _kinds(value: str | None, where: str) -> None:
    if value is not None and set(value) - set("biufc"):
        raise ValueError(
            f"{where} must hold only kind letters of 'biufc' (bool, int, uint, float, complex), not {value!r}"
        )


def _per_kind(value: Mapping[str, Any] | None, where: str) -> None:
    """Keys of a per-kind mapping are kind letters; a range's lowest is not above its highest."""
    for key, item in (value or {}).items():
        if len(key) != 1 or key not in "biufc":
            raise ValueError(
                f"{where} is keyed by one kind letter of 'biufc' (bool, int, uint, float, complex), "
                f"not {key!r}"
            )
        if isinstance(item, tuple) and item[0] > item[1]:
            raise ValueError(f"{where}[{key!r}] is the range {item}, whose lowest is above its highest")


def _validate(record: Policy | Family, owner: str) -> None:
    """Check every field of ``record`` against its type, and the fields whose values are names.

    Raises
    ------
    TypeError
        A field of another type than it is declared with.
    ValueError
        A value outside the field's choices (``inplace="smae"``), with the choices and the closest.
    """
    hints = _HINTS.get(type(record))
    if hints is None:
        hints = _HINTS[type(record)] = get_type_hints(type(record))
    for f in fields(record):
        value, hint = getattr(record, f.name), hints[f.name]
        if not _fits(hint)(value):
            _check(value, hint, f"{owner}: {f.name}")
    if isinstance(record, Family):
        _kinds(record.kinds, f"{owner}: kinds")
        _kinds(record.scalar_kinds, f"{owner}: scalar_kinds")
        _kinds(record.result_kinds, f"{owner}: result_kinds")
        for name in ("int_values", "int_right", "int_range"):
            _per_kind(getattr(record, name), f"{owner}: {name}")
        return
    _per_kind(record.int_range, f"{owner}: int_range")
    _kinds(record.accumulate_kinds, f"{owner}: accumulate_kinds")
    for key in record.defaults:
        if key not in DEFAULT_KINDS:
            raise ValueError(
                f"{owner}: defaults has a key {key!r}{_did_you_mean(key, DEFAULT_KINDS)}; its keys are "
                f"{', '.join(DEFAULT_KINDS)}"
            )
    missing = [k for k in DEFAULT_KINDS if k not in record.defaults]
    if missing:
        raise ValueError(
            f"{owner}: defaults lacks {', '.join(missing)}; its keys are {', '.join(DEFAULT_KINDS)}"
        )
    for op, family in record.op_families.items():
        if op not in FAMILY:
            raise ValueError(f"{owner}: op_families names an unknown op {op!r}{_did_you_mean(op, FAMILY)}")
        if family not in record.families and family not in FAMILIES:
            raise ValueError(
                f"{owner}: op_families puts {op!r} in {family!r}, which is no family of the policy"
                f"{_did_you_mean(family, [*record.families, *FAMILIES])}"
            )
    for family, _ in record.functions:
        if family not in FUNCTION_FAMILIES:
            raise ValueError(
                f"{owner}: functions has the unknown function family {family!r}"
                f"{_did_you_mean(family, FUNCTION_FAMILIES)}; known: {', '.join(FUNCTION_FAMILIES)}"
            )
    for form, rule in record.float_scalars.items():
        if form not in FLOAT_SCALAR_FORMS:
            raise ValueError(
                f"{owner}: float_scalars has the form {form!r}{_did_you_mean(form, FLOAT_SCALAR_FORMS)}; "
                f"its forms are {', '.join(map(repr, FLOAT_SCALAR_FORMS))}"
            )
        if rule == "reciprocal_then_multiply" and form != "s / x":
            raise ValueError(f"{owner}: float_scalars[{form!r}] is {rule!r}, a rule of 's / x' only")
    rules = record.nested_rules
    if rules is not None and rules not in _BUILTIN and rules not in _REGISTERED:
        raise ValueError(
            f"{owner}: nested_rules names no registered policy: {rules!r}{_did_you_mean(rules, policies())}"
        )


# --- the registry: built-in policies are imported on first use --------------------------------

_BUILTIN: dict[str, str] = {
    "array-api": "array_api",
    "pytorch": "pytorch",
    "paddle": "paddle",
    "tf-safe": "tf_safe",
    "numpy": "numpy",
}
_REGISTERED: dict[str, Policy] = {}
_LOCK = threading.Lock()


def policies() -> tuple[str, ...]:
    """Names of every registered policy, built-in ones first."""
    with _LOCK:
        custom = [n for n in _REGISTERED if n not in _BUILTIN]
    return (*_BUILTIN, *custom)


class UnknownPolicyError(KeyError, ValueError):
    """No policy is registered under a name: a KeyError (a lookup) and a ValueError (a bad argument)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def get_policy(name: str | Policy) -> Policy:
    """The policy registered under ``name`` (a :class:`Policy` is returned as is).

    Raises
    ------
    KeyError
        No policy has that name (an :class:`UnknownPolicyError`, a ValueError
        too); the message lists the registered ones (and the closest).
    TypeError
        ``name`` is neither a string nor a :class:`Policy`.
    """
    if isinstance(name, Policy):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a policy is a registered name or a promo_ns.Policy, not {type(name).__name__}")
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    module = _BUILTIN.get(name)
    if module is None:
        close = difflib.get_close_matches(name, policies(), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UnknownPolicyError(
            f"no promotion policy named {name!r}; {hint}registered: {', '.join(policies())}"
        )
    policy: Policy = import_module(f"promo_ns.policies.{module}").POLICY
    with _LOCK:
        return _REGISTERED.setdefault(name, policy)


def is_registered(policy: Policy) -> bool:
    """Whether ``policy`` is the one registered under its name (so that its name stands for it)."""
    return policy is _REGISTERED.get(policy.name) or (
        policy.name in _BUILTIN and policy is get_policy(policy.name)
    )


def register(policy: Policy, *, replace: bool = False) -> Policy:
    """Register ``policy`` under ``policy.name``; ``replace=True`` to override an existing name.

    Raises
    ------
    TypeError
        ``policy`` is not a :class:`Policy` (build one with ``Policy.from_table`` or
        ``get_policy(name).derive(...)``).
    ValueError
        The name is taken and ``replace`` is false.
    """
    if not isinstance(policy, Policy):
        raise TypeError(
            f"register() takes a promo_ns.Policy, not {type(policy).__name__}; build one with "
            "promo_ns.get_policy(name).derive(new_name, ...) or promo_ns.Policy.from_table(...)"
        )
    with _LOCK:
        if not replace and (policy.name in _REGISTERED or policy.name in _BUILTIN):
            raise ValueError(f"a policy named {policy.name!r} is already registered; pass replace=True")
        _REGISTERED[policy.name] = policy
    return policy
