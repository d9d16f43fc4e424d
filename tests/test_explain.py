"""``explain``: the same answer as the op itself, with the rule that decided in words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promo_ns import get_policy
from promo_ns._dtypes import DTYPES, bool_, float32, int8, int16, uint8
from promo_ns._engine.operands import Operand
from promo_ns._engine.resolution import resolve
from promo_ns._ops import FAMILY
from promo_ns.explore import explain
from promo_ns.policies import Role
from tests.backends import POLICIES

SCALARS = {
    Role.BOOL: st.booleans(),
    Role.INT: st.integers(-(2**70), 2**70),
    Role.FLOAT: st.floats(),
    Role.COMPLEX: st.complex_numbers(),
}
operands = st.one_of(
    st.builds(Operand, st.sampled_from(DTYPES), st.sampled_from([Role.ND, Role.ZERO_D, Role.NP_SCALAR])),
    *(st.builds(Operand, st.none(), st.just(r), values) for r, values in SCALARS.items()),
)


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=150, deadline=None)
@given(op=st.sampled_from(sorted(FAMILY)), a=operands, b=operands)
def test_explain_gives_what_resolve_gives(policy: str, op: str, a: Operand, b: Operand) -> None:
    p = get_policy(policy)
    found = explain(p, op, a, b)
    try:
        assert found.result is resolve(p, op, a, b) and found.error is None
    except Exception as exc:
        assert found.result is None and type(found.error) is type(exc) and str(found.error) == str(exc)
    assert (
        found.steps[0] == f"{op!r} follows the rules of the {p.op_families.get(op) or FAMILY[op]!r} op family"
    )
    assert len(found.steps) >= 2
    text = str(found)
    assert text.startswith(f"policy {policy!r}") and found.steps[-1] in text


@pytest.mark.parametrize("policy", POLICIES)
def test_every_refusal_says_why(policy: str) -> None:
    p = get_policy(policy)
    ops = {family: op for op, family in FAMILY.items()}.values()
    scalars = [
        Operand(None, r, v)
        for r, v in ((Role.BOOL, True), (Role.INT, 1), (Role.FLOAT, 1.0), (Role.COMPLEX, 1j))
    ]
    lefts = [Operand(d, Role.ND) for d in DTYPES] + scalars
    for op in ops:
        for a in lefts:
            for b in [Operand(d, Role.ND) for d in DTYPES] + scalars:
                found = explain(p, op, a, b)
                if found.error is not None and not isinstance(found.error, OverflowError):
                    assert found.steps[-1].endswith("refused"), found


def test_the_grid_cell_that_decided_is_named() -> None:
    found = explain(get_policy("numpy"), "add", Operand(uint8, Role.ND), Operand(int8, Role.ZERO_D))
    assert "the array grid gives int16 for uint8 with int8" in found.steps


@pytest.mark.parametrize(
    ("policy", "op", "a", "b", "step"),
    [
        (
            "tf-safe",
            "logaddexp",
            Operand(bool_, Role.ND),
            Operand(None, Role.FLOAT, 1.5),
            "this op has its own cell for a bool array with a Python float: float64",
        ),
        (
            "paddle",
            "maximum",
            Operand(int8, Role.ND),
            Operand(None, Role.FLOAT, 1.5),
            "this op promotes every operand as an n-d array, a Python float as float32",
        ),
        (
            "paddle",
            "matmul",
            Operand(int8, Role.ND),
            Operand(float32, Role.ND),
            "the op family's array grid has no cell for int8 with float32: refused",
        ),
        (
            "tf-safe",
            "less",
            Operand(None, Role.INT, 1),
            Operand(None, Role.INT, 2),
            "no operand is an array, and Python scalars alone have no dtype: refused",
        ),
        ("numpy", "add", Operand(int8, Role.ND), Operand(int8, Role.ND), "int8 with int8 is int8"),
        (
            "tf-safe",
            "bitwise_and",
            Operand(int8, Role.ND),
            Operand(int16, Role.ND),
            "this op family does not promote: array operands must share one dtype, refused",
        ),
    ],
)
def test_steps_say_what_decided(policy: str, op: str, a: Operand, b: Operand, step: str) -> None:
    assert step in explain(get_policy(policy), op, a, b).steps


def test_a_family_override_of_the_roles_is_stated() -> None:
    found = explain(get_policy("paddle"), "floor_divide", Operand(int8, Role.ND), Operand(int16, Role.ZERO_D))
    assert found.steps[1].endswith("for this op, 0-d arrays count against n-d arrays whatever their category")
    assert found.result is int16
