"""marray (masked arrays over any Array API namespace) on promo_ns arrays: masks and values as on NumPy.

``marray.masked_namespace(xp)`` wraps each of ``xp``'s arrays with a boolean
mask of the same namespace; its functions call ``xp``'s, so the data's dtypes
are the policy's. The reference is marray over NumPy itself, compared where
the mask is False; every case also runs on array-api-strict. Operators
between a promo_ns array and a masked array run marray's reflected operator
(promo_ns returns NotImplemented for an operand type it does not know).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import to_numpy
from tests.clients.support import POLICIES, Case, held_to_reference, on_array_api_strict

marray = pytest.importorskip("marray")

_rng = np.random.default_rng(16)
F64 = _rng.standard_normal((3, 4))
F32 = _rng.standard_normal((3, 4)).astype(np.float32)
I8 = _rng.integers(-5, 6, (3, 4)).astype(np.int8)
I16 = _rng.integers(-50, 60, (3, 4)).astype(np.int16)
MASK = _rng.random((3, 4)) > 0.7
OTHER = _rng.random((3, 4)) > 0.6


@cache
def masked(xp: Any) -> Any:
    """marray's namespace over ``xp`` (made once per namespace: marray builds a class each time)."""
    return marray.masked_namespace(xp)


def _m(xp: Any, data: np.ndarray[Any, Any], mask: np.ndarray[Any, Any] = MASK) -> Any:
    """A masked array over ``xp`` of a copy of ``data`` (in-place cases must not write into the data here)."""
    return masked(xp).asarray(xp.asarray(data, copy=True), mask=xp.asarray(mask, copy=True))


def _set(xp: Any) -> Any:
    a = _m(xp, F64)
    a[0, 1:3] = 7.5
    return a


CASES = [
    Case("sum", lambda xp: masked(xp).sum(_m(xp, F64), axis=1), lambda xp: xp.float64),
    Case(
        "sum of int8", lambda xp: masked(xp).sum(_m(xp, I8), axis=0), lambda xp: xp.sum(xp.asarray(I8)).dtype
    ),
    Case("mean", lambda xp: masked(xp).mean(_m(xp, F32), axis=0), lambda xp: xp.float32),
    Case("std", lambda xp: masked(xp).std(_m(xp, F64), axis=1), lambda xp: xp.float64),
    Case("var", lambda xp: masked(xp).var(_m(xp, F64), axis=1, correction=1), lambda xp: xp.float64),
    Case("max", lambda xp: masked(xp).max(_m(xp, I16), axis=1), lambda xp: xp.int16),
    Case("argmax", lambda xp: masked(xp).argmax(_m(xp, F64), axis=1), lambda xp: xp.int64),
    Case("cumulative_sum", lambda xp: masked(xp).cumulative_sum(_m(xp, F64), axis=1), lambda xp: xp.float64),
    Case("a * a + 1", lambda xp: _m(xp, F32) * _m(xp, F32, OTHER) + 1, lambda xp: xp.float32),
    Case(
        "int8 + int16",
        lambda xp: _m(xp, I8) + _m(xp, I16, OTHER),
        lambda xp: xp.result_type(xp.int8, xp.int16),
    ),
    Case(
        "float32 * float64",
        lambda xp: _m(xp, F32) * _m(xp, F64, OTHER),
        lambda xp: xp.result_type(xp.float32, xp.float64),
    ),
    Case("a > 0", lambda xp: _m(xp, F64) > 0, lambda xp: xp.bool),
    Case(
        "where",
        lambda xp: masked(xp).where(_m(xp, F64) > 0, _m(xp, F64, OTHER), 0.0),
        lambda xp: xp.float64,
    ),
    Case("sort", lambda xp: masked(xp).sort(_m(xp, F64), axis=1), lambda xp: xp.float64),
    Case("exp", lambda xp: masked(xp).exp(_m(xp, F32)), lambda xp: xp.float32),
    Case(
        "matmul",
        lambda xp: _m(xp, F64) @ masked(xp).matrix_transpose(_m(xp, F64, OTHER)),
        lambda xp: xp.float64,
    ),
    Case("astype", lambda xp: masked(xp).astype(_m(xp, I8), xp.float32), lambda xp: xp.float32),
    Case("concat", lambda xp: masked(xp).concat([_m(xp, I16), _m(xp, I16, OTHER)]), lambda xp: xp.int16),
    Case("setitem", _set, lambda xp: xp.float64),
    # a promo_ns (or NumPy, strict) array on the left: its operator gives way to marray's reflected one
    Case("array + masked", lambda xp: xp.asarray(F64) + _m(xp, F64, OTHER), lambda xp: xp.float64),
    Case("array * masked", lambda xp: xp.asarray(I16) * _m(xp, I16), lambda xp: xp.int16),
]


def check_masked(got: Any, want: Any, xp: Any, dtype: Any) -> None:
    """``got`` is a masked array over ``xp`` with ``dtype``, the mask of ``want`` and its unmasked values."""
    assert isinstance(got.data, promo_ns.Array), f"marray's data is a {type(got.data).__name__}"
    assert got.data.__array_namespace__() is xp and got.mask.__array_namespace__() is xp
    assert got.dtype == dtype, f"marray's result is {got.dtype}; the policy gives {dtype}"
    mask, want_mask = to_numpy(got.mask), np.broadcast_to(np.asarray(want.mask), want.data.shape)
    np.testing.assert_array_equal(mask, want_mask)
    rtol = 2e-5 if str(dtype) in ("float32", "complex64") else 1e-10
    np.testing.assert_allclose(to_numpy(got.data)[~mask], np.asarray(want.data)[~want_mask], rtol=rtol)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_masks_and_values_as_on_numpy_and_dtypes_as_the_policy_says(case: Case, xp: Any) -> None:
    with held_to_reference(xp, ("marray", case.name), lambda m: case.run(m).data):
        check_masked(case.run(xp), case.run(np), xp, case.dtype(xp))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_cases_are_generic_they_run_on_array_api_strict(case: Case) -> None:
    got = on_array_api_strict(case)
    if got is None:
        return
    want = case.run(np)
    mask = np.asarray(got.mask)
    np.testing.assert_array_equal(mask, np.broadcast_to(want.mask, want.data.shape))
    np.testing.assert_allclose(np.asarray(got.data)[~mask], np.asarray(want.data)[~mask], rtol=2e-5)


def test_int_with_float_and_int_division_follow_the_policy(xp: Any) -> None:
    """The standard (and array-api-strict) refuse int8 + float64 and int16 / int16; pytorch promotes."""
    a, b = _m(xp, I8), _m(xp, F64, OTHER)
    if xp.policy.name == "array-api":
        strict = pytest.importorskip("array_api_strict")
        with pytest.raises(TypeError):
            _m(strict, I8) + _m(strict, F64, OTHER)
        with pytest.raises(promo_ns.PromotionError, match="add"):
            a + b
        with pytest.raises(promo_ns.PromotionError, match="divide"):
            _m(xp, I16) / _m(xp, I16, OTHER)
        return
    with held_to_reference(xp, "marray int float", lambda m: (_m(m, I8) + _m(m, F64, OTHER)).data):
        check_masked(a + b, _m(np, I8) + _m(np, F64, OTHER), xp, xp.result_type(xp.int8, xp.float64))
        check_masked(
            _m(xp, I16) / _m(xp, I16, OTHER),
            _m(np, I16) / _m(np, I16, OTHER),
            xp,
            xp.divide(xp.asarray(I16), xp.asarray(I16)).dtype,
        )


@pytest.mark.parametrize("policy", POLICIES)
def test_a_masked_array_in_place_keeps_its_dtype_and_a_refusal_writes_nothing(policy: str) -> None:
    """``x += y`` of masked int16 arrays with an int64 one: refused by the standard; pytorch keeps int16."""
    xp = promo_ns.namespace("numpy", policy=policy)
    a, wide = _m(xp, I16), masked(xp).asarray(xp.ones((3, 4), dtype=xp.int64))
    if policy == "array-api":
        with pytest.raises(promo_ns.PromotionError):
            a += wide
        np.testing.assert_array_equal(to_numpy(a.data), I16)
        return
    a += wide
    assert a.dtype == xp.int16
    np.testing.assert_array_equal(to_numpy(a.data)[~MASK], (I16 + 1)[~MASK])
