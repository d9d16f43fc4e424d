"""``python -m promo_ns``: every verb, its options and its errors."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import promo_ns
from promo_ns.__main__ import main, parse_operand
from promo_ns._dtypes import DTYPES, bool_, float32, float64, int8
from promo_ns._engine import Operand, PromotionError, resolve
from promo_ns.policies import Role
from tests.backends import POLICIES

ANSI = "\x1b[38;5;"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    return capsys.readouterr().err


# --- table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
def test_table(policy: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", policy, "--op", "divide")
    assert f"policy '{policy}'" in out
    assert "n-d array (rows) with Python scalar (columns)" in out
    assert sum(line.startswith(" c128") for line in out.splitlines()) == 3
    assert ANSI not in out  # not a terminal


@pytest.mark.parametrize("policy", POLICIES)
def test_table_roles_pick_the_grids(policy: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", policy, "--roles", "0d:scalar", "npscalar")
    assert "0-d array (rows) with Python scalar (columns)" in out
    assert "n-d array (rows) with NumPy scalar (columns)" in out
    assert "n-d array (rows) with n-d array" not in out
    grid = out.split("0-d array (rows) with Python scalar (columns)")[1].split("\n\n")[1]
    expected = []
    for d in DTYPES:
        try:
            expected.append(
                resolve(
                    promo_ns.get_policy(policy),
                    "add",
                    Operand(d, Role.ZERO_D),
                    Operand(None, Role.FLOAT, 1.0),
                ).short
            )
        except (PromotionError, OverflowError):
            expected.append("-")
    assert [line.split()[3] for line in grid.splitlines()[1:]] == expected


def test_table_colors_by_result_kind(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "array-api", "--roles", "nd", "--color", "always")
    i8_row = next(line for line in out.splitlines() if line.startswith("   i8"))
    assert "\x1b[38;5;215m   i8\x1b[0m" in i8_row  # signed integer
    assert "\x1b[38;5;245m    -\x1b[0m" in i8_row  # refused
    assert ANSI not in run(capsys, "table", "array-api", "--color", "never")


def test_table_colors_only_a_terminal_without_no_color() -> None:
    code = "import sys; from promo_ns.__main__ import _color; print(_color('auto'))"
    assert subprocess.check_output([sys.executable, "-c", code], text=True).strip() == "False"


def test_table_svg(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "pytorch", "--svg", "--roles", "nd", "scalar")
    assert out.startswith("<svg") and out.rstrip().endswith("</svg>")
    assert out.count("class='cell'") == 15 * 15 + 15 * 4


def test_table_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no promotion policy named 'jax'" in fails(capsys, "table", "jax")
    assert "bad --roles entry 'scalar:nd'" in fails(capsys, "table", "numpy", "--roles", "scalar:nd")
    assert "bad --roles entry '2d'" in fails(capsys, "table", "numpy", "--roles", "2d")
    assert "invalid choice: 'plus'" in fails(capsys, "table", "numpy", "--op", "plus")


# --- diff ----------------------------------------------------------------------------------


def test_diff_lists_every_disagreeing_cell(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "diff", "pytorch", "numpy", "--op", "multiply").splitlines()
    expected = 0
    for a, b in ((x, y) for x in DTYPES for y in DTYPES):
        answers: list[object] = []
        for name in ("pytorch", "numpy"):
            try:
                answers.append(
                    resolve(promo_ns.get_policy(name), "multiply", Operand(a, Role.ND), Operand(b, Role.ND))
                )
            except PromotionError:
                answers.append(None)
        expected += answers[0] is not answers[1]
    nd = [line for line in lines if line.count("(n-d array)") == 2]
    assert len(nd) == expected > 0
    assert any(
        line.split()[-2:] == ["float16", "float32"] for line in lines if "int16 (n-d array), float16" in line
    )
    assert lines[0].endswith("where 'pytorch' and 'numpy' disagree")


def test_diff_of_three_policies(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "diff", "array-api", "pytorch", "tf-safe").splitlines()
    assert lines[0].endswith("where 'array-api', 'pytorch' and 'tf-safe' disagree")
    row = next(line for line in lines if line.startswith("add(uint8 (n-d array), int8 (n-d array))"))
    assert row.split()[-3:] == ["int16", "int16", "refused"]
    assert all(len(set(line.split()[-3:])) > 1 for line in lines[2:])


def test_diff_of_a_policy_with_itself_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(capsys, "diff", "paddle", "paddle").strip() == "'paddle' and 'paddle' agree on every cell of add"
    )
    assert "no promotion policy named 'jax'" in fails(capsys, "diff", "paddle", "jax")
    assert "diff needs two or more policies" in fails(capsys, "diff", "paddle")


def test_diff_colors_and_svg(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "diff", "pytorch", "paddle", "--color", "always")
    assert "\x1b[38;5;245m   refused\x1b[0m" in out
    svg = run(capsys, "diff", "pytorch", "paddle", "numpy", "--svg")
    assert svg.startswith("<svg") and svg.count("class='cell'") == 15 * 15
    assert "data-row='u8' data-col='i8' data-value='2'" in svg  # int16 twice, refused once


# --- explain -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("int8", Operand(int8, Role.ND)),
        ("i8", Operand(int8, Role.ND)),
        ("float64:0d", Operand(float64, Role.ZERO_D)),
        ("f32:npscalar", Operand(float32, Role.NP_SCALAR)),
        ("f32:nd", Operand(float32, Role.ND)),
        ("1.5", Operand(None, Role.FLOAT, 1.5)),
        ("-3", Operand(None, Role.INT, -3)),
        ("True", Operand(None, Role.BOOL, True)),
        ("1j", Operand(None, Role.COMPLEX, 1j)),
        ("float", Operand(None, Role.FLOAT, 1.0)),
        ("-1e3", Operand(None, Role.FLOAT, -1000.0)),
        ("bool", Operand(bool_, Role.ND)),
    ],
)
def test_operands_parse(text: str, expected: Operand) -> None:
    assert parse_operand(text) == expected


@pytest.mark.parametrize("text", ["int7", "int8:2d", "int8:scalar", "'a'", "[1]", "x"])
def test_bad_operands_are_named(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"cannot read operand {text!r}: write a dtype")):
        parse_operand(text)


def test_explain_a_priority_policy(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "explain", "pytorch", "add", "int8", "1.5")
    assert (
        out.splitlines()[0]
        == "policy 'pytorch' (PyTorch 2.13): add(x1: int8 (n-d array), x2: 1.5 (Python float)) -> float32"
    )
    assert "a Python float counts as float32" in out
    assert (
        "the Python scalars (float32) count against the n-d arrays (int8), as their category is higher" in out
    )
    out = run(capsys, "explain", "pytorch", "add", "f16", "f64:0d")
    assert out.splitlines()[0].endswith("-> float16")
    assert (
        "the 0-d arrays (float64) are of the same category as the n-d arrays (float16): they do not count"
        in out
    )


def test_explain_a_weak_scalar_policy_and_a_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "explain", "tf-safe", "add", "u8", "i8")
    assert out.splitlines()[0].endswith("-> refused (PromotionError)")
    assert "the array grid has no cell for uint8 with int8: refused" in out
    assert "Fix: cast explicitly" in out
    out = run(capsys, "explain", "numpy", "hypot", "int8", "int16")
    assert "the kernel has no int16 loop: the operands go to float16 and float32 and promote again" in out
    assert out.splitlines()[0].endswith("-> float32")


def test_explain_an_out_of_range_python_int(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "explain", "numpy", "add", "int8", "1000")
    assert out.splitlines()[0].endswith("-> refused (OverflowError)")
    assert "Python int 1000 is out of range for int8" in out


def test_explain_takes_negative_operands(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "explain", "numpy", "add", "int8", "-1e3").splitlines()[0].endswith("-> float64")
    assert run(capsys, "explain", "numpy", "add", "-3", "int8").splitlines()[0].endswith("-> int8")
    assert (
        run(capsys, "explain", "numpy", "add", "--", "int8", "-1j").splitlines()[0].endswith("-> complex128")
    )


def test_explain_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read operand 'int7'" in fails(capsys, "explain", "numpy", "add", "int7", "1")
    assert "invalid choice: 'plus'" in fails(capsys, "explain", "numpy", "plus", "i8", "1")
    assert "no promotion policy named 'jax'" in fails(capsys, "explain", "jax", "add", "i8", "1")


# --- check, demo, the module itself ---------------------------------------------------------


def test_check(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "check", "numpy")
    assert out.startswith("policy 'numpy', add: 0 non-commutative cells, ")
    assert "(uint8 add int8) add float16 = float32, but uint8 add (int8 add float16) = float16" in out
    assert run(capsys, "check", "array-api", "--op", "multiply").strip() == (
        "policy 'array-api', multiply: 0 non-commutative cells, 0 non-associative triples"
    )


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "demo")
    assert "int32 array + 1.5" in out and "refused" in out


def test_the_module_runs_and_survives_a_closed_pipe() -> None:
    proc = subprocess.run(
        f"{sys.executable} -m promo_ns diff numpy paddle | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout.startswith("") and "disagree" in proc.stdout and "Error" not in proc.stderr
    assert "explain POLICY OP OPERAND OPERAND" in subprocess.check_output(
        [sys.executable, "-m", "promo_ns", "--help"], text=True
    )
