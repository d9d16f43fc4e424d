"""Issue 23: bad input is promo_ns's clear error on every backend, and nothing is silently wrong.

Creation from Python ints beyond the dtype, arguments the standard's signature
does not take, shapes that are not shapes, DLPack from what cannot export.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns._dtypes import INT_RANGE
from tests.backends import BACKENDS, POLICIES, VALUE_BACKENDS, has_values, namespace, to_numpy

_BIG_INTS: list[Any] = [2**63, 2**64, -(2**63) - 1, [1, 2**63], [[2**64]], [-1, 2**63], (True, 2**63)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("data", _BIG_INTS, ids=repr)
def test_asarray_of_ints_beyond_the_default_int_dtype_is_one_clear_error(
    backend: str, policy: str, data: Any
) -> None:
    # was: float32/float64/uint64 silently on numpy, Dask and JAX, torch's raw ValueError
    xp = namespace(backend, policy)
    with pytest.raises(OverflowError, match=r"asarray\(\) got the Python int .* out of range of"):
        xp.asarray(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_asarray_takes_big_ints_where_the_dtype_holds_them(backend: str) -> None:
    xp = namespace(backend)
    for data in ([2**63], [2**64 - 1, 0], 2**63):
        a = xp.asarray(data, dtype=xp.uint64)
        assert a.dtype == xp.uint64
        if has_values(xp):
            assert to_numpy(a).tolist() == data
    a = xp.asarray([1.5, 2**70])  # float data: the ints are floats too
    assert a.dtype == xp.float64
    assert xp.asarray([2**70], dtype=xp.float64).dtype == xp.float64
    with pytest.raises(OverflowError, match="out of range of uint8"):
        xp.asarray([1, 300], dtype=xp.uint8)
    for negative in (-1, [1, -1], [[-255]]):  # torch wrapped these
        with pytest.raises(OverflowError, match=r"out of range of uint8 .*dtype=xp.int64"):
            xp.asarray(negative, dtype=xp.uint8)
    with pytest.raises(OverflowError, match="out of range of uint64"):
        xp.asarray([2**64], dtype=xp.uint64)


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_inplace_pow_of_a_0d_exponent_of_another_dtype_computes_as_pow(backend: str) -> None:
    # was: NumPy's raw UFuncTypeError on numpy and Dask while x ** e worked
    xp = namespace(backend, "pytorch")
    x = xp.asarray([1, 2, 3], dtype=xp.uint8)
    e = xp.asarray(2, dtype=xp.int8)
    want = to_numpy(x**e)
    x **= e
    assert x.dtype == xp.uint8
    assert to_numpy(x).tolist() == want.tolist() == [1, 4, 9]


def _functions(xp: Any) -> list[tuple[str, Any]]:
    """Every one-array function of the namespace that the policy decides, by its full name."""
    from promo_ns._ops import FUNCTION_FAMILY

    out = []
    for name in FUNCTION_FAMILY:
        owner, _, short = name.rpartition(".")
        fn = getattr(getattr(xp, owner) if owner else xp, short, None)
        if fn is not None:
            out.append((name, fn))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_one_array_function_refuses_arguments_outside_the_standards_signature(backend: str) -> None:
    # was: eigvalsh(x, 1.5) an AttributeError on NumPy, a result on Dask, a ValueError on JAX
    xp = namespace(backend)
    x = xp.asarray([[2.0, 1.0], [1.0, 2.0]])
    checked = 0
    for name, fn in _functions(xp):
        short = name.rpartition(".")[2]
        with pytest.raises(TypeError, match=rf"{short}\(.*positional"):
            fn(x, 1.5)
        with pytest.raises(TypeError, match=rf"{short}\(.*unexpected keyword argument 'out'"):
            fn(x, out=x)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shapes", [({1, 2},), ((2.5,), (1,)), ([2, 1], (3,)), ((True,),), ("ab",)], ids=repr)
def test_broadcast_shapes_of_what_is_not_a_shape(backend: str, shapes: tuple[Any, ...]) -> None:
    # was: KeyError/TypeError from subscripting a set, (2.5,) returned as a shape
    xp = namespace(backend)
    with pytest.raises(TypeError, match=r"broadcast_shapes\(\) takes shapes"):
        xp.broadcast_shapes(*shapes)
    assert xp.broadcast_shapes((2, 1), (None,), (3,)) == (2, 3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_from_dlpack_of_what_has_no_dlpack(backend: str) -> None:
    # was: AttributeError ('int' object has no attribute '__dlpack__'; Dask arrays' too)
    xp = namespace(backend)
    with pytest.raises(TypeError, match=r"from_dlpack\(\) takes an array that supports DLPack"):
        xp.from_dlpack(5)
    dask = promo_ns.namespace("dask") if backend == "dask" else None
    if dask is not None:
        with pytest.raises(BufferError, match="cannot be exported through DLPack"):
            xp.from_dlpack(dask.asarray([1, 2]))


_FLOATS = [256.0, -1.0, 3e9, 255.5, -0.5, 127.9, 128.0, -128.5, 2.5, 1e300, float("inf"), float("nan")]


def _framework_setitem(policy: str, dtype: str, value: float) -> int | type[Exception]:
    """What NumPy (numpy policy) or torch (pytorch policy) itself does with ``x[0] = value``."""
    if policy == "numpy":
        a = np.zeros(2, dtype=dtype)
        try:
            a[0] = value
        except (OverflowError, ValueError) as e:
            return type(e)
        return int(a[0])
    import torch

    t = torch.zeros(2, dtype=getattr(torch, dtype))
    try:
        t[0] = value
    except RuntimeError:
        return OverflowError if value == value else ValueError
    return int(t[0])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
def test_setitem_of_a_python_float_into_an_integer_array_is_never_wrapped(backend: str, policy: str) -> None:
    # was: x[i] = 256.0 on uint8 wrote 0, -1.0 wrote 255, 3e9 into int32 wrapped, on every backend
    xp = namespace(backend, policy)
    for dtype in ("uint8", "int8", "int32", "uint64"):
        lo, hi = INT_RANGE[getattr(promo_ns._dtypes, dtype)]
        for value in _FLOATS:
            x = xp.asarray([1, 2], dtype=getattr(xp, dtype))
            try:
                x[0] = value
                got: int | type[Exception] = int(to_numpy(x)[0]) if has_values(xp) else 0
            except promo_ns.PromotionError:
                continue  # the policy refuses floats into integer arrays altogether (array-api, tf-safe)
            except (OverflowError, ValueError) as e:
                assert "setitem" in str(e), e
                got = type(e)
                assert not has_values(xp) or to_numpy(x).tolist() == [1, 2], "a refused write changed x"
            if policy in ("numpy", "pytorch"):
                want = _framework_setitem(policy, dtype, value)
            else:  # Paddle truncates what fits (its wraps beyond are C's undefined casts: refused)
                fits = value == value and abs(value) != float("inf") and lo <= int(value) <= hi
                want = int(value) if fits else (ValueError if value != value else OverflowError)
            if not has_values(xp) and not isinstance(want, type):
                want = 0
            assert got == want, f"{policy} {dtype}[0] = {value!r}: promo_ns {got}, framework {want}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_delegated_one_array_functions_take_no_second_array(backend: str) -> None:
    # was: on NumPy xp.isnan(x, y) (conj, signbit, logical_not, ...) wrote its result into y
    from promo_ns._functions.elementwise import DELEGATED

    xp = namespace(backend)
    x, y = xp.asarray([1, 2]), xp.asarray([7, 7])
    for name in DELEGATED:
        with pytest.raises(TypeError, match=rf"^{name}\(\) takes 1 positional argument but 2"):
            getattr(xp, name)(x, y)
        with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument 'out'"):
            getattr(xp, name)(x, out=y)
    if has_values(xp):
        assert to_numpy(y).tolist() == [7, 7]


class _GpuLikeExport(np.ndarray):
    """A NumPy array exporting as CuPy's GPU arrays do: copy=True to the CPU only, none without a copy."""

    def __dlpack__(self, **kwargs: Any) -> Any:
        if kwargs.get("copy") is True and "dl_device" not in kwargs:
            raise BufferError("copy=True only supported for copy to CPU.")
        if kwargs.get("copy") is False and "dl_device" in kwargs:
            raise ValueError("GPU memory cannot be exported to CPU without copy.")
        return super().__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return (2, 0)  # kDLCUDA


def test_a_dlpack_copy_is_made_where_the_library_copies_to_the_cpu_only() -> None:
    # was (array-api-tests on CuPy): x.__dlpack__(copy=True) raised BufferError, and copy=False to the
    # CPU a ValueError where the standard names BufferError
    xp = namespace("numpy")
    x = xp.asarray([1.0, 2.0])
    x._x = x._x.view(_GpuLikeExport)
    exported = np.from_dlpack(_Capsule(x.__dlpack__(copy=True)))
    assert exported.tolist() == [1.0, 2.0]
    assert exported.ctypes.data != x._x.ctypes.data  # a copy was exported
    with pytest.raises(BufferError, match=r"without a copy .*pass copy=None or copy=True"):
        x.__dlpack__(copy=False, dl_device=(1, 0))
    assert np.from_dlpack(_Capsule(x.__dlpack__(dl_device=(1, 0)))).tolist() == [1.0, 2.0]


class _Capsule:
    """An exported DLPack capsule, offered to ``from_dlpack`` (which takes objects with ``__dlpack__``)."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


_UNHELD_FILLS: list[tuple[Any, str, type[Exception]]] = [
    (1e10, "int16", OverflowError),
    (3.5e38, "int16", OverflowError),
    (float("inf"), "uint64", OverflowError),
    (-1.0, "uint8", OverflowError),
    (float("nan"), "int32", ValueError),
    (complex("nan+0j"), "uint16", ValueError),
    (1.5 + 0.5j, "int8", OverflowError),
    (1.5 + 0.5j, "float32", OverflowError),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("value", "dtype", "error"), _UNHELD_FILLS, ids=repr)
def test_full_and_full_like_refuse_a_fill_value_the_dtype_cannot_hold(
    backend: str, policy: str, value: Any, dtype: str, error: type[Exception]
) -> None:
    # was: NumPy's unsafe cast on every backend (1e10 into int16 filled 0s, NaN int32's minimum)
    xp = namespace(backend, policy)
    with pytest.raises(error, match=r"full\(\) cannot fill"):
        xp.full((2,), value, dtype=getattr(xp, dtype))
    like = xp.zeros((2,), dtype=getattr(xp, dtype))
    with pytest.raises(error, match=r"full_like\(\) cannot fill"):
        xp.full_like(like, value)
    with pytest.raises(error, match=r"full_like\(\) cannot fill"):
        xp.full_like(xp.zeros((2,), dtype=xp.bool), value, dtype=getattr(xp, dtype))


@pytest.mark.parametrize("backend", BACKENDS)
def test_full_and_full_like_take_what_the_dtype_holds(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    cases = [(2.7, "int16", 2), (-0.5, "uint8", 0), (2 + 0j, "int8", 2), (1.5 + 0.5j, "bool", True)]
    for value, dtype, want in cases:
        for got in (
            xp.full((2,), value, dtype=getattr(xp, dtype)),
            xp.full_like(xp.zeros((2,), dtype=getattr(xp, dtype)), value),
        ):
            assert got.dtype == getattr(xp, dtype)
            if has_values(xp):
                assert to_numpy(got).tolist() == [want, want]
    with pytest.raises(TypeError, match=r"full_like\(\) takes a Python bool, int, float or complex"):
        xp.full_like(xp.zeros(2), None)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("data", [2**31, [1, 2**31], -(2**31) - 1, [[2**40]]], ids=repr)
def test_asarray_of_ints_beyond_a_32_bit_default_int_is_one_clear_error(backend: str, data: Any) -> None:
    # was: torch's raw RuntimeError ("value cannot be converted to type int32"), NumPy's raw OverflowError
    xp = namespace(backend, "tf-safe")  # its default int is int32
    with pytest.raises(OverflowError, match=r"asarray\(\) got the Python int .* default integer dtype int32"):
        xp.asarray(data)
    assert xp.asarray(data, dtype=xp.int64).dtype == xp.int64
