"""Python ints and bools as data, setitem and clip (issue 17): values and refusals against the frameworks.

Each example runs under the policy named after a framework and against that
framework itself: live torch for ``pytorch``, live NumPy for ``numpy``, the
stored observations of Paddle 3.3.1 (``tests/reference/edges-paddle.json``)
for ``paddle``.  The last test runs the whole edge-case grid
(:mod:`conformance.frameworks.edge_agreement`) and allows no difference that
``DEVIATIONS`` does not document.
"""

from __future__ import annotations

import json
import operator
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
import torch

import promo_ns
from conformance.frameworks import edge_agreement, edges
from promo_ns import PromotionError
from tests.backends import BACKENDS, VALUE_BACKENDS, has_values, namespace, to_numpy

#: Errors a framework refuses a Python int with (torch's value checks are RuntimeErrors).
_REFUSED = (RuntimeError, OverflowError, ValueError, TypeError)


def _refuses(f: Callable[[], Any]) -> bool:
    """Whether the framework's call ``f`` refuses."""
    try:
        f()
    except _REFUSED:
        return True
    return False


def _same(got: Any, want: Any) -> None:
    """``got`` (a promo_ns array) has ``want``'s dtype name and values (a torch tensor or NumPy array)."""
    if isinstance(want, torch.Tensor):
        name, want = str(want.dtype).removeprefix("torch."), want.numpy()
    else:
        name = str(want.dtype)
    assert str(got.dtype) == name
    if has_values(got._ns):
        np.testing.assert_array_equal(to_numpy(got), want)


# --- pytorch: torch's per-op checks ---------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("s", [1000, -129, 255, 2**31, 2**63, 2**64 - 1, -(2**63)])
def test_pytorch_wraps_python_ints_in_arithmetic_like_torch(backend: str, s: int) -> None:
    xp = namespace(backend, "pytorch")
    for dtype in ("int8", "uint8", "int64"):
        x, t = (
            xp.asarray([1, 2, 100], dtype=getattr(xp, dtype)),
            torch.tensor([1, 2, 100], dtype=getattr(torch, dtype)),
        )
        _same(x + s, t + s)
        _same(s * x, s * t)
        _same(x < s, t < s)
        _same(x & s, t & s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_pytorch_refuses_python_ints_torch_does_not_convert(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    x, t = xp.asarray([1, 2, 100], dtype=xp.int8), torch.tensor([1, 2, 100], dtype=torch.int8)
    b, tb = xp.asarray([True, False]), torch.tensor([True, False])
    for s in (2**64, -(2**63) - 1, 2**70):
        assert _refuses(partial(operator.add, t, s))
        with pytest.raises(OverflowError, match=rf"Python int {s} is out of range for 'add'.*'pytorch'"):
            x + s
    # With a bool tensor the int is the int64 result: a uint64 from 2**63 does not promote with bool.
    assert _refuses(lambda: tb + 2**63)
    with pytest.raises(OverflowError, match="out of range for int64"):
        b + 2**63
    _same(b + (2**63 - 1), tb + (2**63 - 1))


@pytest.mark.parametrize("backend", BACKENDS)
def test_pytorch_clamp_where_and_exponents_check_the_value_like_torch(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    u8, tu8 = xp.asarray([1, 2, 100], dtype=xp.uint8), torch.tensor([1, 2, 100], dtype=torch.uint8)
    i8, ti8 = xp.asarray([1, 2, 100], dtype=xp.int8), torch.tensor([1, 2, 100], dtype=torch.int8)
    c, tc = xp.asarray([True, False, True]), torch.tensor([True, False, True])
    # An unsigned dtype takes -max..max, as two's complement.
    _same(xp.clip(u8, -1, 50), torch.clamp(tu8, -1, 50))
    _same(xp.clip(u8, -255, 50), torch.clamp(tu8, -255, 50))
    _same(xp.where(c, u8, -255), torch.where(tc, tu8, -255))
    cases: list[tuple[Callable[[], Any], Callable[[], Any]]] = [
        (lambda: xp.clip(i8, 0, 1000), lambda: torch.clamp(ti8, 0, 1000)),
        (lambda: xp.clip(u8, -256, 50), lambda: torch.clamp(tu8, -256, 50)),
        (lambda: xp.where(c, i8, 128), lambda: torch.where(tc, ti8, 128)),
        (lambda: i8**256, lambda: ti8**256),
    ]
    for call, native in cases:
        assert _refuses(native)
        with pytest.raises(OverflowError, match="out of range for"):
            call()
    # A float16 tensor's clamp checks the bound too, its where does not.
    f16, tf16 = xp.asarray([1.0, 2.0], dtype=xp.float16), torch.tensor([1.0, 2.0], dtype=torch.float16)
    assert _refuses(lambda: torch.clamp(tf16, None, 2**31))
    with pytest.raises(OverflowError, match="out of range for float16"):
        xp.clip(f16, None, 2**31)
    _same(
        xp.where(xp.asarray([True, False]), f16, 2**31), torch.where(torch.tensor([True, False]), tf16, 2**31)
    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "bool"])
def test_pytorch_refuses_negative_integer_powers_like_torch(backend: str, dtype: str) -> None:
    xp = namespace(backend, "pytorch")
    x = xp.asarray([1, 0, 1], dtype=getattr(xp, dtype))
    t = torch.tensor([1, 0, 1], dtype=getattr(torch, dtype))
    assert _refuses(lambda: t**-1)
    with pytest.raises(ValueError, match="integers to negative integer powers are not allowed"):
        x**-1
    _same(x**2, t**2)
    _same(2**x, 2**t)
    _same(xp.asarray([1.0, 2.0], dtype=xp.float32) ** -1, torch.tensor([1.0, 2.0]) ** -1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_pytorch_bool_power_of_a_python_bool_like_torch(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    b, tb = xp.asarray([True, False, True]), torch.tensor([True, False, True])
    _same(b**True, tb**True)
    _same(b**False, tb**False)
    # torch has no kernel here: computed exactly, a bool as with a Python bool
    _same(b**b, (tb.to(torch.uint8) ** tb.to(torch.uint8)).bool())


@pytest.mark.parametrize("backend", BACKENDS)
def test_pytorch_setitem_casts_any_value_like_torch(backend: str) -> None:
    xp = namespace(backend, "pytorch")

    def both(dtype: str, value: Any, native: Any = None) -> tuple[Any, Any]:
        x = xp.asarray([1, 2, 3], dtype=getattr(xp, dtype))
        t = torch.tensor([1, 2, 3], dtype=getattr(torch, dtype))
        x[0] = value
        t[0] = value if native is None else native
        return x, t

    cast: list[tuple[str, Any]] = [("int32", 1.5), ("uint8", -255), ("bool", -1), ("float16", 2**31)]
    for dtype, value in [*cast, ("int64", True)]:
        _same(*both(dtype, value))
    _same(*both("bool", xp.asarray(5, dtype=xp.uint16), torch.tensor(5, dtype=torch.uint16)))
    _same(*both("float32", xp.asarray(3, dtype=xp.int64), torch.tensor(3)))
    refused: list[tuple[str, Any]] = [
        ("int8", 128),
        ("uint8", -256),
        ("uint64", 2**63),
        ("float32", 1.5 + 2j),
    ]
    for dtype, value in refused:
        x, t = (
            xp.asarray([1, 2, 3], dtype=getattr(xp, dtype)),
            torch.tensor([1, 2, 3], dtype=getattr(torch, dtype)),
        )
        assert _refuses(partial(t.__setitem__, 0, value))
        with pytest.raises((OverflowError, PromotionError)):
            x[0] = value
        if has_values(xp):
            np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])  # refused: x is unchanged


@pytest.mark.parametrize("backend", BACKENDS)
def test_pytorch_clamp_of_a_float_tensor_keeps_its_dtype_like_torch(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    x, t = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float16), torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
    _same(xp.clip(x, 0.5 + 0j, 1.5 + 0j), torch.clamp(t, 0.5 + 0j, 1.5 + 0j))
    i, ti = xp.asarray([1, 2, 3], dtype=xp.int32), torch.tensor([1, 2, 3], dtype=torch.int32)
    _same(xp.clip(i, 0.5, 1.5), torch.clamp(ti, 0.5, 1.5))
    assert _refuses(lambda: torch.clamp(ti, 0.5 + 0j, 1.5 + 0j))
    with pytest.raises(PromotionError):
        xp.clip(i, 0.5 + 0j, 1.5 + 0j)


# --- numpy: NumPy 2's comparisons, division, clip and where ---------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_compares_divides_and_takes_truth_of_out_of_range_ints_like_numpy(backend: str) -> None:
    xp = namespace(backend, "numpy")
    img, n = xp.asarray([0, 1, 200], dtype=xp.uint8), np.array([0, 1, 200], dtype=np.uint8)
    _same(img < 1000, n < 1000)
    _same(img == -1, n == -1)
    _same(img >= -(2**70), n >= -(2**70))
    _same(xp.asarray([1, 2], dtype=xp.int64) != 2**64, np.array([1, 2]) != 2**64)
    _same(img / 1000, n / 1000)
    _same(1000 / (img + 1), 1000 / (n + 1))
    _same(xp.logical_and(img, 256), np.logical_and(n, 256))
    _same(xp.atan2(img, -3), np.arctan2(n, -3))


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_refuses_out_of_range_ints_in_arithmetic_like_numpy(backend: str) -> None:
    xp = namespace(backend, "numpy")
    img, n = xp.asarray([0, 1, 200], dtype=xp.uint8), np.array([0, 1, 200], dtype=np.uint8)
    cases: list[tuple[Callable[[], Any], Callable[[], Any]]] = [
        (lambda: img + 1000, lambda: n + 1000),
        (lambda: img & -1, lambda: n & -1),
        (lambda: xp.maximum(img, 256), lambda: np.maximum(n, 256)),
        (lambda: xp.logical_and(img, 2**63), lambda: np.logical_and(n, 2**63)),
    ]
    for call, native in cases:
        with pytest.raises(OverflowError):
            native()
        with pytest.raises(OverflowError, match="out of range"):
            call()
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        np.array([1, 2], dtype=np.int16) ** -1
    with pytest.raises(ValueError, match="integers to negative integer powers are not allowed"):
        xp.asarray([1, 2], dtype=xp.int16) ** -1


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_clip_and_where_have_rules_of_their_own_like_numpy(backend: str) -> None:
    xp = namespace(backend, "numpy")
    u8, n = xp.asarray([1, 2, 100], dtype=xp.uint8), np.array([1, 2, 100], dtype=np.uint8)
    _same(xp.clip(u8, -1, 50), np.clip(n, -1, 50))  # a bound that clips nothing is dropped
    _same(xp.clip(u8, None, 2**70), np.clip(n, None, 2**70))
    for low, high in ((1000, None), (None, -1)):
        with pytest.raises(OverflowError):
            np.clip(n, low, high)
        with pytest.raises(OverflowError, match="out of range for uint8"):
            xp.clip(u8, low, high)
    c, nc = xp.asarray([True, False, True]), np.array([True, False, True])
    # where wraps, as NumPy 2.4 (the policy's reference) does: np.where(nc, n, 256) and
    # np.where(nc, nc, 2**63) give these; NumPy 2.5 (the GPU machine's) raises OverflowError
    _same(xp.where(c, u8, 256), np.array([1, 0, 100], dtype=np.uint8))
    _same(xp.where(c, xp.asarray([True, False, True]), 2**63), np.array([1, -(2**63), 1], dtype=np.int64))
    with pytest.raises(OverflowError):
        np.where(nc, n, 2**64)
    with pytest.raises(OverflowError):
        xp.where(c, u8, 2**64)


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_setitem_casts_any_real_value_like_numpy(backend: str) -> None:
    xp = namespace(backend, "numpy")
    cast: list[tuple[str, Any]] = [("int32", 1.5), ("bool", 2**70), ("float16", 2**31)]
    for dtype, value in cast:
        x, n = xp.asarray([1, 2, 3], dtype=getattr(xp, dtype)), np.array([1, 2, 3], dtype=dtype)
        x[0], n[0] = value, value
        _same(x, n)
    refused: list[tuple[str, Any]] = [("uint8", -1), ("int8", 128), ("float32", 1.5 + 2j)]
    for dtype, value in refused:
        x, n = xp.asarray([1, 2, 3], dtype=getattr(xp, dtype)), np.array([1, 2, 3], dtype=dtype)
        with pytest.raises((OverflowError, TypeError)):
            n[0] = value
        with pytest.raises((OverflowError, PromotionError)):
            x[0] = value
        if has_values(xp):
            np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])


# --- paddle: the stored observations of Paddle 3.3.1 ----------------------------------------------


def _paddle() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(edges.path("paddle").read_text())
    return data


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_paddle_setitem_casts_any_real_value_and_clip_keeps_the_dtype_as_paddle(backend: str) -> None:
    xp = namespace(backend, "paddle")
    seen = _paddle()
    for dtype, key, value in (
        ("int32", "py:int", 5),
        ("uint8", "py:int", 5),
        ("float16", "py:float", 1.5),
        ("int64", "py:bool", True),
        ("float32", "0d:int64", xp.asarray(5, dtype=xp.int64)),
        ("int8", "0d:float64", xp.asarray(1.5, dtype=xp.float64)),
    ):
        x = xp.asarray(edges._setitem_data(dtype), dtype=getattr(xp, dtype))
        x[0] = value
        want = seen["setitem"][dtype][key]
        assert str(x.dtype) == want["dtype"]
        assert edges.json_values(to_numpy(x).astype(edges.NUMPY_DTYPES[dtype])) == want["values"]
    x = xp.asarray([1, 2, 100], dtype=xp.uint8)
    x[...] = 5
    assert to_numpy(x).tolist() == [5, 5, 5]
    zero_d = (xp.asarray(0, dtype=xp.int64), xp.asarray(2, dtype=xp.int64))
    for key, bounds in (("py:int", (0, 2)), ("py:float", (0.5, 1.5)), ("0d:int64", zero_d)):
        got = xp.clip(xp.asarray([1, 2, 3], dtype=xp.int32), *bounds)
        want = seen["clip"]["int32"][key]
        assert str(got.dtype) == want["dtype"]
        assert edges.json_values(to_numpy(got)) == want["values"]


# --- every policy: a refusal leaves the operands as they were -----------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["pytorch", "numpy", "array-api", "tf-safe", "tf-all", "tf-legacy"])
def test_a_refused_int_leaves_the_array_unchanged_and_names_the_fix(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    with pytest.raises((OverflowError, PromotionError)) as e:
        x[0] = 2**70
    assert f"policy {policy!r}" in str(e.value) and "Fix:" in str(e.value)
    with pytest.raises((OverflowError, PromotionError)):
        x += 2**70
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])


# --- the edge-case grid -------------------------------------------------------------------------

_SECTIONS = ("int_scalars", "bool", "setitem", "clip")


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("policy", list(edges.FRAMEWORKS))
def test_the_edge_grid_agrees_with_the_framework_but_for_documented_deviations(
    policy: str, backend: str
) -> None:
    result = edge_agreement.compare(policy, backend, _SECTIONS)
    short = edge_agreement._short
    differ = [
        f"{section}{where}\n    framework: {short(expected)}\n    promo_ns:  {short(got)}"
        for section, agreement in result.items()
        for where, expected, got in agreement.differ
    ]
    assert not differ, f"{len(differ)} cells differ from {policy}'s framework:\n" + "\n".join(differ[:40])


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_clip_takes_a_complex_bounds_real_part_without_a_warning(backend: str) -> None:
    # paddle.clip(float32, min=<0-d complex64 1.5+2j>) gives float32 [1.5, 2, 3], silently.
    xp = namespace(backend, "paddle")
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = xp.clip(x, min=xp.asarray(1.5 + 2j, dtype=xp.complex64))
    assert got.dtype == xp.float32
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(got), np.array([1.5, 2.0, 3.0], dtype=np.float32))


def _near_float16_halfways() -> np.ndarray[Any, Any]:
    """float64 values at, just above and just below every positive float16 halfway point, and edges."""
    low = np.arange(1, 0x7BFF, dtype=np.uint16).view(np.float16)
    high = np.nextafter(low, np.float16(np.inf))
    mid = (low.astype(np.float64) + high.astype(np.float64)) / 2
    edges = [65504.0, 65519.99, 65520.0, 1e300, np.inf, np.nan, 0.0, -0.0, 5e-324, 2.0**-25]
    values = np.concatenate([mid, mid + mid * 2.0**-40, mid - mid * 2.0**-40, edges])
    return np.concatenate([values, -values])


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_float64_into_float16_is_rounded_once_on_every_backend(backend: str) -> None:
    # torch rounds a double to float16 through float32, which differs from NumPy's one rounding just
    # above a halfway point: astype, a float64 array stored by setitem, a NumPy float64 scalar, asarray
    values = _near_float16_halfways()
    with np.errstate(over="ignore"):
        want = values.astype(np.float16)
    xp = namespace(backend, "numpy")
    x = xp.asarray(values)
    got = to_numpy(xp.astype(x, xp.float16))
    assert np.array_equal(got, want, equal_nan=True)
    stored = xp.zeros(values.shape, dtype=xp.float16)
    stored[...] = x
    assert np.array_equal(to_numpy(stored), want, equal_nan=True)
    one = xp.zeros(1, dtype=xp.float16)
    one[0] = np.float64(1 + 2**-11 + 2**-40)
    assert to_numpy(one).tolist() == [1.0009765625]
    for data in (values, values.tolist()):
        assert np.array_equal(to_numpy(xp.asarray(data, dtype=xp.float16)), want, equal_nan=True)
    negative_nan = xp.astype(xp.asarray(np.full(16, -np.nan)), xp.float16)
    assert np.signbit(to_numpy(negative_nan)).all()


def test_float64_into_float16_keeps_the_casts_gradient() -> None:
    # the cast rounded once is differentiable as the cast: torch's autograd and JAX's grad
    xp = promo_ns.namespace("torch", policy="numpy")
    w = torch.tensor([1 + 2**-11 + 2**-40, 2.5], dtype=torch.float64, requires_grad=True)
    half = promo_ns.unwrap(xp.astype(xp.asarray(w), xp.float16))
    assert half.tolist() == [1.0009765625, 2.5]
    half.float().sum().backward()
    assert w.grad is not None
    assert w.grad.tolist() == [1.0, 1.0]
    jax = pytest.importorskip("jax")
    if not jax.config.jax_enable_x64:
        pytest.skip("JAX without 64-bit types has no float64")
    xj = promo_ns.namespace("jax", policy="numpy")
    grad = jax.grad(lambda a: promo_ns.unwrap(xj.astype(xj.asarray(a), xj.float16)).astype("float32").sum())
    assert np.asarray(grad(np.array([1.0, 2.5]))).tolist() == [1.0, 1.0]
