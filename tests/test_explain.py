"""``explain``: the same answer as the op itself, with the rule that decided in words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promo_ns import get_policy
from promo_ns._dtypes import DTYPES, int8, uint8
from promo_ns._engine import Operand, explain, resolve
from promo_ns._ops import FAMILY
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
    for op in ops:
        for a in DTYPES:
            for b in [Operand(d, Role.ND) for d in DTYPES] + scalars:
                found = explain(p, op, Operand(a, Role.ND), b)
                if found.error is not None:
                    assert found.steps[-1].endswith("refused"), found


def test_the_grid_cell_that_decided_is_named() -> None:
    found = explain(get_policy("numpy"), "add", Operand(uint8, Role.ND), Operand(int8, Role.ZERO_D))
    assert "the array grid gives int16 for uint8 with int8" in found.steps
