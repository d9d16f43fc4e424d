"""The JAX backend loses nothing silently (issue 23): bounds, 64-bit data, jit, pytrees, sizes, axes.

JAX runs here with 64-bit types on and strict promotion (see :mod:`tests.backends`);
cases with 64-bit types off run in ``jax.enable_x64(False)`` blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)  # as tests.backends sets them for the shared suites
jax.config.update("jax_numpy_dtype_promotion", "strict")

import jax.numpy as jnp  # noqa: E402

import promo_ns  # noqa: E402
from tests.backends import namespace, to_numpy  # noqa: E402

#: JAX, and NumPy as the reference it must agree with.
JAX_AND_NUMPY = ["numpy", "jax"]

# --- 1. setitem out of bounds: promo_ns's IndexError, nothing written ----------------------------

_OUT_OF_BOUNDS: dict[str, Callable[[Any], Any]] = {
    "numpy int": lambda xp: np.int64(7),
    "numpy int array": lambda xp: np.array([0, 5]),
    "list": lambda xp: [0, 5],
    "int": lambda xp: 7,
    "negative int": lambda xp: -4,
    "promo_ns array": lambda xp: xp.asarray([0, 5]),
    "0-d numpy array": lambda xp: np.array(7),
    "0-d promo_ns array": lambda xp: xp.asarray(7),
    "uint array": lambda xp: np.array([1, 9], dtype=np.uint8),
}


@pytest.mark.parametrize("backend", JAX_AND_NUMPY)
@pytest.mark.parametrize("kind", list(_OUT_OF_BOUNDS))
def test_setitem_out_of_bounds_raises_and_writes_nothing(backend: str, kind: str) -> None:
    xp = namespace(backend, "numpy")
    x = xp.asarray([1, 2, 3])
    index = _OUT_OF_BOUNDS[kind](xp)
    with pytest.raises(IndexError, match=r"index -?\d+ is out of bounds for axis 0 with size 3"):
        x[index] = 9
    np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])


@pytest.mark.parametrize(
    "key", [(0, np.array([5])), (Ellipsis, [3]), (slice(None), np.int64(-4)), (None, 1, [0, 3])], ids=repr
)
def test_setitem_out_of_bounds_names_the_axis(key: Any) -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    before = promo_ns.unwrap(x)
    with pytest.raises(IndexError, match=r"out of bounds for axis 1 with size 3; nothing was written"):
        x[key] = 9
    assert promo_ns.unwrap(x) is before


def test_setitem_in_bounds_takes_every_index_kind_numpy_takes() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([1, 2, 3])
    x[np.int64(0)] = 7
    x[[1]] = 8
    x[jnp.asarray([2])] = 9
    x[np.True_] = x + 0  # a NumPy bool: every element (JAX alone fails on it)
    x[[]] = 0  # an empty list of indices: nothing
    np.testing.assert_array_equal(to_numpy(x), [7, 8, 9])
    np.testing.assert_array_equal(to_numpy(x[[0, 2]]), [7, 9])  # a list reads as an index array


def test_setitem_under_jit_follows_jax_for_traced_indices() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([1, 2, 3])
    inside, outside = jnp.asarray([0, 1]), jnp.asarray([0, 5])

    def closed_over(a: Any) -> Any:
        a[inside] = 9
        return a

    def outside_closed_over(a: Any) -> Any:
        a[outside] = 9
        return a

    def traced(a: Any, i: Any) -> Any:
        a[i] = 9
        return a

    np.testing.assert_array_equal(to_numpy(jax.jit(closed_over)(x)), [9, 9, 3])
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        jax.jit(outside_closed_over)(x)  # concrete: checked while tracing
    np.testing.assert_array_equal(to_numpy(jax.jit(traced)(x, inside)), [9, 9, 3])
    np.testing.assert_array_equal(to_numpy(jax.jit(traced)(x, xp.asarray([0, 1]))), [9, 9, 3])
    # A traced index's values are unknown while tracing: JAX drops the write out of bounds.
    np.testing.assert_array_equal(to_numpy(jax.jit(traced)(x, outside)), [9, 2, 3])
    np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])
