"""The paddle and tf-safe policies against what Paddle 3.3.1 and TF 2.21 (safe mode) do.

Each case is a cell measured on the framework in the spelling the policy follows
(the policy modules say which, and where the other spellings differ).
"""

from __future__ import annotations

from typing import Any

import pytest

from promo_ns import PromotionError
from tests.backends import BACKENDS, namespace

BIG = 2**63


def _ones(xp: Any, dtype: str, shape: tuple[int, ...] = (2,)) -> Any:
    return xp.ones(shape, dtype=getattr(xp, dtype))


# --- paddle ------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_uint16_32_64_meet_no_other_dtype_a_0d_tensor_included(backend: str) -> None:
    # Paddle: int8 + <0-d int16> is int8, int8 + <0-d uint16> raises ("Invalid enum data type").
    xp = namespace(backend, "paddle")
    assert (_ones(xp, "int8") + _ones(xp, "int16", ())).dtype == xp.int8
    for small, wide in (("int8", "uint16"), ("uint64", "int32"), ("uint8", "uint32")):
        with pytest.raises(PromotionError):
            _ones(xp, small) + _ones(xp, wide, ())
        with pytest.raises(PromotionError):
            xp.equal(_ones(xp, wide, ()), _ones(xp, small))
    assert (_ones(xp, "uint16") + 1).dtype == xp.uint16


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_in_place_follows_x_plus_equals_y(backend: str) -> None:
    # Paddle's x += y is x = x + y: int8 += <0-d int16> is int8 (Tensor.add_ refuses it);
    # two 0-d tensors meet through the lattice, int16 += <0-d int8> is int16.
    xp = namespace(backend, "paddle")
    x = _ones(xp, "int8")
    x += _ones(xp, "int16", ())
    assert x.dtype == xp.int8
    y = _ones(xp, "int16", ())
    y += _ones(xp, "int8", ())
    assert y.dtype == xp.int16
    z = _ones(xp, "float16")
    with pytest.raises(PromotionError):  # x + y is float32: Paddle rebinds, promo_ns keeps x's dtype
        z += _ones(xp, "float32")


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_bitwise_takes_no_python_scalar_shifts_do(backend: str) -> None:
    # x & 1 and paddle.bitwise_and(x, 1) raise in Paddle ("must be Tensor"); x << 1 and 1 << x
    # convert the int to x's dtype.
    xp = namespace(backend, "paddle")
    x = _ones(xp, "int8")
    with pytest.raises(PromotionError):
        x & 1
    with pytest.raises(PromotionError):
        1 & x
    with pytest.raises(PromotionError):
        x | True
    with pytest.raises(PromotionError):
        xp.bitwise_xor(x, 1)
    assert (x & _ones(xp, "int8")).dtype == xp.int8
    assert (x << 1).dtype == xp.int8
    assert (1 << x).dtype == xp.int8


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "call",
    [
        lambda x: x < BIG,
        lambda x: x == -BIG - 1,
        lambda x: x != BIG,
        lambda x: BIG / x,
        lambda x: BIG**x,
        lambda x: x // BIG,
        lambda x: BIG % x,
    ],
    ids=["x < s", "x == s", "x != s", "s / x", "s ** x", "x // s", "s % x"],
)
def test_paddle_python_ints_beyond_int64_raise_where_paddle_reads_a_long(backend: str, call: Any) -> None:
    xp = namespace(backend, "paddle")
    x = _ones(xp, "float32")
    with pytest.raises(OverflowError, match="out of range"):
        call(x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_python_ints_beyond_int64_pass_where_paddle_converts_a_double(backend: str) -> None:
    xp = namespace(backend, "paddle")
    x = _ones(xp, "float32")
    for result in (x + BIG, x * BIG, x / BIG, x < 2**63 - 1, xp.clip(x, -(2**63), 2**63 - 1)):
        assert result.dtype in (xp.float32, xp.bool)
    with pytest.raises(OverflowError):
        xp.clip(x, None, BIG)


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_concat_stack_and_result_type(backend: str) -> None:
    xp = namespace(backend, "paddle")
    f32, f64, c64 = _ones(xp, "float32"), _ones(xp, "float64"), _ones(xp, "complex64")
    with pytest.raises(PromotionError):
        xp.concat([f32, f64])
    with pytest.raises(PromotionError):
        xp.stack([f32, f64])
    assert xp.concat([f32, f32, f32]).dtype == xp.float32
    # paddle.stack converts real tensors after a complex first one to it, float64 included.
    assert xp.stack([c64, f64, f32]).dtype == xp.complex64
    with pytest.raises(PromotionError):
        xp.stack([f64, c64])
    # Paddle has no result_type: promo_ns answers what + gives.
    assert xp.result_type(_ones(xp, "int8"), _ones(xp, "int16", ())) == xp.int8
    assert xp.result_type(f32, f64, xp.float16) == xp.float64


@pytest.mark.parametrize("backend", BACKENDS)
def test_paddle_linalg_products(backend: str) -> None:
    xp = namespace(backend, "paddle")
    f32, f64, i32 = _ones(xp, "float32", (3,)), _ones(xp, "float64", (3,)), _ones(xp, "int32", (3,))
    assert xp.linalg.outer(f32, f64).dtype == xp.float64
    assert xp.linalg.cross(f32, _ones(xp, "complex64", (3,))).dtype == xp.complex64
    assert xp.vecdot(i32, i32).dtype == xp.int64
    assert xp.vecdot(f32, f64).dtype == xp.float64
    assert xp.tensordot(f32, i32, axes=1).dtype == xp.float32
    with pytest.raises(PromotionError):
        xp.tensordot(i32, f32, axes=1)
    with pytest.raises(PromotionError):
        xp.linalg.outer(i32, f32)
    assert xp.searchsorted(i32, xp.asarray([0.5, 1.5], dtype=xp.float32)).dtype == xp.int64
    assert xp.searchsorted(i32, 2).shape == ()  # no Python scalar in Paddle: it converts, as in <
    with pytest.raises(PromotionError):
        xp.searchsorted(i32, _ones(xp, "int8"))


# --- tf-safe -----------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_safe_not_equal_does_not_promote_where_equal_does(backend: str) -> None:
    # TF 2.21 safe mode: int8 == int16 is bool (tf.equal promotes); int8 != int16 raises
    # (tf.not_equal: "cannot compute NotEqual as input #1 was expected to be a int8 tensor").
    xp = namespace(backend, "tf-safe")
    a, b = _ones(xp, "int8"), _ones(xp, "int16")
    assert (a == b).dtype == xp.bool
    with pytest.raises(PromotionError):
        a != b  # noqa: B015
    with pytest.raises(PromotionError):
        xp.not_equal(a, _ones(xp, "int16", ()))
    assert (a != 1).dtype == xp.bool
    with pytest.raises(PromotionError):  # TF cannot convert 1.5 to an int8 tensor
        a != 1.5  # noqa: B015
    with pytest.raises(PromotionError):  # nor 1 to a bool tensor
        _ones(xp, "bool") != 1  # noqa: B015
    assert (_ones(xp, "float32") != 1.5).dtype == xp.bool


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_safe_bitwise_operators_take_bool(backend: str) -> None:
    # x & y of two bool tensors is tf.logical_and in TF; bool & int8 and bool & 1 are refused.
    xp = namespace(backend, "tf-safe")
    b = xp.asarray([True, False])
    assert (b & b).dtype == xp.bool
    assert xp.bitwise_xor(b, True).dtype == xp.bool
    assert (b | xp.asarray(False)).dtype == xp.bool
    with pytest.raises(PromotionError):
        b & _ones(xp, "int8")
    with pytest.raises(PromotionError):
        b & 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_safe_result_type_is_what_plus_gives(backend: str) -> None:
    # tf.experimental.numpy.result_type(int8, int16) is int16, as int8 + int16 is; what +
    # refuses (int8 with uint8, int32 with float32) it refuses.
    xp = namespace(backend, "tf-safe")
    assert xp.result_type(xp.int8, xp.int16) == xp.int16
    assert xp.result_type(_ones(xp, "int8"), _ones(xp, "int16", ()), xp.float32) == xp.float32
    assert xp.result_type(_ones(xp, "float16"), 1) == xp.float16
    for a, b in (("int8", "uint8"), ("int32", "float32")):
        with pytest.raises(PromotionError):
            xp.result_type(getattr(xp, a), getattr(xp, b))


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_safe_cross_does_not_promote(backend: str) -> None:
    # tf.linalg.cross needs one dtype (concat/stack: tests/test_fidelity_paddle_tf_probe.py).
    xp = namespace(backend, "tf-safe")
    a, b = _ones(xp, "int8", (3,)), _ones(xp, "int16", (3,))
    with pytest.raises(PromotionError):
        xp.linalg.cross(a, b)
    assert xp.linalg.cross(b, b).dtype == xp.int16
    assert xp.tensordot(a, b, axes=1).dtype == xp.int16  # tf.tensordot runs matmul's safe mode
