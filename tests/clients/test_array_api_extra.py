"""array-api-extra on promo_ns arrays (``xp=`` given): values as on NumPy, dtypes as the policy says.

Every case also runs on array-api-strict (the generic namespace these functions are
written for) and, where torch has kernels for the meta device, on ``torch:meta``
for its dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import namespace, to_numpy
from tests.clients.support import POLICIES, check, held_to_reference

xpx = pytest.importorskip("array_api_extra")
# xpx.expand_dims is deprecated for xp.expand_dims (2025.12); it is still a client that takes xp=
pytestmark = pytest.mark.filterwarnings("ignore:`xpx.expand_dims` is deprecated:DeprecationWarning")

_rng = np.random.default_rng(16)
F32 = _rng.standard_normal((3, 4)).astype(np.float32)
F64 = _rng.standard_normal((3, 4))
I64 = _rng.integers(0, 6, (3, 4))
NANS = np.array([1.0, np.nan, np.inf, -np.inf, -2.5])


@dataclass(frozen=True)
class Case:
    """An array-api-extra call on module ``xp`` (NumPy for the reference) and the dtype the policy gives."""

    name: str
    run: Callable[[Any], Any]
    dtype: Callable[[Any], Any]
    on_meta: bool = True  # False: torch has no meta kernel for it (unique, nonzero)


CASES = [
    Case("atleast_nd", lambda xp: xpx.atleast_nd(xp.asarray(F32[0]), ndim=3, xp=xp), lambda xp: xp.float32),
    Case("cov", lambda xp: xpx.cov(xp.asarray(F64), xp=xp), lambda xp: xp.float64),
    Case("cov of integers", lambda xp: xpx.cov(xp.asarray(I64), xp=xp), lambda xp: xp.float64),
    Case("create_diagonal", lambda xp: xpx.create_diagonal(xp.asarray(F64[0]), xp=xp), lambda xp: xp.float64),
    Case("expand_dims", lambda xp: xpx.expand_dims(xp.asarray(I64), axis=(0, 2), xp=xp), lambda xp: xp.int64),
    Case(
        "kron int8 int16",
        lambda xp: xpx.kron(
            xp.asarray(I64[:2, :2].astype(np.int8)), xp.asarray(I64[:2, :3].astype(np.int16)), xp=xp
        ),
        lambda xp: xp.result_type(xp.int8, xp.int16),
    ),
    Case(
        "kron float32 float64",
        lambda xp: xpx.kron(xp.asarray(F32[:2, :2]), xp.asarray(F64[:2, :3]), xp=xp),
        lambda xp: xp.result_type(xp.float32, xp.float64),
    ),
    Case("nunique", lambda xp: xpx.nunique(xp.asarray(I64), xp=xp), lambda xp: xp.int64, on_meta=False),
    Case(
        "pad",
        lambda xp: xpx.pad(xp.asarray(I64.astype(np.int8)), 2, constant_values=7, xp=xp),
        lambda xp: xp.int8,
    ),
    Case(
        "setdiff1d",
        lambda xp: xpx.setdiff1d(xp.asarray(np.ravel(I64)), xp.asarray([1, 2]), xp=xp),
        lambda xp: xp.int64,
        on_meta=False,
    ),
    Case("sinc", lambda xp: xpx.sinc(xp.asarray(F32), xp=xp), lambda xp: xp.float32),
    Case(
        "isclose",
        lambda xp: xpx.isclose(xp.asarray(F64), xp.asarray(F64 + 1e-10), xp=xp),
        lambda xp: xp.bool,
        on_meta=False,
    ),
    Case("nan_to_num", lambda xp: xpx.nan_to_num(xp.asarray(NANS), xp=xp), lambda xp: xp.float64),
    # no floating input: the policy's default floating dtype (float64; float32 under pytorch)
    Case(
        "one_hot",
        lambda xp: xpx.one_hot(xp.asarray(np.ravel(I64)), 6, xp=xp),
        lambda xp: xp.asarray(0.0).dtype,
    ),
    Case(
        "at[...].set",
        lambda xp: xpx.at(xp.asarray(F64), (0, slice(None))).set(5.0, copy=True),
        lambda xp: xp.float64,
    ),
    Case(
        "at[mask].add",
        lambda xp: xpx.at(xp.asarray(I64.astype(np.int16)), xp.asarray(I64 > 2)).add(3, copy=True),
        lambda xp: xp.int16,
        on_meta=False,
    ),
    Case(
        "at[1, ...].multiply", lambda xp: xpx.at(xp.asarray(F32))[1, ...].multiply(2.0), lambda xp: xp.float32
    ),
    Case("at[:, 1:].min", lambda xp: xpx.at(xp.asarray(I64))[:, 1:].min(2), lambda xp: xp.int64),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_values_as_on_numpy_and_dtypes_as_the_policy_says(case: Case, xp: Any) -> None:
    with held_to_reference(xp, ("xpx", case.name), case.run):
        check(case.run(xp), case.run(np), xp, case.dtype(xp))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", [c for c in CASES if c.on_meta], ids=lambda c: c.name)
def test_dtypes_on_torch_meta(case: Case, policy: str) -> None:
    xp = namespace("torch:meta", policy)
    got = case.run(xp)
    assert got.__array_namespace__() is xp
    assert str(got.device) == "meta"
    assert got.dtype == case.dtype(xp)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_cases_are_generic_they_run_on_array_api_strict(case: Case) -> None:
    strict = pytest.importorskip("array_api_strict")
    got = case.run(strict)
    assert got.dtype == case.dtype(strict)
    np.testing.assert_allclose(np.asarray(got), case.run(np))


def test_at_with_copy_leaves_the_input_and_without_writes_it(xp: Any) -> None:
    # JAX's own arrays are immutable (xpx refuses copy=False); promo_ns's JAX wrapper rebinds, as in x[i] = v
    x = xp.asarray(F64)
    y = xpx.at(x)[0].set(0.0, copy=True)
    np.testing.assert_array_equal(to_numpy(x), F64)
    assert float(y[0, 0]) == 0.0
    z = xpx.at(x)[0].set(0.0, copy=False)
    assert float(x[0, 0]) == 0.0
    assert z.dtype == x.dtype


def test_kron_of_integers_and_floats_follows_the_policy(xp: Any) -> None:
    """The standard (and array-api-strict) refuse int64 * float64; pytorch promotes."""
    a, b = I64[:2, :2], F64[:2, :3]
    if xp.policy.name == "array-api":
        strict = pytest.importorskip("array_api_strict")
        with pytest.raises(TypeError):
            xpx.kron(strict.asarray(a), strict.asarray(b), xp=strict)
        with pytest.raises(promo_ns.PromotionError):
            xpx.kron(xp.asarray(a), xp.asarray(b), xp=xp)
        return
    with held_to_reference(xp, "xpx kron int float", lambda m: xpx.kron(m.asarray(a), m.asarray(b), xp=m)):
        check(
            xpx.kron(xp.asarray(a), xp.asarray(b), xp=xp),
            np.kron(a, b),
            xp,
            xp.result_type(xp.int64, xp.float64),
        )


def test_at_add_in_place_follows_the_policy_and_a_refusal_writes_nothing(xp: Any) -> None:
    """int16 += int64: refused by the standard (array-api-strict too); pytorch keeps int16."""
    x = xp.asarray(I64.astype(np.int16))
    ones = xp.ones((3, 3), dtype=xp.int64)
    if xp.policy.name == "array-api":
        strict = pytest.importorskip("array_api_strict")
        with pytest.raises(TypeError):
            xpx.at(strict.asarray(I64.astype(np.int16)))[:, 1:].add(strict.ones((3, 3), dtype=strict.int64))
        with pytest.raises(promo_ns.PromotionError):
            xpx.at(x)[:, 1:].add(ones, copy=False)
        np.testing.assert_array_equal(to_numpy(x), I64)
        return
    with held_to_reference(
        xp,
        "xpx at add int16 int64",
        lambda m: xpx.at(m.asarray(I64.astype(np.int16)))[:, 1:].add(m.ones((3, 3), dtype=m.int64)),
    ):
        want = I64.astype(np.int16)
        want[:, 1:] += 1
        check(xpx.at(x)[:, 1:].add(ones, copy=False), want, xp, xp.int16)
        np.testing.assert_array_equal(to_numpy(x), want)
