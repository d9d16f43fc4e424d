"""A policy's grids as data (:class:`View`) and as text, in the shape the frameworks' documents use.

A view is one grid: rows of array operands of one role against columns of
operands of one role, each cell the result dtype or ``None`` for a refusal.
:mod:`promo_ns.explore.pictures` draws the same views as SVG.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine.operands import Operand, PromotionError
from promo_ns._engine.resolution import resolve
from promo_ns.policies._model import ARRAY_ROLES, SCALAR_COLUMNS, Policy, Role

__all__ = [
    "DEFAULT_ROLES",
    "KIND_STYLE",
    "ROLE_NAMES",
    "SAMPLE_SCALARS",
    "View",
    "format_view",
    "kind_key",
    "legend",
    "legend_dtypes",
    "paint",
    "parse_roles",
    "view",
]

#: The grids shown unless told otherwise: n-d arrays with n-d arrays, Python scalars and 0-d arrays.
DEFAULT_ROLES: tuple[str, ...] = ("nd:nd", "nd:scalar", "nd:0d")
#: Role names on the command line; ``"scalar"`` stands for the four Python scalar kinds.
ROLE_NAMES: dict[str, Role | None] = {
    "nd": Role.ND,
    "0d": Role.ZERO_D,
    "npscalar": Role.NP_SCALAR,
    "scalar": None,
}

#: Per result kind (``"-"``: refused): legend name, fill colour, ANSI 256-colour code.
KIND_STYLE: dict[str, tuple[str, str, int]] = {
    "b": ("bool", "#b7d7a8", 108),
    "i": ("signed integer", "#f4a259", 215),
    "u": ("unsigned integer", "#f9d56e", 222),
    "f": ("floating point", "#8ecae6", 117),
    "c": ("complex", "#c9b2e6", 183),
    "-": ("refused", "#ffffff", 245),
}

#: The value a Python scalar of each role stands for in a grid.
SAMPLE_SCALARS: dict[Role, object] = {Role.BOOL: True, Role.INT: 1, Role.FLOAT: 1.0, Role.COMPLEX: 1j}


@dataclass(frozen=True)
class View:
    """One grid of ``op`` under a policy: ``cells[i][j]`` is ``rows[i] op cols[j]`` (``None``: refused)."""

    policy: Policy
    op: str
    rows: tuple[Operand, ...]
    cols: tuple[Operand, ...]
    cells: tuple[tuple[DType | None, ...], ...]

    @property
    def title(self) -> str:
        """``"n-d array (rows) with Python scalar (columns)"``."""
        row = self.rows[0].role
        col = "Python scalar" if self.cols[0].role.is_scalar else self.cols[0].role
        return f"{row} (rows) with {col} (columns)"

    @staticmethod
    def name(o: Operand) -> str:
        """A row or column header: a short dtype name, or a Python scalar kind."""
        return o.dtype.short if o.dtype is not None else o.role.name.lower()


def _answer(policy: Policy, op: str, a: Operand, b: Operand) -> DType | None:
    try:
        return resolve(policy, op, a, b)
    except (PromotionError, OverflowError):
        return None


def _operands(role: Role | None) -> tuple[Operand, ...]:
    if role is None:
        return tuple(Operand(None, r, SAMPLE_SCALARS[r]) for r in SCALAR_COLUMNS.values())
    return tuple(Operand(d, role) for d in DTYPES)


def view(policy: Policy, op: str, rows: Role, cols: Role | None) -> View:
    """The grid of ``op`` under ``policy``: arrays of role ``rows`` with operands of role ``cols``.

    ``cols=None`` gives one column per Python scalar kind.
    """
    if rows not in ARRAY_ROLES:
        raise ValueError(f"grid rows must be arrays (n-d, 0-d or NumPy scalar), not {rows}")
    r, c = _operands(rows), _operands(cols)
    return View(policy, op, r, c, tuple(tuple(_answer(policy, op, a, b) for b in c) for a in r))


def parse_roles(specs: Sequence[str]) -> list[tuple[Role, Role | None]]:
    """``["nd:scalar", "0d"]`` -> ``[(Role.ND, None), (Role.ND, Role.ZERO_D)]`` (a bare role is a column).

    Raises
    ------
    ValueError
        An unknown role name, or rows that are Python scalars; the message lists the names.
    """
    pairs = []
    for spec in specs:
        row_name, _, col_name = spec.rpartition(":")
        row, col = ROLE_NAMES.get(row_name or "nd"), ROLE_NAMES.get(col_name, Role.ND)
        if row is None or col_name not in ROLE_NAMES:
            raise ValueError(
                f"bad --roles entry {spec!r}: write ROW:COL or COL, ROW one of nd, 0d, npscalar "
                f"and COL one of {', '.join(ROLE_NAMES)}"
            )
        pairs.append((row, col))
    return pairs


def paint(text: str, dtype: DType | str | None, color: bool) -> str:
    """``text`` in the ANSI colour of ``dtype``'s kind if ``color``.

    ``dtype`` may also be a kind letter (``"biufc"``), or ``None`` or ``"-"`` for a refusal.
    """
    kind = dtype.kind if isinstance(dtype, DType) else dtype or "-"
    return f"\x1b[38;5;{KIND_STYLE[kind][2]}m{text}\x1b[0m" if color else text


def kind_key(color: bool) -> str:
    """The colour key: each kind of result named in its own colour, ``"colour: bool, ..., refused"``."""
    return "colour: " + ", ".join(paint(name, kind, color) for kind, (name, _, _) in KIND_STYLE.items())


#: One example dtype per kind for the legend: its short name, as the grids' headers write it.
_LEGEND_DTYPES = ("b", "i8", "u16", "f32", "bf16", "c64")


def legend(views: Sequence[View], *, color: bool = False) -> str:
    """Two lines to print under text grids: what a cell, ``-`` and the headers mean.

    The first line says what a cell is (row operand, op, column operand), that
    ``-`` is a refusal and, where a grid's columns are Python scalars, which
    values they stand for; the second reads the short dtype names and, with
    ``color``, paints each one in its kind's colour.

    Parameters
    ----------
    views
        The grids printed above the legend (one op; at least one grid).
    color
        Whether the grids were painted (ANSI colours by result kind).

    Returns
    -------
    str
        The legend, without a trailing newline.
    """
    first = f"cell: row (x1) {views[0].op} column (x2); -: refused, the op raises PromotionError"
    scalars = next((v.cols for v in views if v.cols[0].role.is_scalar), ())
    if scalars:
        names = " ".join(View.name(c) for c in scalars)
        first += f"; {names}: the Python scalars {', '.join(repr(c.value) for c in scalars)}"
    return f"{first}\n{legend_dtypes(color)}"


def legend_dtypes(color: bool = False) -> str:
    """The legend's line that reads the short dtype names (and, with ``color``, the colours)."""
    by_short = {d.short: d for d in DTYPES}
    examples = ", ".join(paint(f"{s} {by_short[s].name}", by_short[s], color) for s in _LEGEND_DTYPES)
    line = f"dtypes: {examples} (kind + bits)"
    if color:
        line += f", {paint('- refused', None, color)}: coloured by kind of result"
    return line


def format_view(v: View, *, color: bool = False) -> str:
    """The grid as aligned text (``-`` for a refused cell); ``color`` paints cells by result kind (ANSI)."""
    names = [v.name(c) for c in v.cols]
    width = max(5, *(len(n) + 1 for n in names))
    lines = [" " * 5 + "".join(f"{n:>{width}}" for n in names)]
    for row, cells in zip(v.rows, v.cells, strict=True):
        lines.append(
            f"{v.name(row):>5}"
            + "".join(paint(f"{(d.short if d else '-'):>{width}}", d, color) for d in cells)
        )
    return "\n".join(lines)
