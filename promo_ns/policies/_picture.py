"""Policy grids as SVG pictures: one colour per result kind, refused cells crossed out.

:func:`picture` draws one policy's views side by side; :func:`disagreement`
draws, for the same cells, how many different answers several policies give.
Both are plain SVG text (no dependencies), and every cell carries
``data-row``/``data-col``/``data-value`` attributes and a hover ``<title>``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from html import escape
from typing import NamedTuple

from promo_ns._dtypes import DType, widens
from promo_ns.policies._format import KIND_STYLE, View

__all__ = ["disagreement", "picture"]

_W, _H = 38, 20  # smallest cell width, cell height
_HEAD = 44  # row-header width
_GAP = 26  # between views
_FONT = "font-family='ui-monospace,Menlo,Consolas,monospace' font-size='11'"
_AGREE = ("#f7f7f7", "#fde0c5", "#f9b98a", "#ef8a5a", "#d7462e")  # 1, 2, 3, 4, 5+ answers


def _text(x: float, y: float, s: str, anchor: str = "middle", extra: str = "") -> str:
    return f"<text x='{x:g}' y='{y:g}' text-anchor='{anchor}' {extra}>{escape(s)}</text>"


class Cell(NamedTuple):
    """How to draw one cell: fill colour, label (``""``: crossed out), hover text, value, thick border."""

    fill: str
    label: str
    tip: str
    value: str
    bold: bool = False


def _cell(x: float, y: float, w: float, c: Cell, *, row: str, col: str) -> str:
    attrs = f"data-row='{escape(row)}' data-col='{escape(col)}' data-value='{escape(c.value)}'"
    stroke = "stroke='#222' stroke-width='2'" if c.bold else "stroke='#fff'"
    crossed = f"<path d='M{x + 4:g},{y + 4:g}L{x + w - 4:g},{y + _H - 4:g}' stroke='#bbb'/>"
    return (
        f"<g class='cell' {attrs}><title>{escape(c.tip)}</title>"
        f"<rect x='{x:g}' y='{y:g}' width='{w:g}' height='{_H}' fill='{c.fill}' {stroke}/>"
        + (_text(x + w / 2, y + 14, c.label) if c.label else crossed)
        + "</g>"
    )


def _grid(v: View, cell: Callable[[int, int], Cell]) -> tuple[list[str], float]:
    """One view's title, headers and cells (``cell(i, j)``), from (0, 0); its width."""
    out = [_text(0, 0, v.title, "start", "font-weight='bold'")]
    bold_cells: list[str] = []
    w = max(_W, 7 * max(len(v.name(c)) for c in v.cols) + 8)
    y0 = 10
    for j, c in enumerate(v.cols):
        out.append(_text(_HEAD + j * w + w / 2, y0 + 14, v.name(c)))
    for i, r in enumerate(v.rows):
        y = y0 + _H * (i + 1)
        out.append(_text(_HEAD - 6, y + 14, v.name(r), "end"))
        for j, c in enumerate(v.cols):
            drawn = cell(i, j)
            (bold_cells if drawn.bold else out).append(
                _cell(_HEAD + j * w, y, w, drawn, row=v.name(r), col=v.name(c))
            )
    return out + bold_cells, max(_HEAD + w * len(v.cols), 7 * len(v.title))


def _draw(
    title: str, views: Sequence[View], cell: Callable[[int, int, int], Cell], legend: tuple[list[str], float]
) -> str:
    """The SVG document: ``views`` side by side, cell ``(i, j)`` of view ``k`` drawn as ``cell(k, i, j)``."""
    body, x = [], 10.0
    for k, v in enumerate(views):
        g, w = _grid(v, partial(cell, k))
        body.append(f"<g transform='translate({x:g},0)'>{''.join(g)}</g>")
        x += w + _GAP
    width = max(x - _GAP, legend[1], 8.6 * len(title)) + 10
    top = 40 + 10 + _H * (max(len(v.rows) for v in views) + 1) + 16
    height = top + 22
    head = _text(10, 20, title, "start", "font-size='14' font-weight='bold'")
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
        f"viewBox='0 0 {width:g} {height:g}' {_FONT}><rect width='100%' height='100%' fill='#fff'/>"
        f"{head}<g transform='translate(0,40)'>{''.join(body)}</g>"
        f"<g transform='translate(10,{top:g})'>{''.join(legend[0])}</g></svg>\n"
    )


def _legend(items: Sequence[tuple[str, str, bool]]) -> tuple[list[str], float]:
    """Swatches (fill colour, name, thick border) in a row; the row's width."""
    out, x = [], 0.0
    for fill, name, bold in items:
        stroke = "stroke='#222' stroke-width='2'" if bold else "stroke='#999'"
        out.append(f"<rect x='{x:g}' y='0' width='14' height='14' fill='{fill}' {stroke}/>")
        out.append(_text(x + 20, 11, name, "start"))
        x += 34 + 7 * len(name)
    return out, x


def _tip(v: View, i: int, j: int, answer: str) -> str:
    r, c = v.rows[i], v.cols[j]
    return f"{v.op}({r.describe()}, {c.describe()}) -> {answer}"


def picture(views: Sequence[View]) -> str:
    """One policy's views side by side, as an SVG document.

    Each cell's colour is the result's kind; a refused cell is white and
    crossed out; a thick border marks a result wider than both array operands.
    """

    def fill(k: int, i: int, j: int) -> Cell:
        v = views[k]
        d: DType | None = v.cells[i][j]
        a, b = v.rows[i].dtype, v.cols[j].dtype
        answer = d.name if d else "refused"
        bold = d is not None and a is not None and b is not None and widens(d, (a, b))
        return Cell(
            KIND_STYLE[d.kind if d else "-"][1], d.short if d else "", _tip(v, i, j, answer), answer, bold
        )

    legend = _legend(
        [(fill, name, False) for name, fill, _ in KIND_STYLE.values()]
        + [("#fff", "wider than both arrays", True)]
    )
    title = f"{views[0].policy.name}: {views[0].op} ({views[0].policy.reference})"
    return _draw(title, views, fill, legend)


def disagreement(views: Sequence[Sequence[View]]) -> str:
    """Where policies disagree: ``views[k]`` holds policy ``k``'s views, all of the same cells.

    Each cell's colour is the number of different answers (a refusal is an
    answer); its label is that number, and its hover text each policy's answer.
    """
    per_grid = list(zip(*views, strict=True))

    def count(k: int, i: int, j: int) -> Cell:
        answers = [(w.policy.name, w.cells[i][j]) for w in per_grid[k]]
        distinct = len({d for _, d in answers})
        said = ", ".join(f"{p} {d.name if d else 'refused'}" for p, d in answers)
        label = str(distinct) if distinct > 1 else "."
        return Cell(_AGREE[min(distinct, 5) - 1], label, _tip(per_grid[k][0], i, j, said), str(distinct))

    names = ", ".join(vs[0].policy.name for vs in views)
    counts = [f"{n} answer{'s' * (n > 1)}" for n in range(1, len(_AGREE) + 1)]
    counts[-1] += " or more" if len(views) > len(_AGREE) else ""
    legend = _legend([(c, n, False) for c, n in zip(_AGREE, counts, strict=True)][: len(views)])
    title = f"{per_grid[0][0].op}: how many different answers {names} give"
    return _draw(title, [same[0] for same in per_grid], count, legend)
