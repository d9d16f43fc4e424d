"""Grids as text, in the shape the frameworks' documents use (and :func:`_model.grid` parses)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from promo_ns._dtypes import DType

__all__ = ["format_grid"]


def format_grid(
    rows: Sequence[DType],
    cols: Sequence[object],
    cell: Callable[[DType, object], DType | None],
    col_names: Sequence[str] | None = None,
) -> str:
    """Render ``cell(row, col)`` for every row and column; ``-`` where it is ``None``."""
    names = list(col_names) if col_names is not None else [getattr(c, "short", str(c)) for c in cols]
    width = max(5, *(len(n) + 1 for n in names))
    lines = [" " * 5 + "".join(f"{n:>{width}}" for n in names)]
    for r in rows:
        cells = (cell(r, c) for c in cols)
        lines.append(f"{r.short:>5}" + "".join(f"{(c.short if c else '-'):>{width}}" for c in cells))
    return "\n".join(lines)
