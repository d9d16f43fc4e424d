"""Golden tables: every policy against its reference framework, cell by cell.

torch, NumPy and array-api-strict are probed live; Paddle and TensorFlow are
heavy, so their observations are stored in ``tests/reference/*.json`` and
regenerated with ``python -m conformance.frameworks.paddle`` /
``python -m conformance.frameworks.tensorflow``.
"""

from __future__ import annotations

from functools import cache

import pytest

from conformance.frameworks import _cells
from promo_ns import get_policy
from tests.golden import diff, report


@cache
def observed(policy: str) -> dict[str, dict[str, str]]:
    if policy == "pytorch":
        from conformance.frameworks import torch

        return torch.probe()[0]
    if policy == "numpy":
        from conformance.frameworks import numpy

        return numpy.probe()
    if policy == "array-api":
        from conformance.frameworks import array_api_strict

        return array_api_strict.probe()
    data: dict[str, dict[str, str]] = _cells.load(_cells.reference(policy))["ops"]
    return data


def _torch_deviation(op: str, key: str, seen: str) -> bool:
    # PyTorch's complex32: promo_ns has no such dtype and gives complex64 (documented).
    return seen == "complex32"


def _beyond_64_bits(op: str, key: str, seen: str) -> bool:
    # 2**64 fits no 64-bit dtype: the framework's own conversion raises, whatever the policy.
    return op == "add_out_of_range" and key.startswith("uint64") and seen == "overflow"


def _numpy_deviation(op: str, key: str, seen: str) -> bool:
    # ml_dtypes registers no bfloat16 promotions for np.result_type (used by np.where)
    # while its ufunc loops accept them, and it casts complex to bfloat16 "same_kind":
    # the numpy policy uses the ufuncs' answer everywhere and NumPy's own casting rule.
    return "bfloat16" in key and (op == "where" or (op == "iadd" and "complex" in key))


def _array_api_deviation(op: str, key: str, seen: str) -> bool:
    # array-api-strict lets a Python complex into real-only functions with real floating
    # arrays, and its matmul does not check promotion; the standard defines neither.
    lax = op in ("maximum", "minimum", "less") and "py:complex" in key
    return lax or (op == "matmul" and seen != "refused")


def _paddle_deviation(op: str, key: str, seen: str) -> bool:
    # x / c, x % c, x ** c with a 0-d float64/complex128 tensor x and a Python complex c:
    # Paddle rebuilds x as a shape-[1] complex64 tensor (a value conversion that drops
    # precision); the paddle policy keeps its promotion (complex128), documented.
    zero_d_wide = key.startswith(("float64:0d|", "complex128:0d|")) or key.endswith(
        ("|float64:0d", "|complex128:0d")
    )
    return op in ("divide", "remainder", "pow") and "py:complex" in key and zero_d_wide


def _tf_deviation(op: str, key: str, seen: str) -> bool:
    # TF's eager converter refuses Python True for several dtypes its own safe-mode
    # table allows; tf-safe follows the table.  Out-of-range Python ints: tf-safe
    # follows RFC 431 and refuses them, TF 2.21 wraps (documented in the policy).
    return ("py:bool" in key and seen == "refused") or op == "add_out_of_range"


DEVIATIONS = {
    "paddle": _paddle_deviation,
    "tf-safe": _tf_deviation,
    "pytorch": lambda *c: _torch_deviation(*c) or _beyond_64_bits(*c),
    "numpy": _numpy_deviation,
    "array-api": _array_api_deviation,
}

POLICIES = ["array-api", "pytorch", "numpy", "paddle", "tf-safe"]


def in_place_contract(cells: dict[str, str]) -> dict[str, str]:
    """In-place observations as promo_ns's in-place contract reads them.

    promo_ns never changes the left operand's dtype: where the framework's
    in-place op (Paddle's ``Tensor.add_``) returns another dtype, the policy
    must refuse, so that observation counts as ``"refused"``.
    """
    return {
        key: "refused" if seen in _cells.DTYPES and seen != key.split(":", maxsplit=1)[0] else seen
        for key, seen in cells.items()
    }


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    "op", _cells.BINARY_OPS + _cells.ARRAY_ONLY_OPS + _cells.UNARY_OPS + _cells.OUT_OF_RANGE_OPS
)
def test_golden_table(policy: str, op: str) -> None:
    cells = observed(policy)
    if op not in cells:
        pytest.skip(f"no observations of {op} for {policy}")
    p = get_policy(policy)
    seen = in_place_contract(cells[op]) if op == "iadd" else cells[op]
    rows = diff(p, {op: seen}, DEVIATIONS.get(policy, lambda *c: False))
    assert not rows, report(p, rows)
