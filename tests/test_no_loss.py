"""Issue 23: bad input is promo_ns's clear error on every backend, and nothing is silently wrong.

Creation from Python ints beyond the dtype, arguments the standard's signature
does not take, shapes that are not shapes, DLPack from what cannot export.
"""

from __future__ import annotations

from typing import Any

import pytest

import promo_ns
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
