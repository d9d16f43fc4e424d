"""What client libraries (tests/clients, marray's own suite) met on promo_ns, each fixed.

- torch has no ``linspace`` kernel for bool: its raw NotImplementedError
  reached marray's suite, where NumPy (and array-api-strict) space the
  values in float64 and cast.
- A refusal made when a policy's plan is first compiled carried the plan
  cache's KeyError as its context ("During handling of the above exception,
  another exception occurred"), which marray's suite reported as the error.

On Dask, where Dask differed from NumPy:

- SciPy's ``pearsonr`` writes ``r[c] = round(r[c])`` with a 0-d mask ``c``:
  the value's size is known only once computed.
- scikit-learn's ``Ridge`` writes ``x[m] = ...`` with a mask over ``x``'s
  leading axes and an array value.
- A mask of the wrong shape gave Dask's "chunks do not add up" (a ValueError)
  where NumPy raises an IndexError.
- einops reshapes with a list shape, which every other backend takes.
- scikit-learn's ``type_of_target`` asks ``unique(y).shape[0] > 2``: a size
  Dask knows only once computed, None in promo_ns (the standard's), nan in
  Dask (where the comparison is False: "binary" for three classes). Where
  conversions compute (the default), ``.shape`` computes such sizes, once; see
  docs/scaling.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import get_policy
from tests.backends import VALUE_BACKENDS, namespace, to_numpy


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_linspace_of_bools_as_numpys(backend: str) -> None:
    xp = namespace(backend)
    got = xp.linspace(0, 10, 11, dtype=xp.bool)
    assert got.dtype is xp.bool
    np.testing.assert_array_equal(to_numpy(got), np.linspace(0, 10, 11, dtype=bool))
    np.testing.assert_array_equal(to_numpy(xp.linspace(-1, 1, 3, dtype=xp.bool)), [True, False, True])


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_refusal_made_while_compiling_a_plan_has_no_cache_error_as_context(backend: str) -> None:
    xp = promo_ns.namespace(backend, policy=get_policy("array-api").derive("array-api-fresh-plans"))
    with pytest.raises(promo_ns.PromotionError, match="abs") as refused:
        xp.abs(xp.asarray([True, False]))  # the first abs of bool under this policy: compiled now
    assert refused.value.__context__ is None and refused.value.__cause__ is None


pytest.importorskip("dask")
array_api_compat = pytest.importorskip("array_api_compat")
from promo_ns.backends.dask import compute_conversions  # noqa: E402
from tests.test_dask import Computes  # noqa: E402


@contextmanager
def refused_conversions() -> Iterator[None]:
    before = compute_conversions(False)
    try:
        yield
    finally:
        compute_conversions(before)


@pytest.mark.parametrize("backend", ["numpy", "dask"])
@pytest.mark.parametrize("mask", [True, False])
def test_a_0_d_mask_takes_a_value_whose_size_is_known_once_computed(backend: str, mask: bool) -> None:
    xp = promo_ns.namespace(backend)
    r, c = xp.asarray(0.7), xp.asarray(mask)
    r[c] = xp.round(r[c])  # SciPy's pearsonr, through array-api-extra's apply_where
    assert float(r) == (1.0 if mask else 0.7) and r.dtype is xp.float64


@pytest.mark.parametrize("backend", ["numpy", "dask"])
def test_a_mask_over_the_leading_axes_takes_an_array_value(backend: str) -> None:
    xp = promo_ns.namespace(backend)
    data = np.arange(8.0).reshape(4, 2)
    x, m = xp.asarray(data.copy()), xp.asarray([True, False, True, True])
    x[m] = x[m] * 2  # scikit-learn's Ridge (its _rescale_data)
    want = data.copy()
    want[[0, 2, 3]] *= 2
    np.testing.assert_array_equal(to_numpy(x), want)


@pytest.mark.parametrize("backend", ["numpy", "dask"])
def test_a_mask_of_the_wrong_shape_is_numpys_index_error(backend: str) -> None:
    xp = promo_ns.namespace(backend)
    x = xp.asarray(np.arange(8.0).reshape(4, 2))
    short = xp.asarray([True, False, True])
    writes: list[Callable[[], Any]] = [
        lambda: x[short],
        lambda: x.__setitem__(short, 1.0),
        lambda: x.__setitem__(short, xp.asarray([1.0, 2.0])),
    ]
    for write in writes:
        with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0"):
            write()
    with pytest.raises(IndexError, match="along axis 1; size of axis is 2 but size of corresponding"):
        x[:, short]
    np.testing.assert_array_equal(to_numpy(x), np.arange(8.0).reshape(4, 2))


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_reshape_takes_a_list_shape(backend: str) -> None:
    xp = namespace(backend)
    got = xp.reshape(xp.arange(6), [2, 3])  # einops's rearrange
    assert got.shape == (2, 3)
    np.testing.assert_array_equal(to_numpy(got), np.arange(6).reshape(2, 3))


def test_shape_computes_a_size_known_only_once_computed_once() -> None:
    xp = promo_ns.namespace("dask")
    x = xp.asarray([3, 1, 2, 1, 3, 3])
    with Computes() as c:
        picked, values = x[x > 1], xp.unique_values(x)
        assert c.count == 0  # building computes nothing
        assert picked.shape == (4,) and values.shape[0] == 3 and values.size == 3 and len(picked) == 4
        assert c.count == 2
        assert picked.shape == (4,) and values.shape == (3,)
        assert c.count == 2  # once per array: the native array keeps the sizes
    # scikit-learn's type_of_target: unique(y).shape[0] > 2 is "multiclass"
    assert xp.unique_values(xp.asarray([0, 1, 2, 1])).shape[0] > 2
    assert to_numpy(picked).tolist() == [3, 2, 3, 3]


def test_is_lazy_array_computes_no_size_and_conversions_off_leave_sizes_none() -> None:
    xp = promo_ns.namespace("dask")
    x = xp.asarray([3.0, 1.0, 2.0])
    picked = x[x > 1.5]
    with Computes() as c:
        assert array_api_compat.is_lazy_array(picked)  # it asks array_api_compat.size: None
    assert c.count == 0 and np.isnan(promo_ns.unwrap(picked).shape[0])
    with refused_conversions(), Computes() as c:
        assert picked.shape == (None,) and picked.size is None
        with pytest.raises(TypeError, match="unknown"):
            len(picked)
    assert c.count == 0
    assert picked.shape == (2,)  # conversions on again: computed
