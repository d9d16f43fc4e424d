"""SVG pictures of policy grids: generated from the policy data, so they follow every cell."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from promo_ns import get_policy
from promo_ns.explore.pictures import disagreement, picture
from promo_ns.explore.tables import DEFAULT_ROLES, KIND_STYLE, parse_roles, view
from promo_ns.policies import Policy, Role
from tests.backends import POLICIES

SVG = "{http://www.w3.org/2000/svg}"


def cells(svg: str) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(grid title, row, col) -> (value, fill) for every cell of a picture."""
    root = ET.fromstring(svg)
    found = {}
    for grid in root.iter(f"{SVG}g"):
        title = grid.find(f"{SVG}text")
        for cell in grid.findall(f"{SVG}g[@class='cell']"):
            rect = cell.find(f"{SVG}rect")
            assert title is not None and rect is not None
            key = (title.text or "", cell.attrib["data-row"], cell.attrib["data-col"])
            found[key] = (cell.attrib["data-value"], rect.attrib["fill"])
    return found


def draw(policy: Policy, op: str = "add") -> str:
    return picture([view(policy, op, rows, cols) for rows, cols in parse_roles(DEFAULT_ROLES)])


@pytest.mark.parametrize("policy", POLICIES)
def test_every_cell_shows_the_policy_answer_in_its_kind_colour(policy: str) -> None:
    p = get_policy(policy)
    drawn = cells(draw(p))
    assert len(drawn) == 15 * 15 + 15 * 4 + 15 * 15
    grid = view(p, "add", Role.ND, Role.ND)
    for row, answers in zip(grid.rows, grid.cells, strict=True):
        for col, d in zip(grid.cols, answers, strict=True):
            value, fill = drawn["n-d array (rows) with n-d array (columns)", grid.name(row), grid.name(col)]
            assert value == (d.name if d else "refused")
            assert fill == KIND_STYLE[d.kind if d else "-"][1]


def test_changing_a_cell_changes_exactly_that_cell_of_the_picture() -> None:
    base = get_policy("pytorch")
    changed = base.derive("pytorch-one-cell", cells={("i8", "u8"): "f32"}, symmetric=False)
    before, after = cells(draw(base)), cells(draw(changed))
    differ = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    assert differ == {
        ("n-d array (rows) with n-d array (columns)", "i8", "u8"): (
            ("int16", KIND_STYLE["i"][1]),
            ("float32", KIND_STYLE["f"][1]),
        )
    }


def test_a_refused_cell_is_crossed_out_and_widening_has_a_thick_border() -> None:
    svg = draw(get_policy("numpy"))
    root = ET.fromstring(svg)
    by_key = {
        (c.attrib["data-row"], c.attrib["data-col"]): c
        for c in root.iter(f"{SVG}g")
        if c.get("class") == "cell"
    }
    widened = by_key["u8", "i8"].find(f"{SVG}rect")  # uint8 + int8 -> int16
    assert widened is not None and widened.attrib["stroke-width"] == "2"
    same = by_key["i8", "i8"].find(f"{SVG}rect")
    assert same is not None and "stroke-width" not in same.attrib
    refused = cells(picture([view(get_policy("array-api"), "add", Role.ND, Role.ND)]))
    assert refused["n-d array (rows) with n-d array (columns)", "i8", "f32"] == (
        "refused",
        KIND_STYLE["-"][1],
    )
    crossed = ET.fromstring(picture([view(get_policy("array-api"), "add", Role.ND, Role.ND)]))
    assert any(
        c.find(f"{SVG}path") is not None for c in crossed.iter(f"{SVG}g") if c.get("data-value") == "refused"
    )


def size(svg: str) -> tuple[float, float]:
    """A picture's drawn width and height."""
    root = ET.fromstring(svg)
    return float(root.attrib["width"]), float(root.attrib["height"])


@pytest.mark.parametrize("policy", POLICIES)
def test_views_are_drawn_one_above_the_other_narrow_enough_for_a_page_column(policy: str) -> None:
    svg = draw(get_policy(policy))
    root = ET.fromstring(svg)
    tops = [
        float(g.attrib["transform"].split(",")[1].rstrip(")"))
        for g in root.findall(f"{SVG}g")
        if g.find(f"{SVG}g[@class='cell']") is not None
    ]
    assert len(tops) == 3 and tops == sorted(tops)  # one grid per row, in the order given
    width, height = size(svg)
    assert width <= 670 and height > 3 * 16 * 20  # fits the docs' column (about 690 px) at 12 px text
    assert "font-size='12'" in svg


def test_a_long_title_wraps_into_balanced_lines_within_the_picture() -> None:
    views = [[view(get_policy(p), "add", Role.ND, Role.ND)] for p in POLICIES]
    svg = disagreement(views)
    lines = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("font-size") == "14"]
    assert " ".join(lines) == f"add: how many different answers {', '.join(POLICIES)} give"
    assert len(lines) == 2 and abs(len(lines[0]) - len(lines[1])) < 12
    assert size(svg)[0] <= 670


def test_hover_text_names_the_op_and_operands() -> None:
    svg = draw(get_policy("pytorch"))
    assert "<title>add(int8 (n-d array), 1.0 (Python float)) -&gt; float32</title>" in svg


def test_disagreement_counts_distinct_answers() -> None:
    chosen = [get_policy(p) for p in POLICIES]
    svg = disagreement([[view(p, "add", Role.ND, Role.ND), view(p, "add", Role.ND, None)] for p in chosen])
    drawn = cells(svg)
    for key, (value, _) in drawn.items():
        grid = view(chosen[0], "add", Role.ND, Role.ND if "n-d array (columns)" in key[0] else None)
        i = [grid.name(r) for r in grid.rows].index(key[1])
        j = [grid.name(c) for c in grid.cols].index(key[2])
        answers = {
            view(p, "add", grid.rows[0].role, grid.cols[0].role if grid.cols[0].dtype else None).cells[i][j]
            for p in chosen
        }
        assert int(value) == len(answers)
    assert drawn["n-d array (rows) with n-d array (columns)", "i8", "i8"][0] == "1"
    assert "pytorch int16, paddle refused" in svg  # the hover text of uint8 with int8


def test_disagreement_follows_a_changed_cell() -> None:
    a, b = get_policy("pytorch"), get_policy("pytorch").derive("pytorch-i8-f64", cells={("i8", "f32"): "f64"})
    drawn = cells(disagreement([[view(p, "add", Role.ND, Role.ND)] for p in (a, b)]))
    assert {k[1:] for k, v in drawn.items() if v[0] == "2"} == {("i8", "f32"), ("f32", "i8")}


def test_a_legend_counts_up_to_the_number_of_policies() -> None:
    two = disagreement([[view(get_policy(p), "add", Role.ND, Role.ND)] for p in ("numpy", "pytorch")])
    assert "2 answers" in two and "3 answers" not in two
    many = [get_policy(p) for p in POLICIES] + [get_policy("numpy").derive("numpy-2")]
    assert "5 answers or more" in disagreement([[view(p, "add", Role.ND, Role.ND)] for p in many])
