"""The engine: messages, in-place rules, value checks, and properties of every policy."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from promo_ns import PromotionError, get_policy, policies
from promo_ns._dtypes import (
    DTYPES,
    DType,
    bfloat16,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
)
from promo_ns._engine.decisions import cell, compute_table, run
from promo_ns._engine.functions import accumulation_dtype
from promo_ns._engine.operands import Operand, operand, taken_role
from promo_ns._engine.resolution import resolve, resolve_many
from promo_ns._ops import FAMILY
from promo_ns.policies._model import ARRAY_ROLES, SCALAR_ROLES, Role

BUILTIN = ["array-api", "pytorch", "paddle", "tf-safe", "numpy", "jax", "tf-all", "tf-legacy"]
SCALAR_VALUE = {Role.BOOL: True, Role.INT: 1, Role.FLOAT: 1.5, Role.COMPLEX: 1j}

arrays = st.builds(Operand, st.sampled_from(DTYPES), st.sampled_from(ARRAY_ROLES))
scalars = st.sampled_from(SCALAR_ROLES).map(lambda r: Operand(None, r, SCALAR_VALUE[r]))
operands = st.one_of(arrays, scalars)


def outcome(policy: str, op: str, a: Operand, b: Operand) -> str:
    try:
        return resolve(get_policy(policy), op, a, b).name
    except PromotionError:
        return "refused"


def test_builtin_policies_are_registered() -> None:
    assert policies()[: len(BUILTIN)] == tuple(BUILTIN)
    with pytest.raises(KeyError, match=r"no promotion policy named 'mxnet'.*array-api"):
        get_policy("mxnet")


def asymmetric(policy: str, op: str) -> bool:
    """Whether ``op``'s family casts into its first operand or has an asymmetric array grid of its own."""
    p = get_policy(policy)
    family = p.families.get(p.op_families.get(op) or FAMILY[op])
    if family is not None and family.cast is not None:
        return True
    grid = family.arrays if family is not None else None
    return grid is not None and any(grid.get((y, x)) is not d for (x, y), d in grid.items())


@pytest.mark.parametrize("policy", BUILTIN)
@given(a=arrays, b=operands, op=st.sampled_from(sorted(FAMILY)))
def test_commutative(policy: str, a: Operand, b: Operand, op: str) -> None:
    # Every reference framework's promotion is commutative in its operands, except
    # where a family's own grid says otherwise (Paddle's matmul and clip) or it casts
    # into its first operand (setitem under pytorch, numpy and paddle; array-api's clip).
    assume(not asymmetric(policy, op))
    assert outcome(policy, op, a, b) == outcome(policy, op, b, a)


def test_only_setitem_clip_and_paddle_matmul_are_asymmetric() -> None:
    assert [(p, op) for p in BUILTIN for op in sorted(FAMILY) if asymmetric(p, op)] == [
        ("array-api", "clip"),
        ("pytorch", "setitem"),
        ("paddle", "clip"),
        ("paddle", "matmul"),
        ("paddle", "setitem"),
        ("paddle", "stack"),
        ("paddle", "tensordot"),
        ("numpy", "setitem"),
        ("jax", "setitem"),  # x.at[i].set(v) casts any value into x's dtype
    ]
    nd = [Operand(float32, Role.ND), Operand(int32, Role.ND)]
    assert outcome("paddle", "matmul", *nd) == "float32"
    assert outcome("paddle", "matmul", *reversed(nd)) == "refused"


@pytest.mark.parametrize("policy", BUILTIN)
@given(a=st.sampled_from(DTYPES), b=st.sampled_from(DTYPES))
def test_undefined_array_cells_are_refused(policy: str, a: DType, b: DType) -> None:
    p = get_policy(policy)
    got = outcome(policy, "add", Operand(a, Role.ND), Operand(b, Role.ND))
    if (a, b) not in p.arrays:
        assert got == "refused"
    else:
        assert got == p.arrays[(a, b)].name or p.families["arithmetic"].kinds != "biufc"


@pytest.mark.parametrize("policy", ["array-api", "numpy", "tf-safe", "tf-all", "tf-legacy"])
@given(a=st.sampled_from(DTYPES), s=scalars)
def test_undefined_scalar_cells_are_refused(policy: str, a: DType, s: Operand) -> None:
    p = get_policy(policy)
    got = outcome(policy, "add", Operand(a, Role.ND), s)
    if (a, s.role) not in p.scalars:
        assert got == "refused"


@pytest.mark.parametrize("policy", BUILTIN)
@given(a=arrays, b=arrays)
def test_same_dtype_never_changes_in_arithmetic(policy: str, a: Operand, b: Operand) -> None:
    # Two NumPy scalars are two Python scalars where the policy takes them so (torch.where(c, s1, s2))
    assume(a.role is not Role.NP_SCALAR or b.role is not Role.NP_SCALAR or policy != "pytorch")
    same = Operand(a.dtype, b.role)
    got = outcome(policy, "multiply", a, same)
    assert got in (str(a.dtype), "refused")


def test_error_names_policy_op_operands_and_fix() -> None:
    with pytest.raises(PromotionError) as info:
        resolve(get_policy("array-api"), "add", Operand(int32, Role.ND), Operand(float32, Role.ZERO_D))
    msg = str(info.value)
    for part in (
        "'array-api'",
        "add(",
        "int32 (n-d array)",
        "float32 (0-d array)",
        "xp.astype(x1, xp.float32)",
    ):
        assert part in msg
    assert isinstance(info.value, TypeError)


def test_error_for_a_python_scalar_suggests_a_cast_of_the_array() -> None:
    with pytest.raises(PromotionError, match=r"1\.5 \(Python float\).*xp\.astype\(x1, xp\.float64\)"):
        resolve(get_policy("array-api"), "add", Operand(int32, Role.ND), operand(1.5))


def test_kind_refusal_names_the_accepted_kinds() -> None:
    with pytest.raises(PromotionError, match=r"bitwise_and.*bool or integer operands"):
        resolve(get_policy("numpy"), "bitwise_and", Operand(float32, Role.ND), Operand(float32, Role.ND))


def test_two_python_scalars_are_refused_unless_the_policy_types_them() -> None:
    with pytest.raises(PromotionError, match="at least one operand must be an array"):
        resolve(get_policy("array-api"), "add", operand(1), operand(2.0))
    # NumPy's result_type(1, 2.0) and torch.result_type(1, 2.0): the default dtypes of their kinds.
    assert resolve(get_policy("numpy"), "add", operand(1), operand(2.0)) is float64
    assert resolve(get_policy("pytorch"), "add", operand(1), operand(2.0)) is float32


@pytest.mark.parametrize(
    ("policy", "left", "right", "expected"),
    [
        ("pytorch", int32, 1.5, "refused"),
        ("pytorch", int8, Operand(int64, Role.ND), "int8"),
        ("numpy", uint8, Operand(int8, Role.ND), "refused"),
        ("numpy", int8, Operand(uint8, Role.ND), "int8"),
        ("array-api", int8, Operand(int64, Role.ND), "refused"),
        ("array-api", int8, 1, "int8"),
    ],
)
def test_inplace_keeps_left_dtype_or_refuses(policy: str, left: object, right: object, expected: str) -> None:
    b = right if isinstance(right, Operand) else operand(right)
    try:
        got = resolve(get_policy(policy), "add", Operand(left, Role.ND), b, inplace=True).name  # type: ignore[arg-type]
    except PromotionError as exc:
        assert "x1 is unchanged" in str(exc)
        got = "refused"
    assert got == expected


@pytest.mark.parametrize(("policy", "error"), [("numpy", OverflowError), ("array-api", OverflowError)])
@pytest.mark.parametrize(("dtype", "value"), [(int8, 128), (int8, -129), (uint8, -1), (uint8, 256)])
def test_out_of_range_python_int(policy: str, error: type[Exception], dtype: object, value: int) -> None:
    with pytest.raises(error, match=f"Python int {value} is out of range for {dtype}"):
        resolve(get_policy(policy), "add", Operand(dtype, Role.ND), operand(value))  # type: ignore[arg-type]


def test_out_of_range_python_int_wraps_under_pytorch() -> None:
    assert resolve(get_policy("pytorch"), "add", Operand(int8, Role.ND), operand(1000)) is int8


def test_resolve_many_folds_arrays_and_scalars() -> None:
    ops = [Operand(int8, Role.ND), Operand(int32, Role.ND), operand(1)]
    assert resolve_many(get_policy("array-api"), "concat", ops) is int32
    with pytest.raises(PromotionError, match=r"x3: 1\.5"):
        resolve_many(get_policy("array-api"), "concat", [*ops[:2], operand(1.5)])


def test_accumulation() -> None:
    assert accumulation_dtype(get_policy("numpy"), "sum", uint8) is DTYPES[8]
    assert accumulation_dtype(get_policy("pytorch"), "sum", uint8) is int64
    with pytest.raises(PromotionError, match="sum"):
        accumulation_dtype(get_policy("array-api"), "sum", DTYPES[0])


@pytest.mark.parametrize(
    ("op", "dtype", "expected"),
    [
        ("sum", int32, int64),
        ("sum", int8, int8),
        ("prod", int32, int32),
        ("cumulative_sum", int8, int64),
        ("cumulative_sum", uint8, int64),
        ("cumulative_sum", float32, float32),
        ("cumulative_prod", int32, int32),
    ],
)
def test_per_op_accumulation(op: str, dtype: DType, expected: DType) -> None:
    # Paddle: sum widens bool/int32, prod keeps, cumsum widens int8/16/32 and uint8.
    assert accumulation_dtype(get_policy("paddle"), op, dtype) is expected


def test_inplace_as_nd_uses_the_nd_rule_for_0d_arrays() -> None:
    # Paddle's Tensor.add_ refuses int8 += 0-d int16 (the n-d rule), while int8 + 0-d
    # int16 is int8 (the 0-d tensor gives way); a Python scalar keeps its own rule.  (The
    # paddle policy follows x += y, which is x + y; a derived policy follows Tensor.add_.)
    paddle = get_policy("paddle").derive("paddle-add_", inplace_as_nd=frozenset({Role.ZERO_D}))
    x, y = Operand(int8, Role.ND), Operand(int16, Role.ZERO_D)
    assert resolve(paddle, "add", x, y) is int8
    with pytest.raises(PromotionError, match=r"x1 is unchanged|no promotion"):
        resolve(paddle, "add", x, y, inplace=True)
    assert resolve(paddle, "add", x, operand(1), inplace=True) is int8
    with pytest.raises(PromotionError, match="x1 is unchanged"):
        resolve(paddle, "add", Operand(float16, Role.ND), Operand(float32, Role.ZERO_D), inplace=True)


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        # floor_divide: a 0-d tensor meets an n-d one through the lattice.
        ("floor_divide", Operand(int8, Role.ND), Operand(int16, Role.ZERO_D), "int16"),
        ("floor_divide", Operand(float32, Role.ND), Operand(float64, Role.ZERO_D), "float64"),
        ("remainder", Operand(int8, Role.ND), Operand(int16, Role.ZERO_D), "int8"),
        # nextafter/logaddexp/maximum: 0-d tensors are n-d tensors.
        ("nextafter", Operand(float16, Role.ND), Operand(float32, Role.ZERO_D), "float32"),
        ("logaddexp", Operand(int8, Role.ND), Operand(int16, Role.ZERO_D), "refused"),
        ("logaddexp", Operand(int32, Role.ND), Operand(int32, Role.ZERO_D), "float32"),
        ("maximum", Operand(float64, Role.ND), Operand(complex64, Role.ND), "complex128"),
        # The family's own array-with-scalar cells.
        ("copysign", Operand(int8, Role.ND), operand(1.5), "int8"),
        ("copysign", operand(True), Operand(uint16, Role.ND), "uint16"),
        ("pow", Operand(uint16, Role.ND), operand(1.5), "uint16"),
        ("pow", Operand(int8, Role.ND), operand(1.5), "float32"),
        # x & 2 and paddle.bitwise_and take no Python scalar (the policy follows them, not 2 & x).
        ("bitwise_and", operand(2), Operand(bool_, Role.ND), "refused"),
        ("bitwise_and", Operand(bool_, Role.ND), operand(2), "refused"),
        # True division keeps uint16/32/64, outside Paddle's lattice.
        ("divide", Operand(uint16, Role.ND), Operand(uint16, Role.ND), "uint16"),
        ("divide", Operand(int8, Role.ND), Operand(int8, Role.ND), "float32"),
        ("divide", Operand(float64, Role.ZERO_D), operand(1j), "complex128"),
    ],
)
def test_paddle_families(op: str, a: Operand, b: Operand, expected: str) -> None:
    assert outcome("paddle", op, a, b) == expected


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("divide", Operand(bool_, Role.ND), Operand(int8, Role.ND), "float32"),
        ("divide", Operand(bool_, Role.ND), operand(1), "float64"),
        ("divide", Operand(bool_, Role.ND), Operand(bool_, Role.ND), "refused"),
        ("logaddexp", Operand(int8, Role.ND), Operand(int8, Role.ND), "float32"),
        ("logaddexp", Operand(int32, Role.ND), Operand(int32, Role.ND), "refused"),
        ("logaddexp", Operand(int32, Role.ND), Operand(float64, Role.ND), "float64"),
        ("logaddexp", Operand(bfloat16, Role.ND), operand(1.5), "float64"),
        ("logaddexp", Operand(complex128, Role.ND), Operand(complex128, Role.ND), "refused"),
    ],
)
def test_tf_safe_families(op: str, a: Operand, b: Operand, expected: str) -> None:
    assert outcome("tf-safe", op, a, b) == expected


def test_unknown_op() -> None:
    with pytest.raises(ValueError, match="'sin' is not an op that combines operands"):
        resolve(get_policy("numpy"), "sin", Operand(int8, Role.ND), Operand(int8, Role.ND))


@pytest.mark.parametrize("policy", BUILTIN)
@pytest.mark.parametrize("family", ["arithmetic", "comparison", "common", "true_divide", "bitwise"])
def test_a_numpy_scalar_decides_as_the_policy_takes_it(policy: str, family: str) -> None:
    # The tables take a NumPy scalar's cells from the 0-d array's, or the Python scalar's of its kind
    # (numpy_scalars="python": PyTorch); the full reasoning agrees.
    pol = get_policy(policy)
    rules = pol.families.get(family)
    keys = (
        [(d, Role.ZERO_D) for d in DTYPES]
        + [(None, r) for r in SCALAR_ROLES]
        + [(d, Role.ND) for d in DTYPES]
    )
    for dtype in DTYPES:
        for other in keys:
            for pair in (((dtype, Role.NP_SCALAR), other), (other, (dtype, Role.NP_SCALAR))):
                reasoned = run(cell(pol, rules, pair)).result
                as_0d = tuple(taken_role(pol, d, r) for d, r in pair)
                assert reasoned == run(cell(pol, rules, as_0d)).result, (policy, family, pair)
                flat = (pair[0][0], pair[0][1], pair[1][0], pair[1][1])
                assert compute_table(pol, family)[flat] == compute_table(pol, family)[(*as_0d[0], *as_0d[1])]
