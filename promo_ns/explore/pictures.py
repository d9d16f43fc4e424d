"""Policy grids as SVG pictures: one colour per result kind, refused cells crossed out.

:func:`picture` draws one policy's views one above the other; :func:`disagreement`
draws, for the same cells, how many different answers several policies give.
Both are plain SVG text (no dependencies), and every cell carries
``data-row``/``data-col``/``data-value`` attributes and a hover ``<title>``.
A picture of 15-column views is about 660 px wide, so a documentation page's
column shows it at its drawn size, with 12 px text.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from functools import partial
from html import escape
from typing import NamedTuple

from promo_ns._dtypes import DType, widens
from promo_ns.explore.tables import KIND_STYLE, View

__all__ = ["disagreement", "picture"]

_W, _H = 40, 20  # smallest cell width, cell height
_HEAD = 44  # row-header width
_GAP = 30  # between views, one above the other
_WRAP = 600  # the picture's title and legend wrap at this width, or at the widest view's if wider
_MARGIN = 10
_SIZE, _TITLE_SIZE = 12, 14  # font sizes
_CHAR = 0.62  # a monospace character's width, in font sizes (with a little room)
_FONT = f"font-family='ui-monospace,Menlo,Consolas,monospace' font-size='{_SIZE}'"
_AGREE = ("#f7f7f7", "#fde0c5", "#f9b98a", "#ef8a5a", "#d7462e")  # 1, 2, 3, 4, 5+ answers


def _text(x: float, y: float, s: str, anchor: str = "middle", extra: str = "") -> str:
    return f"<text x='{x:g}' y='{y:g}' text-anchor='{anchor}' {extra}>{escape(s)}</text>"


def _width(s: str, size: float = _SIZE) -> float:
    return _CHAR * size * len(s)


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


class _Block(NamedTuple):
    """Drawn SVG elements, from (0, 0) (the first line's baseline, for text), and the size they take."""

    parts: list[str]
    width: float
    height: float


def _grid(v: View, cell: Callable[[int, int], Cell]) -> _Block:
    """One view: its title (baseline at 0), headers and cells (``cell(i, j)``)."""
    out = [_text(0, 0, v.title, "start", "font-weight='bold'")]
    bold_cells: list[str] = []
    w = max(_W, _width(max((v.name(c) for c in v.cols), key=len)) + 10)
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
    width = max(_HEAD + w * len(v.cols), _width(v.title))
    return _Block(out + bold_cells, width, y0 + _H * (len(v.rows) + 1))


def _title(title: str, width: float) -> _Block:
    """The picture's title in bold, wrapped into lines no wider than ``width``."""
    wrap = partial(textwrap.wrap, title, break_on_hyphens=False)
    most = max(20, int(width / _width("x", _TITLE_SIZE)))
    count = len(wrap(most))
    while most > 1 and len(wrap(most - 1)) == count:  # balanced lines: no lone last word
        most -= 1
    lines = wrap(most)
    step = _TITLE_SIZE + 4
    parts = [
        _text(0, k * step, line, "start", f"font-size='{_TITLE_SIZE}' font-weight='bold'")
        for k, line in enumerate(lines)
    ]
    return _Block(parts, max((_width(s, _TITLE_SIZE) for s in lines), default=0), step * len(lines))


def _legend(items: Sequence[tuple[str, str, bool]], width: float) -> _Block:
    """Swatches (fill colour, name, thick border), left to right in rows no wider than ``width``."""
    out, x, y, widest = [], 0.0, 0.0, 0.0
    for fill, name, bold in items:
        w = 20 + _width(name)
        if x and x + w > width:
            x, y = 0.0, y + 22
        stroke = "stroke='#222' stroke-width='2'" if bold else "stroke='#999'"
        out.append(f"<rect x='{x:g}' y='{y:g}' width='14' height='14' fill='{fill}' {stroke}/>")
        out.append(_text(x + 20, y + 12, name, "start"))
        widest = max(widest, x + w)
        x += w + 16
    return _Block(out, widest, y + 16)


def _place(x: float, y: float, block: _Block) -> str:
    return f"<g transform='translate({x:g},{y:g})'>{''.join(block.parts)}</g>"


def _draw(
    title: str,
    views: Sequence[View],
    cell: Callable[[int, int, int], Cell],
    legend: Sequence[tuple[str, str, bool]],
) -> str:
    """The SVG document: ``views`` one above the other, cell ``(i, j)`` of view ``k`` as ``cell(k, i, j)``.

    One view per row keeps the picture narrow enough for a page's column at its
    drawn size, so its text stays readable there.
    """
    grids = [_grid(v, partial(cell, k)) for k, v in enumerate(views)]
    wrap = max(_WRAP, *(g.width for g in grids))
    head = _title(title, wrap)
    body, y = [_place(_MARGIN, _MARGIN + _TITLE_SIZE, head)], _MARGIN + _TITLE_SIZE + head.height + 8
    for g in grids:
        y += _SIZE  # the view's title sits above its baseline
        body.append(_place(_MARGIN, y, g))
        y += g.height + _GAP
    key = _legend(legend, wrap)
    body.append(_place(_MARGIN, y - _GAP + 16, key))
    width = max(head.width, key.width, *(g.width for g in grids)) + 2 * _MARGIN
    height = y - _GAP + 16 + key.height + _MARGIN
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
        f"viewBox='0 0 {width:g} {height:g}' {_FONT}><rect width='100%' height='100%' fill='#fff'/>"
        f"{''.join(body)}</svg>\n"
    )


def _tip(v: View, i: int, j: int, answer: str) -> str:
    r, c = v.rows[i], v.cols[j]
    return f"{v.op}({r.describe()}, {c.describe()}) -> {answer}"


def picture(views: Sequence[View]) -> str:
    """One policy's views, one above the other, as an SVG document.

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

    legend = [(fill, name, False) for name, fill, _ in KIND_STYLE.values()]
    legend.append(("#fff", "wider than both arrays", True))
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
    legend = [(c, n, False) for c, n in zip(_AGREE, counts, strict=True)][: len(views)]
    title = f"{per_grid[0][0].op}: how many different answers {names} give"
    return _draw(title, [same[0] for same in per_grid], count, legend)
