"""The tf-all and tf-legacy policies against TF 2.21's ALL and legacy dtype conversion modes.

Every expected dtype here is TF 2.21's own answer, stored by the checkers in
``tests/reference/tf-all.json`` and ``tf-safe.json`` (``flexible_dtypes.result_type``
of each operand pair, in the ``result_type`` entry) or named in a comment with the
call that gave it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from conformance.frameworks import _cells
from promo_ns import PromotionError
from promo_ns.explore.cli import main
from tests.backends import BACKENDS, dtypes_of, namespace

#: How ``python -m promo_ns diff`` names a role, and the token the stored observations use.
_ROLES = {"n-d array": "nd", "0-d array": "0d"}


@cache
def _result_types(policy: str) -> dict[str, str]:
    """TF's ``result_type`` of every operand pair, measured in ``policy``'s mode."""
    table: dict[str, str] = _cells.load(_cells.reference(policy))["result_type"]
    return table


def _token(operand: str) -> str | None:
    """``"int8 (n-d array)"`` -> ``"int8:nd"``, ``"Python float"`` -> ``"py:float"``; None: no TF role."""
    if operand.startswith("Python "):
        return f"py:{operand.removeprefix('Python ')}"
    dtype, role = operand.removesuffix(")").split(" (")
    return f"{dtype}:{_ROLES[role]}" if role in _ROLES else None


def _ones(xp: Any, dtype: str, shape: tuple[int, ...] = (2,)) -> Any:
    return xp.ones(shape, dtype=getattr(xp, dtype))


def test_diff_tf_safe_tf_all_lists_the_cells_only_all_mode_allows(capsys: pytest.CaptureFixture[str]) -> None:
    # RFC 431 marks the promotions ALL mode adds to SAFE; TF 2.21 implements them as the cells of
    # flexible_dtypes' table marked PromoMode.ALL, which safe mode refuses and all mode allows.
    assert main(["diff", "tf-safe", "tf-all"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:-1]
    listed: dict[str, str] = {}
    for row in rows:
        call, safe, everything = row.rsplit(maxsplit=2)
        left, right = call.removeprefix("add(").removesuffix(")").split(", ")
        key = f"{_token(left)}|{_token(right)}"
        assert safe == "refused", row
        if "None" not in key:  # a NumPy scalar: TF has none
            listed[key] = everything
    safe_mode, all_mode = _result_types("tf-safe"), _result_types("tf-all")
    measured = {k: all_mode[k] for k in all_mode if safe_mode[k] == "refused" != all_mode[k]}
    assert listed == measured
    assert all(safe_mode[k] == all_mode[k] for k in all_mode if k not in measured)
    assert len(measured) > 300


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_all_widens_where_tf_safe_refuses(backend: str) -> None:
    # TF 2.21, dtype_conversion_mode="all": u8 + i8 is int16, i32 + f32 float32, u64 + i64
    # float64, i64 + f16 float16, an integer tensor with a Python float float64.
    xp = namespace(backend, "tf-all")
    safe = namespace(backend, "tf-safe")
    for left, right, dtype in (
        ("uint8", "int8", "int16"),
        ("int32", "float32", "float32"),
        ("uint64", "int64", "float64"),
        ("int64", "float16", "float16"),
        ("float16", "bfloat16", "float32"),
    ):
        if len(dtypes_of(backend, [left, right])) < 2:
            continue  # CuPy: promo_ns refuses bfloat16 (NO_DTYPE)
        assert (_ones(xp, left) + _ones(xp, right)).dtype == getattr(xp, dtype)
        with pytest.raises(PromotionError):
            _ones(safe, left) + _ones(safe, right)
    assert (_ones(xp, "int8") + 1.5).dtype == xp.float64
    assert (_ones(xp, "float16") + 1j).dtype == xp.complex64
    assert (_ones(xp, "int8") / _ones(xp, "uint16")).dtype == xp.float64  # int32, then TF's truediv


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_all_keeps_what_all_mode_does_not_change(backend: str) -> None:
    # tf.not_equal, tf.less, tf.bitwise.* and tf.where promote nothing in any mode; a Python int
    # outside the dtype's range is refused (RFC 431; TF 2.21 wraps it), and in-place ops keep x's dtype.
    xp = namespace(backend, "tf-all")
    a, b = _ones(xp, "int8"), _ones(xp, "uint8")
    assert (a == b).dtype == xp.bool
    calls: tuple[Callable[[], Any], ...] = (lambda: a != b, lambda: a < b, lambda: a & b, lambda: a + 1000)
    for call in calls:
        with pytest.raises(PromotionError):
            call()
    with pytest.raises(PromotionError):
        a += _ones(xp, "int16")


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_all_concat_folds_through_all_modes_table(backend: str) -> None:
    # tnp.concatenate([uint8, int8, float16]) in all mode: (u8, i8) is int16, then float16.
    xp = namespace(backend, "tf-all")
    assert xp.concat([_ones(xp, "uint8"), _ones(xp, "int8"), _ones(xp, "float16")]).dtype == xp.float16
    assert xp.result_type(xp.int32, xp.float32) == xp.float32


# --- tf-legacy ---------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_legacy_operators_promote_by_numpys_rules(backend: str) -> None:
    # TF 2.21, dtype_conversion_mode="legacy": a + b, a < b, a & b promote as np.result_type does
    # (0-d tensors strong, Python scalars weak); tf.add(int8, uint8) refuses (the other spelling).
    xp = namespace(backend, "tf-legacy")
    i8, u8 = _ones(xp, "int8"), _ones(xp, "uint8")
    assert (i8 + u8).dtype == xp.int16
    assert (_ones(xp, "int32") + _ones(xp, "float32")).dtype == xp.float64
    assert (i8 + 1.5).dtype == xp.float64
    assert (i8 + xp.asarray(1, dtype=xp.int64)).dtype == xp.int64
    assert (_ones(xp, "float32") + 1j).dtype == xp.complex64
    assert (_ones(xp, "bool") + 1).dtype == xp.int64
    assert (i8 < u8).dtype == xp.bool and (i8 != u8).dtype == xp.bool
    assert (i8 & u8).dtype == xp.int16
    calls: tuple[Callable[[], Any], ...] = (lambda: i8 << u8,)
    if dtypes_of(backend, ["bfloat16"]):  # CuPy: promo_ns refuses bfloat16 (NO_DTYPE)
        assert xp.logical_and(_ones(xp, "int16"), _ones(xp, "bfloat16")).dtype == xp.bool  # tnp casts each
        calls += (lambda: _ones(xp, "int16") + _ones(xp, "bfloat16"),)
    for call in calls:
        with pytest.raises(PromotionError):
            call()


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_legacy_functions_are_tnps(backend: str) -> None:
    # tnp.concatenate([int8, uint8, float16]) is float16 (NumPy's n-ary result_type), tnp.sum of
    # int8 int64 and of uint8 uint64, tnp.cumsum of uint8 int64, tnp.sin of int8 float64;
    # x += y is x = x + y: int16 += int8 keeps int16, int8 += int16 would rebind to int16.
    xp = namespace(backend, "tf-legacy")
    i8, u8 = _ones(xp, "int8"), _ones(xp, "uint8")
    assert xp.concat([i8, u8, _ones(xp, "float16")]).dtype == xp.float16
    assert xp.result_type(xp.int8, xp.uint8, xp.float16) == xp.float16
    assert xp.sum(i8).dtype == xp.int64 and xp.sum(u8).dtype == xp.uint64
    assert xp.cumulative_sum(u8).dtype == xp.int64
    assert xp.sin(i8).dtype == xp.float64 and xp.mean(i8).dtype == xp.float64
    x = _ones(xp, "int16")
    x += i8
    assert x.dtype == xp.int16
    with pytest.raises(PromotionError):
        i8 += _ones(xp, "int16")
