"""MkDocs hook: the promotion pictures and the tables page, generated from the policy data at build time.

Nothing generated is committed, so the pictures cannot go stale: every build
draws them from the policies as the code defines them.
"""

from __future__ import annotations

import re
import textwrap

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from promo_ns import get_policy, policies
from promo_ns.explore.pictures import disagreement, picture
from promo_ns.explore.tables import DEFAULT_ROLES, View, format_view, legend, parse_roles, view
from promo_ns.policies import Policy

#: The ops drawn for every policy; each gets the grids ``python -m promo_ns table`` prints by default.
OPS = ("add", "divide")
GRIDS = parse_roles(DEFAULT_ROLES)


def views(policy: Policy, op: str) -> list[View]:
    """The grids of ``op`` under ``policy`` that the pictures show."""
    return [view(policy, op, rows, cols) for rows, cols in GRIDS]


#: The line above each policy's grids as text.
TEXT_INTRO = (
    "`python -m promo_ns table {name} --op {op}` prints these grids; `-` is refused (`PromotionError`)."
)


def as_text(policy: Policy, op: str) -> str:
    """The grids of ``op`` under ``policy`` and their legend, as ``python -m promo_ns table`` prints them.

    Parameters
    ----------
    policy
        The policy whose grids to write.
    op
        The op, e.g. ``"add"``.

    Returns
    -------
    str
        Each grid of :func:`views` under its title, ``-`` for a refused cell, then what the
        cells and headers mean.
    """
    vs = views(policy, op)
    return "\n\n".join([*(f"{v.title}\n\n{format_view(v)}" for v in vs), legend(vs)])


def tables_page(names: tuple[str, ...]) -> str:
    """The Markdown of the "Promotion tables" page: per policy and op, a picture and its grids as text."""
    lines = [
        "# Promotion tables",
        "",
        "Every grid below is drawn from the policy data when the site is built. Each picture shows one op",
        "under one policy as three grids, one above the other: an n-d array (rows, the left operand) with",
        "an n-d array, a Python scalar and a 0-d array (columns). A cell's colour is the kind of the",
        "result, a crossed-out white cell is refused (`PromotionError`), and a thick border marks a",
        "result wider than both arrays (RFC 431's unsafe widening). Hover a cell for the op and its",
        "operands. Under each picture, *as text* opens the same grids as `python -m promo_ns table`",
        "prints them; `python -m promo_ns table POLICY --op OP --svg` draws any op as a picture like these.",
        "",
        "## Where the policies disagree",
        "",
        "Each cell's colour, and its label, is the number of different answers the policies give there",
        "(a refusal counts as an answer); hover a cell for each policy's answer.",
        "",
    ]
    for op in OPS:
        lines += [f"![where the built-in policies disagree on {op}](pictures/disagree-{op}.svg)", ""]
    for name in names:
        p = get_policy(name)
        lines += [f"## `{name}`", "", f"{p.summary} Reference: {p.reference}.", ""]
        for op in OPS:
            text = f"{TEXT_INTRO.format(name=name, op=op)}\n\n```text\n{as_text(p, op)}\n```"
            lines += [
                f"### `{name}`: {op}",
                "",
                f"![{name}: {op}](pictures/{name}-{op}.svg)",
                "",
                f'??? note "`{name}`: {op} as text"',  # collapsed (pymdownx.details)
                textwrap.indent(text, "    "),
                "",
            ]
    return "\n".join(lines)


#: The generated pictures of the current build, by path: pages inline them, so hover text shows.
PICTURES: dict[str, str] = {}
_PICTURE_LINK = re.compile(r"^!\[([^\]]*)\]\((pictures/[\w.-]+\.svg)\)$", re.MULTILINE)
_SPHINX_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc):<code>~?([^<]*)</code>")


def on_page_markdown(markdown: str, **kwargs: object) -> str:
    """Inline each generated picture, so that its cells' hover text works (it does not in ``<img>``)."""

    def inline(m: re.Match[str]) -> str:
        alt, path = m.groups()
        if path not in PICTURES:
            return m.group(0)  # left to MkDocs, which reports the missing file
        return (
            f"<div class='promo-picture' role='img' aria-label='{alt}' style='overflow-x:auto'>"
            f"{PICTURES[path]}</div>\n\n[{alt} (SVG)]({path})"
        )

    return _PICTURE_LINK.sub(inline, markdown)


def on_page_content(html: str, **kwargs: object) -> str:
    """Render the docstrings' Sphinx cross-reference roles (``:func:`grid```) as plain code."""
    return _SPHINX_ROLE.sub(r"<code>\1</code>", html)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pictures and ``tables.md`` to the site."""
    names = policies()
    PICTURES.clear()
    for op in OPS:
        all_views = [views(get_policy(n), op) for n in names]
        PICTURES[f"pictures/disagree-{op}.svg"] = disagreement(all_views)
        for name, vs in zip(names, all_views, strict=True):
            PICTURES[f"pictures/{name}-{op}.svg"] = picture(vs)
    for path, svg in PICTURES.items():
        files.append(File.generated(config, path, content=svg))
    files.append(File.generated(config, "tables.md", content=tables_page(names)))
    return files
