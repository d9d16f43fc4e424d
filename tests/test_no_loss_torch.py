"""The torch backend loses nothing and gives the NumPy backend's outcome (issue 23).

An op that raises leaves its operands exactly as they were: ``x op= y`` never
resizes or half-writes ``x``, ``x[key] = v`` checks every key before writing.
Integer division by zero, complex orderings and negative integer powers give
what NumPy gives, and no raw torch error reaches the user: a bounded sample of
every binary op, dtype pair, operand role and policy runs on torch (and its
``meta`` device) against the NumPy backend.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import promo_ns
from promo_ns._dtypes import DTYPES, DType
from promo_ns._ops import NATIVE
from tests.backends import POLICIES, VALUE_BACKENDS, has_values, namespace, to_numpy
from tests.generated import INPLACE

TORCH = ["torch", "torch:meta"]


def _snapshot(x: Any) -> tuple[tuple[int, ...], Any]:
    """``x``'s shape and, where it holds data, its values."""
    xp = x.__array_namespace__()
    return tuple(x.shape), (to_numpy(x).copy() if has_values(xp) else None)


def _unchanged(x: Any, before: tuple[tuple[int, ...], Any]) -> None:
    shape, values = before
    assert tuple(x.shape) == shape
    if values is not None:
        np.testing.assert_array_equal(to_numpy(x), values)


# --- x op= y ------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["numpy", *TORCH])
@pytest.mark.parametrize(
    ("dtype", "other", "shape"),
    [
        ("int8", "uint16", (4, 1)),
        ("int64", "int64", (3, 4)),
        ("float32", "float32", (2, 4)),
        ("uint64", "uint64", (4, 1)),  # emulated on the CPU
    ],
)
def test_inplace_broadcast_that_would_reshape_x_raises_and_leaves_x(
    backend: str, dtype: str, other: str, shape: tuple[int, ...]
) -> None:
    # torch's out= resized x: int8[4] += uint16[4, 1] left x with shape (4, 4).
    xp = namespace(backend, "numpy")
    y = xp.ones(shape, dtype=getattr(xp, other))
    for name in ("__iadd__", "__imul__", "__isub__"):
        x = xp.asarray([1, 2, 3, 4], dtype=getattr(xp, dtype))
        before = _snapshot(x)
        with pytest.raises(ValueError, match=r"non-broadcastable output operand.*\(4,\).*\(\d, ?4\)"):
            getattr(x, name)(y)
        _unchanged(x, before)


@pytest.mark.parametrize("backend", TORCH)
def test_inplace_with_a_zero_d_x_and_an_array_y_raises_and_leaves_x(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    x = xp.asarray(5, dtype=xp.int32)
    before = _snapshot(x)
    with pytest.raises(ValueError, match="non-broadcastable output operand with shape \\(\\)"):
        x += xp.asarray([1, 2, 3], dtype=xp.int32)
    _unchanged(x, before)
    with pytest.raises(ValueError, match="could not be broadcast together"):
        xp.asarray([1, 2, 3]).__iadd__(xp.asarray([1, 2]))


@pytest.mark.parametrize("backend", ["numpy", *TORCH])
def test_inplace_checks_the_kernel_before_the_shapes_as_numpy_does(backend: str) -> None:
    # NumPy resolves the loop first: bool // bool has none (TypeError) whatever the shapes.
    xp = namespace(backend, "paddle")
    x = xp.asarray([True, False])
    with pytest.raises(TypeError, match="floor_divide"):
        x //= xp.asarray([[True, True]] * 3)
    assert tuple(x.shape) == (2,)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
@pytest.mark.parametrize("op", ["floor_divide", "remainder"])
def test_integer_division_by_zero_gives_numpy_zero_plain_and_in_place(
    backend: str, dtype: str, op: str
) -> None:
    # torch raised RuntimeError("ZeroDivisionError") after writing 1,000 of 2,000 elements of x.
    xp = namespace(backend, "numpy")
    d = getattr(xp, dtype)
    n = np.arange(2000) % 100
    divisor = np.tile([3, 0], 1000)
    want = getattr(np, op)(n, np.where(divisor == 0, 1, divisor)) * (divisor != 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns of the division by zero
        np.testing.assert_array_equal(
            to_numpy(getattr(xp, op)(xp.asarray(n, dtype=d), xp.asarray(divisor, dtype=d))), want
        )
        np.testing.assert_array_equal(to_numpy(getattr(xp, op)(xp.asarray(n, dtype=d), 0)), 0 * n)
        np.testing.assert_array_equal(
            to_numpy(getattr(xp, op)(7, xp.asarray(divisor, dtype=d))),
            getattr(np, op)(7, np.where(divisor == 0, 1, divisor)) * (divisor != 0),
        )
        x = xp.asarray(n, dtype=d)
        getattr(x, INPLACE[op])(xp.asarray(divisor, dtype=d))
        np.testing.assert_array_equal(to_numpy(x), want)
        x = xp.asarray(n, dtype=d)
        getattr(x, INPLACE[op])(0)
        np.testing.assert_array_equal(to_numpy(x), 0 * n)


def test_inplace_of_one_shape_and_dtype_writes_into_x_itself() -> None:
    xp = namespace("torch", "array-api")
    x, y = xp.asarray([1.0, 2.0, 3.0]), xp.asarray([1.0, 1.0, 1.0])
    native, pointer = promo_ns.unwrap(x), promo_ns.unwrap(x).data_ptr()
    x += y
    x //= 2.0
    assert promo_ns.unwrap(x) is native and native.data_ptr() == pointer
    np.testing.assert_array_equal(to_numpy(x), [1.0, 1.0, 2.0])


def test_inplace_with_an_operand_sharing_memory_with_x_computes_as_numpy_does() -> None:
    # torch refuses an out= that overlaps an input ("refer to a single memory location").
    for backend in ("numpy", "torch"):
        xp = namespace(backend)
        x = xp.arange(6, dtype=xp.int64)
        tail = x[1:]
        tail += x[:-1]
        np.testing.assert_array_equal(to_numpy(x), [0, 1, 3, 5, 7, 9])


def test_inplace_into_a_broadcast_view_is_promo_ns_error() -> None:
    for backend in ("numpy", "torch"):
        xp = namespace(backend)
        view = xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
        with pytest.raises(ValueError):
            view += 1
    with pytest.raises(ValueError, match="share memory"):
        view += 1


@pytest.mark.parametrize("backend", ["numpy", *TORCH])
def test_inplace_of_a_kernel_no_backend_has_is_refused_as_the_expression(backend: str) -> None:
    # paddle computes bool / bool in bool, as an integer division (True / False raises there). No
    # backend has that kernel: torch's divide computes in float32, and x /= y stored it cast back into
    # the bool x (True / False was True) while x / y was refused; now both are, leaving x as it was.
    xp = namespace(backend, "paddle")
    x = xp.asarray([True, False, True])
    with pytest.raises(TypeError, match="has no 'divide' kernel"):
        x / xp.asarray([True, True, False])
    with pytest.raises(TypeError, match="has no 'divide' kernel"):
        x /= xp.asarray(True)
    assert x.dtype == xp.bool
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(x), [True, False, True])


# --- numerics torch computes otherwise --------------------------------------------------------

_COMPLEX = np.array(
    [1 + 2j, 1 + 1j, complex(1, np.nan), complex(np.nan, 0), 2 + 0j, 1 + 2j, -1 - 1j], dtype=np.complex128
)


@pytest.mark.parametrize("policy", ["numpy", "paddle"])
@pytest.mark.parametrize("op", ["less", "less_equal", "greater", "greater_equal", "maximum", "minimum"])
def test_complex_ordering_is_numpy_lexicographic_order(policy: str, op: str) -> None:
    # torch: "maximum not implemented for complex tensors", "lt_cpu not implemented for ComplexFloat".
    a, b = _COMPLEX, np.roll(_COMPLEX, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, op)(a[:, None], b[None, :])
    for backend in TORCH:
        xp = namespace(backend, policy)
        got = getattr(xp, op)(xp.asarray(a[:, None]), xp.asarray(b[None, :]))
        assert got.dtype == (xp.bool if want.dtype == bool else xp.complex128)
        if has_values(xp):
            np.testing.assert_array_equal(to_numpy(got), want)
    xp = namespace("torch", policy)
    got = getattr(xp, op)(xp.asarray(a.astype(np.complex64)), 1 + 1j)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, op)(a.astype(np.complex64), np.complex64(1 + 1j))
    np.testing.assert_array_equal(to_numpy(got), want)


@pytest.mark.parametrize("backend", ["numpy", *TORCH])
def test_negative_integer_powers_are_refused_as_numpy_refuses_them(backend: str) -> None:
    xp = namespace(backend, "array-api")
    base = xp.asarray([2, 3], dtype=xp.int16)
    with pytest.raises(ValueError, match=r"(?i)integers to negative integer powers"):
        base**-1  # torch: RuntimeError
    if has_values(xp):
        with pytest.raises(ValueError, match=r"(?i)integers to negative integer powers"):
            base ** xp.asarray([1, -1], dtype=xp.int16)  # torch: 0, silently
        x = xp.asarray([2, 3], dtype=xp.int16)
        with pytest.raises(ValueError, match=r"(?i)integers to negative integer powers"):
            x **= xp.asarray([-1, 1], dtype=xp.int16)
        np.testing.assert_array_equal(to_numpy(x), [2, 3])


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # NumPy's
@pytest.mark.parametrize("backend", ["numpy", *TORCH])
def test_python_floats_beyond_the_dtype_range_are_infinities(backend: str) -> None:
    # torch: "value cannot be converted to type float without overflow".
    xp = namespace(backend, "array-api")
    x = xp.asarray([1.0, -2.0], dtype=xp.float32)
    for got in (
        xp.maximum(x, 1e300),
        xp.hypot(x, 1e300),
        xp.greater(1e300, x),
        xp.asarray([2.0], dtype=xp.float16) ** 1e300,
    ):
        if has_values(xp):
            assert not np.isfinite(to_numpy(got)).all() or to_numpy(got).dtype == bool
    assert xp.maximum(x, 1e300).dtype == xp.float32


@pytest.mark.parametrize("policy", ["paddle", "tf-safe", "tf-all", "tf-legacy"])
@pytest.mark.parametrize("backend", ["numpy", *TORCH])
def test_bool_subtraction_is_a_type_error_naming_the_op(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    a = xp.asarray([True, False])
    calls: list[Callable[[], Any]] = [lambda: a - a, lambda: a - True, lambda: True - a]
    for call in calls:
        with pytest.raises(TypeError, match="subtract"):
            call()


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_nan_as_an_integer_computation_scalar_is_a_promo_ns_error(backend: str) -> None:
    # paddle computes uint16 ** float in uint16: int(nan) raised a bare "cannot convert float NaN".
    xp = namespace(backend, "paddle")
    with pytest.raises(ValueError, match=r"(?i)pow.*nan"):
        xp.asarray([1, 2], dtype=xp.uint16) ** float("nan")


# --- setitem ------------------------------------------------------------------------------------

_BAD_KEYS: list[tuple[str, Callable[[Any], Any], str]] = [
    ("list", lambda xp: [0, 5], r"index 5 .* axis 0 .* size 4"),
    ("nested list", lambda xp: [[0, 1], [3, 9]], r"index 9 .* axis 0 .* size 4"),
    ("numpy array", lambda xp: np.array([0, 5]), r"index 5 .* axis 0 .* size 4"),
    (
        "numpy uint64 array",
        lambda xp: np.array([0, 2**63 + 5], dtype=np.uint64),
        r"index 9223372036854775813 .* axis 0",
    ),
    ("numpy int", lambda xp: np.int64(7), r"index 7 .* axis 0 .* size 4"),
    ("0-d numpy array", lambda xp: np.array(7), r"index 7 .* axis 0 .* size 4"),
    ("tuple with an array", lambda xp: (0, np.array([0, 9])), r"index 9 .* axis 1 .* size 5"),
    ("tuple with a list", lambda xp: (slice(None), [1, -6]), r"index -6 .* axis 1 .* size 5"),
    ("list of bools", lambda xp: [True, False], r"boolean index .*\(2,\).*\(4,\)"),
    ("numpy mask", lambda xp: np.array([True, False, True]), r"boolean index .*\(3,\).*\(4,\)"),
    ("mask", lambda xp: xp.asarray([True, False, True]), r"boolean index .*\(3,\).*\(4,\)"),
    ("2-d mask", lambda xp: xp.ones((4, 4), dtype=xp.bool), r"boolean index .*\(4, 4\).*\(4, 5\)"),
    ("float array", lambda xp: np.array([0.0, 1.0]), r"integer or boolean array"),
    ("too many", lambda xp: (0, 1, 2), r"too many indices"),
]


@pytest.mark.parametrize("backend", ["numpy", *TORCH])
@pytest.mark.parametrize(("name", "key", "message"), _BAD_KEYS, ids=[k[0] for k in _BAD_KEYS])
def test_setitem_checks_every_key_kind_before_writing(
    backend: str, name: str, key: Callable[[Any], Any], message: str
) -> None:
    # torch wrote x[0] before raising on the 5 of x[[0, 5]] = v (only torch-tensor keys were checked).
    xp = namespace(backend, "numpy")
    x = xp.reshape(xp.arange(20, dtype=xp.int64), (4, 5))
    before = _snapshot(x)
    with pytest.raises(IndexError) as e:
        x[key(xp)] = 99
    _unchanged(x, before)
    if backend != "numpy":  # NumPy's own words differ
        assert e.match(message)


@pytest.mark.parametrize("backend", TORCH)
def test_setitem_index_tensor_out_of_bounds_writes_nothing(backend: str) -> None:
    xp = namespace(backend)
    x = xp.zeros((4,), dtype=xp.int64)
    if not has_values(xp):
        x[xp.asarray([0, 9])] = 1  # a meta index has no values to check: nothing is written either
        return
    for index in (
        xp.asarray([0, 9]),
        xp.asarray([0, -5], dtype=xp.int16),
        xp.asarray(9),
        xp.asarray([0, 9], dtype=xp.uint64),
    ):
        with pytest.raises(IndexError, match=r"index -?9? ?.*out of bounds for axis 0 with size 4"):
            x[index] = 1
        np.testing.assert_array_equal(to_numpy(x), [0, 0, 0, 0])


def test_index_arrays_of_any_integer_dtype_index_as_numpy() -> None:
    # torch reads a uint8 index tensor as a mask and refuses int16 ones.
    xp, npx = namespace("torch"), namespace("numpy")
    for dtype in ("uint8", "int16", "uint16", "int32", "uint64"):
        got, want = xp.arange(10) * 10, npx.arange(10) * 10
        i, j = xp.asarray([1, 3], dtype=getattr(xp, dtype)), npx.asarray([1, 3], dtype=getattr(npx, dtype))
        np.testing.assert_array_equal(to_numpy(got[i]), to_numpy(want[j]))
        got[i], want[j] = -1, -1
        np.testing.assert_array_equal(to_numpy(got), to_numpy(want))


@pytest.mark.parametrize(("array", "index"), [("cpu", "meta"), ("meta", "cpu")])
def test_an_index_on_another_device_is_a_value_error_naming_both(array: str, index: str) -> None:
    # A meta index on a CPU tensor wrote nothing, raised nothing, and read garbage in getitem.
    x = namespace(f"torch:{array}").zeros((4,))
    i = namespace(f"torch:{index}").asarray([0, 1])
    calls: list[Callable[[], Any]] = [
        lambda: x.__setitem__(i, 1.0),
        lambda: x[i],
        lambda: x.__setitem__((i,), 1.0),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=rf"{index}.*{array}|{array}.*{index}"):
            call()
    value = namespace(f"torch:{index}").ones((4,))
    with pytest.raises(ValueError, match=rf"{index}.*{array}|{array}.*{index}"):
        x[...] = value


_NEGATIVE_STEPS: list[tuple[Callable[[Any], Any], Any]] = [
    (lambda xp: (slice(None, None, -1), [0, 1]), 1),
    (lambda xp: (slice(None, None, -1), xp.asarray([True, False, True, False, True])), 1),
    (
        lambda xp: (xp.asarray([True, False, True, False]), slice(None, None, -1)),
        lambda xp: xp.arange(5, dtype=xp.int64),
    ),
    (lambda xp: (slice(None, None, -2), xp.asarray([4, 0])), lambda xp: xp.asarray([[7, 8], [9, 10]])),
    (lambda xp: (slice(3, 0, -1),), lambda xp: xp.reshape(xp.arange(3, dtype=xp.int64), (3, 1))),
    (
        lambda xp: (Ellipsis, slice(None, None, -1)),
        lambda xp: xp.reshape(xp.arange(4, dtype=xp.int64), (4, 1)),
    ),
]


@pytest.mark.parametrize("case", range(len(_NEGATIVE_STEPS)))
def test_negative_step_setitem_writes_what_numpy_writes(case: int) -> None:
    # Negative steps with index arrays raised; on meta, a raw NotImplementedError (nonzero).
    key, value = _NEGATIVE_STEPS[case]
    results = []
    for backend in ("numpy", *TORCH):
        xp = namespace(backend, "numpy")
        x = xp.reshape(xp.arange(20, dtype=xp.int64), (4, 5))
        x[key(xp)] = value(xp) if callable(value) else value
        results.append(to_numpy(x) if has_values(xp) else None)
    np.testing.assert_array_equal(results[1], results[0])


@pytest.mark.parametrize("backend", ["numpy", *TORCH])
def test_negative_step_setitem_of_a_value_of_the_wrong_shape_is_a_value_error(backend: str) -> None:
    # torch: a raw RuntimeError ("The expanded size of the tensor (5) must match ...").
    xp = namespace(backend)
    x = xp.reshape(xp.arange(20, dtype=xp.int64), (4, 5))
    before = _snapshot(x)
    with pytest.raises(ValueError, match=r"shape \(4,\)" if backend != "numpy" else "broadcast"):
        x[::-1] = xp.arange(4, dtype=xp.int64)
    _unchanged(x, before)


@pytest.mark.parametrize("backend", TORCH)
def test_setitem_value_shape_errors_say_so_and_only_they(backend: str) -> None:
    # Every RuntimeError was "cannot assign a value of shape () to the selection of shape ()".
    xp = namespace(backend)
    x = xp.zeros((4, 5), dtype=xp.int64)
    with pytest.raises(ValueError, match=r"value of shape \(3,\) to the selection of shape \(4, 2\)"):
        x[:, [0, 1]] = xp.arange(3, dtype=xp.int64)
    view = xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
    with pytest.raises(ValueError, match="share memory") as e:
        view[0] = 5
    assert "value of shape" not in str(e.value)


def test_setitem_of_a_value_sharing_memory_with_x_writes_as_numpy_does() -> None:
    # torch refuses a partly overlapping copy ("refer to a single memory location"): a "shape" error.
    for backend in ("numpy", "torch"):
        xp = namespace(backend)
        x = xp.arange(6, dtype=xp.int64)
        x[1:] = x[:-1]
        np.testing.assert_array_equal(to_numpy(x), [0, 0, 1, 2, 3, 4])


@pytest.mark.parametrize("key", ["list", "index", "mask"])
def test_setitem_through_an_index_casts_the_value_as_a_slice_does(key: str) -> None:
    # torch's index_put refuses another dtype ("Index put requires the source and destination
    # dtypes match"), which promo_ns reported as a shape mismatch.
    got = []
    for backend in ("numpy", "torch"):
        xp = namespace(backend, "array-api")
        x = xp.asarray([0, 1, 5, 7], dtype=xp.int16)
        k = {"list": [0, 2], "index": xp.asarray([0, 2]), "mask": xp.asarray([True, False, True, False])}[key]
        x[k] = xp.asarray(-3, dtype=xp.int8)
        x[k] = xp.asarray([4, 6], dtype=xp.int8)
        got.append(to_numpy(x))
    np.testing.assert_array_equal(got[1], got[0])


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # NumPy's
@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_setitem_of_a_python_float_beyond_the_range_writes_an_infinity(backend: str) -> None:
    # torch: "value cannot be converted to type float without overflow".
    xp = namespace(backend, "array-api")
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)
    x[1:] = 1e300
    x[0] = -1e300
    np.testing.assert_array_equal(to_numpy(x), [-np.inf, np.inf, np.inf])


# --- copy.copy ----------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_copy_copy_is_an_independent_array(backend: str) -> None:
    # torch's copy.copy shared memory: s = copy.copy(a); s += 10 changed a.
    xp = namespace(backend)
    a = xp.asarray([1, 2, 3], dtype=xp.int64)
    s = copy.copy(a)
    s += 10
    np.testing.assert_array_equal(to_numpy(a), [1, 2, 3])
    np.testing.assert_array_equal(to_numpy(s), [11, 12, 13])
    assert (s.dtype, s.device, s.__array_namespace__()) == (a.dtype, a.device, a.__array_namespace__())


# --- every binary op against the NumPy backend ---------------------------------------------------


def _values(dtype: DType, second: bool) -> list[Any]:
    """Six finite values of ``dtype`` for an operand: zeros, signs and the integer limits."""
    kind = dtype.kind
    if kind == "b":
        return [False, True, True, False, True, False][:: -1 if second else 1]
    if kind in "iu":
        info = np.iinfo(dtype.name)
        low = -7 if kind == "i" else 7
        return (
            [5, 0, 2, 1, int(info.max), -1 if kind == "i" else 3]
            if second
            else [0, 1, low, 5, int(info.min), int(info.max)]
        )
    if kind == "f":
        return [0.0, 1.5, -2.5, 3.0, -0.0, 7.25][:: -1 if second else 1]
    return [0j, 1 + 2j, -2.5j, 3.5 + 0j, -1 - 1j, 2 + 0j][:: -1 if second else 1]


def _array(xp: Any, dtype: DType, role: str, second: bool) -> Any:
    values = np.asarray(_values(dtype, second), dtype=np.float32 if dtype.name == "bfloat16" else dtype.name)
    data = {"nd": values, "0d": values[1], "2d": np.stack([values, values[::-1]])}[role]
    return xp.asarray(data, dtype=getattr(xp, dtype.name))


_SCALARS = [True, 0, 1, -1, 3, 2**63, -(2**63) - 1, 2**64, 0.0, 1.5, -2.5, float("nan"), 1e300, 1 + 2j, 0j]
#: The exception classes an outcome is compared by, most specific first.
_CLASSES = (promo_ns.PromotionError, OverflowError, ZeroDivisionError, IndexError, ValueError, TypeError)
#: torch's raw errors: never promo_ns's.
_RAW = (RuntimeError, NotImplementedError, AttributeError, KeyError, AssertionError)


def _outcome(op: str, xp: Any, case: tuple[Any, ...]) -> tuple[Any, ...]:
    """``("ok", dtype, values or None, shape)`` or ``("error", class, exception)`` of one case."""
    form, dx, rx, y = case
    x = _array(xp, dx, rx, False)
    if isinstance(y, tuple):
        y = _array(xp, y[0], y[1], True)
    before = _snapshot(x)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if form == "inplace":
                out = getattr(x, INPLACE[op])(y)
            else:
                out = getattr(xp, op)(*((x, y) if form == "fn" else (y, x)))
    except Exception as e:
        _unchanged(x, before)
        return ("error", next((c for c in _CLASSES if isinstance(e, c)), type(e)), e)
    values = to_numpy(out) if has_values(xp) else None
    return ("ok", out.dtype.name, values, tuple(out.shape))


def _same_values(got: Any, want: Any, dtype: str, ulps: int = 8) -> bool:
    """Exactly equal, or for floats close where both are finite and non-finite at the same places.

    Which infinity or NaN an overflow gives is each kernel's numerics (torch's
    complex add multiplies by alpha: ``inf + 0j`` becomes ``inf + nanj``).
    """
    if got.dtype.kind not in "fc":
        return bool(np.array_equal(got, want))
    a, b = got.astype(np.complex128), want.astype(np.complex128)
    finite = np.isfinite(a) & np.isfinite(b)
    if (np.isfinite(a) != np.isfinite(b)).any():
        return False
    eps = 2.0**-7 if dtype == "bfloat16" else float(np.finfo(got.dtype).eps)
    return bool(np.allclose(a[finite], b[finite], rtol=ulps * eps, atol=8 * eps))


def _check(op: str, backend: str, policy: str, case: tuple[Any, ...]) -> None:
    got = _outcome(op, namespace(backend, policy), case)
    want = _outcome(op, namespace("numpy", policy), case)
    where = f"{op} {case} under {policy!r} on {backend}: {got[:2]} vs numpy's {want[:2]}"
    if got[0] == "error":
        error = got[2]
        assert not isinstance(error, _RAW) and op in str(error), f"raw error: {where}: {error!r}"
    if want[1] is TypeError and str(want[2]).startswith("numpy has no"):
        return  # NumPy has no kernel (complex logaddexp) where torch has one: a capability, not a refusal
    valued = isinstance(want[2], ZeroDivisionError) or "negative integer powers" in str(want[2])
    array_divisor = case[0] == "rfn" or isinstance(case[3], tuple)
    if backend == "torch:meta" and want[0] == "error" and valued and array_divisor:
        return  # an array divisor's or exponent's values: the meta device has none to check
    assert got[0] == want[0] and got[1] == want[1], where
    if got[0] == "ok":
        assert got[3] == want[3], where
        if got[2] is not None:
            ulps = _COMPLEX_POW_ULPS if op == "pow" and got[1].startswith("complex") else 8
            assert _same_values(got[2], want[2], got[1], ulps), f"{where}: {got[2]} != {want[2]}"


#: torch's complex ``**`` is exp(y log x), whose error grows with |y log x|; NumPy multiplies for a
#: small integer exponent (2**63 ** 2.0: 25 ulps apart in complex64).  The kernels' numerics.
_COMPLEX_POW_ULPS = 256


_ROLE = st.sampled_from(["nd", "0d"])
_DTYPE = st.sampled_from(DTYPES)
_CASE = st.tuples(
    st.sampled_from(["fn", "rfn", "inplace"]),
    _DTYPE,
    _ROLE,
    st.one_of(st.tuples(_DTYPE, st.sampled_from(["nd", "0d", "2d"])), st.sampled_from(_SCALARS)),
)


@pytest.mark.parametrize("op", list(NATIVE))
@settings(max_examples=40, deadline=None)
@given(policy=st.sampled_from(POLICIES), case=_CASE)
def test_every_binary_op_gives_numpy_outcome_on_torch(op: str, policy: str, case: tuple[Any, ...]) -> None:
    # Before: about 9,900 raw torch errors (ZeroDivisionError, "maximum not implemented for complex
    # tensors", "value cannot be converted to type float without overflow", ...) in a sweep of 590,000.
    if case[0] == "inplace" and op not in INPLACE:
        return
    for backend in TORCH:
        _check(op, backend, policy, case)


@pytest.mark.parametrize("op", sorted(INPLACE))
def test_an_inference_tensor_is_refused_in_place_unchanged(op: str) -> None:
    # was (hostile review): torch writes an inference tensor, then raises its RuntimeError
    import torch

    xp = namespace("torch", "pytorch")
    dtype = torch.int32 if op.startswith("bitwise") else torch.float32
    with torch.inference_mode():
        x = xp.asarray(torch.tensor([1, 2, 3], dtype=dtype))
    update = getattr(x, INPLACE[op])
    for write in (partial(update, xp.ones(3, dtype=x.dtype)), partial(x.__setitem__, 0, 5)):
        with pytest.raises(ValueError, match="inference tensor") as raised:  # NumPy's read-only class
            write()
        assert isinstance(raised.value, RuntimeError)  # and torch's
        assert promo_ns.unwrap(x).tolist() == [1, 2, 3]
    with torch.inference_mode():  # inside inference mode: torch's own update
        update(xp.ones(3, dtype=x.dtype))
