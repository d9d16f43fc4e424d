"""The Dask backend: decisions at graph-build time, lazy arrays as the standard says, a real cluster.

The shared suites run on Dask too (tests/backends.py); their exhaustive grids,
which compute cell by cell, are sampled here instead and computed in one go:
every cell's dtype (or refusal) and values must be the NumPy backend's, which
those grids check against the policies and NumPy references.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")

import array_api_compat  # noqa: E402
from dask.callbacks import Callback  # noqa: E402

import promo_ns  # noqa: E402
from promo_ns import PromotionError  # noqa: E402
from promo_ns._ops import NATIVE  # noqa: E402
from tests.backends import POLICIES, close, to_numpy  # noqa: E402
from tests.test_namespace import _readme_example  # noqa: E402
from tests.test_namespace_grid import _operands  # noqa: E402

DATA = np.random.default_rng(0).standard_normal((40, 3)).astype(np.float32)


class Computes(Callback):  # type: ignore[misc]  # Dask's classes are Any to mypy
    """Counts the graphs Dask starts computing (on the local schedulers)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _start(self, dsk: Any) -> None:
        self.count += 1


@contextmanager
def no_compute() -> Iterator[Computes]:
    with Computes() as c:
        yield c
    assert c.count == 0, f"{c.count} graph(s) computed"


def _workload(backend: str, policy: str, **chunks: Any) -> tuple[Any, Any] | str:
    """The README's workload on ``backend`` under ``policy``: (z, score), or the refusal's first line."""
    xp = promo_ns.namespace(backend, policy=policy)
    try:
        z, score = _readme_example()(xp.asarray(DATA, **chunks), xp.asarray([1, 2, 3]))
    except PromotionError as e:
        return str(e).split(":")[0]
    return z, score


# --- decisions at graph-build time ---------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
def test_building_the_workload_computes_nothing(policy: str) -> None:
    with no_compute():
        out = _workload("dask", policy, chunks=(10, 3))
        xp = promo_ns.namespace("dask", policy=policy)
        a = xp.asarray(DATA, chunks=(10, 3))
        i = xp.asarray([[1, 2, 3]], dtype=xp.int16)
        more = [
            xp.where(a > 0, a, 0.0),
            xp.clip(a, -1.0, 1.0),
            xp.concat([a, a]),
            a @ xp.ones((3, 2), dtype=xp.float32),
            xp.sum(i, dtype=xp.int64),
            xp.cumulative_sum(i, axis=1),
            xp.astype(a, xp.float64),
            xp.unique_values(a),
            a[a > 0],
            xp.linalg.det(xp.reshape(xp.arange(8.0), (2, 2, 2))),
        ]
        a[0, 0] = 5.0
        a += 1.0
        i *= 2
        with promo_ns.trace():
            a - 1.0
    if not isinstance(out, str):
        assert out[1].shape == (40,)
    assert [m.dtype is not None for m in more] == [True] * len(more)


def test_a_40_gb_lazy_array_plus_a_float_is_decided_without_computing() -> None:
    huge = da.zeros((40_000_000_000,), dtype=np.int8, chunks=1_000_000_000)
    with no_compute():
        for policy, want in (("pytorch", "float32"), ("numpy", "float64"), ("paddle", "float32")):
            xp = promo_ns.namespace("dask", policy=policy)
            assert (xp.asarray(huge) + 1.5).dtype == getattr(xp, want)
        with pytest.raises(PromotionError):
            promo_ns.namespace("dask", policy="array-api").asarray(huge) + 1.5


def test_a_dtype_numpy_has_no_kernel_for_raises_when_the_op_is_written() -> None:
    # floor_divide of bools under pytorch computes in bool, which NumPy has no loop for: as on NumPy,
    # it raises now, not when the graph is computed.
    xp, xn = promo_ns.namespace("dask", policy="pytorch"), promo_ns.namespace("numpy", policy="pytorch")
    with no_compute(), pytest.raises(TypeError) as lazy:
        xp.asarray([True, False]) // xp.asarray([True, True])
    with pytest.raises(TypeError) as eager:
        xn.asarray([True, False]) // xn.asarray([True, True])
    assert type(lazy.value) is type(eager.value)


# --- arrays in and out -----------------------------------------------------------------------


def test_asarray_makes_dask_arrays_and_wraps_them_zero_copy() -> None:
    xp = promo_ns.namespace("dask", policy="numpy")
    source = np.arange(12.0).reshape(3, 4)
    a = xp.asarray(source)
    assert isinstance(promo_ns.unwrap(a), da.Array) and a.dtype is xp.float64
    assert xp.asarray(source, chunks=(1, 2)).__array_namespace__() is xp
    assert promo_ns.unwrap(xp.asarray(source, chunks=(1, 2))).chunks == ((1, 1, 1), (2, 2))
    native = da.ones((6,), chunks=2)
    assert promo_ns.unwrap(xp.asarray(native)) is native
    assert promo_ns.unwrap(xp.asarray(native, chunks=3)).chunks == ((3, 3),)
    assert promo_ns.array_namespace(native) is promo_ns.namespace("dask")
    assert promo_ns.namespace(da) is promo_ns.namespace("dask")
    assert xp.asarray([1, 2]).dtype is xp.int64 and xp.asarray(2.5).dtype is xp.float64
    assert to_numpy(xp.asarray(source)).tolist() == source.tolist()
    b = pickle.loads(pickle.dumps(a))
    assert b.__array_namespace__() is xp and to_numpy(b).tolist() == source.tolist()


def test_unknown_sizes_are_none_where_conversions_are_refused() -> None:
    from promo_ns.backends.dask import compute_conversions

    xp = promo_ns.namespace("dask")
    a = xp.asarray(np.arange(6.0).reshape(2, 3))
    before = compute_conversions(False)
    try:
        with no_compute():
            picked = a[a > 2.0]
            values = xp.unique_values(a)
            assert picked.shape == (None,) and picked.size is None and values.shape == (None,)
            assert a.shape == (2, 3) and a.size == 6
            assert array_api_compat.size(picked) is None
            with pytest.raises(TypeError, match="unknown"):
                len(picked)
    finally:
        compute_conversions(before)
    assert to_numpy(picked).tolist() == [3.0, 4.0, 5.0]


def test_python_scalars_of_lazy_arrays_compute_and_they_still_answer_lazy() -> None:
    # As Dask's own arrays and array-api-compat's Dask: scikit-learn's `if xp.any(...):` works.
    xp = promo_ns.namespace("dask", policy="pytorch")
    a = xp.asarray([2.5, 0.0, 3.0])
    with Computes() as c:
        assert (float(a[0]), bool(a[1]), int(a[2]), complex(a[0])) == (2.5, False, 3, 2.5 + 0j)
        assert xp.asarray([5, 6])[xp.asarray(1, dtype=xp.int64)].__index__() == 6
    assert c.count == 5
    with no_compute():
        # Clients pick their lazy code paths by it (SciPy's ttest_1samp); it asks bool(), which refuses.
        assert array_api_compat.is_lazy_array(a)
        repr(a)
    assert (a * 2).dtype is xp.float32


def test_compute_conversions_false_makes_python_scalars_refuse_until_turned_on() -> None:
    from promo_ns.backends.dask import compute_conversions

    xp = promo_ns.namespace("dask")
    a = xp.asarray([2.0, 3.0])
    one = a[0]
    assert compute_conversions(False) is True
    try:
        with no_compute():
            for convert in (bool, int, float, complex, lambda x: x.__index__(), lambda x: f"{x:.1f}"):
                with pytest.raises(ValueError, match="lazy dask array"):
                    convert(one)
            assert array_api_compat.is_lazy_array(a)
        with Computes() as c:
            assert np.asarray(a).tolist() == [2.0, 3.0]  # what the user asks for explicitly
        assert c.count == 1
    finally:
        assert compute_conversions(True) is False
    assert float(one) == 2.0


# --- in place, setitem, indexing ----------------------------------------------------------


def test_in_place_ops_keep_the_dtype_and_give_the_array_a_new_dask_array() -> None:
    # The promo_ns array holds the new graph; the Dask array it held keeps its own (as Dask's d += 1).
    xp = promo_ns.namespace("dask", policy="pytorch")
    a = xp.asarray([1.5, 2.5, 3.5], dtype=xp.float16)
    native = promo_ns.unwrap(a)
    with no_compute():
        a += xp.asarray([1, 1, 1], dtype=xp.int64)
        a *= 2
        a[0] = 100
    assert promo_ns.unwrap(a) is not native and a.dtype is xp.float16
    assert to_numpy(a).tolist() == [100.0, 7.0, 9.0] and native.dtype == np.float16
    assert native.compute().tolist() == [1.5, 2.5, 3.5]
    with pytest.raises(ValueError, match="shape"):
        a += xp.ones((2, 3), dtype=xp.float16)
    with pytest.raises(PromotionError):
        a += 1j


def test_in_place_on_an_unknown_shape_holds_a_new_dask_array() -> None:
    xp = promo_ns.namespace("dask", policy="numpy")
    a = xp.asarray([1.0, 5.0, 7.0])
    picked = a[a > 2.0]
    before = promo_ns.unwrap(picked)
    picked -= 1.0
    assert promo_ns.unwrap(picked) is not before and to_numpy(picked).tolist() == [4.0, 6.0]


def test_value_errors_come_when_the_graph_is_computed() -> None:
    # Values a computation gives (here: an array minus 1) are checked when the graph is computed.
    xp = promo_ns.namespace("dask", policy="numpy")
    x = xp.asarray([2, 3, 4], dtype=xp.int8)
    x **= xp.asarray([3, 0, 3], dtype=xp.int16) - 1
    with pytest.raises(ValueError, match="negative"):
        to_numpy(x)
    y = xp.asarray([1, 2, 3])
    y[xp.asarray([1, 6]) - 1] = 9  # Dask alone writes 9 into some other element
    with pytest.raises(IndexError, match="out of bounds"):
        to_numpy(y)
    with pytest.raises(IndexError, match="out of bounds"):
        to_numpy(y[xp.asarray([-3]) - 1])  # Dask alone reads some other element
    assert to_numpy(xp.asarray([1, 2, 3])[xp.asarray([-1, 0])]).tolist() == [3, 1]


@pytest.mark.parametrize(
    "key", [(0, slice(2, None, -1)), (None, slice(None, 0, -1), 1), (Ellipsis, slice(None, None, -2))]
)
def test_setitem_takes_negative_steps_and_none(key: tuple[Any, ...]) -> None:
    xp = promo_ns.namespace("dask")
    ref = np.arange(12.0).reshape(3, 4)
    a = xp.asarray(ref.copy(), chunks=(2, 2))
    value = np.arange(ref[key].size, dtype=np.float64).reshape(ref[key].shape) + 100
    ref[key] = value
    a[key] = xp.asarray(value)
    assert to_numpy(a).tolist() == ref.tolist()
    a[key] = -1.0
    ref[key] = -1.0
    assert to_numpy(a).tolist() == ref.tolist()


@pytest.mark.parametrize(
    "key",
    [
        ([0, 2], [1, 3]),  # two index arrays
        ([[0, 2], [1, 1]],),  # an n-d index array
        (1, [[0], [3]], [4, 0]),  # ints and arrays broadcast together
        ([-1, 0], 2, [[1], [-2]]),  # negative indices
        ([0, 2], [1, 3], Ellipsis),
        ([[2]], slice(None), slice(None)),
    ],
)
def test_several_and_n_d_index_arrays_take_numpys_points(key: tuple[Any, ...]) -> None:
    # Found by array-api-tests: Dask takes one 1-d index array at a time.
    ref = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    x = xp.asarray(ref, chunks=(2, 2, 5))
    with no_compute():
        got = x[tuple(xp.asarray(k, dtype=xp.int32) if isinstance(k, list) else k for k in key)]
    want = xn.asarray(ref)[tuple(xn.asarray(k, dtype=xn.int32) if isinstance(k, list) else k for k in key)]
    assert got.shape == want.shape and got.dtype is xp.int32
    assert to_numpy(got).tolist() == to_numpy(want).tolist()
    with pytest.raises(IndexError, match="out of bounds"):
        to_numpy(x[xp.asarray([1, 4]) - 1, xp.asarray([0, 1])])  # when the graph is computed
    with pytest.raises(IndexError, match="out of bounds"):
        x[xp.asarray([0, 1]), 4, xp.asarray([0, 1])]


def test_a_0_d_mask_and_array_slice_bounds() -> None:
    xp = promo_ns.namespace("dask")
    x = xp.asarray(np.arange(6.0).reshape(2, 3))
    with no_compute():
        taken, none = x[xp.asarray(True)], x[xp.asarray(False)]
        # NumPy's (1, 2, 3) and (0, 2, 3), known when computed
        assert promo_ns.unwrap(taken).shape[0] != promo_ns.unwrap(taken).shape[0]  # nan
    assert (taken.shape, none.shape) == ((1, 2, 3), (0, 2, 3))  # .shape computes them
    assert to_numpy(taken).shape == (1, 2, 3) and to_numpy(none).shape == (0, 2, 3)
    assert to_numpy(xp.asarray(4.0)[xp.asarray(True)]).tolist() == [4.0]
    stop = xp.asarray(2)
    assert to_numpy(x[0, 0:stop]).tolist() == [0.0, 1.0]  # a slice bound is its __index__: computed
    x[0, 0:stop] = -1.0
    assert to_numpy(x)[0].tolist() == [-1.0, -1.0, 2.0]
    from promo_ns.backends.dask import compute_conversions

    before = compute_conversions(False)
    try:
        with pytest.raises(ValueError, match="lazy dask array"):
            x[0, 0:stop]  # refused where conversions are turned off
    finally:
        compute_conversions(before)


def test_repeat_takes_an_array_of_repeats_and_empty_axes() -> None:
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    ref = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = xp.asarray(ref, chunks=(1, 2))
    for repeats, axis in (([2, 0, 1], 1), ([3], 0), ([1, 2], 0), ([1, 0, 2, 1, 1, 3], None)):
        want = xn.repeat(xn.asarray(ref), xn.asarray(repeats), axis=axis)
        size_axis = 0 if axis is None else axis
        with no_compute():
            got = xp.repeat(x, xp.asarray(repeats), axis=axis)
            assert np.isnan(promo_ns.unwrap(got).shape[size_axis])  # sized by the values
        assert got.shape == want.shape and got.dtype is want.dtype  # .shape computes the size
        assert to_numpy(got).tolist() == to_numpy(want).tolist()
    empty = xp.zeros((2, 0), dtype=xp.int8)
    assert xp.repeat(empty, 3, axis=1).shape == (2, 0) and xp.repeat(empty, 2).shape == (0,)
    assert to_numpy(xp.repeat(xp.asarray([], dtype=xp.bool), xp.asarray([], dtype=xp.int8))).shape == (0,)


# --- functions Dask lacks or has for 2-d arrays only -----------------------------------------


def _pairs(xp: Any, xn: Any) -> Iterator[tuple[str, Any, Any]]:
    rng = np.random.default_rng(1)
    stack = rng.standard_normal((3, 4, 4)) + 4 * np.eye(4)
    sym = stack + np.swapaxes(stack, -1, -2)
    tall = rng.standard_normal((2, 5, 3))
    cases: list[tuple[str, Callable[[Any, Any], Any], np.ndarray[Any, Any]]] = [
        ("det", lambda m, a: m.linalg.det(a), stack),
        ("slogdet", lambda m, a: m.linalg.slogdet(a).logabsdet, stack),
        ("eigh", lambda m, a: m.abs(m.linalg.eigh(a).eigenvectors), sym),
        ("eigvalsh", lambda m, a: m.linalg.eigvalsh(a), sym),
        ("eigvals", lambda m, a: m.sort(m.real(m.linalg.eigvals(a))), sym),
        ("inv", lambda m, a: m.linalg.inv(a), stack),
        ("pinv", lambda m, a: m.linalg.pinv(a), tall),
        ("matrix_power", lambda m, a: m.linalg.matrix_power(a, 3), stack),
        ("matrix_rank", lambda m, a: m.linalg.matrix_rank(a), tall),
        ("cholesky", lambda m, a: m.linalg.cholesky(a @ m.matrix_transpose(a)), stack),
        ("cholesky 2-d", lambda m, a: m.linalg.cholesky(a[0] @ m.matrix_transpose(a[0])), stack),
        (
            "cholesky upper",
            lambda m, a: m.linalg.cholesky(a[1] @ m.matrix_transpose(a[1]), upper=True),
            stack,
        ),
        ("inv 2-d", lambda m, a: m.linalg.inv(a[0]), stack),
        ("solve 2-d", lambda m, a: m.linalg.solve(a[0], a[1]), stack),
        ("qr complete", lambda m, a: m.abs(m.linalg.qr(a, mode="complete").R), tall),
        ("qr", lambda m, a: m.abs(m.linalg.qr(a).R), tall),
        ("svd", lambda m, a: m.linalg.svd(a).S, tall),
        ("svd 2-d", lambda m, a: m.linalg.svd(a[0], full_matrices=False).S, tall),
        ("svdvals", lambda m, a: m.linalg.svdvals(a), tall),
        ("solve", lambda m, a: m.linalg.solve(a, a[..., :2]), stack),
        ("solve vector", lambda m, a: m.linalg.solve(a, a[0, :, 0]), stack),
        ("cross", lambda m, a: m.linalg.cross(a[..., :3], a[..., 1:], axis=-1), stack),
        ("eye", lambda m, a: m.eye(3, 5, k=1), stack),
        ("linspace", lambda m, a: m.linspace(0.0, 6.4913965932284536e16, 25), stack),
        ("repeat", lambda m, a: m.repeat(a[0], 2), stack),
        (
            "take_along_axis empty",
            lambda m, a: m.take_along_axis(a, m.zeros((3, 4, 0), dtype=m.int64)),
            stack,
        ),
        ("matrix_norm nuc", lambda m, a: m.linalg.matrix_norm(a, ord="nuc", keepdims=True), stack),
        ("matrix_norm fro", lambda m, a: m.linalg.matrix_norm(a), stack),
        ("cross broadcast", lambda m, a: m.linalg.cross(a[:1, :, :3], a[:, :1, 1:]), stack),
        ("take_along_axis", lambda m, a: m.take_along_axis(a, m.argsort(a, axis=1), axis=1), stack),
        (
            "take_along_axis broadcast",
            lambda m, a: m.take_along_axis(a, m.argsort(a[:1], axis=-1), axis=-1),
            stack,
        ),
        (
            "searchsorted sorter",
            lambda m, a: m.searchsorted(a[0, 0], a[1, 1], sorter=m.argsort(a[0, 0])),
            stack,
        ),
        (
            "tensordot uint8",
            lambda m, a: m.tensordot(m.astype(a, m.uint8), m.astype(a[0], m.uint8), axes=2),
            stack,
        ),
        ("linalg.vecdot int8", lambda m, a: m.linalg.vecdot(m.astype(a, m.int8), m.astype(a, m.int8)), stack),
    ]
    for name, fn, data in cases:
        yield name, fn(xp, xp.asarray(data, chunks=(1, 2, 2))), fn(xn, xn.asarray(data))


def test_linalg_on_stacks_and_the_rest_equal_numpy() -> None:
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    with no_compute():
        got = list(_pairs(xp, xn))
    computed = dask.compute(*[promo_ns.unwrap(lazy) for _, lazy, _ in got])
    for (name, lazy, want), value in zip(got, computed, strict=True):
        assert lazy.dtype is want.dtype, name
        assert value.dtype == to_numpy(want).dtype, name
        np.testing.assert_allclose(value, to_numpy(want), rtol=1e-6, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("name", ["unique_all", "unique_counts", "unique_inverse", "unique_values"])
def test_unique_equals_numpy_with_nans_and_empty_arrays(name: str) -> None:
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    data = np.array([[3.0, np.nan, 1.0], [3.0, -0.0, np.nan], [0.0, 1.0, 7.0]])
    for source in (data, np.zeros((0, 2))):
        with no_compute():
            got = getattr(xp, name)(xp.asarray(source, chunks=(2, 2)))
        want = getattr(xn, name)(xn.asarray(source))
        got, want = (got,) if name == "unique_values" else got, (want,) if name == "unique_values" else want
        assert type(got).__name__ == type(want).__name__
        for g, w in zip(got, want, strict=True):
            assert g.dtype is w.dtype
            np.testing.assert_array_equal(to_numpy(g), to_numpy(w))


# --- the grids, sampled -------------------------------------------------------------------


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (PromotionError, OverflowError, TypeError, ValueError) as e:
        return type(e)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_sample_of_every_binary_grid_equals_the_numpy_backend(policy: str) -> None:
    # Every op under every policy, 12 random cells each (operand dtypes and roles, both orders,
    # in place too): the same dtype or refusal as the NumPy backend, and the same values.
    rng = random.Random(f"dask-{policy}")
    xp, xn = promo_ns.namespace("dask", policy=policy), promo_ns.namespace("numpy", policy=policy)
    lazy_ops, eager = _operands(xp), _operands(xn)
    cells: list[tuple[str, Any, Any]] = []
    with no_compute():
        for op in NATIVE:
            fn = getattr(xp, op)
            ref = getattr(xn, op)
            for _ in range(12):
                i, j = rng.randrange(len(lazy_ops)), rng.randrange(len(lazy_ops))
                (label_x, _, lx), (label_y, _, ly) = lazy_ops[i], lazy_ops[j]
                (_, _, ex), (_, _, ey) = eager[i], eager[j]
                if not hasattr(lx, "dtype") and not hasattr(ly, "dtype"):
                    continue
                cell = f"{op}({label_x}, {label_y})"
                cells.append((cell, _outcome(partial(fn, lx, ly)), _outcome(partial(ref, ex, ey))))
                if hasattr(lx, "dtype") and lx.ndim == 1:  # in place: on fresh copies
                    mine, theirs = xp.asarray(lx, copy=True), xn.asarray(ex, copy=True)
                    inplace = f"__i{op}__"
                    if hasattr(mine, inplace):
                        got = _outcome(partial(getattr(mine, inplace), ly))
                        want = _outcome(partial(getattr(theirs, inplace), ey))
                        cells.append((cell.replace("(", "=(", 1), got, want))
    arrays = [got for _, got, _ in cells if not isinstance(got, type)]
    values = iter(dask.compute(*[promo_ns.unwrap(a) for a in arrays]))
    wrong = []
    for cell, got, want in cells:
        if isinstance(got, type) or isinstance(want, type):
            if got is not want:
                wrong.append(f"{cell}: dask {got}, numpy {want}")
            continue
        value = next(values)
        if got.dtype is not want.dtype or value.dtype != to_numpy(want).dtype:
            wrong.append(f"{cell}: dask {got.dtype} (computed {value.dtype}), numpy {want.dtype}")
        elif not close(np.asarray(value), to_numpy(want), want.dtype):
            wrong.append(f"{cell}: dask {value.tolist()}, numpy {to_numpy(want).tolist()}")
    assert not wrong, "\n".join(wrong)
    assert len(cells) > 12 * len(NATIVE)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_sample_of_the_functions_equals_the_numpy_backend(policy: str) -> None:
    xp, xn = promo_ns.namespace("dask", policy=policy), promo_ns.namespace("numpy", policy=policy)
    calls: list[tuple[str, Callable[[Any, Any, Any], Any]]] = [
        ("where", lambda m, a, b: m.where(a > 1, a, b)),
        ("where scalar", lambda m, a, b: m.where(a > 1, a, 2)),
        ("clip", lambda m, a, b: m.clip(a, 1, 2)),
        ("clip arrays", lambda m, a, b: m.clip(b, a, 4)),
        ("concat", lambda m, a, b: m.concat([a, b])),
        ("stack", lambda m, a, b: m.stack([a, b])),
        ("matmul", lambda m, a, b: m.reshape(a, (1, 3)) @ m.reshape(b, (3, 1))),
        ("vecdot", lambda m, a, b: m.vecdot(a, b)),
        ("sum", lambda m, a, b: m.sum(a)),
        ("prod", lambda m, a, b: m.prod(b)),
        ("cumulative_sum", lambda m, a, b: m.cumulative_sum(a)),
        ("mean", lambda m, a, b: m.mean(a)),
        ("std", lambda m, a, b: m.std(b)),
        ("log", lambda m, a, b: m.log(a)),
        ("sqrt", lambda m, a, b: m.sqrt(b)),
        ("abs", lambda m, a, b: m.abs(a)),
        ("max", lambda m, a, b: m.max(b)),
        ("argmax", lambda m, a, b: m.argmax(b)),
        ("isin", lambda m, a, b: m.isin(a, b)),
        ("searchsorted", lambda m, a, b: m.searchsorted(m.sort(b), a)),
        ("result_type", lambda m, a, b: m.result_type(a, b)),
        ("nested asarray", lambda m, a, b: m.asarray([a, b])),
    ]
    pairs = [
        (np.array([1, 2, 3], dtype=s), np.array([3.0, 1.0, 2.0], dtype=t))
        for s, t in (
            ("int8", "float32"),
            ("uint8", "int16"),
            ("int32", "float64"),
            ("bool", "int64"),
            ("float16", "float32"),
        )
    ]
    cells = []
    with no_compute():
        for a, b in pairs:
            la, lb, ea, eb = xp.asarray(a), xp.asarray(b), xn.asarray(a), xn.asarray(b)
            for name, call in calls:
                label = f"{name}({a.dtype}, {b.dtype})"
                cells.append(
                    (label, _outcome(partial(call, xp, la, lb)), _outcome(partial(call, xn, ea, eb)))
                )
    wrong = []
    for label, got, want in cells:
        if isinstance(got, type) or isinstance(want, type) or not hasattr(want, "shape"):
            if got != want:
                wrong.append(f"{label}: dask {got}, numpy {want}")
            continue
        if got.dtype is not want.dtype or not close(to_numpy(got), to_numpy(want), want.dtype):
            wrong.append(f"{label}: dask {got.dtype} {to_numpy(got)}, numpy {want.dtype} {to_numpy(want)}")
    assert not wrong, "\n".join(wrong)


# --- a real cluster ---------------------------------------------------------------------------


def test_the_readme_workload_on_a_cluster_equals_numpy_under_every_policy() -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, memory_limit="1GiB"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        results = {}
        for policy in POLICIES:
            lazy, eager = _workload("dask", policy, chunks=(10, 3)), _workload("numpy", policy)
            if isinstance(eager, str):
                assert lazy == eager  # the same refusal, made before anything runs
                continue
            assert not isinstance(lazy, str)
            assert [a.dtype for a in lazy] == [a.dtype for a in eager]
            results[policy] = (lazy, eager)
        computed = iter(
            client.gather(client.compute([promo_ns.unwrap(a) for lz, _ in results.values() for a in lz]))
        )
        for lazy, eager in results.values():
            for got, want in zip([next(computed) for _ in lazy], eager, strict=True):
                assert got.dtype == to_numpy(want).dtype
                np.testing.assert_allclose(got, to_numpy(want), rtol=1e-5, atol=1e-6)
        assert set(results) == {"pytorch", "numpy", "jax", "tf-all", "tf-legacy"}
        assert {str(lazy[1].dtype) for lazy, _ in results.values()} == {"float32", "float64"}
        assert len(client.scheduler_info()["workers"]) == 2
        # promo_ns arrays themselves travel to the workers (pickled with their namespace)

        def score(x: Any) -> str:  # defined here, so that it travels by value
            xp = x.__array_namespace__()
            out = x * xp.asarray([1, 2, 3])
            total = float(promo_ns.unwrap(xp.sum(out)).compute(scheduler="sync"))
            return f"{xp.policy.name} {out.dtype} {total:.3f}"

        xq = promo_ns.namespace("dask", policy="pytorch")
        total = float(np.sum(DATA * np.array([1, 2, 3], dtype=np.float32)))
        assert (
            client.submit(score, xq.asarray(DATA, chunks=(10, 3))).result() == f"pytorch float32 {total:.3f}"
        )


def test_the_dask_benchmark_peers_compute_the_same() -> None:
    from benchmarks.cases import CASES, setup_code

    (case,) = [c for c in CASES if "dask" in c.backends]
    scope: dict[str, Any] = {}
    exec(setup_code("dask", case.n), scope)
    results = {peer: np.asarray(eval(stmt, scope)) for peer, stmt in case.statements("dask").items()}
    assert set(results) == {"native", "promo_ns", "compat"}
    for peer, got in results.items():
        assert got.dtype == results["native"].dtype == np.float32, peer
        np.testing.assert_allclose(got, results["native"], rtol=1e-5, err_msg=peer)


def test_int_and_index_of_a_lazy_uint64_compute_where_conversions_compute() -> None:
    from promo_ns.backends.dask import compute_conversions

    xp = promo_ns.namespace("dask")
    x = xp.asarray(2**63 + 1, dtype=xp.uint64)
    previous = compute_conversions(True)
    try:
        assert int(x) == 2**63 + 1
        assert x.__index__() == 2**63 + 1
    finally:
        compute_conversions(previous)


def test_a_mask_takes_a_value_whose_size_only_a_compute_knows() -> None:
    # SciPy's variation and tmean(limits=...), array-api-extra's at[mask]: x[m] = x[m] * 2.
    xp = promo_ns.namespace("dask")
    x = xp.asarray(np.arange(6.0).reshape(2, 3))
    before = promo_ns.unwrap(x)
    with no_compute():
        m = x > 1
        x[m] = x[m] * 2
        x[x > 100] = xp.asarray([1.0, 2.0])[:0]  # an empty selection, an empty value
    assert to_numpy(x).tolist() == [[0.0, 1.0, 4.0], [6.0, 8.0, 10.0]]
    assert before.compute().tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]  # the old graph is kept
    x[x > 5] = xp.asarray([1.0, 2.0])  # 4 places, 2 values: NumPy's error, once computed
    with pytest.raises(ValueError, match=r"x\[mask\] = value .* failed when its graph was computed"):
        to_numpy(x)


@pytest.mark.parametrize("taken", [True, False])
def test_a_0d_mask_takes_an_array_value(taken: bool) -> None:
    xp = promo_ns.namespace("dask")
    y, w = xp.asarray(4.0), xp.asarray([1.0, 2.0])
    y[xp.asarray(taken)] = xp.asarray([7.0])
    w[xp.asarray(taken)] = xp.asarray([[3.0, 4.0]])
    assert to_numpy(y).tolist() == (7.0 if taken else 4.0)
    assert to_numpy(w).tolist() == ([3.0, 4.0] if taken else [1.0, 2.0])


def test_creation_takes_a_list_shape() -> None:
    xp = promo_ns.namespace("dask")
    assert [f([3]).shape for f in (xp.empty, xp.zeros, xp.ones)] == [(3,)] * 3
    assert xp.full([2, 1], 1.5).shape == (2, 1)
