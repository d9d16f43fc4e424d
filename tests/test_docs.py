"""The docs hook draws the pictures from the policy data: a changed cell shows in the built site."""

from __future__ import annotations

from pathlib import Path

import pytest

import promo_ns
from promo_ns import get_policy
from promo_ns.policies import _REGISTERED
from tests.test_pictures import cells

mkdocs_config = pytest.importorskip("mkdocs.config")
hooks = pytest.importorskip("scripts.docs_hooks")

ROOT = Path(__file__).parent.parent


def generated() -> dict[str, str]:
    from mkdocs.structure.files import Files

    config = mkdocs_config.load_config(str(ROOT / "mkdocs.yml"))
    config.plugins._current_plugin = "docs_hooks"  # what a build sets while it runs a hook
    files = hooks.on_files(Files([]), config)
    return {f.src_uri: f.content_string for f in files}


def test_every_policy_and_op_has_a_picture_and_a_section() -> None:
    site = generated()
    for op in hooks.OPS:
        assert f"pictures/disagree-{op}.svg" in site
        for name in promo_ns.policies():
            assert site[f"pictures/{name}-{op}.svg"].startswith("<svg")
            assert f"![{name}: {op}](pictures/{name}-{op}.svg)" in site["tables.md"]
    assert site["tables.md"].startswith("# Promotion tables")


def test_a_changed_cell_changes_the_built_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    before = generated()
    base = get_policy("pytorch")
    changed = base.derive("pytorch", cells={("i8", "u8"): "f32"}, symmetric=False, summary=base.summary)
    monkeypatch.setitem(_REGISTERED, "pytorch", changed)
    after = generated()
    assert {k for k in before if before[k] != after[k]} == {
        "pictures/pytorch-add.svg",
        "pictures/disagree-add.svg",
    }
    old, new = cells(before["pictures/pytorch-add.svg"]), cells(after["pictures/pytorch-add.svg"])
    assert {k[1:] for k in old if old[k] != new[k]} == {("i8", "u8")}
    assert new["n-d array (rows) with n-d array (columns)", "i8", "u8"][0] == "float32"


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
