"""Golden tables: every policy against its reference framework, cell by cell.

torch, NumPy and array-api-strict are probed live; Paddle and TensorFlow are
heavy, so their observations are stored in ``tests/reference/*.json`` and
regenerated with ``python -m conformance.frameworks.paddle`` /
``python -m conformance.frameworks.tensorflow``.
"""

from __future__ import annotations

import pytest

from conformance.frameworks import _cells, _fidelity
from promo_ns import get_policy
from tests.golden import diff, observations, report

POLICIES = list(_fidelity.CHECKERS)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    "op", _cells.BINARY_OPS + _cells.ARRAY_ONLY_OPS + _cells.UNARY_OPS + _cells.OUT_OF_RANGE_OPS
)
def test_golden_table(policy: str, op: str) -> None:
    cells: dict[str, dict[str, str]] = observations(policy)["ops"]
    if op not in cells:
        pytest.skip(f"no observations of {op} for {policy}")
    p = get_policy(policy)
    seen = {key: _fidelity.in_place_contract(op, key, value) for key, value in cells[op].items()}
    rows = diff(p, {op: seen}, lambda op, key, seen: _fidelity.deviation(policy, op, key, seen) is not None)
    assert not rows, report(p, rows)
