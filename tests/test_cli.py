"""``python -m promo_ns``: every verb, its options and its errors."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import promo_ns
from promo_ns._dtypes import DTYPES, DType, bool_, float32, float64, int8
from promo_ns._engine.operands import Operand, PromotionError
from promo_ns._engine.resolution import resolve
from promo_ns._ops import FAMILY
from promo_ns.explore import explain
from promo_ns.explore.cli import disagreements, main, parse_operand
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
    code = "import sys; from promo_ns.explore.cli import _color; print(_color('auto'))"
    assert subprocess.check_output([sys.executable, "-c", code], text=True).strip() == "False"


def test_table_svg(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "pytorch", "--svg", "--roles", "nd", "scalar")
    assert out.startswith("<svg") and out.rstrip().endswith("</svg>")
    assert out.count("class='cell'") == 15 * 15 + 15 * 4


def test_table_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no promotion policy named 'mxnet'" in fails(capsys, "table", "mxnet")
    assert "bad --roles entry 'scalar:nd'" in fails(capsys, "table", "numpy", "--roles", "scalar:nd")
    assert "bad --roles entry '2d'" in fails(capsys, "table", "numpy", "--roles", "2d")
    assert "unknown op 'plus'; 'python -m promo_ns ops' lists" in fails(
        capsys, "table", "numpy", "--op", "plus"
    )


def test_table_legend(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "numpy", "--op", "multiply")
    *_, first, second = out.splitlines()
    assert first == (
        "cell: row (x1) multiply column (x2); -: refused, the op raises PromotionError; "
        "bool int float complex: the Python scalars True, 1, 1.0, 1j"
    )
    assert (
        second
        == "dtypes: b bool, i8 int8, u16 uint16, f32 float32, bf16 bfloat16, c64 complex64 (kind + bits)"
    )
    assert out.count("cell: row (x1)") == 1  # once, under the last grid
    *_, first, second = run(capsys, "table", "numpy", "--roles", "nd", "0d").splitlines()
    assert first == "cell: row (x1) add column (x2); -: refused, the op raises PromotionError"
    painted = run(capsys, "table", "numpy", "--roles", "nd", "--color", "always").splitlines()[-1]
    assert "\x1b[38;5;215mi8 int8\x1b[0m" in painted and "\x1b[38;5;245m- refused\x1b[0m" in painted
    assert painted.endswith(": coloured by kind of result")


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
    expected_all = len(lines) - 3  # the count line, the header and the legend
    assert len(nd) == expected > 0
    assert any(
        line.split()[-2:] == ["float16", "float32"] for line in lines if "int16 (n-d array), float16" in line
    )
    assert lines[0].startswith(f"{expected_all} cells of multiply where 'pytorch' and 'numpy' disagree (")
    assert lines[-1] == "refused: the policy raises PromotionError on these operands"


def test_diff_of_three_policies(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "diff", "array-api", "pytorch", "tf-safe").splitlines()
    assert re.fullmatch(
        r"(\d+) cells of add where 'array-api', 'pytorch' and 'tf-safe' disagree "
        r"\((\d+) (refused vs dtype|different dtype), (\d+) (refused vs dtype|different dtype)\)",
        lines[0],
    )
    row = next(line for line in lines if line.startswith("add(uint8 (n-d array), int8 (n-d array))"))
    assert row.split()[-3:] == ["int16", "int16", "refused"]
    assert all(len(set(line.split()[-3:])) > 1 for line in lines[2:-1])


def test_diff_counts_and_sorts_the_cells(capsys: pytest.CaptureFixture[str]) -> None:
    chosen = [promo_ns.get_policy(p) for p in ("pytorch", "numpy")]
    lines = run(capsys, "diff", "pytorch", "numpy", "--op", "divide").splitlines()
    found = disagreements(chosen, "divide")
    refused = sum(None in answers for _, answers in found)
    counts = sorted([(refused, "refused vs dtype"), (len(found) - refused, "different dtype")], reverse=True)
    assert lines[0] == (
        f"{len(found)} cells of divide where 'pytorch' and 'numpy' disagree "
        f"({counts[0][0]} {counts[0][1]}, {counts[1][0]} {counts[1][1]})"
    )
    roles, dtypes = list(Role), list(DTYPES)

    def order(key: tuple[DType | None, Role, DType | None, Role]) -> tuple[int, ...]:
        d1, d2 = (dtypes.index(d) if d is not None else -1 for d in (key[0], key[2]))
        return roles.index(key[1]), roles.index(key[3]), d1, d2

    keys = [k for k, _ in found]
    assert keys == sorted(keys, key=order) and len(lines) == len(keys) + 3
    assert lines[2].startswith("divide(bool (n-d array), bool (n-d array))")
    assert lines[-2].startswith("divide(Python complex, ")


def test_diff_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "diff", "pytorch", "numpy", "--summary")
    lines = out.splitlines()
    chosen = [promo_ns.get_policy(p) for p in ("pytorch", "numpy")]
    counts = {op: len(disagreements(chosen, op)) for op in FAMILY}
    assert lines[0] == (
        f"'pytorch' and 'numpy' disagree on {sum(counts.values())} cells of "
        f"{sum(n > 0 for n in counts.values())} of {len(FAMILY)} ops, over any operand dtypes and roles"
    )
    total = sum(counts.values())
    assert lines[2].split() == ["op", "cells", "refused", "vs", "dtype", "different", "dtype"]
    per_op = lines[3 : 3 + next(i for i, line in enumerate(lines[3:]) if line.startswith("("))]
    cells = [int(line.split()[-3]) for line in per_op]
    assert cells == sorted(cells, reverse=True)
    # pytorch: subtract apart; numpy's outer multiplies as * does
    add_row = next(line for line in per_op if line.startswith(("add, multiply ", "add, multiply,")))
    found = disagreements(chosen, "add")
    refused = sum(None in a for _, a in found)
    assert add_row.split()[-3:] == [str(len(found)), str(refused), str(len(found) - refused)]
    answers = lines[lines.index("answers (pytorch / numpy)   cells") + 1 : -1]
    per_answers = [int(line.split()[-1]) for line in answers]
    assert per_answers == sorted(per_answers, reverse=True) and sum(per_answers) == total
    assert any(line.split()[:3] == ["refused", "/", "uint"] for line in answers)
    assert lines[-1] == "refused: the policy raises PromotionError on these operands; uint: unsigned integer"
    one = run(capsys, "diff", "pytorch", "numpy", "--summary", "--op", "true_divide").splitlines()
    assert one[0].startswith("'pytorch' and 'numpy' disagree on ") and " cells of divide, " in one[0]
    assert run(capsys, "diff", "numpy", "numpy", "--summary").strip() == (
        f"'numpy' and 'numpy' agree on every cell of {len(FAMILY)} ops"
    )
    assert "not allowed with argument" in fails(capsys, "diff", "numpy", "paddle", "--summary", "--svg")


def test_diff_of_a_policy_with_itself_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(capsys, "diff", "paddle", "paddle").strip() == "'paddle' and 'paddle' agree on every cell of add"
    )
    assert "no promotion policy named 'mxnet'" in fails(capsys, "diff", "paddle", "mxnet")
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
    with pytest.raises(
        ValueError,
        match=re.escape(f"cannot read operand {text!r}") + r"( \(did you mean .*\))?: write a dtype",
    ):
        parse_operand(text)


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [
        ("int9", "int8"),
        ("float65", "float64"),
        ("f6", "f64"),
        ("int8:od", "int8:0d"),
        ("int8:0D", "int8:0d"),
        ("int8:scalar", "int8:npscalar"),
        ("in8:nd", "int8:nd"),
        ("flaot", "float"),
        ("Tru", "True"),
        ("compex", "complex"),
        ("x", None),
    ],
)
def test_bad_operands_get_a_suggestion(text: str, suggestion: str | None) -> None:
    with pytest.raises(ValueError) as exc:
        parse_operand(text)
    found = re.search(r"did you mean '([^']*)'\?", str(exc.value))
    assert (found and found.group(1)) == suggestion
    if suggestion is not None:
        parse_operand(suggestion)


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
    assert "unknown op 'plus'; 'python -m promo_ns ops' lists" in fails(
        capsys, "explain", "numpy", "plus", "i8", "1"
    )
    assert "no promotion policy named 'mxnet'" in fails(capsys, "explain", "mxnet", "add", "i8", "1")


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


# --- op names, op family names, did you mean, help -----------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
def test_every_op_family_explain_names_is_an_op_for_table(
    policy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    p = promo_ns.get_policy(policy)
    named: set[str] = set()
    for op in FAMILY:
        text = str(explain(p, op, Operand(int8, Role.ND), Operand(float32, Role.ND)))
        named |= set(re.findall(r"the '(\w+)' op family", text))
    assert named
    for family in sorted(named):
        out = run(capsys, "table", policy, "--op", family, "--roles", "nd")
        op = out.splitlines()[0].split("): ", 1)[1].split()[0]
        if family not in FAMILY:
            assert out.splitlines()[0].endswith(f"{op} (the first op of the {family!r} op family)")
        assert explain(p, op, Operand(int8, Role.ND), Operand(int8, Role.ND)).steps[0] == (
            f"{op!r} follows the rules of the {family!r} op family"
        )
        assert (
            out.split("\n\n")[2] == run(capsys, "table", policy, "--op", op, "--roles", "nd").split("\n\n")[2]
        )


def test_an_op_family_stands_for_its_first_op_under_every_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(capsys, "explain", "numpy", "true_divide", "i8", "i8")
        .splitlines()[0]
        .endswith("divide(x1: int8 (n-d array), x2: int8 (n-d array)) -> float64")
    )
    # paddle gives atan2 a family of its own: float_only's first op there is hypot, on both policies.
    assert " hypot (the first op of the 'float_only' op family)" in run(
        capsys, "table", "paddle", "--op", "float_only"
    )
    assert " atan2 (the first op of the 'float_only' op family)" in run(
        capsys, "table", "numpy", "--op", "float_only"
    )
    assert (
        run(capsys, "diff", "paddle", "numpy", "--op", "float_only").split(" where ")[0].endswith("of hypot")
    )
    # ... and where no op follows a family under every policy given, it says which ops do under each.
    assert (
        "no op follows the 'float_only' op family under every policy given "
        "('paddle': hypot; 'tf-safe': atan2, copysign, nextafter)"
    ) in fails(capsys, "diff", "paddle", "tf-safe", "--op", "float_only")


def test_ops_lists_the_ops_by_family(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "ops")
    assert "  true_divide      divide\n" in out and "  arithmetic       add, subtract, multiply\n" in out
    paddle = run(capsys, "ops", "paddle")
    assert "under policy 'paddle'" in paddle and "  float_only       hypot\n" in paddle
    assert "did you mean 'paddle'?" in fails(capsys, "ops", "padle")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("table", "numpy", "--op", "ad"),
            "unknown op 'ad'; did you mean 'add'? 'python -m promo_ns ops' lists",
        ),
        (("diff", "numpy", "paddle", "--op", "substract"), "did you mean 'subtract'?"),
        (("check", "numpy", "--op", "tru_divide"), "did you mean 'true_divide'?"),
        (("explain", "numpy", "atan", "i8", "i8"), "did you mean 'atan2'?"),
        (
            ("table", "numpi"),
            "no promotion policy named 'numpi'; did you mean 'numpy'? registered: array-api, ",
        ),
        (("diff", "numpy", "pytorh"), "did you mean 'pytorch'?"),
        (("explain", "numpy", "add", "int9", "int8"), "cannot read operand 'int9' (did you mean 'int8'?): "),
    ],
)
def test_typos_get_a_suggestion_not_every_choice(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = fails(capsys, *argv)
    assert message in err
    assert "tensordot" not in err  # the 40 op names are not listed
    assert err.startswith(f"usage: python -m promo_ns {argv[0]} ")


@pytest.mark.parametrize("verb", [None, "table", "diff", "explain", "check", "ops", "demo"])
def test_help_is_plain_text(verb: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([verb, "--help"] if verb else ["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m promo_ns" in out
    assert "``" not in out and not re.search(r":[a-z]+:`", out), out
