"""The probe's disagreement classes of the pytorch, numpy and array-api policies (issue 24).

* torch's functions that take no Python scalar (``torch.maximum``, ``torch.atan2``, ...): the
  probe's runner reads the scalar as torch's wrapped number, cast as TensorIterator casts it (an
  int wraps into an integer compute dtype, converts exactly into a float one), not through
  ``torch.tensor(s, dtype=...)``, which checks the value (was: OverflowError recorded);
* ``meshgrid`` of arrays of different dtypes: refused under the pytorch and array-api policies,
  as ``torch.meshgrid`` and the standard do (was: computed);
* the numpy policy's ``linalg.solve`` (``_commonType``: a non-float counts as float64, float16 is
  refused) and bfloat16 ``tensordot``/``outer``/``cross`` (ml_dtypes' loops give bfloat16);
* the documented deviations the probe now reads with the cases' own tokens (values of Python
  scalars, edge arrays): ml_dtypes' bfloat16 promotions, array-api-strict's unchecked
  linalg promotion, torch's complex ``x + alpha * y`` and its conversion of Python ints.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import promo_ns
from conformance.probe import _compare, _driver, _space
from tests.backends import BACKENDS, namespace


def _case(policy: str, key: str) -> _space.Case:
    """The probe's case of ``key`` under ``policy`` (its kind from the generator's table)."""
    op, spelling, *args = key.split("|")
    return _space.Case(str(_space.kind_of(op)), op, spelling, tuple(args))


# --- the torch runner: Python scalars as wrapped numbers -----------------------------------------


@pytest.mark.parametrize(
    ("key", "want"),
    [
        # 128 wraps into int8 (-128): the maximum is the tensor itself
        ("maximum|function|int8:nd:one|py:int:128", "int8 3 010203"),
        ("minimum|function|py:int:255|int8:nd:one", "int8 3 ffffff"),
    ],
)
def test_torch_runner_wraps_an_int_into_the_compute_dtype(key: str, want: str) -> None:
    from conformance.probe.torch import Torch

    assert _driver.observe(Torch(), _case("pytorch", key)) == want


def test_torch_runner_converts_an_int_into_a_float_compute_dtype_exactly() -> None:
    torch = pytest.importorskip("torch")
    from conformance.probe.torch import Torch

    seen = _driver.observe(Torch(), _case("pytorch", "atan2|function|int8:nd:one|py:int:128"))
    # torch's own kernel on the exactly converted operands (NumPy's float32 atan2 differs by the CPU)
    want = torch.atan2(torch.tensor([1.0, 2.0, 3.0]), torch.tensor(128.0)).numpy()
    assert seen == _driver.encode("float32", want)


def test_stored_torch_observations_have_no_overflow_for_a_wrapped_int() -> None:
    stored = _driver.load("pytorch")["observations"]
    for op in ("maximum", "logical_and", "atan2", "nextafter"):
        assert not stored[f"{op}|function|int8:nd:one|py:int:128"].startswith("error"), op


# --- meshgrid ------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["pytorch", "array-api"])
def test_meshgrid_refuses_arrays_of_different_dtypes(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    a, f = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.0, 2.0], dtype=xp.float32)
    with pytest.raises(promo_ns.PromotionError, match="meshgrid"):
        xp.meshgrid(a, f)
    with pytest.raises(promo_ns.PromotionError, match="meshgrid"):
        xp.meshgrid(f, f, a)
    assert [str(x.dtype) for x in xp.meshgrid(a, a, a)] == ["int8"] * 3


def test_meshgrid_of_different_dtypes_under_numpy_keeps_each() -> None:
    xp = namespace("numpy", "numpy")
    a, f = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert [str(x.dtype) for x in xp.meshgrid(a, f)] == ["int8", "float32"]


def test_torch_meshgrid_refuses_different_dtypes() -> None:
    import torch

    with pytest.raises(RuntimeError, match="same dtype"):
        torch.meshgrid(torch.ones(2, dtype=torch.int8), torch.ones(2), indexing="xy")


# --- the numpy policy's linalg ----------------------------------------------------------------------

_SOLVE = ("bool", "int8", "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def _np_dtype(name: str) -> Any:
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("a", _SOLVE)
def test_numpy_policy_solve_follows_numpys_common_type(backend: str, a: str) -> None:
    xp = namespace(backend, "numpy")
    # float16 with itself takes the same-dtype path: left to the backend's own error (see the report)
    for b in (b for b in _SOLVE if (a, b) != ("float16", "float16")):
        left, right = np.eye(2).astype(_np_dtype(a)), np.ones(2).astype(_np_dtype(b))
        try:
            want = str(np.linalg.solve(left, right).dtype)
        except TypeError:
            want = "refused"
        x1 = xp.asarray([[1, 0], [0, 1]], dtype=getattr(xp, a))
        x2 = xp.asarray([1, 1], dtype=getattr(xp, b))
        try:
            got = str(xp.linalg.solve(x1, x2).dtype)
        except promo_ns.PromotionError:
            got = "refused"
        assert got == want, (a, b)


@pytest.mark.parametrize("op", ["tensordot", "linalg.outer", "linalg.cross"])
@pytest.mark.parametrize("other", ["bfloat16", "int8", "bool"])
def test_numpy_policy_bfloat16_products_stay_bfloat16(op: str, other: str) -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    shape = (3, 3) if op == "tensordot" else (3,)
    x1, x2 = xp.ones(shape, dtype=xp.bfloat16), xp.ones(shape, dtype=getattr(xp, other))
    ours = {"tensordot": xp.tensordot, "linalg.outer": xp.linalg.outer, "linalg.cross": xp.linalg.cross}
    fn: Any = ours[op]
    native: Any = {"tensordot": np.tensordot, "linalg.outer": np.outer, "linalg.cross": np.cross}[op]
    want = native(np.ones(shape, ml_dtypes.bfloat16), np.ones(shape, _np_dtype(other))).dtype
    assert str(fn(x1, x2).dtype) == str(want) == "bfloat16"


# --- documented deviations, read with the cases' own tokens ------------------------------------------


@pytest.mark.parametrize(
    ("policy", "key", "seen", "got"),
    [
        # ml_dtypes registers no bfloat16 promotion with int16 or float16 for np.result_type
        ("numpy", "result_type|function|dt:bfloat16|dt:int16|dt:float16", "refused", "dtype float32"),
        ("numpy", "stack|function|bfloat16:nd:one|float16:nd:one", "refused", "float32 2x3 ?"),
        ("numpy", "add|operator|bfloat16:nd:one|py:int:9223372036854775808", "refused", "bfloat16 3 ?"),
        # array-api-strict leaves matmul-like promotion to NumPy
        ("array-api", "linalg.cross|function|int8:nd:one|float32:nd:one", "float32 3 ?", "refused"),
        ("array-api", "searchsorted|function|int64:sorted:one|uint64:nd:one", "int64 3 ?", "refused"),
        ("array-api", "meshgrid|function|int8:nd:one|float32:nd:one", "error: ValueError", "refused"),
        # torch parses a Python int into a c10::Scalar before any dtype check
        (
            "pytorch",
            "bitwise_and|operator|float16:nd:one|py:int:-9223372036854775809",
            "error: OverflowError",
            "refused",
        ),
        ("pytorch", "add|operator|bool:nd:one|py:int:9223372036854775808", "refused", "error: OverflowError"),
    ],
)
def test_documented_deviations_are_read_from_the_cases_tokens(
    policy: str, key: str, seen: str, got: str
) -> None:
    bucket, reason = _compare.bucket(policy, _case(policy, key), seen, got)
    assert bucket == "deviation" and reason, (bucket, reason)


def test_complex_alpha_values_are_a_values_deviation_only() -> None:
    key = "add|operator|bool:nd:one|py:complex:(inf+0j)"
    torch_bits = "complex64 3 0000807f0000c0ff0000807f0000c0ff0000807f0000c0ff"
    numpy_bits = "complex64 3 0000807f000000000000807f000000000000807f00000000"
    assert _compare.bucket("pytorch", _case("pytorch", key), torch_bits, numpy_bits)[0] == "deviation"
    # the dtype is still compared
    other = "complex128 3 0000000000000000"
    assert _compare.bucket("pytorch", _case("pytorch", key), torch_bits, other)[0] == "disagree"
    # and a finite complex scalar's values are
    finite = "add|operator|bool:nd:one|py:complex:(1.5+0.5j)"
    assert _compare.bucket("pytorch", _case("pytorch", finite), torch_bits, numpy_bits)[0] == "disagree"


def test_a_framework_refusal_with_a_promotion_it_defines_is_no_deviation() -> None:
    key = "linalg.cross|function|int8:nd:one|int16:nd:one"
    assert _compare.bucket("array-api", _case("array-api", key), "int16 3 ?", "refused")[0] == "disagree"
