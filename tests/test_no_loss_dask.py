"""Dask: an in-place op or setitem that fails loses nothing, and fails as on NumPy (issue 23).

What can be checked without computing (shapes, dtypes, an int or index array
out of bounds, an integer exponent whose values are known) raises when the op
is written, as on the NumPy backend, and the array keeps its graph.  What only
a computation can tell (an exponent or index array that is itself computed)
raises when the graph is computed, naming the op; the array's values from
before the op stay reachable (``promo_ns.backends.dask.previous``) and the
Dask array it held is never changed.  The sweeps run every in-place operator
and setitem on Dask against the NumPy backend under every policy, computed in
one go.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")

import promo_ns  # noqa: E402
from promo_ns._ops import NATIVE  # noqa: E402
from promo_ns.backends.dask import previous  # noqa: E402
from tests.backends import POLICIES, close, to_numpy  # noqa: E402
from tests.generated import INPLACE  # noqa: E402
from tests.test_dask import no_compute  # noqa: E402


def lazy(xp: Any, values: Any) -> Any:
    """A promo_ns Dask array of ``values`` that only a computation gives (its graph holds no data)."""
    values = np.asarray(values)
    return xp.asarray(da.from_array(values).map_blocks(np.copy, dtype=values.dtype))


def bits(x: Any) -> tuple[str, tuple[int, ...], bytes]:
    """Dtype, shape and bytes of a promo_ns or Dask array, computed."""
    a = np.asarray(promo_ns.unwrap(x).compute(scheduler="sync"))
    return str(a.dtype), a.shape, a.tobytes()


@contextmanager
def quiet() -> Iterator[None]:
    """NumPy's warnings off (integer division by zero warns on both backends, at different times)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        yield


# --- known values: checked when the op is written ----------------------------------------------


@pytest.mark.parametrize(
    "exponent",
    [
        lambda m: m.asarray([2, -1, 2], dtype=m.int16),
        lambda m: m.asarray(np.array([[1], [-2]], dtype=np.int8)),
        lambda m: np.int8(-1),  # a NumPy scalar: a 0-d array made from data
    ],
)
def test_a_known_negative_integer_exponent_raises_at_the_op_and_x_keeps_its_graph(
    exponent: Callable[[Any], Any],
) -> None:
    xp, xn = promo_ns.namespace("dask", policy="numpy"), promo_ns.namespace("numpy", policy="numpy")
    x = xp.asarray(np.array([[2, 3, 4], [5, 6, 7]], dtype=np.int8), chunks=(1, 2))
    native, before = promo_ns.unwrap(x), bits(x)
    with no_compute(), pytest.raises(ValueError, match="negative integer powers") as lazy_error:
        x **= exponent(xp)
    with pytest.raises(ValueError) as eager_error:
        xn.asarray([[2, 3, 4], [5, 6, 7]], dtype=xn.int8).__ipow__(exponent(xn))
    assert str(lazy_error.value) == str(eager_error.value)
    assert promo_ns.unwrap(x) is native and bits(x) == before


@pytest.mark.parametrize(
    "index",
    [[0, 5], np.array([0, 5]), "asarray", (slice(None), [0, 5]), ([1, -4], 0)],
    ids=["list", "numpy", "asarray", "second-axis", "negative"],
)
def test_a_known_index_out_of_bounds_raises_at_the_op_with_numpys_words(index: Any) -> None:
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    data = np.arange(9).reshape(3, 3)
    x = xp.asarray(data)
    native, before = promo_ns.unwrap(x), bits(x)
    key = xp.asarray([0, 5]) if isinstance(index, str) else index
    with no_compute(), pytest.raises(IndexError) as lazy_error:
        x[key] = 9
    with pytest.raises(IndexError) as eager_error:
        xn.asarray(data)[xn.asarray([0, 5]) if isinstance(index, str) else index] = 9
    assert str(lazy_error.value) == str(eager_error.value)
    assert promo_ns.unwrap(x) is native and bits(x) == before
    with pytest.raises(IndexError, match="out of bounds"):
        x[key]  # reading: the same check


def test_the_value_shape_is_checked_before_the_bounds_as_on_numpy() -> None:
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    for key, value in (([5], np.ones((2, 3))), ((0, [3]), np.ones(3)), ([[0], [1]], np.ones(4))):
        errors = []
        for m in (xp, xn):
            x = m.asarray(np.zeros((2, 3)))
            with pytest.raises((IndexError, ValueError)) as e:
                x[key] = m.asarray(value)
            errors.append(type(e.value))
        assert errors[0] is errors[1], key


def test_an_in_place_op_checks_dtypes_before_shapes_as_numpy() -> None:
    xp, xn = promo_ns.namespace("dask", policy="pytorch"), promo_ns.namespace("numpy", policy="pytorch")
    for m in (xp, xn):
        with pytest.raises(TypeError, match="no 'floor_divide' kernel"):
            m.asarray([[True, False]]).__ifloordiv__(m.asarray([True, True, False]))
        with pytest.raises(ValueError):
            m.asarray([1.0, 2.0]).__iadd__(m.ones((2, 2)))


# --- values only a computation gives: they fail when the graph is computed ------------------------


def test_a_computed_negative_exponent_fails_when_computed_naming_the_op_and_loses_nothing() -> None:
    xp = promo_ns.namespace("dask", policy="numpy")
    x = xp.asarray(np.array([2, 3, 4], dtype=np.int8), chunks=2)
    native, before = promo_ns.unwrap(x), bits(x)
    with no_compute():
        x **= lazy(xp, np.array([2, -1, 2], dtype=np.int8))  # nothing to check without computing
        x += 1
    with pytest.raises(ValueError, match=r"x \*\*= y \(in-place pow\).*negative integer powers.*previous"):
        bits(x)
    with pytest.raises(ValueError, match="in-place pow"):
        bits(xp.sum(x))  # every graph built from it
    assert bits(native) == before  # the Dask array x held is unchanged
    assert bits(previous(previous(x))) == before and previous(x).dtype is xp.int8
    assert previous(promo_ns.unwrap(x)) is promo_ns.unwrap(previous(x))  # on the Dask array too


def test_a_computed_index_out_of_bounds_fails_when_computed_naming_setitem_and_loses_nothing() -> None:
    xp = promo_ns.namespace("dask")
    x = xp.asarray(np.arange(6).reshape(2, 3), chunks=(1, 2))
    native, before = promo_ns.unwrap(x), bits(x)
    with no_compute():
        x[:, lazy(xp, [0, 3])] = -1
    with pytest.raises(
        IndexError, match=r"x\[key\] = value .*index 3 is out of bounds for axis 1 with size 3"
    ):
        bits(x)
    assert bits(native) == before and bits(previous(x)) == before
    with pytest.raises(IndexError, match=r"x\[key\] on a promo_ns dask array.*index 3"):
        bits(xp.asarray([1, 2, 3])[lazy(xp, [0, 3])])


def test_previous_needs_an_array_an_in_place_op_updated() -> None:
    xp = promo_ns.namespace("dask")
    for x in (xp.asarray([1.0]), promo_ns.unwrap(xp.asarray([1.0])), 3):
        with pytest.raises(ValueError, match="previous"):
            previous(x)


# --- what Dask's own indexing lacks --------------------------------------------------------------


@pytest.mark.parametrize(
    "key", [([0, 1], [0, 2]), ([[0], [1]], [0, 2]), ([1, 1], [2, -1]), (np.array([1, 0]), np.array([2, 2]))]
)
def test_several_concrete_index_arrays_read_and_write_numpys_points(key: tuple[Any, ...]) -> None:
    # Dask raised NotImplementedError for these (lists and NumPy arrays; its own arrays were handled).
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    data = np.arange(6).reshape(2, 3)
    x, ref = xp.asarray(data, chunks=(1, 2)), xn.asarray(data)
    with no_compute():
        got = x[key]
        x[key] = xp.asarray(-7)
    want = ref[key]
    ref[key] = xn.asarray(-7)
    assert got.shape == want.shape and to_numpy(got).tolist() == to_numpy(want).tolist()
    assert to_numpy(x).tolist() == to_numpy(ref).tolist()


# --- the sweeps: every in-place op and setitem against the NumPy backend ---------------------------

_X = np.array([[3, -2, 0], [1, 2, -3]])
#: Left operand dtypes with right operand dtypes, same and mixed.
_PAIRS = [("int8", "int8"), ("int16", "uint8"), ("uint8", "int8"), ("float32", "int32"), ("bool", "bool")]
_PAIRS += [("complex64", "float32"), ("float64", "float64")]
#: Right operand shapes: broadcasting to x's shape, x's own, not broadcasting, broadcasting x to more.
_SHAPES = [(3,), (2, 3), (3, 2), (2, 3, 1)]
_SCALARS = [2, -1, 0, 1.5, 300]


def _run(fn: Callable[[], Any]) -> BaseException | None:
    with quiet():
        try:
            fn()
        except Exception as e:
            return e
    return None


def _y(m: Any, dtype: str, shape: tuple[int, ...], mode: str) -> Any:
    values = np.resize(np.array([2, -1, 0, 3, 1, -2]), shape)
    values = values > 0 if dtype == "bool" else values.astype(dtype)
    return lazy(m, values) if mode == "lazy" else m.asarray(values)


class _Cell:
    """One op on Dask and on NumPy: what each did, and the Dask array ``x`` held before."""

    def __init__(self, label: str, op: Callable[[Any, Any], Any], xd: Any, xn: Any, yd: Any, yn: Any) -> None:
        self.label, self.x, self.ref = label, xd, xn
        self.native = promo_ns.unwrap(xd)
        self.error = _run(lambda: op(xd, yd))
        self.ref_error = _run(lambda: op(xn, yn))


def _check(cells: list[_Cell]) -> list[str]:
    """What differs between the Dask and NumPy outcomes; every array computed in one go.

    An op that raised on Dask must leave ``x`` holding the same Dask array with
    the same bits; one that raised on NumPy only must fail when computed, with
    the same class, naming the op, and ``previous(x)`` must have the old bits.
    """
    wrong = []
    built = [c for c in cells if c.error is None and c.ref_error is None]
    raised = [c for c in cells if c.error is not None]
    with quiet():
        values = dask.compute(*[promo_ns.unwrap(c.x) for c in built + raised], scheduler="sync")
        befores = dask.compute(*[c.native for c in raised], scheduler="sync")
    for c, got in zip(built, values[: len(built)], strict=True):
        want = to_numpy(c.ref)
        if c.x.dtype is not c.ref.dtype or got.dtype != want.dtype or not close(got, want, c.ref.dtype):
            wrong.append(f"{c.label}: dask {c.x.dtype} {got.tolist()}, numpy {c.ref.dtype} {want.tolist()}")
    for c, got, before in zip(raised, values[len(built) :], befores, strict=True):
        if c.ref_error is None or type(c.error) is not type(c.ref_error):
            wrong.append(f"{c.label}: dask raised {c.error!r}, numpy {c.ref_error!r}")
        if promo_ns.unwrap(c.x) is not c.native or got.tobytes() != before.tobytes() or got.shape != _X.shape:
            wrong.append(f"{c.label}: raised {c.error!r} but x changed")
    for c in cells:
        if c.error is None and c.ref_error is not None:  # can only fail when computed
            late = _run(partial(promo_ns.unwrap(c.x).compute, scheduler="sync"))
            if type(late) is not type(c.ref_error) or "previous" not in str(late):
                wrong.append(f"{c.label}: numpy raised {c.ref_error!r}, dask computed {late!r}")
            elif bits(previous(c.x)) != bits(c.native):
                wrong.append(f"{c.label}: previous(x) lost the values")
    return wrong


def _inplace_cells(policy: str) -> Iterator[_Cell]:
    """Every in-place op on every dtype pair, each with two of the right operands (in turn)."""
    xd, xn = promo_ns.namespace("dask", policy=policy), promo_ns.namespace("numpy", policy=policy)
    turn = 0
    for op, dunder in INPLACE.items():
        assert op in NATIVE

        def run(x: Any, y: Any, dunder: str = dunder) -> Any:
            return getattr(x, dunder)(y)

        for dx, dy in _PAIRS:
            data = _X > 0 if dx == "bool" else _X.astype(dx)
            turn += 1
            rights = [(_SHAPES[turn % len(_SHAPES)], "lazy" if turn % 3 == 0 else "known")]
            for shape, mode in rights + [((3,), "lazy")] * (op == "pow"):
                yd, yn = _y(xd, dy, shape, mode), _y(xn, dy, shape, "known")
                label = f"{dx}{_X.shape} {op}= {dy}{shape} ({mode})"
                yield _Cell(
                    label, run, xd.asarray(data.copy(), chunks=(1, 2)), xn.asarray(data.copy()), yd, yn
                )
            s = _SCALARS[turn % len(_SCALARS)]
            yield _Cell(f"{dx} {op}= {s!r}", run, xd.asarray(data.copy()), xn.asarray(data.copy()), s, s)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_in_place_op_on_dask_fails_or_succeeds_as_on_numpy_and_loses_nothing(policy: str) -> None:
    cells = list(_inplace_cells(policy))
    assert not (wrong := _check(cells)), "\n".join(wrong)
    assert any(c.error is None and c.ref_error is not None for c in cells)  # a failure at compute time
    assert any(c.error is not None for c in cells) and any(c.error is None for c in cells)


#: setitem keys: basic, one index array, several (NumPy's points), out of bounds, masks, negative steps.
_KEYS: list[Any] = [0, (1, 2), (slice(None), 0), [0, 1], (slice(None), [0, 2]), [5], (0, [3]), (0, 7)]
_KEYS += [None, (Ellipsis, slice(None, None, -1)), ([0, 1], [0, 2]), ([1, 1], [2, 5]), ([True, False],)]


def _setitem_cells(policy: str) -> Iterator[_Cell]:
    """Every key on every dtype pair, each with two of the values (in turn); an index known when computed."""
    xd, xn = promo_ns.namespace("dask", policy=policy), promo_ns.namespace("numpy", policy=policy)
    turn = 0
    for dx, dy in _PAIRS:
        data = _X > 0 if dx == "bool" else _X.astype(dx)
        for key in _KEYS:

            def run(x: Any, y: Any, key: Any = key) -> None:
                x[key] = y

            turn += 1
            shape = [(3,), (), (4,), (2, 3)][turn % 4]
            if not (dx.startswith("complex") and key in (0, (1, 2)) and shape != ()):  # NumPy's own error
                yd, yn = _y(xd, dy, shape, "known"), _y(xn, dy, shape, "known")
                label = f"{dx}{_X.shape}[{key!r}] = {dy}{shape}"
                yield _Cell(
                    label, run, xd.asarray(data.copy(), chunks=(1, 2)), xn.asarray(data.copy()), yd, yn
                )
            s = [2, -1, 300, 1.5][turn % 4]
            yield _Cell(f"{dx}[{key!r}] = {s!r}", run, xd.asarray(data.copy()), xn.asarray(data.copy()), s, s)
        lazy_key = lazy(xd, [1, 3])  # out of bounds for axis 1, known only when computed

        def run_lazy(x: Any, y: Any, key: Any = lazy_key) -> None:
            x[:, key] = y

        cell = _Cell(f"{dx}[:, lazy [1, 3]] = 1", run_lazy, xd.asarray(data.copy()), xn.asarray(data), 1, 1)
        cell.ref_error = _run(partial(xn.asarray(data.copy()).__setitem__, (slice(None), [1, 3]), 1))
        yield cell


@pytest.mark.parametrize("policy", POLICIES)
def test_every_setitem_on_dask_fails_or_succeeds_as_on_numpy_and_loses_nothing(policy: str) -> None:
    # (NumPy's TypeError for an array into one complex element is its own; Dask raises ValueError.)
    cells = list(_setitem_cells(policy))
    assert not (wrong := _check(cells)), "\n".join(wrong)


# --- wrong arguments: promo_ns's errors, at once, on Dask as on NumPy ------------------------------


@pytest.mark.parametrize("backend", ["numpy", "dask", "torch"])
def test_an_extra_positional_argument_is_a_typeerror_naming_the_function(backend: str) -> None:
    # One-array functions passed extra arguments to the backend: NumPy's and Dask's ufuncs took a
    # second array as out= and wrote into it; Dask's linalg failed when computed.
    xp = promo_ns.namespace(backend, policy="numpy")
    x, y = xp.asarray([0.5, 0.25]), xp.asarray([9.0, 9.0])
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("acos", lambda: xp.acos(x, y)),
        ("ceil", lambda: xp.ceil(x, y)),
        ("round", lambda: xp.round(x, 2)),
        ("mean", lambda: xp.mean(x, 0)),
        ("fft.fft", lambda: xp.fft.fft(xp.astype(x, xp.complex128), 4)),
        ("linalg.det", lambda: xp.linalg.det(xp.eye(2), 5)),
        ("std", lambda: xp.std(x, dtype=xp.float64)),
    ]
    for name, call in calls:
        with pytest.raises(TypeError, match=rf"^{name}\(.*(positional|unexpected keyword)"):
            call()
    assert to_numpy(y).tolist() == [9.0, 9.0]


def test_dask_functions_of_one_array_refuse_an_extra_argument_and_keep_its_values() -> None:
    # imag and real returned NotImplemented; the ufuncs took the array as out= and rewrote its graph.
    xp = promo_ns.namespace("dask")
    x, y = xp.asarray([0.5, -1.0]), xp.asarray([9.0, 9.0])
    native = promo_ns.unwrap(y)
    for name in ("imag", "real", "conj", "isnan", "isinf", "isfinite", "signbit", "logical_not"):
        for extra in (y, 5):
            with pytest.raises(TypeError, match=rf"^{name}\(\) takes 1 positional argument but 2"):
                getattr(xp, name)(x, extra)
    assert promo_ns.unwrap(y) is native and bits(y) == bits(xp.asarray([9.0, 9.0]))
    with pytest.raises(TypeError, match=r"^bitwise_invert\(\) takes 1"):
        xp.bitwise_invert(xp.asarray([1, 2]), 5)


def _dask_calls(m: Any) -> list[tuple[str, Callable[[], Any]]]:
    x, i = m.asarray([[1.0, 2.0], [3.0, 5.0]]), m.asarray([1, 3, 3])
    return [
        ("matrix_power extra", lambda: m.linalg.matrix_power(x, 2, 5)),
        ("matrix_power float", lambda: m.linalg.matrix_power(x, 1.5)),
        ("pinv keyword", lambda: m.linalg.pinv(x, n=2)),
        ("cumulative_sum axis", lambda: m.cumulative_sum(x, axis="a")),
        ("diff axis", lambda: m.diff(x, axis=1.5)),
        ("roll axis", lambda: m.roll(x, 1, axis="a")),
        ("std keepdims", lambda: m.std(x, keepdims="a")),
        ("count_nonzero keepdims", lambda: m.count_nonzero(x, keepdims="a")),
        ("zeros keyword", lambda: m.zeros((2,), axis=0)),
        ("full_like value", lambda: m.full_like(x, "a")),
        ("full_like dtype", lambda: m.full_like(x, 1.0, dtype="a")),
        ("from_dlpack str", lambda: m.from_dlpack("a")),
        ("repeat str", lambda: m.repeat(x, "a")),
        ("permute_dims str", lambda: m.permute_dims(x, "a")),
        ("reshape copy", lambda: m.reshape(x, (4,), copy="a")),
        ("asarray copy", lambda: m.asarray(x, copy="a")),
        ("vecdot 0-d", lambda: m.vecdot(x[0, 0], x[0, 0])),
        ("cross 0-d", lambda: m.linalg.cross(x[0, 0], x)),
        ("searchsorted scalar", lambda: m.searchsorted(i, 3)),
        ("matrix_norm keepdims", lambda: m.linalg.matrix_norm(x, keepdims="a")),
    ]


#: Calls whose error on the NumPy backend is NumPy's raw one (an AttributeError, a ValueError for a str).
_NUMPY_RAW = frozenset(("from_dlpack str", "repeat str"))


def test_wrong_arguments_fail_on_dask_when_the_call_is_written_as_on_numpy() -> None:
    # Each failed only when the graph was computed, with a raw Dask error or another class, or
    # passed where NumPy raises; now the same class as on the NumPy backend, before anything is built.
    xp, xn = promo_ns.namespace("dask"), promo_ns.namespace("numpy")
    wrong = []
    for (label, lazy_call), (_, eager_call) in zip(_dask_calls(xp), _dask_calls(xn), strict=True):
        with no_compute():
            got = _run(lazy_call)
        want = _run(eager_call)
        if got is None and want is None:
            continue  # both built: computed below
        if label in _NUMPY_RAW:  # the NumPy backend's error is NumPy's own (reported); Dask's names the call
            assert isinstance(got, TypeError) and label.split()[0] in str(got), label
            continue
        if type(got) is not type(want) and not (isinstance(got, TypeError) and isinstance(want, TypeError)):
            wrong.append(f"{label}: dask {got!r}, numpy {want!r}")
        elif isinstance(got, (AttributeError, NotImplementedError, AssertionError, IndexError)):
            wrong.append(f"{label}: dask raised {got!r}")
    assert not wrong, "\n".join(wrong)
    assert to_numpy(xp.searchsorted(xp.asarray([1, 3, 3]), 3)).tolist() == 1
    assert to_numpy(xp.linalg.matrix_norm(xp.eye(2), keepdims="a")).shape == (1, 1)


def test_copy_false_of_numpy_data_is_refused_as_dask_copies_it() -> None:
    # found in review: Dask's from_array copies every NumPy array (its setitem writes into its blocks),
    # so copy=False copied silently, and a later write to the NumPy array did not show
    xp = promo_ns.namespace("dask")
    data = np.arange(4.0)
    with pytest.raises(ValueError, match="Dask copies every NumPy array"):
        xp.asarray(data, copy=False)
    with pytest.raises(BufferError, match="copy=False"):
        xp.from_dlpack(data, copy=False)
    shared, copied = xp.asarray(data), xp.from_dlpack(data)  # copy=None: one copy each
    data[0] = 99.0
    assert to_numpy(shared)[0] == 0.0 and to_numpy(copied)[0] == 0.0
    lazy = xp.asarray([1.0, 2.0])
    assert promo_ns.unwrap(xp.asarray(lazy, copy=False)) is promo_ns.unwrap(lazy)  # a Dask array is shared
