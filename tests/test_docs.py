"""The docs site: its pictures are drawn from the policy data when it is built, so a changed cell shows."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import promo_ns
from promo_ns import get_policy
from promo_ns.explore.tables import format_view, view
from promo_ns.policies import Policy, Role
from promo_ns.policies._model import _REGISTERED
from tests.test_pictures import cells

mkdocs_config = pytest.importorskip("mkdocs.config")
hooks = pytest.importorskip("scripts.docs_hooks")

ROOT = Path(__file__).parent.parent


def build(site: Path) -> Path:
    """Build the site into ``site`` (strict, as CI does) and return it."""
    from mkdocs.commands.build import build as mkdocs_build

    config = mkdocs_config.load_config(str(ROOT / "mkdocs.yml"), site_dir=str(site), strict=True)
    mkdocs_build(config)
    return site


def inlined(html: str) -> list[str]:
    """The pictures inlined in a built page."""
    return re.findall(r"<div class='promo-picture'[^>]*>(<svg.*?</svg>\n?)</div>", html, re.DOTALL)


def text_grids(page: str) -> str:
    """The text of a built page's code blocks: the grids as text, as the CLI prints them."""
    blocks = re.findall(r"<pre[^>]*>(.*?)</pre>", page, re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", "", "\n".join(blocks)))


def nd_grid(policy: Policy, op: str = "add") -> str:
    """The n-d with n-d grid of ``op`` as text, each line indented as in the page's code block."""
    return format_view(view(policy, op, Role.ND, Role.ND))


@pytest.fixture
def site(built_site: Path) -> Path:
    return built_site


def test_every_policy_and_op_has_a_picture_inlined_in_the_tables_page(site: Path) -> None:
    page = (site / "tables" / "index.html").read_text()
    pictures = inlined(page)
    assert len(pictures) == len(hooks.OPS) * (1 + len(promo_ns.policies()))
    for op in hooks.OPS:
        assert (site / "pictures" / f"disagree-{op}.svg").read_text() in pictures
        for name in promo_ns.policies():
            assert (site / "pictures" / f"{name}-{op}.svg").read_text() in pictures
    assert "<title>add(int8 (n-d array), 1.0 (Python float)) -&gt; float32</title>" in page  # hover text
    assert len(inlined((site / "index.html").read_text())) == 1


def test_every_policy_and_op_has_its_grids_as_text_with_a_legend_next_to_its_picture(site: Path) -> None:
    page = (site / "tables" / "index.html").read_text()
    grids = text_grids(page)
    for name in promo_ns.policies():
        for op in hooks.OPS:
            for v in hooks.views(get_policy(name), op):
                assert f"{v.title}\n\n{format_view(v)}" in grids
            picture = page.index(f"aria-label='{name}: {op}'")
            after = page.find("class='promo-picture'", picture) % (len(page) + 1)  # the next, or the end
            assert picture < page.index(f"<code>{name}</code>: {op} as text</summary>") < after
            assert hooks.as_text(get_policy(name), op) in grids  # with the legend the CLI prints
    legends = page.count("<code>-</code> is refused (<code>PromotionError</code>)")
    assert legends == len(hooks.OPS) * len(promo_ns.policies())


def test_a_changed_cell_changes_the_built_pictures(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = get_policy("pytorch")
    changed = base.derive("pytorch", cells={("i8", "u8"): "f32"}, symmetric=False, summary=base.summary)
    monkeypatch.setitem(_REGISTERED, "pytorch", changed)
    after = build(tmp_path / "site")
    pictures = sorted(str(p.relative_to(site)) for p in (site / "pictures").iterdir())
    differ = [p for p in pictures if (site / p).read_text() != (after / p).read_text()]
    assert differ == ["pictures/disagree-add.svg", "pictures/pytorch-add.svg"]
    old, new = (cells((s / "pictures" / "pytorch-add.svg").read_text()) for s in (site, after))
    assert {k[1:] for k in old if old[k] != new[k]} == {("i8", "u8")}
    assert new["n-d array (rows) with n-d array (columns)", "i8", "u8"][0] == "float32"
    page = (after / "tables" / "index.html").read_text()
    assert (after / "pictures" / "pytorch-add.svg").read_text() in inlined(page)
    assert nd_grid(changed) in text_grids(page) and nd_grid(base) not in text_grids(page)
    assert nd_grid(base) in text_grids((site / "tables" / "index.html").read_text())


def test_every_page_in_docs_is_in_the_nav() -> None:
    config = mkdocs_config.load_config(str(ROOT / "mkdocs.yml"))

    def pages(nav: object) -> set[str]:
        if isinstance(nav, str):
            return {nav}
        if isinstance(nav, dict):
            return set().union(*(pages(v) for v in nav.values()))
        assert isinstance(nav, list)
        return set().union(*(pages(v) for v in nav))

    on_disk = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert on_disk | {"tables.md"} == pages(config["nav"])


def test_sphinx_roles_in_docstrings_render_as_code() -> None:
    html = "see :func:<code>grid</code> and :class:<code>~promo_ns.Policy</code>"
    assert hooks.on_page_content(html) == "see <code>grid</code> and <code>promo_ns.Policy</code>"


def test_a_link_to_a_picture_that_is_not_generated_is_left_to_mkdocs() -> None:
    assert hooks.on_page_markdown("![x](pictures/none.svg)") == "![x](pictures/none.svg)"
