"""What a new user meets first: the documented options, hints, traces, CLI, install lines and docs site.

One test (or one parametrized group) per item of issue 25's "first contact"
list, and the rule for arrays of two policies in one expression.
"""

from __future__ import annotations

import contextlib
import html as html_module
import io
import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import PromotionError
from promo_ns.explore.cli import main
from tests.backends import namespace, to_numpy

ROOT = Path(__file__).parent.parent
#: The backends the policy-level items run on: the rules are the plan layer's, the same for each.
TWO_BACKENDS = ["numpy", "torch"]


# --- two policies in one expression -------------------------------------------------------------


def _two(backend: str) -> tuple[Any, Any, Any, Any]:
    """A numpy-policy namespace and array, a paddle-policy namespace and array, on ``backend``."""
    xn, xd = namespace(backend, "numpy"), namespace(backend, "paddle")
    return xn, xn.asarray([1, 2], dtype=xn.int8), xd, xd.asarray([1, 2], dtype=xd.uint8)


def _matmul_in_place(a: Any, b: Any) -> None:
    a @= b


def _add_in_place(a: Any, b: Any) -> None:
    a += b


def _set(a: Any, b: Any) -> None:
    a[0] = b[0]


@pytest.mark.parametrize("backend", TWO_BACKENDS)
@pytest.mark.parametrize(
    "apply",
    [
        lambda a, b: a + b,
        lambda a, b: b + a,
        lambda a, b: a @ b,
        lambda a, b: a < b,
        lambda a, b: a == b,
        _add_in_place,
        _matmul_in_place,
        _set,
    ],
    ids=["a + b", "b + a", "a @ b", "a < b", "a == b", "a += b", "a @= b", "a[0] = b[0]"],
)
def test_an_operator_between_arrays_of_two_policies_raises_naming_both(backend: str, apply: Any) -> None:
    _, a, _, b = _two(backend)
    before = to_numpy(a).copy()
    with pytest.raises(PromotionError, match="of arrays of two policies") as exc:
        apply(a, b)
    assert "'numpy'" in str(exc.value) and "'paddle'" in str(exc.value)
    assert "Fix:" in str(exc.value)
    np.testing.assert_array_equal(to_numpy(a), before)  # an in-place op that raises leaves a as it was
    assert str(a.dtype) == "int8"


@pytest.mark.parametrize("backend", TWO_BACKENDS)
def test_a_policy_block_decides_an_operator_between_two_policies(backend: str) -> None:
    _, a, _, b = _two(backend)
    with promo_ns.policy("numpy"):
        assert str((a + b).dtype) == "int16" and str((b + a).dtype) == "int16"
        a += b  # the block's policy: int8 keeps its dtype under numpy's same_kind rule
    with promo_ns.policy("paddle"), pytest.raises(PromotionError, match="policy 'paddle' refuses"):
        a + b


@pytest.mark.parametrize("backend", TWO_BACKENDS)
def test_a_namespace_function_follows_the_namespace_policy_whatever_its_arrays(backend: str) -> None:
    xn, a, xd, b = _two(backend)
    r = xd.add(a, 1.5)  # paddle: an int8 tensor with a Python float is float32 (numpy's would be float64)
    assert str(r.dtype) == "float32" and r.__array_namespace__() is xd
    assert str(xn.add(a, 1.5).dtype) == "float64"
    r = xn.add(b, a)
    assert str(r.dtype) == "int16" and r.__array_namespace__() is xn
    with pytest.raises(PromotionError, match="policy 'paddle' refuses add"):
        xd.add(a, b)
    assert str(xn.maximum(1, b).dtype) == "uint8"  # a Python scalar first: the reflected path too
    np.testing.assert_array_equal(to_numpy(xn.multiply(a, b)), [1, 4])


@pytest.mark.parametrize("backend", TWO_BACKENDS)
def test_arrays_of_one_policy_meet_across_namespaces(backend: str) -> None:
    new, old = (
        namespace(backend, "numpy"),
        promo_ns.namespace(backend.partition(":")[0], policy="numpy", api_version="2024.12"),
    )
    x, y = new.asarray([1, 2], dtype=new.int8), old.asarray([3, 4], dtype=old.int16)
    assert str((x + y).dtype) == "int16" and str((y - x).dtype) == "int16"


# --- derive(int_values="refuse") ---------------------------------------------------------------

_STRICT = promo_ns.get_policy("pytorch").derive("pytorch-strict-ints-test", int_values="refuse")


def _where(xp: Any, a: Any) -> Any:
    return xp.where(xp.asarray([True, False]), a, 1000)


def _setitem(xp: Any, a: Any) -> None:
    a[0] = 1000


@pytest.mark.parametrize("backend", TWO_BACKENDS)
@pytest.mark.parametrize(
    "op",
    [
        lambda xp, a: a + 1000,
        lambda xp, a: a * 1000,
        lambda xp, a: a - 200,
        lambda xp, a: 1000 + a,
        lambda xp, a: a < 1000,
        _where,
        _setitem,
    ],
    ids=["a + 1000", "a * 1000", "a - 200", "1000 + a", "a < 1000", "where", "setitem"],
)
def test_int_values_refuse_refuses_what_the_family_would_wrap(backend: str, op: Any) -> None:
    name, _, device = backend.partition(":")
    xs = promo_ns.namespace(name, policy=_STRICT, device=device or None)
    a = xs.asarray([1, 2], dtype=xs.int8)
    with pytest.raises(PromotionError, match=r"out of range for int8 .* Fix: .*xp\.int16"):
        op(xs, a)
    np.testing.assert_array_equal(to_numpy(a), [1, 2])
    xt = namespace(backend, "pytorch")  # the base policy still wraps, as torch does
    assert to_numpy(xt.asarray([1, 2], dtype=xt.int8) + 1000).tolist() == [-23, -22]


@pytest.mark.parametrize("backend", TWO_BACKENDS)
def test_int_values_refuse_keeps_what_does_not_wrap(backend: str) -> None:
    name, _, device = backend.partition(":")
    xs = promo_ns.namespace(name, policy=_STRICT, device=device or None)
    a = xs.asarray([1, 2], dtype=xs.int8)
    assert to_numpy(a + 100).tolist() == [101, 102]
    assert np.allclose(to_numpy(a / 1000), [0.001, 0.002])  # true division computes in a float
    assert str((xs.asarray([1.0], dtype=xs.float32) + 1000).dtype) == "float32"


# --- trace() --------------------------------------------------------------------------------------


def test_trace_records_one_array_functions_and_reductions() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    i32, i8 = xp.asarray([1, 2], dtype=xp.int32), xp.asarray([1, 2], dtype=xp.int8)
    with promo_ns.trace() as t:
        xp.log(i32)
        xp.sum(i8)
        xp.mean(i32)
        xp.cumulative_sum(i8)
        xp.sum(i8, dtype=xp.int64)  # asked for: no implicit cast
        xp.log(xp.asarray([1.0]))  # computed in its own dtype
        xp.sum(xp.asarray([1, 2], dtype=xp.int64))
    assert [(c.op, c.operands, str(c.result), c.converted) for c in t] == [
        ("log", ("int32 (n-d array)",), "float64", ("int32 -> float64",)),
        ("sum", ("int8 (n-d array)",), "int64", ("int8 -> int64",)),
        ("mean", ("int32 (n-d array)",), "float64", ("int32 -> float64",)),
        ("cumulative_sum", ("int8 (n-d array)",), "int64", ("int8 -> int64",)),
    ]


def test_a_nested_trace_leaves_its_records_to_the_outer_one_too() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    a, b = xp.asarray([1], dtype=xp.int8), xp.asarray([1], dtype=xp.int16)
    with promo_ns.trace() as outer:
        a + b
        with promo_ns.trace() as inner:
            a * b
            with promo_ns.policy("pytorch"):
                xp.log(a)
        with contextlib.suppress(OverflowError):
            a + 1000  # refused: recorded nowhere
    assert [c.op for c in inner] == ["multiply", "log"]
    assert [c.op for c in outer] == ["add", "multiply", "log"]


# --- the CLI on one-array functions and reductions ----------------------------------------------


def _cli(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


@pytest.mark.parametrize("op", ["log", "sum", "mean", "linalg.inv", "cumulative_prod"])
def test_the_cli_tables_and_explains_what_ops_lists(op: str) -> None:
    assert re.search(rf"\b{re.escape(op)}\b", _cli("ops"))
    table = _cli("table", "numpy", "--op", op, "--color", "never")
    assert table.startswith("policy 'numpy' (") and "\n input    b   i8  i16" in table
    answers = table.split("\nresult")[1].split("\n")[0].split()
    want = {"log": "f64", "sum": "i64", "mean": "f64", "linalg.inv": "f64", "cumulative_prod": "i64"}[op]
    assert answers[3] == want  # the int32 column
    explained = _cli("explain", "numpy", op, "int32")
    assert explained.startswith("policy 'numpy' (NumPy") and f"{op}(x: int32 (n-d array)) -> " in explained
    assert _cli("diff", "numpy", "pytorch", "--op", op, "--color", "never")


def test_the_cli_explains_a_refused_function_and_a_wrong_operand_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = _cli("explain", "array-api", "log", "int32")
    assert "-> refused (PromotionError)" in text and "xp.astype(x, xp.float64)" in text
    with pytest.raises(SystemExit):
        main(["explain", "numpy", "log", "int8", "int8"])
    assert "log takes one array (a dtype), got 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["explain", "numpy", "sum", "1.5"])
    assert "sum takes one array" in capsys.readouterr().err


# --- "Fix:" hints that do the right thing --------------------------------------------------------

_HINTED = re.compile(r"Fix: .*?xp\.astype\(x, xp\.(\w+)\)")


def _hinted_dtype(xp: Any, error: BaseException) -> Any:
    found = _HINTED.search(str(error))
    assert found, str(error)
    return getattr(xp, found.group(1))


@pytest.mark.parametrize("policy", ["numpy", "array-api", "tf-safe", "tf-all", "tf-legacy", _STRICT])
@pytest.mark.parametrize(
    ("dtype", "value"), [("int8", 1000), ("uint8", -1), ("uint8", 300), ("int16", -40000), ("int32", 2**40)]
)
def test_an_int_out_of_range_hint_casts_to_a_dtype_that_holds_it(policy: Any, dtype: str, value: int) -> None:
    xp = promo_ns.namespace("numpy", policy=policy)
    x = xp.asarray([1, 2], dtype=getattr(xp, dtype))
    with pytest.raises((OverflowError, PromotionError)) as exc:
        x + value
    given = float(value) if "Python float" in str(exc.value) else value  # as the hint says
    assert to_numpy(xp.astype(x, _hinted_dtype(xp, exc.value)) + given).tolist() == [1 + value, 2 + value]
    with pytest.raises((OverflowError, PromotionError)) as exc:
        x[0] = value
    assert "x = xp.astype(x, " in str(exc.value)
    x = xp.astype(x, _hinted_dtype(xp, exc.value))  # then the value is written as it is
    x[0] = float(value) if "Python float" in str(exc.value) else value
    assert to_numpy(x).tolist() == [value, 2]


@pytest.mark.parametrize(
    ("policy", "function", "dtype"),
    [
        ("array-api", "log", "int32"),
        ("array-api", "sqrt", "int8"),
        ("array-api", "mean", "int64"),
        ("pytorch", "mean", "int32"),
        ("array-api", "sum", "bool"),
        ("array-api", "linalg.inv", "int16"),
    ],
)
def test_a_refused_function_hint_casts_to_a_dtype_that_keeps_the_values(
    policy: str, function: str, dtype: str
) -> None:
    xp = promo_ns.namespace("numpy", policy=policy)
    owner, _, name = function.rpartition(".")
    fn = getattr(getattr(xp, owner) if owner else xp, name)
    values: list[Any] = [[3, 1], [2, 4]] if owner else [1, 0, 1] if dtype == "bool" else [1, 2, 100]
    x = xp.asarray(values, dtype=getattr(xp, dtype))
    with pytest.raises(PromotionError) as exc:
        fn(x)
    target = _hinted_dtype(xp, exc.value)
    assert target.kind != "c", "a real input's hint stays real"
    got = to_numpy(fn(xp.astype(x, target)))
    exact: dict[str, Any] = {
        "log": np.log,
        "sqrt": np.sqrt,
        "mean": np.mean,
        "sum": np.sum,
        "inv": np.linalg.inv,
    }
    want = exact[name](np.asarray(values, dtype=np.float64))
    assert np.allclose(got, want, rtol=1e-6)


_CASTS = re.compile(r"xp\.astype\(x([12]), xp\.(\w+)\)")


@pytest.mark.parametrize(
    ("policy", "left", "right"),
    [
        ("paddle", "uint8", "int8"),
        ("tf-safe", "uint8", "int8"),
        ("tf-safe", "uint16", "int16"),
        ("array-api", "int8", "float32"),
        ("paddle", "int16", "float32"),
    ],
)
def test_a_refused_operator_hint_casts_without_losing_values(policy: str, left: str, right: str) -> None:
    xp = promo_ns.namespace("numpy", policy=policy)
    values = ([100, 3], [-1, -100])
    x1, x2 = (xp.asarray(v, dtype=getattr(xp, d)) for v, d in zip(values, (left, right), strict=True))
    with pytest.raises(PromotionError) as exc:
        x1 + x2
    operands = [x1, x2]
    for which, dtype in _CASTS.findall(str(exc.value).split("Fix:")[1]):  # every cast the hint writes
        operands[int(which) - 1] = xp.astype(operands[int(which) - 1], getattr(xp, dtype))
    assert to_numpy(operands[0] + operands[1]).tolist() == [99, -97]


def test_messages_use_an_before_a_vowel_sound() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    x = xp.asarray([1, 2], dtype=xp.int8)
    texts = []
    for bad in (
        lambda: x.__setitem__(0, math.nan),
        lambda: x**-1,
        lambda: xp.where(x, x, x),
        lambda: format(x, ".2f"),
        lambda: promo_ns.array_namespace(object()),
    ):
        with pytest.raises((ValueError, TypeError)) as exc:
            bad()
        texts.append(str(exc.value))
    joined = "\n".join(texts)
    assert not re.search(r"\ba (int|n-d|8-d|11-d|object|array_)", joined), joined
    assert "an int8 array" in joined and "an 1-d" not in joined


# --- install lines that work, and the test set-up ----------------------------------------------


def _docs_texts() -> dict[str, str]:
    return {
        str(p.relative_to(ROOT)): p.read_text() for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    }


def test_install_lines_work_from_a_clone_and_name_real_extras() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    section = pyproject.split("[project.optional-dependencies]")[1].split("\n[")[0]
    extras = set(re.findall(r"^([\w-]+) = \[", section, re.MULTILINE))
    assert {"torch", "cupy", "dask", "jax", "test", "docs", "bench"} <= extras
    for path, text in _docs_texts().items():
        assert not re.search(r"pip install\s+['\"]?promo_ns\b", text), f"{path}: promo_ns is not on PyPI"
        for named in re.findall(r"pip install -e\s+['\"]?\.\[([\w,-]+)\]", text):
            assert set(named.split(",")) <= extras, f"{path}: unknown extra {named}"
    readme = (ROOT / "README.md").read_text()
    for extra in ("torch", "cupy", "dask", "jax"):
        assert f"pip install -e '.[{extra}]'" in readme
    first = readme.split("\n\n")[1]
    assert all(name in first for name in ("NumPy", "PyTorch", "CuPy", "Dask", "JAX")), first


def test_a_missing_backend_hint_installs_what_exists() -> None:
    from promo_ns.backends import _install_hint

    for name in ("numpy", "torch", "cupy", "dask", "jax"):
        hint = _install_hint(name, ImportError("x"))
        assert "promo_ns[" not in hint and "pip install promo_ns" not in hint, hint
        assert "pip install -e" in hint


def test_the_test_setup_says_where_torch_and_chromium_come_from() -> None:
    script = (ROOT / "scripts" / "test.sh").read_text()
    cpu = script.index("https://download.pytorch.org/whl/cpu")
    assert cpu < script.index('torch==2.13.0" --index-url') < script.index('-e ".[test,docs]"')
    assert re.search(r'echo "installing chromium[^"]*"\n\s*\{ apt-get', script)


# --- the docs site --------------------------------------------------------------------------------


def _rendered(path: Path) -> str:
    """A docs page as MkDocs renders its Markdown (the extensions of mkdocs.yml), without the theme."""
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")  # the docs extras: a machine with Markdown alone renders no page
    extensions = ["admonition", "pymdownx.details", "tables", "toc", "pymdownx.superfences"]
    return str(markdown.markdown(path.read_text(), extensions=extensions))


#: Markdown that a renderer left as text: a list item glued to the paragraph above, a ``--``
#: meant as a dash, emphasis that ``2**63 ... 2**70`` opened inside a number.
_RAW = re.compile(r"\n\s*(?:[-*+]|\d+\.) \S| -- |\w<(?:strong|em)>|</(?:strong|em)>\w")


#: Every Markdown page of the docs, generated ones (conformance) too; api.md is mkdocstrings' directives.
PAGES = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md") if p.name != "api.md")


@pytest.mark.parametrize("page", PAGES)
def test_no_markdown_is_left_raw_on_a_page(page: str) -> None:
    html = _rendered(ROOT / "docs" / page)
    html = re.sub(r"<pre.*?</pre>|<code>.*?</code>", "`c`", html, flags=re.DOTALL)
    blocks = [text for _, text in re.findall(r"<(p|li|td|th)>(.*?)</\1>", html, re.DOTALL)]
    raw = [m.group(0) for text in blocks for m in _RAW.finditer(text)]
    assert not raw, f"docs/{page}: {raw[:5]}"


def _samples() -> list[tuple[str, str]]:
    found = []
    for path, text in _docs_texts().items():
        for block in re.findall(r"```text\n(.*?)```", text, re.DOTALL):
            if block.startswith("$ python -m promo_ns "):
                found.append((path, block))
    return found


@pytest.mark.parametrize(("path", "block"), _samples(), ids=lambda v: v.split("\n")[0][:60])
def test_every_cli_sample_in_the_docs_is_what_the_cli_prints(path: str, block: str) -> None:
    command, *shown = block.rstrip("\n").split("\n")
    printed = _cli(*shlex.split(command)[4:])  # not a terminal: no colours
    lines = printed.split("\n")
    for line in shown:
        if line.strip() != "...":
            assert line in lines, f"{path}: {command!r} no longer prints {line!r}"


# --- the built site, as a browser lays it out ----------------------------------------------------

#: The pages the browser checks: those with the most code and the widest tables.
LAID_OUT = (
    "index.html",
    "quickstart/index.html",
    "choosing/index.html",
    "scaling/index.html",
    "performance/index.html",
    "policies/index.html",
    "conformance/index.html",
    "conformance/pytorch/index.html",
    "tables/index.html",
)
#: Finds every code block and table of the page's content that is cut at the right: its content
#: wider than its box (a scroll bar hides the rest), or its box past the content column.
CUT = """<script>
addEventListener("load", () => document.fonts.ready.then(() => {
  const column = document.querySelector(".md-content__inner").getBoundingClientRect();
  const cut = [...document.querySelectorAll(".md-content pre > code, .md-content table")]
    .filter((el) => el.getClientRects().length)
    .map((el) => ({
      tag: el.tagName,
      hidden: el.scrollWidth - el.clientWidth,
      past: el.getBoundingClientRect().right - column.right,
      text: el.textContent.slice(0, 60),
    }))
    .filter((box) => box.hidden > 1 || box.past > 20);  // 20: Material's tables reach into the margin
  const out = document.createElement("pre");
  out.id = "promo-cut";
  out.textContent = JSON.stringify(cut);
  document.body.append(out);
}));
</script>"""


@pytest.fixture
def built(built_site: Path) -> Path:
    return built_site


def test_no_markdown_is_left_raw_on_the_built_site(built: Path) -> None:
    found = {}
    for page in sorted(built.rglob("*.html")):
        html = re.sub(r"<pre.*?</pre>|<code>.*?</code>", "`c`", page.read_text(), flags=re.DOTALL)
        blocks = [text for _, text in re.findall(r"<(p|li|td|th)>(.*?)</\1>", html, re.DOTALL)]
        raw = [m.group(0) for text in blocks for m in _RAW.finditer(text)]
        if raw:
            found[str(page.relative_to(built))] = raw[:3]
    assert not found


@pytest.mark.parametrize("page", LAID_OUT)
def test_no_code_block_or_table_is_cut_at_the_right(built: Path, page: str, tmp_path: Path) -> None:
    from tests.test_docs_browser import WINDOW, browser

    exe = browser()
    if exe is None:
        pytest.skip("no Chromium found")
    source = built / page
    copy = source.with_name("cut-" + source.name)
    copy.write_text(source.read_text().replace("</body>", CUT + "</body>"))
    done = subprocess.run(
        [
            exe,
            *("--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars"),
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--virtual-time-budget=20000",
            "--dump-dom",
            copy.as_uri(),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,  # against a hung browser only
    )
    found = re.search(r'<pre id="promo-cut">(.*?)</pre>', done.stdout, re.DOTALL)
    assert found, f"{exe} laid out nothing (exit {done.returncode}):\n{done.stderr[-2000:]}"
    assert json.loads(html_module.unescape(found.group(1))) == [], page


# --- smaller things ------------------------------------------------------------------------------


def test_a_backend_typo_gets_a_suggestion() -> None:
    with pytest.raises(
        ValueError, match="unknown backend 'nunpy'; did you mean 'numpy'\\? promo_ns supports"
    ):
        promo_ns.namespace("nunpy")
    with pytest.raises(ValueError, match="did you mean 'torch'"):
        promo_ns.namespace("troch")


def test_array_namespace_names_every_backend_it_takes() -> None:
    with pytest.raises(TypeError, match="numpy, torch, cupy, jax, dask") as exc:
        promo_ns.array_namespace([1, 2])
    assert "a builtins.list" in str(exc.value)


@pytest.mark.parametrize("version", ["2021.12", "2022.12", "2023.12", "2026.12", "latest"])
def test_an_api_version_not_implemented_is_a_value_error_naming_those_that_are(
    version: str,
) -> None:
    xp = promo_ns.namespace("numpy")
    with pytest.raises(ValueError, match=rf"implements Array API 2024\.12 and 2025\.12, not '{version}'"):
        promo_ns.namespace("numpy", api_version=version)
    with pytest.raises(ValueError, match=r"2024\.12 and 2025\.12"):
        xp.asarray([1]).__array_namespace__(api_version=version)
    for served in ("2024.12", "2025.12"):
        assert promo_ns.namespace("numpy", api_version=served).__array_api_version__ == served


def test_refusals_cite_the_version_of_the_standard_the_namespace_follows() -> None:
    xp = promo_ns.numpy
    assert xp.__array_api_version__ == "2025.12"
    with pytest.raises(PromotionError, match=r"\(Array API standard 2025\.12 \(array-api-strict\)\)"):
        xp.asarray([1], dtype=xp.int8) + 1.5
    assert "2024.12" not in promo_ns.get_policy("array-api").reference


def test_one_policy_or_trace_block_serves_many_with_statements() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    a = xp.asarray([1, 2], dtype=xp.int8)
    block = promo_ns.policy("pytorch")
    for _ in range(2):
        with block as chosen:
            assert chosen.name == "pytorch" and str((a + 1.5).dtype) == "float32"
        assert str((a + 1.5).dtype) == "float64"
    with block, promo_ns.policy("tf-safe"), block:  # nested in itself
        assert str((a + 1.5).dtype) == "float32"
    assert str((a + 1.5).dtype) == "float64"
    tracing = promo_ns.trace()
    with tracing as first:
        a + 1.5
    with tracing as second:
        a * 1.5
        a - 1.5
    assert [c.op for c in first] == ["add"] and [c.op for c in second] == ["multiply", "subtract"]
    late = promo_ns.policy("pytroch")  # looked up as each block begins
    with pytest.raises(ValueError, match="no promotion policy named 'pytroch'"), late:
        pass


def _cuda_calls(xp: Any) -> list[Any]:
    x = xp.asarray([1, 2])
    return [
        lambda: xp.asarray([1, 2], device="cuda"),
        lambda: xp.zeros(2, device="cuda"),
        lambda: xp.arange(3, device="cuda"),
        lambda: xp.empty_like(x, device="cuda"),
        lambda: xp.astype(x, xp.float32, device="cuda"),
        lambda: x.to_device("cuda"),
        lambda: promo_ns.namespace("torch", device="cuda").asarray([1, 2]),
        lambda: promo_ns.namespace("torch", device="cuda").ones(2),
    ]


def test_a_cuda_device_without_cuda_is_promo_ns_value_error() -> None:
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("torch sees a CUDA GPU here")
    for call in _cuda_calls(promo_ns.namespace("torch")):
        with pytest.raises(
            ValueError, match=r"'cuda' is no device of the torch backend here; its devices: cpu"
        ):
            call()


def test_a_test_run_ends_without_an_unraisable_exception_warning(tmp_path: Path) -> None:
    """An xdist worker still cleaning up when execnet interrupts it (SIGINT after 5 s) finishes undisturbed.

    The interrupt used to land wherever the worker was, in JAX's garbage
    collection callback at the end of the suite: a PytestUnraisableExceptionWarning.
    """
    pytest.importorskip("xdist")
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_sessionfinish  # under test\n")
    (tmp_path / "slow_end.py").write_text(
        "import os, pathlib, time, pytest\n\n"
        "@pytest.hookimpl(hookwrapper=True, tryfirst=True)\n"
        "def pytest_sessionfinish(session):\n"
        "    yield  # xdist, inside, has sent this worker's results: execnet interrupts it 5 s later\n"
        "    if hasattr(session.config, 'workerinput'):\n"
        "        time.sleep(7)\n"
        "        pathlib.Path(f'finished-{os.getpid()}').write_text('')\n"
    )
    (tmp_path / "test_two.py").write_text("def test_a():\n    pass\n\n\ndef test_b():\n    pass\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider", "-p", "slow_end", "."],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(tmp_path)))},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0 and "2 passed" in done.stdout, output
    assert len(list(tmp_path.glob("finished-*"))) == 2, "a worker was interrupted before its clean-up ended"
    assert "Unraisable" not in output and "KeyboardInterrupt" not in output, output


def test_the_rule_for_two_policies_is_documented_as_it_works() -> None:
    """Each line of choosing.md's example does what its comment says."""
    page = (ROOT / "docs" / "choosing.md").read_text()
    block = page.split("### Arrays of two policies", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, Any] = {"promo_ns": promo_ns}
    for line in block.splitlines():
        code, _, said = line.partition("  # ")
        if line.startswith(("with ", "    ")):
            continue  # the policy block: checked below
        if said.startswith("PromotionError"):
            with pytest.raises(PromotionError):
                eval(code, scope)
        elif code.endswith(".dtype"):
            assert str(eval(code, scope)) == said.split(":")[0], line
        else:
            exec(code, scope)
    with promo_ns.policy("numpy"):
        assert str((scope["a"] + scope["b"]).dtype) == "int16"
    link = "[Arrays of two policies](choosing.md#arrays-of-two-policies)"
    assert link in (ROOT / "docs" / "quickstart.md").read_text()
