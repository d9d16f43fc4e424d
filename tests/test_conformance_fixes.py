"""Regressions found by the official array-api-tests suite at 2025.12 (conformance/array_api_tests.py)."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from tests.backends import BACKENDS, POLICIES, VALUE_BACKENDS, has_values, namespace, to_numpy

ONE_D_FFTS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_D_FFTS = ("fftn", "ifftn", "rfftn", "irfftn")
P, K = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.KEYWORD_ONLY

#: The standard's (2025.12) parameters of functions whose result dtype the policy decides.
STANDARD: dict[str, list[tuple[str, Any]]] = {
    "max": [("x", P), ("axis", K), ("keepdims", K)],
    "min": [("x", P), ("axis", K), ("keepdims", K)],
    "mean": [("x", P), ("axis", K), ("keepdims", K)],
    "std": [("x", P), ("axis", K), ("correction", K), ("keepdims", K)],
    "var": [("x", P), ("axis", K), ("correction", K), ("keepdims", K)],
    "argmax": [("x", P), ("axis", K), ("keepdims", K)],
    "argmin": [("x", P), ("axis", K), ("keepdims", K)],
    "sin": [("x", P)],
    "round": [("x", P)],
    "linalg.cholesky": [("x", P), ("upper", K)],
    "linalg.inv": [("x", P)],
    "linalg.eig": [("x", P)],
    "linalg.eigvals": [("x", P)],
    "linalg.matrix_norm": [("x", P), ("keepdims", K), ("ord", K)],
    "linalg.matrix_rank": [("x", P), ("rtol", K)],
    "linalg.pinv": [("x", P), ("rtol", K)],
    "linalg.qr": [("x", P), ("mode", K)],
    "linalg.svd": [("x", P), ("full_matrices", K)],
    "linalg.vector_norm": [("x", P), ("axis", K), ("keepdims", K), ("ord", K)],
    **{f"fft.{n}": [("x", P), ("n", K), ("axis", K), ("norm", K)] for n in ONE_D_FFTS},
    **{f"fft.{n}": [("x", P), ("s", K), ("axes", K), ("norm", K)] for n in N_D_FFTS},
}


def _function(xp: Any, name: str) -> Any:
    owner, _, short = name.rpartition(".")
    return getattr(getattr(xp, owner) if owner else xp, short)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", STANDARD)
def test_one_array_functions_have_the_standards_signature(backend: str, name: str) -> None:
    # The suite's test_signatures: one-array functions built by a factory took (x, /, *args, **kwargs).
    params = inspect.signature(_function(namespace(backend), name)).parameters.values()
    assert [(p.name, p.kind) for p in params] == STANDARD[name]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_signed_keywords_still_reach_the_backend(backend: str) -> None:
    xp = namespace(backend)
    x = xp.asarray([[1.0, 5.0], [3.0, 2.0]], dtype=xp.float64)
    results = {
        "max": xp.max(x, axis=0, keepdims=True),
        "std": xp.std(x, axis=1, correction=1, keepdims=False),
        "argmin": xp.argmin(x, axis=1, keepdims=True),
        "vector_norm": xp.linalg.vector_norm(x, axis=0, keepdims=True, ord=1),
        "fft": xp.fft.fft(xp.astype(x, xp.complex128), n=3, axis=0, norm="ortho"),
    }
    assert {k: tuple(v.shape) for k, v in results.items()} == {
        "max": (1, 2),
        "std": (2,),
        "argmin": (2, 1),
        "vector_norm": (1, 2),
        "fft": (3, 2),
    }
    if has_values(xp):
        np.testing.assert_array_equal(to_numpy(results["max"]), [[3.0, 5.0]])
        np.testing.assert_array_equal(to_numpy(results["argmin"]), [[0], [1]])
        np.testing.assert_array_equal(to_numpy(results["vector_norm"]), [[4.0, 7.0]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_broadcast_shapes_raises_value_error_on_every_backend(backend: str) -> None:
    # The suite's TestBroadcastShapes::test_error: torch's own broadcast_shapes raises RuntimeError.
    xp = namespace(backend)
    assert xp.broadcast_shapes() == ()
    assert xp.broadcast_shapes((2, 1), (3,), (1, 1, 1)) == (1, 2, 3)
    assert xp.broadcast_shapes((0,), (1,)) == (0,)
    assert xp.broadcast_shapes((None, 1), (1, 4)) == (None, 4)  # an unknown size stays unknown
    assert xp.broadcast_shapes((None,), (5,)) == (5,)  # the only size it can have
    with pytest.raises(ValueError, match="do not broadcast"):
        xp.broadcast_shapes((4,), (3,))
    with pytest.raises(ValueError, match="do not broadcast"):
        xp.broadcast_shapes((2, 3), (1, 3), (4, 1))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["pinv", "matrix_rank"])
def test_an_array_rtol_reaches_the_backend_as_its_own_array(backend: str, name: str) -> None:
    # The suite's test_pinv: torch's linalg.pinv refused a promo_ns array as rtol.
    xp = namespace(backend)
    x = xp.asarray([[[2.0, 0.0], [0.0, 1e-3]], [[1.0, 0.0], [0.0, 1.0]]], dtype=xp.float32)
    rtol = xp.asarray([0.1, 0.1], dtype=xp.float32)
    out = getattr(xp.linalg, name)(x, rtol=rtol)
    expected = {"pinv": (x.shape, xp.float32), "matrix_rank": ((2,), xp.int64)}[name]
    assert (tuple(out.shape), out.dtype) == expected
    if has_values(xp) and name == "matrix_rank":
        np.testing.assert_array_equal(to_numpy(out), [1, 2])
    empty = xp.zeros((0, 1, 1), dtype=xp.float32)
    assert (
        tuple(getattr(xp.linalg, name)(empty, rtol=xp.zeros((0,), dtype=xp.float32)).shape)
        == {
            "pinv": (0, 1, 1),
            "matrix_rank": (0,),
        }[name]
    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("correction", [0.5, 1.25])
def test_std_takes_a_fractional_correction(backend: str, correction: float) -> None:
    # The suite's test_std: array-api-compat's torch std refuses a fractional correction.
    xp = namespace(backend)
    data = [[1.0, 2.0, 4.0, 8.0], [3.0, 3.0, 3.0, 4.0]]
    for dtype in (xp.float32, xp.float64):
        out = xp.std(xp.asarray(data, dtype=dtype), axis=1, correction=correction, keepdims=True)
        assert (tuple(out.shape), out.dtype) == ((2, 1), dtype)
        if has_values(xp):
            expected = np.std(np.asarray(data), axis=1, ddof=correction, keepdims=True)
            np.testing.assert_allclose(to_numpy(out), expected, rtol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
def test_std_of_a_fractional_correction_has_the_policys_dtype(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    for dtype in (xp.int16, xp.float32):
        x = xp.asarray([[1, 2, 4], [3, 3, 4]], dtype=dtype)
        try:
            whole = xp.std(x, axis=0, correction=1.0)
        except TypeError as e:  # the policy refuses std of this dtype: so it does with any correction
            with pytest.raises(type(e)):
                xp.std(x, axis=0, correction=0.5)
            continue
        assert xp.std(x, axis=0, correction=0.5).dtype == whole.dtype


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_unique_all_on_every_backend(backend: str) -> None:
    # The suite's test_unique_all: torch (array-api-compat) has no unique_all.
    xp = namespace(backend)
    nan = float("nan")
    x = xp.asarray([[3.0, nan, 1.0], [3.0, -0.0, nan], [0.0, 1.0, 7.0]])
    out = xp.unique_all(x)
    assert out._fields == ("values", "indices", "inverse_indices", "counts")
    np.testing.assert_array_equal(to_numpy(out.values), [0.0, 1.0, 3.0, 7.0, nan, nan])
    assert to_numpy(out.indices).tolist() == [4, 2, 0, 8, 1, 5]  # each value's first flat index
    assert to_numpy(out.inverse_indices).tolist() == [[2, 4, 1], [2, 0, 5], [0, 1, 3]]
    assert to_numpy(out.counts).tolist() == [2, 2, 2, 1, 1, 1]
    assert [a.dtype for a in out] == [xp.float64, xp.int64, xp.int64, xp.int64]
    empty = xp.unique_all(xp.zeros((0, 2), dtype=xp.int8))
    assert [(tuple(a.shape), a.dtype) for a in empty] == [
        ((0,), xp.int8),
        ((0,), xp.int64),
        ((0, 2), xp.int64),
        ((0,), xp.int64),
    ]
    flags = xp.unique_all(xp.asarray([True, False, True]))
    assert to_numpy(flags.indices).tolist() == [1, 0] and to_numpy(flags.counts).tolist() == [1, 2]


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
@pytest.mark.parametrize("name", ["unique_all", "unique_counts", "unique_inverse", "unique_values"])
def test_unique_of_complex_numbers_as_numpy_gives_it(backend: str, name: str) -> None:
    # torch has no unique kernel for complex numbers: promo_ns tells them apart by their parts.
    xp, nan, inf = namespace(backend), float("nan"), float("inf")
    data = [1 + 2j, 1 + 2j, 3j, complex(inf, 1), 1 - 2j, complex(-0.0, 3), complex(nan, 0), 1 + 2j]
    out = getattr(xp, name)(xp.reshape(xp.asarray(data, dtype=xp.complex64), (2, 4)))
    expected = getattr(namespace("numpy"), name)(namespace("numpy").asarray(np.reshape(data, (2, 4))))
    if name == "unique_values":
        out, expected = (out,), (expected,)
    assert type(out).__name__ == type(expected).__name__
    assert [a.dtype.name for a in out] == [a.dtype.name.replace("128", "64") for a in expected]
    for got, want in zip(out, expected, strict=True):
        np.testing.assert_array_equal(to_numpy(got), to_numpy(want))


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_unique_refuses_in_promo_ns_words_where_no_backend_path_exists(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    xp = namespace(backend)
    compat = xp._backend.compat

    def refuse(x: Any) -> Any:
        raise NotImplementedError("no kernel")

    monkeypatch.setattr(compat, "unique_values", refuse)
    monkeypatch.setattr(compat, "unique_inverse", refuse)
    with pytest.raises(TypeError, match=f"{xp._backend.name} has no 'unique_values' for int8"):
        xp.unique_values(xp.asarray([1, 2], dtype=xp.int8))


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32"])
def test_setitem_with_a_bool_mask_is_no_out_of_bounds_index(backend: str, dtype: str) -> None:
    # The suite's test_setitem_masking: torch's bounds check read the mask [True] as the index 1.
    xp = namespace(backend)
    x = xp.zeros((1,), dtype=getattr(xp, dtype))
    x[xp.asarray([True])] = True if dtype == "bool" else 1
    assert to_numpy(x).tolist() == [1]
    y = xp.zeros((2, 2), dtype=getattr(xp, dtype))
    y[xp.asarray([[True, False], [False, True]])] = True if dtype == "bool" else 1
    assert to_numpy(y).tolist() == [[1, 0], [0, 1]]
    with pytest.raises(IndexError, match="out of bounds"):
        y[xp.asarray([0, 2])] = False if dtype == "bool" else 0
        to_numpy(y)  # a lazy backend (Dask) checks index arrays when it computes
    if backend != "dask":
        assert to_numpy(y).tolist() == [[1, 0], [0, 1]]
