"""The ``jax`` policy: JAX's standard promotion with 64-bit types, on the NumPy and torch backends.

The whole grid is compared with ``jax.numpy``'s stored observations in
tests/test_fidelity.py (``tests/reference/jax.json``); the generated probe's in
tests/test_probe.py.  Here: the facts the policy module states, each checked on
every backend that holds values, and a live sample of the stored observations
where JAX is installed.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import promo_ns
from conformance.frameworks import _cells
from promo_ns import PromotionError
from promo_ns._dtypes import canonical
from promo_ns.policies import Role
from tests.backends import has_values, namespace, to_numpy

BACKENDS = ["numpy", "torch"]


def _array(xp: Any, dtype: str, ndim: int = 1) -> Any:
    return xp.ones((2,) * ndim, dtype=getattr(xp, dtype))


def test_jax_is_a_registered_builtin_policy() -> None:
    assert "jax" in promo_ns.policies()
    policy = promo_ns.get_policy("jax")
    assert policy.name == "jax" and "jax_enable_x64" in policy.reference


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("left", "right", "want"),
    [
        # The lattice: integers meet floats by the float alone; bf16 with f16 is f32.
        ("int64", "float16", "float16"),
        ("uint32", "bfloat16", "bfloat16"),
        ("bfloat16", "float16", "float32"),
        # uint64 with a signed integer is the weak float: float64.
        ("uint64", "int8", "float64"),
        ("uint8", "int8", "int16"),
        ("complex64", "float64", "complex128"),
    ],
)
def test_arrays_promote_over_the_lattice(backend: str, left: str, right: str, want: str) -> None:
    xp = namespace(backend, "jax")
    assert str((_array(xp, left) + _array(xp, right)).dtype) == want
    # 0-d arrays are strong: they promote as n-d arrays do.
    assert str((_array(xp, left, 0) + _array(xp, right)).dtype) == want


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("dtype", "scalar", "want"),
    [
        ("int8", 1, "int8"),
        ("bool", 1, "int64"),
        ("int8", 1.5, "float64"),
        ("uint64", 1.5, "float64"),
        ("bfloat16", 1.5, "bfloat16"),
        ("float16", 1j, "complex64"),
        ("int16", 1j, "complex128"),
        ("float32", True, "float32"),
    ],
)
def test_python_scalars_are_weak(backend: str, dtype: str, scalar: object, want: str) -> None:
    xp = namespace(backend, "jax")
    assert str((_array(xp, dtype) + scalar).dtype) == want
    assert str((scalar + _array(xp, dtype)).dtype) == want


@pytest.mark.parametrize("backend", BACKENDS)
def test_true_division_and_float_functions_take_the_inexact_dtype(backend: str) -> None:
    xp = namespace(backend, "jax")
    assert (_array(xp, "int8") / _array(xp, "int8")).dtype == xp.float32
    assert (_array(xp, "bool") / _array(xp, "bool")).dtype == xp.float32
    assert (_array(xp, "uint32") / _array(xp, "int8")).dtype == xp.float64  # int64, then float64
    assert (_array(xp, "int8") / 2).dtype == xp.float32
    assert (_array(xp, "int8") / 2.0).dtype == xp.float64  # the weak float's
    assert xp.atan2(_array(xp, "int16"), _array(xp, "int16")).dtype == xp.float32


@pytest.mark.parametrize("backend", BACKENDS)
def test_reductions_accumulate_in_the_64_bit_dtype_of_their_kind(backend: str) -> None:
    xp = namespace(backend, "jax")
    assert xp.sum(_array(xp, "int8")).dtype == xp.int64
    assert xp.sum(_array(xp, "bool")).dtype == xp.int64
    assert xp.prod(_array(xp, "uint8")).dtype == xp.uint64
    assert xp.cumulative_sum(_array(xp, "uint16")).dtype == xp.uint64
    assert xp.sum(_array(xp, "float16")).dtype == xp.float16


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_int_wraps_into_the_dtype_and_beyond_int64_overflows(backend: str) -> None:
    xp = namespace(backend, "jax")
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    got = x + 1000  # JAX parses the int as an int64 and casts it: 1000 is -24 in int8
    assert got.dtype == xp.int8
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(got), [-23, -22, -21])
    with pytest.raises(OverflowError):
        x + 2**63
    with pytest.raises(OverflowError):
        x += 2**63
    with pytest.raises(PromotionError, match="jax"):
        x += 1.5  # int8 + 1.5 is float64: x cannot keep its dtype
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])


def test_the_stored_observations_are_jax_numpys_with_64_bit_types() -> None:
    data = _cells.load(_cells.reference("jax"))
    assert data["framework"] == "jax"
    assert data["ops"]["add"]["int8:nd|py:float"] == "float64"
    assert data["ops"]["add"]["int64:nd|py:int"] == "int64"


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="JAX is not installed")
def test_a_sample_of_the_stored_observations_is_jax_numpys_live() -> None:
    import jax

    from conformance.frameworks.jax import Jax

    if not jax.config.read("jax_enable_x64"):  # type: ignore[no-untyped-call]
        pytest.skip("the session runs JAX without 64-bit types")
    data = _cells.load(_cells.reference("jax"))
    if data["version"] != jax.__version__:
        pytest.skip(f"stored for JAX {data['version']}, {jax.__version__} installed")
    fw = Jax()
    keys = [("add", "uint64:nd|int8:0d"), ("divide", "int16:nd|py:int"), ("add", "bfloat16:nd|float16:nd")]
    keys += [("logaddexp", "int8:nd|py:float"), ("sum", "uint8:nd"), ("add_out_of_range", "int8:nd|py:int")]
    keys += [("bitwise_and", "float32:nd|int8:nd"), ("iadd", "int8:nd|py:float")]
    for op, key in keys:
        assert _cells.observe(fw, op, key) == data["ops"][op][key], (op, key)


@pytest.mark.parametrize("backend", BACKENDS)
def test_linalg_of_bfloat16_keeps_bfloat16_in_every_result(backend: str) -> None:
    # NumPy computes ml_dtypes' bfloat16 linalg in float64 and refuses its pinv ("not inexact"):
    # every result comes back in bfloat16, the jax policy's dtype (was: float64, a raw ValueError).
    xp = namespace(backend, "jax")
    x = xp.asarray([[3.0, 1.0, 1.0], [1.0, 3.0, 1.0], [1.0, 1.0, 3.0]], dtype=xp.bfloat16)
    try:
        values, vectors = xp.linalg.eigh(x)
    except TypeError as e:  # a backend without the kernel says so
        assert "kernel" in str(e)
        return
    assert values.dtype == vectors.dtype == xp.bfloat16
    assert all(part.dtype == xp.bfloat16 for part in xp.linalg.qr(x))
    assert all(part.dtype == xp.bfloat16 for part in xp.linalg.slogdet(x))
    assert xp.linalg.pinv(x).dtype == xp.bfloat16
    if has_values(xp):
        np.testing.assert_allclose(to_numpy(xp.linalg.pinv(x) @ x), np.eye(3), atol=0.05)


_INTEGERS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("backend", ["numpy", "torch", "torch:meta", "dask", "jax"])
@pytest.mark.parametrize("dtype", _INTEGERS)
def test_integer_division_by_zero_gives_xlas_values(backend: str, dtype: str) -> None:
    # was: NumPy's 0 on every backend but JAX's own; JAX gives XLA's quotient, and 0 as remainder
    xp = namespace(backend, "jax")
    values = [1, 0, 5, -3] if dtype[0] == "i" else [1, 0, 5, 200]
    signed = dtype[0] == "i"
    want_quotient = [-2, -1, -2, -2] if signed else [np.iinfo(dtype).max] * 4
    x, zero = xp.asarray(values, dtype=getattr(xp, dtype)), xp.zeros(4, dtype=getattr(xp, dtype))
    results = {
        "x // 0-array": (x // zero, want_quotient),
        "x // 0": (x // 0, want_quotient),
        "floor_divide": (xp.floor_divide(x, zero), want_quotient),
        "x % 0-array": (x % zero, [0, 0, 0, 0]),
        "remainder": (xp.remainder(x, 0), [0, 0, 0, 0]),
    }
    y = xp.asarray(values, dtype=getattr(xp, dtype))
    y //= zero
    results["x //= 0-array"] = (y, want_quotient)
    for spelling, (got, want) in results.items():
        assert got.dtype == getattr(xp, dtype), spelling
        if has_values(xp):
            assert to_numpy(got).tolist() == want, spelling
    if importlib.util.find_spec("jax") is not None:
        import jax.numpy as jnp

        native = jnp.asarray(values, dtype=dtype)
        assert jnp.floor_divide(native, 0).tolist() == want_quotient
        assert jnp.remainder(native, 0).tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("dtypes", "want"),
    [
        # uint64 with a signed integer joins at the weak float, which gives way to a float dtype.
        (("uint64", "int16", "bfloat16"), "bfloat16"),
        (("uint64", "int32", "int64", "float32"), "float32"),
        (("uint64", "int32", "complex64", "uint64"), "complex64"),
        (("int8", "uint64", "uint8"), "float64"),  # still weak at the end: the default float
        (("int8", "uint8", "float16"), "float16"),
        (("bool", "int16", "uint32"), "int64"),
    ],
)
def test_three_or_more_dtypes_join_in_the_lattice(backend: str, dtypes: tuple[str, ...], want: str) -> None:
    xp = namespace(backend, "jax")
    assert xp.result_type(*[getattr(xp, d) for d in dtypes]) == getattr(xp, want)
    assert xp.concat([_array(xp, d) for d in dtypes]).dtype == getattr(xp, want)
    assert xp.stack([_array(xp, d) for d in dtypes]).dtype == getattr(xp, want)


def test_a_weak_join_must_be_symmetric_and_over_its_default_cell() -> None:
    policy = promo_ns.get_policy("jax")
    u64, i8 = canonical("uint64"), canonical("int8")
    with pytest.raises(ValueError, match="not \\(int8, uint64\\)"):
        policy.derive("jax-lopsided", weak_joins={(u64, i8): Role.FLOAT})
    with pytest.raises(ValueError, match="nary='lattice' only"):
        policy.derive("jax-pairwise", nary="pairwise")


@pytest.mark.parametrize("backend", BACKENDS)
def test_cumulative_prod_keeps_an_integer_dtype_and_remainder_keeps_the_dividends_zero(backend: str) -> None:
    xp = namespace(backend, "jax")
    assert xp.cumulative_prod(_array(xp, "uint32")).dtype == xp.uint32
    assert xp.cumulative_prod(_array(xp, "int8")).dtype == xp.int8
    assert xp.cumulative_prod(_array(xp, "bool")).dtype == xp.int64
    assert xp.cumulative_sum(_array(xp, "int8")).dtype == xp.int64
    if has_values(xp):
        got = to_numpy(xp.asarray([-2.0, 2.0, -0.0]) % 1.0)
        assert list(np.signbit(got)) == [True, False, True]  # lax.rem: -2.0 % 1.0 is -0.0


@pytest.mark.parametrize("backend", [*BACKENDS, "dask"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_linalg_of_16_bit_floats_computes_on_every_backend_with_complex64_eigenvalues(
    backend: str, dtype: str
) -> None:
    # was: complex128 eigenvalues of bfloat16 on NumPy (torch: complex64); Dask failed when computing
    pytest.importorskip(backend)
    xp = namespace(backend, "jax")
    x = xp.eye(3, dtype=getattr(xp, dtype)) * 2
    assert xp.linalg.eigvals(x).dtype == xp.complex64
    assert [str(r.dtype) for r in xp.linalg.eig(x)] == ["complex64", "complex64"]
    inverse = xp.linalg.pinv(x)
    assert inverse.dtype == getattr(xp, dtype)
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(inverse).astype(np.float64), np.eye(3) / 2)
