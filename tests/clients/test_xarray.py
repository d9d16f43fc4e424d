"""xarray DataArrays over promo_ns arrays: labelled operations keep the data a promo_ns array of the policy.

xarray holds any array with ``__array_namespace__`` as it is and calls its
operators and namespace functions; the reference is the same DataArray code
over NumPy arrays, and every case also runs over array-api-strict. A promo_ns
array on the left of an operator with a DataArray gives way to the DataArray's
reflected operator (promo_ns returns NotImplemented for an operand type it does
not know), so the result is a DataArray whatever the order.

What xarray does otherwise: its reductions that skip NaNs (``mean``, ``std``,
``max``, ``cumsum``, ... of floating data, ``skipna`` by default) compute
with NumPy's ``nan*`` functions through ``__array__`` for any array but NumPy's
and Dask's own, so their result is a NumPy array (for array-api-strict they fail
on ``dtype.kind``); ``skipna=False`` keeps them in the namespace. ``where``,
``shift``, ``fillna`` and ``rolling`` ask NumPy's dtype machinery for a fill
value and fail over array-api-strict and over promo_ns alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import to_numpy
from tests.clients.support import Case, check, held_to_reference, on_array_api_strict

xr = pytest.importorskip("xarray")
# xarray warns that it cannot check the namespace of an array it does not know (array-api-strict's, ours)
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:xarray")

_rng = np.random.default_rng(16)
F64 = _rng.standard_normal((3, 4))
F32 = _rng.standard_normal((3, 4)).astype(np.float32)
I8 = _rng.integers(-5, 6, (3, 4)).astype(np.int8)
I16 = _rng.integers(-50, 60, (3, 4)).astype(np.int16)
ROW = _rng.standard_normal(4)


def da(xp: Any, data: np.ndarray[Any, Any], dims: tuple[str, ...] = ("x", "y")) -> Any:
    """A DataArray over ``xp``'s array of ``data``, with a coordinate on ``x``."""
    coords = {"x": [10, 20, 30]} if "x" in dims else {}
    return xr.DataArray(xp.asarray(data), dims=dims, coords=coords)


CASES = [
    Case("a + 1", lambda xp: da(xp, F32) + 1, lambda xp: xp.float32),
    Case("a * b", lambda xp: da(xp, F64) * da(xp, F64[::-1]), lambda xp: xp.float64),
    Case(
        "broadcast by name",
        lambda xp: da(xp, F64) - xr.DataArray(xp.asarray(ROW), dims=("y",)),
        lambda xp: xp.float64,
    ),
    Case(
        "int8 + int16",
        lambda xp: da(xp, I8) + da(xp, I16),
        lambda xp: xp.result_type(xp.int8, xp.int16),
    ),
    Case(
        "float32 * float64",
        lambda xp: da(xp, F32) * da(xp, F64),
        lambda xp: xp.result_type(xp.float32, xp.float64),
    ),
    Case("a > 0", lambda xp: da(xp, F64) > 0, lambda xp: xp.bool),
    Case("sum over x", lambda xp: da(xp, F64).sum("x"), lambda xp: xp.float64),
    Case("sum of int8", lambda xp: da(xp, I8).sum(), lambda xp: xp.sum(xp.asarray(I8)).dtype),
    Case("abs", lambda xp: abs(da(xp, I16)), lambda xp: xp.int16),
    Case("round", lambda xp: da(xp, F32).round(), lambda xp: xp.float32),
    Case("clip", lambda xp: da(xp, F64).clip(-0.5, 0.5), lambda xp: xp.float64),
    Case("transpose", lambda xp: da(xp, I16).T, lambda xp: xp.int16),
    Case("isel", lambda xp: da(xp, F64).isel(x=slice(0, 2), y=slice(None, None, 3)), lambda xp: xp.float64),
    Case("sel", lambda xp: da(xp, F64).sel(x=20), lambda xp: xp.float64),
    Case("diff", lambda xp: da(xp, F64).diff("y"), lambda xp: xp.float64),
    Case("concat", lambda xp: xr.concat([da(xp, I8), da(xp, I8)], dim="x"), lambda xp: xp.int8),
    Case("stack", lambda xp: da(xp, F32).stack(z=("x", "y")), lambda xp: xp.float32),
    Case(
        "apply_ufunc", lambda xp: xr.apply_ufunc(xp.exp, da(xp, F32), dask="allowed"), lambda xp: xp.float32
    ),
    # a promo_ns (NumPy, strict) array on the left: the DataArray's reflected operator runs
    Case("array + DataArray", lambda xp: xp.asarray(F64) + da(xp, F64), lambda xp: xp.float64),
    Case("array * DataArray", lambda xp: xp.asarray(I16) * da(xp, I16), lambda xp: xp.int16),
]


def check_dataarray(got: Any, want: Any, xp: Any, dtype: Any) -> None:
    """``got`` is a DataArray over an ``xp`` array of ``dtype``, labelled and valued as ``want``."""
    assert isinstance(got, xr.DataArray), f"the result is a {type(got).__name__}, not a DataArray"
    assert got.dims == want.dims
    for name in want.coords:
        np.testing.assert_array_equal(got.coords[name].values, want.coords[name].values)
    check(got.data, want.data, xp, dtype)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_dataarrays_over_promo_ns_as_over_numpy(case: Case, xp: Any) -> None:
    with held_to_reference(xp, ("xarray", case.name), lambda m: case.run(m).data):
        check_dataarray(case.run(xp), case.run(np), xp, case.dtype(xp))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_cases_are_generic_they_run_on_array_api_strict(case: Case) -> None:
    got = on_array_api_strict(case)
    if got is None:
        return
    np.testing.assert_allclose(np.asarray(got.data), np.asarray(case.run(np).data), rtol=2e-5)


def test_int_with_float_follows_the_policy(xp: Any) -> None:
    """The standard (and array-api-strict) refuse int8 + float64; pytorch promotes."""
    if xp.policy.name == "array-api":
        strict = pytest.importorskip("array_api_strict")
        with pytest.raises(TypeError):
            da(strict, I8) + da(strict, F64)
        with pytest.raises(promo_ns.PromotionError, match="add"):
            da(xp, I8) + da(xp, F64)
        return
    with held_to_reference(xp, "xarray int float", lambda m: (da(m, I8) + da(m, F64)).data):
        want = da(np, I8) + da(np, F64)
        check_dataarray(da(xp, I8) + da(xp, F64), want, xp, xp.result_type(xp.int8, xp.float64))


def test_reductions_without_skipna_stay_in_the_namespace(xp: Any) -> None:
    """``skipna=False`` reductions call the namespace; xarray's NaN-skipping default goes through NumPy."""
    a = da(xp, F64)
    with held_to_reference(xp, "xarray mean skipna=False", lambda m: da(m, F64).mean("y", skipna=False).data):
        check_dataarray(a.mean("y", skipna=False), da(np, F64).mean("y", skipna=False), xp, xp.float64)
        check_dataarray(a.max("x", skipna=False), da(np, F64).max("x", skipna=False), xp, xp.float64)
        skipped = a.mean("y")
        np.testing.assert_allclose(np.asarray(skipped.data), F64.mean(axis=1))
        assert isinstance(skipped.data, np.ndarray | promo_ns.Array)


def test_values_and_to_numpy_give_numpy_arrays(xp: Any) -> None:
    a = da(xp, F32)
    for got in (a.values, a.to_numpy()):
        assert type(got) is np.ndarray and got.dtype == np.float32
        np.testing.assert_array_equal(got, to_numpy(a.data))
