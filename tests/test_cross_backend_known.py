"""Every backend gives the NumPy backend's outcome where torch (or Dask) had no kernel of its own.

Each case was a known cross-backend difference (``conformance/probe/_known.py``):
torch's RuntimeError where NumPy computes, a fill value torch checks in its
own words, a kernel error before promo_ns's refusal, the NumPy backend's
float32 ``matrix_power`` of bfloat16, Dask's refused ``diff`` of bool.  Each
runs on every backend and its outcome (result dtypes, shapes and values, or
the error's class) is compared with the NumPy backend's; torch's ``meta``
device compares dtypes and shapes.
"""

from __future__ import annotations

import array
import math
import operator
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import promo_ns
from promo_ns._dtypes import canonical
from tests.backends import BACKENDS, POLICIES, close, has_values, namespace, to_numpy

_NAN = float("nan")

#: name -> (policy, the call on a namespace).
CASES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    # torch has no isin/searchsorted of bool or complex, no sort/argsort/max/min/argmax of complex
    "isin-bool": ("numpy", lambda xp: xp.isin(xp.asarray([True, False]), xp.asarray([True]))),
    "isin-bool-invert": (
        "numpy",
        lambda xp: xp.isin(xp.asarray([True, False]), xp.asarray([True]), invert=True),
    ),
    "isin-complex": (
        "numpy",
        lambda xp: xp.isin(xp.asarray([1 + 1j, 2, _NAN, -0.0]), xp.asarray([[2 + 0j, 1 + 1j], [_NAN, 0]])),
    ),
    "isin-bool-complex": ("numpy", lambda xp: xp.isin(xp.asarray([True, False]), xp.asarray([1 + 0j]))),
    "searchsorted-complex": (
        "numpy",
        lambda xp: xp.searchsorted(xp.asarray([1 + 0j, 1 + 1j, 2]), xp.asarray([1 + 0.5j, 3, 0, 1 + 1j])),
    ),
    "searchsorted-complex-right": (
        "numpy",
        lambda xp: xp.searchsorted(xp.asarray([1 + 0j, 1 + 1j, 2]), xp.asarray([1 + 1j]), side="right"),
    ),
    # found in review: torch's search compares with <, so NaN in x1 misled it; NumPy sorts NaN last
    "searchsorted-nan": (
        "array-api",
        lambda xp: xp.searchsorted(
            xp.asarray([1.0, float("inf"), _NAN, _NAN]), xp.asarray([_NAN, 5.0, float("inf")])
        ),
    ),
    "searchsorted-nan-right": (
        "array-api",
        lambda xp: xp.searchsorted(
            xp.asarray([1.0, 2.0, _NAN]), xp.asarray([_NAN, 2.0, float("inf")]), side="right"
        ),
    ),
    "searchsorted-nan-scalar": ("array-api", lambda xp: xp.searchsorted(xp.asarray([1.0, _NAN]), _NAN)),
    "searchsorted-bool": (
        "numpy",
        lambda xp: xp.searchsorted(xp.asarray([False, True]), xp.asarray([True, False]), side="right"),
    ),
    "sort-complex": (
        "numpy",
        lambda xp: xp.sort(xp.asarray([[2 + 1j, 1 + 3j, 2 - 1j], [0, -1j, 1]]), axis=1),
    ),
    "sort-complex-descending": (
        "numpy",
        lambda xp: xp.sort(xp.asarray([[2 + 1j, 1 + 3j], [2 - 1j, 0]]), axis=0, descending=True),
    ),
    "argsort-complex": ("numpy", lambda xp: xp.argsort(xp.asarray([2 + 1j, 1 + 3j, 2 - 1j, 1 + 3j]))),
    "max-complex": ("numpy", lambda xp: xp.max(xp.asarray([[2 + 1j, 1 + 3j], [2 - 1j, 0]]))),
    "max-complex-axis": (
        "numpy",
        lambda xp: xp.max(xp.asarray([[2 + 1j, 1 + 3j], [2 - 1j, 0]]), axis=0, keepdims=True),
    ),
    "min-complex-axis": ("numpy", lambda xp: xp.min(xp.asarray([[2 + 1j, 1 + 3j], [2 - 1j, 0]]), axis=1)),
    "max-complex-nan": ("numpy", lambda xp: xp.max(xp.asarray([2 + 1j, complex(_NAN, 0), 5]))),
    "min-complex-nan": ("numpy", lambda xp: xp.min(xp.asarray([2 + 1j, complex(_NAN, 0), 5]))),
    "argmax-complex": (
        "numpy",
        lambda xp: xp.argmax(xp.asarray([[2 + 1j, 1 + 3j], [2 - 1j, 0]]), axis=1, keepdims=True),
    ),
    "argmin-complex": ("numpy", lambda xp: xp.argmin(xp.asarray([[2 + 1j, 1 + 3j], [2 - 1j, 0]]))),
    "argmax-bool": ("numpy", lambda xp: xp.argmax(xp.asarray([False, True, True]))),
    # torch has no bool products
    "matmul-bool": (
        "numpy",
        lambda xp: xp.matmul(
            xp.asarray([[True, False], [False, False]]), xp.asarray([[True, True], [True, False]])
        ),
    ),
    "matmul-bool-operator": (
        "pytorch",
        lambda xp: xp.asarray([[True, False]]) @ xp.asarray([[True], [True]]),
    ),
    "tensordot-bool": (
        "pytorch",
        lambda xp: xp.tensordot(xp.asarray([[True, False]]), xp.asarray([[False], [True]]), axes=1),
    ),
    "linalg.tensordot-bool": (
        "pytorch",
        lambda xp: xp.linalg.tensordot(xp.asarray([[True, False]]), xp.asarray([[True, True]]), axes=2),
    ),
    "vecdot-bool": ("numpy", lambda xp: xp.vecdot(xp.asarray([[True, False]]), xp.asarray([[False, True]]))),
    "matrix_power-bool": (
        "numpy",
        lambda xp: xp.linalg.matrix_power(xp.asarray([[True, True], [False, True]]), 3),
    ),
    "matrix_power-bool-0": (
        "numpy",
        lambda xp: xp.linalg.matrix_power(xp.asarray([[False, True], [False, False]]), 0),
    ),
    # torch's linspace with a complex bound into a real dtype
    "linspace-complex-bool": ("numpy", lambda xp: xp.linspace(0, 1 + 1j, 3, dtype=xp.bool)),
    "linspace-complex-float32": ("pytorch", lambda xp: xp.linspace(0, 1 + 1j, 3, dtype=xp.float32)),
    "linspace-complex-int8": ("numpy", lambda xp: xp.linspace(0, 1 + 1j, 3, dtype=xp.int8)),
    # a fill value beyond the dtype: NumPy's cast or OverflowError
    "full-negative-uint16": ("pytorch", lambda xp: xp.full((2,), -1, dtype=xp.uint16)),
    "full-255-int8": ("numpy", lambda xp: xp.full((2,), 255, dtype=xp.int8)),
    "full-complex-bfloat16": ("pytorch", lambda xp: xp.full((2,), 1.5 + 0.5j, dtype=xp.bfloat16)),
    "full-nan-int8": ("numpy", lambda xp: xp.full((2,), _NAN, dtype=xp.int8)),
    "full_like-255-int8": ("numpy", lambda xp: xp.full_like(xp.asarray([1], dtype=xp.int8), 255)),
    "full_like-float-int8": ("pytorch", lambda xp: xp.full_like(xp.asarray([1], dtype=xp.int8), 70000.0)),
    "full_like-nan-int16": ("pytorch", lambda xp: xp.full_like(xp.asarray([1], dtype=xp.int16), _NAN)),
    "full_like-big-bool": ("numpy", lambda xp: xp.full_like(xp.asarray([True]), 2**64 - 1)),
    "asarray-float-int8": ("numpy", lambda xp: xp.asarray(65504.0, dtype=xp.int8)),
    "asarray-inf-uint8": ("numpy", lambda xp: xp.asarray(-math.inf, dtype=xp.uint8)),
    # torch's meshgrid of mixed dtypes
    "meshgrid-xy": ("numpy", lambda xp: xp.meshgrid(xp.asarray([True, False]), xp.asarray([1 + 1j, 2, 3]))),
    "meshgrid-ij": (
        "pytorch",
        lambda xp: xp.meshgrid(
            xp.asarray([1, 2], dtype=xp.int8),
            xp.asarray([1.5]),
            xp.asarray([3, 4, 5], dtype=xp.uint8),
            indexing="ij",
        ),
    ),
    # the refusal (or the missing kernel) alike on every backend, before anything runs
    "invert-float-operator": ("pytorch", lambda xp: ~xp.asarray([1.5])),
    "invert-bfloat16-operator": ("numpy", lambda xp: ~xp.asarray(1.5, dtype=xp.bfloat16)),
    "subtract-bool": ("tf-safe", lambda xp: xp.subtract(xp.asarray([True]), xp.asarray([False]))),
    "subtract-bool-operator": ("tf-safe", lambda xp: xp.asarray([True]) - xp.asarray([False])),
    "cross-bool": (
        "numpy",
        lambda xp: xp.linalg.cross(xp.asarray([True, False, True]), xp.asarray([True, True, False])),
    ),
    "solve-float16": (
        "numpy",
        lambda xp: xp.linalg.solve(
            xp.asarray([[2.0, 1], [1, 3]], dtype=xp.float16), xp.asarray([[1.0], [0]], dtype=xp.float16)
        ),
    ),
    # linalg in a wider dtype, as NumPy computes it
    "solve-bfloat16": (
        "pytorch",
        lambda xp: xp.linalg.solve(
            xp.asarray([[2.0, 1], [1, 3]], dtype=xp.bfloat16),
            xp.asarray([[1.0, 0], [0, 1]], dtype=xp.bfloat16),
        ),
    ),
    "matrix_rank-int8": (
        "numpy",
        lambda xp: xp.linalg.matrix_rank(xp.asarray([[2, 1], [4, 2]], dtype=xp.int8)),
    ),
    "matrix_rank-bool": (
        "numpy",
        lambda xp: xp.linalg.matrix_rank(xp.asarray([[True, False], [False, True]])),
    ),
    "matrix_power-bfloat16": (
        "numpy",
        lambda xp: xp.linalg.matrix_power(xp.asarray([[2, 1], [4, 2]], dtype=xp.bfloat16), 2),
    ),
    "matrix_power-n-keyword": (
        "numpy",
        lambda xp: xp.linalg.matrix_power(xp.asarray([[1, 2], [3, 4]], dtype=xp.int16), n=2),
    ),
    # arange of float bounds into an integer dtype: NumPy's length and values
    "arange-float-stop-int64": ("numpy", lambda xp: xp.arange(3.5, dtype=xp.int64)),
    "arange-float-step-int8": ("pytorch", lambda xp: xp.arange(0, 2, 0.5, dtype=xp.int8)),
    "arange-float-negative-step": ("numpy", lambda xp: xp.arange(5, 1, -1.5, dtype=xp.int32)),
    # Dask's diff subtracts, which bools refuse
    "diff-bool": ("pytorch", lambda xp: xp.diff(xp.asarray([[True, False, False, True]]))),
    "diff-bool-n2-ends": (
        "numpy",
        lambda xp: xp.diff(
            xp.asarray([True, False, False]), n=2, prepend=xp.asarray([True]), append=xp.asarray([True])
        ),
    ),
    # the buffer protocol: the buffer's own dtype (torch read every buffer as float32, the others as
    # Python data of the policy's default dtype); bytes are NumPy's string scalars, refused
    "asarray-memoryview-int16": ("numpy", lambda xp: xp.asarray(np.arange(3, dtype=np.int16).data)),
    "asarray-array-double": ("pytorch", lambda xp: xp.asarray(array.array("d", [1.5, -2.0]))),
    "asarray-bytearray": ("array-api", lambda xp: xp.asarray(bytearray(b"\x01\xff"))),
    "asarray-bytearray-float32": ("array-api", lambda xp: xp.asarray(bytearray(b"\x01"), dtype=xp.float32)),
    "asarray-bytes": ("array-api", lambda xp: xp.asarray(b"\x01\x02")),
    "asarray-buffer-Q": ("numpy", lambda xp: xp.asarray(memoryview(array.array("Q", [2**64 - 1, 5])))),
    "asarray-buffer-big-endian": ("numpy", lambda xp: xp.asarray(np.arange(3, dtype=">i4").data)),
    # JAX shares only compact, writable buffers: it copies the others (copy=None); torch aborted on reversed
    "from_dlpack-reversed": ("numpy", lambda xp: xp.from_dlpack(np.arange(5)[::-1])),
    "from_dlpack-strided": ("numpy", lambda xp: xp.from_dlpack(np.arange(12.0).reshape(3, 4)[:, ::2])),
    "from_dlpack-readonly": ("numpy", lambda xp: xp.from_dlpack(_read_only(np.arange(4, dtype=np.int32)))),
}


def _read_only(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    x.flags.writeable = False
    return x


#: (case, backend) pairs still differing, left to the backend's adapter.
_LEFT = {
    ("max-complex-nan", "jax"): "JAX's complex max skips a NaN (NumPy's propagates it)",
    ("min-complex-nan", "jax"): "JAX's complex min skips a NaN (NumPy's propagates it)",
    ("argmax-complex", "jax"): "JAX has no complex argmax",
    ("argmin-complex", "jax"): "JAX has no complex argmin",
    ("solve-bfloat16", "jax"): "JAX's solve has no bfloat16 (NumPy's computes in float64)",
    ("solve-float16", "dask"): "Dask's solve computes float16, where NumPy's linalg has no float16",
}


def _outcome(xp: Any, call: Callable[[Any], Any]) -> tuple[str, Any]:
    """``("error", class name)`` or ``("result", [(dtype, shape, values or None), ...])``."""
    values = has_values(xp)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call(xp)
            parts = out if isinstance(out, (tuple, list)) else (out,)
            assert all(isinstance(p, promo_ns.Array) for p in parts), parts
            return "result", [(str(p.dtype), tuple(p.shape), to_numpy(p) if values else None) for p in parts]
    except AssertionError:
        raise
    except Exception as e:  # Dask's errors come when its graph is computed
        return "error", type(e).__name__


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(CASES))
def test_outcome_is_numpy_backends(backend: str, case: str) -> None:
    if (case, backend) in _LEFT:
        pytest.xfail(_LEFT[case, backend])
    policy, call = CASES[case]
    if backend == "cupy" and "bfloat16" in case:  # CuPy has no bfloat16 dtype: promo_ns says so
        with pytest.raises(TypeError, match="the cupy backend has no bfloat16 dtype"):
            call(namespace(backend, policy))
        return
    kind, want = _outcome(namespace("numpy", policy), call)
    got_kind, got = _outcome(namespace(backend, policy), call)
    assert (got_kind, got if kind == "error" else None) == (kind, want if kind == "error" else None)
    if kind == "error":
        return
    assert [(d, s) for d, s, _ in got] == [(d, s) for d, s, _ in want]
    for (dtype, _, g), (_, _, w) in zip(got, want, strict=True):
        assert g is None or close(g, w, canonical(dtype)), (g, w)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_kernel_is_promo_ns_error(backend: str) -> None:
    """A kernel no backend has is promo_ns's TypeError naming the op, never the library's own words."""
    xp = namespace(backend, "tf-safe")
    with pytest.raises(TypeError, match="'subtract' kernel for bool"):
        xp.asarray([True]) - xp.asarray([False])
    xp = namespace(backend, "pytorch")  # torch has no bitwise_not of floats ("not implemented for 'Float'")
    with pytest.raises(TypeError, match="'bitwise_invert' kernel for float32"):
        ~xp.asarray([1.5])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["numpy", "array-api", "tf-safe", "tf-all", "tf-legacy"])
def test_bitwise_invert_of_a_float_is_the_policys_refusal(backend: str, policy: str) -> None:
    """NumPy, array-api-strict and TF take bool and integers only: ``~float`` is refused before any kernel."""
    xp = namespace(backend, policy)
    with pytest.raises(promo_ns.PromotionError, match=r"bitwise_invert\(x: float(32|64) array\)"):
        ~xp.asarray([1.5])
    with pytest.raises(promo_ns.PromotionError, match=r"xp\.int64"):
        xp.bitwise_invert(xp.asarray([1.5]))


_SPACED_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float32"]
#: Bounds: ints and floats within and beyond the dtypes; no tiny float, whose spacing XLA's CPU
#: would flush to 0 (subnormal, a documented deviation of JAX's values).
_BOUNDS = (
    st.integers(-300, 70000)
    | st.integers(-2400, 2400).map(lambda i: i / 8)
    | st.sampled_from([0.1, -3.7, 1e10, 2**40, -(2**63), 2**64, math.nan, math.inf])
)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=80)
@given(
    start=_BOUNDS,
    stop=_BOUNDS,
    num=st.integers(0, 12),
    endpoint=st.booleans(),
    dtype=st.sampled_from(_SPACED_DTYPES),
)
def test_linspace_gives_the_numpy_backends_values_and_errors(
    backend: str, start: float, stop: float, num: int, endpoint: bool, dtype: str
) -> None:
    """NumPy's values of an integer or bool ``linspace`` (its float64 spacing, floored), or its refusal.

    Was: torch truncated toward zero and spaced otherwise (``linspace(-10, 10, 7, dtype=int8)`` had
    -6 where NumPy has -7), JAX spaced otherwise (-26 for -25), a bound beyond the dtype was NumPy's
    undefined cast and torch's RuntimeError.  float32 values agree to 4 units of its precision of the
    bounds' magnitude (torch and JAX space in float32: a value near 0 is off by such units).
    """
    call = partial(_spaced, start, stop, num, endpoint, dtype)
    want = _outcome(namespace("numpy", "numpy"), call)
    got = _outcome(namespace(backend, "numpy"), call)
    if dtype != "float32" or want[0] == "error" or got[0] == "error" or got[1][0][2] is None:
        assert _same(got, want), (got, want)
        return
    units = 4 * float(np.finfo(np.float32).eps) * max(1.0, abs(float(start)), abs(float(stop)))
    assert got[1][0][:2] == want[1][0][:2] and np.allclose(got[1][0][2], want[1][0][2], rtol=0, atol=units)


def _spaced(start: float, stop: float, num: int, endpoint: bool, dtype: str, xp: Any) -> Any:
    return xp.linspace(start, stop, num, dtype=getattr(xp, dtype), endpoint=endpoint)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [d for d in _SPACED_DTYPES if d not in ("bool", "float32")])
def test_an_int_beyond_the_dtype_is_promo_ns_s_error_in_creation(backend: str, dtype: str) -> None:
    """``full``, ``full_like`` and ``linspace`` refuse an int the dtype cannot hold, in promo_ns's words.

    Was: NumPy's "Python integer 300 out of bounds for int8" (and "Python int too large to convert to C
    long"), a lazy Dask array, NumPy's undefined cast in ``linspace`` and torch's RuntimeError.
    """
    xp = namespace(backend, "numpy")
    lo, hi = (int(v) for v in (np.iinfo(dtype).min, np.iinfo(dtype).max))
    target = getattr(xp, dtype)
    for value in (lo - 1, hi + 1):
        with pytest.raises(
            OverflowError, match=rf"full\(\) cannot fill an? {dtype} array with the Python int"
        ):
            xp.full((2,), value, dtype=target)
        with pytest.raises(OverflowError, match=rf"full_like\(\) cannot fill an? {dtype} array"):
            xp.full_like(xp.zeros(2, dtype=target), value)
        with pytest.raises(OverflowError, match=rf"linspace\(\) cannot space {dtype} values from 0 to"):
            xp.linspace(0, 2 * value, 3, dtype=target)  # beyond the dtype in float64 too
    top = hi if hi < 2**53 else int(np.nextafter(float(hi), 0))  # linspace spaces in float64, as NumPy
    with pytest.raises(OverflowError, match="as NumPy computes it in float64 and floors"):
        xp.linspace(lo, hi, 2, dtype=target) if top < hi else xp.linspace(lo - 0.5, hi, 2, dtype=target)
    if has_values(xp):
        assert to_numpy(xp.full((1,), hi, dtype=target)).tolist() == [hi]
        assert to_numpy(xp.linspace(lo, top, 2, dtype=target)).tolist() == [lo, top]


@pytest.mark.parametrize("backend", BACKENDS)
def test_linspace_complex_bound_into_integers(backend: str) -> None:
    xp = namespace(backend, "numpy")
    with pytest.raises(TypeError, match=r"linspace\(\) cannot space int8 values"):
        xp.linspace(0, 1 + 1j, 3, dtype=xp.int8)


def test_fill_value_error_names_numpy_outcome() -> None:
    """torch fills as NumPy does: an int beyond the dtype is NumPy's OverflowError (torch: RuntimeError).

    A float beyond it is promo_ns's OverflowError on every backend (NumPy's unsafe cast filled -32).
    """
    xp = namespace("torch", "numpy")
    with pytest.raises(OverflowError):
        xp.full((2,), 255, dtype=xp.int8)
    with pytest.raises(OverflowError, match="full_like"):
        xp.full_like(xp.asarray([1], dtype=xp.int8), 65504.0)
    assert np.array_equal(to_numpy(xp.full_like(xp.asarray([1], dtype=xp.int8), 127.9)), [127])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_value_that_fits_no_element_is_the_same_value_error_for_bfloat16(backend: str) -> None:
    # Before: ml_dtypes' raw TypeError 'expected number, got numpy.ndarray' on the NumPy backend.
    if backend == "cupy":
        pytest.skip("CuPy has no bfloat16 dtype (promo_ns refuses it: tests/test_gpu_cupy_errors.py)")
    xp = namespace(backend, "pytorch")
    x = xp.zeros(4, dtype=xp.bfloat16)
    with pytest.raises(ValueError, match="setitem"):
        x[0] = xp.zeros(2, dtype=xp.bool)


# --- the functions whose dtype the standard gives (conj, real, imag, all, ...) --------------------


def _delegated_outcomes(backend: str, policy: str) -> dict[tuple[str, str], str]:
    """(function, dtype) -> the result's dtype, or the error's class, of every DELEGATED_DTYPES function."""
    from promo_ns._dtypes import DTYPES
    from promo_ns._ops import DELEGATED_DTYPES

    xp = namespace(backend, policy)
    out = {}
    for dtype in DTYPES:
        try:
            x = xp.asarray([1, 0], dtype=getattr(xp, dtype.name))
        except TypeError:  # a dtype the backend lacks (CuPy's bfloat16)
            continue
        for name in DELEGATED_DTYPES:
            try:
                out[(name, dtype.name)] = str(getattr(xp, name)(x).dtype)
            except Exception as e:
                out[(name, dtype.name)] = type(e).__name__
    return out


@pytest.mark.parametrize("policy", promo_ns.policies())
@pytest.mark.parametrize("backend", [b for b in BACKENDS if b != "numpy"])
def test_the_standards_one_array_dtypes_are_the_numpy_backends(backend: str, policy: str) -> None:
    # was: conj of bool was int8 on the NumPy backend (NumPy's conjugate has no bool loop), bool on
    # torch and JAX, under every policy: the backend decided. Now the policy does (NumPy's int8 under
    # numpy, the standard's bool elsewhere), on every backend.
    want, got = _delegated_outcomes("numpy", policy), _delegated_outcomes(backend, policy)
    # meta has every kernel: where NumPy has none (signbit of complex), it computes a dtype
    missing = {c for c, v in want.items() if v == "TypeError"} if backend == "torch:meta" else set()
    differ = {c: (want[c], got[c]) for c in got if got[c] != want[c] and c not in missing}
    assert not differ, f"(function, dtype): (numpy backend, {backend}) {differ}"


def test_the_numpy_policys_conj_of_bool_is_numpys() -> None:
    from promo_ns._dtypes import bool_, int8

    assert promo_ns.get_policy("numpy").delegated == {("conj", bool_): int8}
    for backend in ("numpy", "torch"):
        xp = namespace(backend, "numpy")
        assert str(xp.conj(xp.asarray([True])).dtype) == str(np.conj(np.asarray([True])).dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_arange_of_bool_is_numpys_on_every_backend(backend: str) -> None:
    # was: torch computed arange(0, 3, dtype=bool) as [False, True, True], JAX raised its own TypeError
    xp = namespace(backend, "numpy")
    for bounds in [(0, 2), (1, 3), (0, 1), (0.5, 1.5), (2, 0, -1), (0, 0), (2,)]:
        got = xp.arange(*bounds, dtype=xp.bool)
        assert got.dtype == xp.bool
        if has_values(xp):
            assert to_numpy(got).tolist() == np.arange(*bounds, dtype=bool).tolist(), bounds
    with pytest.raises(TypeError, match="at most 2 values"):
        xp.arange(0, 3, dtype=xp.bool)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["tf-safe", "numpy"])
def test_arange_beyond_its_integer_dtype_raises_on_every_backend(backend: str, policy: str) -> None:
    # was (hostile review): tf-safe's int32 arange(2**40, 2**40 + 2) gave [0, 1] on torch, wrapped
    xp = namespace(backend, policy)
    default = promo_ns.get_policy(policy).defaults["int"]
    lo, hi = (-(2**31), 2**31 - 1) if str(default) == "int32" else (-(2**63), 2**63 - 1)
    for bounds in [(hi - 1, hi + 2), (2**40 if hi < 2**40 else 2**64, 2**64 + 2), (lo, lo - 3, -1)]:
        with pytest.raises(OverflowError, match=r"arange\(\) from .* out of range"):
            xp.arange(*bounds)
    with pytest.raises(OverflowError, match=r"out of range of int8 \(-128..127\); pass dtype=xp.int64"):
        xp.arange(300, dtype=xp.int8)
    fitting = [(hi, hi - 10**9, -(10**8)), (5, 0), (-3, 4, 2)]  # torch takes no bound beyond int64
    for bounds in [*fitting, *([(hi - 1, hi + 1), (lo + 1, lo - 1, -1)] if hi < 2**31 else [])]:
        got = xp.arange(*bounds)
        assert str(got.dtype) == str(default)
        if has_values(xp):
            assert to_numpy(got).tolist() == list(range(*bounds)), bounds


@pytest.mark.parametrize("bounds", [(0, float("nan")), (0, float("inf")), (0, 10**400)])
def test_arange_of_bool_without_a_count_raises(bounds: tuple[Any, ...]) -> None:
    # found in review: these gave an empty array; NumPy raises
    xp = namespace("numpy", "numpy")
    with pytest.raises(ValueError, match="arange"):
        xp.arange(*bounds, dtype=xp.bool)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_nan_bound_into_an_integer_array_is_promo_ns_s_error(backend: str) -> None:
    # was (a random hypothesis find): NumPy's raw "cannot convert float NaN to integer" from clip
    xp = namespace(backend, "paddle")
    x = xp.asarray([0, 0], dtype=xp.int8)
    with pytest.raises(ValueError, match=r"clip\(\): \(nan\+1j\) has no int8 value"):
        xp.clip(x, None, complex(float("nan"), 1))


def _same(a: tuple[str, Any], b: tuple[str, Any], *, ulps: int = 0) -> bool:
    """Whether two outcomes of :func:`_outcome` agree (values NaN-equal where both have them, to ``ulps``)."""
    if a[0] != b[0] or a[0] == "error":
        return a == b
    return all(
        da == db and sa == sb and (va is None or vb is None or _equal(va, vb, ulps))
        for (da, sa, va), (db, sb, vb) in zip(a[1], b[1], strict=True)
    )


def _equal(a: Any, b: Any, ulps: int) -> bool:
    """NaN-equal values; floats to ``ulps`` units of their dtype's precision (integers exactly)."""
    if ulps and a.dtype.kind in "fc":
        rtol = ulps * float(np.finfo(a.dtype).eps)
        return bool(np.allclose(a, b, rtol=rtol, atol=0.0, equal_nan=True))
    return bool(np.array_equal(a, b, equal_nan=True))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["pytorch", "paddle", "numpy", "jax"])
def test_a_narrowed_0d_base_to_negative_powers_is_numpy_backends(backend: str, policy: str) -> None:
    # was (hostile review): NumPy and Dask took 0-d uint8 255 ** int8 [-5] as 255's power, not int8 -1's
    cases = [(255, "uint8"), (254, "uint8"), (65535, "uint16"), (1, "uint8"), (-1, "int16")]
    exponents = [3, -128, -5, 2, -1, 0]
    for base, dtype in cases:

        def call(xp: Any, base: int = base, dtype: str = dtype) -> Any:
            return xp.asarray(base, dtype=getattr(xp, dtype)) ** xp.asarray(exponents, dtype=xp.int8)

        xp = namespace(backend, policy)
        got, want = _outcome(xp, call), _outcome(namespace("numpy", policy), call)
        if has_values(xp) or want[0] == "result":  # on the meta device no value raises
            assert _same(got, want), (base, dtype, got, want)
        if policy == "pytorch" and backend == "numpy":  # and torch itself
            torch = pytest.importorskip("torch")
            native = torch.tensor(base).to(getattr(torch, dtype)) ** torch.tensor(exponents, dtype=torch.int8)
            assert got[0] == "result" and got[1][0][2].tolist() == native.tolist(), (base, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
def test_statistics_of_bool_are_numpy_backends(backend: str, policy: str) -> None:
    # was (hostile review): paddle's bool mean of [True, False, True] was False on torch (uint8's 0)
    for name in ("mean", "std", "var"):
        for values in ([True, False, True], [False, False], [True]):

            def call(xp: Any, name: str = name, values: list[bool] = values) -> Any:
                return getattr(xp, name)(xp.asarray(values))

            got, want = _outcome(namespace(backend, policy), call), _outcome(namespace("numpy", policy), call)
            # a few ulps: each library sums in its own order (CUDA's std of float32 was one ulp off)
            assert _same(got, want, ulps=4), (name, values, got, want)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_function_that_cannot_compute_on_its_input_says_so(backend: str) -> None:
    # was (hostile review): torch's singular inv, empty max, matrix_norm of a vector were "no kernel"
    xp = namespace(backend, "array-api")
    calls: dict[str, Callable[[], Any]] = {
        "linalg.inv": lambda: xp.linalg.inv(xp.zeros((2, 2))),
        "linalg.cholesky": lambda: xp.linalg.cholesky(-xp.eye(2)),
        "max": lambda: xp.max(xp.ones((0, 3))),
        "linalg.matrix_norm": lambda: xp.linalg.matrix_norm(xp.ones(3)),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError) as caught:
            call()
        assert "kernel" not in str(caught.value), (name, caught.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_reading_out_of_bounds_is_an_index_error_on_every_backend(backend: str) -> None:
    # was (hostile review): JAX clamped x[5], x[-4], x[[0, 7]] to the nearest element (a JAX index array
    # was not read back for a read: it still clamped, until torch's and CuPy's reads were checked too)
    xp = namespace(backend, "array-api")
    x = xp.asarray([1.0, 2.0, 3.0])
    keys: list[Any] = [5, -4, (xp.asarray([0, 7]),), [0, 7]]
    for key in keys:
        if not has_values(xp) and not isinstance(key, int):
            continue  # an index array's values are unknown on the meta device
        with pytest.raises(IndexError, match="out of bounds"):
            to_numpy(x[key])
    with pytest.raises(IndexError, match="out of bounds"):
        to_numpy(xp.ones((2, 3))[1, 9])
    if has_values(xp):
        assert to_numpy(x[-3]).tolist() == 1.0 and to_numpy(x[1:10]).tolist() == [2.0, 3.0]


#: Python's own words where code indexes a shape past its end: never what a user should read.
_PYTHONS_WORDS = ("tuple index out of range", "list index out of range", "list assignment index out of range")


def _array_functions(xp: Any) -> list[tuple[str, int, bool]]:
    """(name, number of leading array parameters, takes ``axis``) of the namespace's functions of arrays."""
    import inspect

    found = []
    for name in sorted(n for n in dir(xp) if not n.startswith("_")):
        fn = getattr(xp, name)
        if not callable(fn) or isinstance(fn, type) or name.endswith("_like"):
            continue
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            continue
        arrays = 0
        for p in params:
            if p.kind is not p.POSITIONAL_ONLY or p.name not in ("x", "x1", "x2", "x3"):
                break
            arrays += 1
        if arrays:
            found.append((name, arrays, any(p.name == "axis" for p in params)))
    return found


@pytest.mark.parametrize("backend", BACKENDS)
def test_0d_arrays_in_every_function_get_a_clear_error_or_a_result(backend: str) -> None:
    # was (hostile review): vecdot/squeeze/sort/argmax of 0-d arrays raised Python's "tuple index out of
    # range" from inside the libraries, torch's matmul its raw RuntimeError
    xp = namespace(backend, "array-api")
    z, v = xp.asarray(2.0), xp.ones(3)
    raw: list[str] = []
    for name, arrays, axis in _array_functions(xp):
        fn = getattr(xp, name)
        calls = [(z,) * arrays, (z, v, v)[:arrays]]
        for args in calls:
            for kwargs in ({}, {"axis": 0}) if axis else ({},):
                try:
                    out = fn(*args, **kwargs)
                    for part in out if isinstance(out, (tuple, list)) else (out,):
                        if isinstance(part, promo_ns.Array):
                            to_numpy(part) if has_values(xp) else None
                except Exception as e:
                    python_words = isinstance(e, IndexError) and str(e) in _PYTHONS_WORDS
                    if python_words or type(e) in (RuntimeError, AttributeError, AssertionError):
                        raw.append(f"{name}{tuple(a.shape for a in args)} {kwargs}: {type(e).__name__}: {e}")
    assert not raw, "\n".join(raw[:10])


@pytest.mark.parametrize("backend", BACKENDS)
def test_only_a_0d_array_converts_to_a_python_scalar(backend: str) -> None:
    # was (hostile review): float(xp.ones(1)) worked on torch and Dask, raised on NumPy and JAX
    xp = namespace(backend, "array-api")
    for convert in (int, float, complex, operator.index):
        name = "operator.index" if convert is operator.index else convert.__name__
        with pytest.raises(TypeError, match=rf"only a 0-d array converts to a Python scalar with {name}"):
            convert(xp.ones(1, dtype=xp.int32))
        if has_values(xp):
            assert convert(xp.ones((), dtype=xp.int32)) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_axis_beyond_the_arrays_is_an_axis_error_on_every_backend(backend: str) -> None:
    # was (hostile review): sum(x0d, axis=0) gave a value on NumPy where Dask and JAX raised, torch
    # computed sort(x0d, axis=0), and each library raised its own error type for axis=2 of a 1-d array
    from numpy.exceptions import AxisError

    xp = namespace(backend, "array-api")
    z, v = xp.asarray(2.0), xp.ones(3)
    missed = []
    for name, arrays, axis in _array_functions(xp):
        if not axis or name in ("concat", "stack", "expand_dims"):  # axes of a sequence, or of the result
            continue
        fn = getattr(xp, name)
        for x, bad in ((z, 0), (z, -1), (v, 1), (v, -2)):
            try:
                fn(*(x,) * arrays, axis=bad)
            except AxisError:
                continue
            except Exception as e:
                missed.append(f"{name}({x.ndim}-d, axis={bad}): {type(e).__name__}: {e}")
            else:
                missed.append(f"{name}({x.ndim}-d, axis={bad}) computed")
    assert not missed, "\n".join(missed)
    assert xp.expand_dims(z, axis=0).shape == (1,) and xp.expand_dims(v, axis=-2).shape == (1, 3)
    with pytest.raises(AxisError):
        xp.expand_dims(v, axis=2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bool_floor_divide_and_remainder_without_a_kernel_is_a_type_error_on_every_backend(
    backend: str,
) -> None:
    # was (hostile review): JAX checked its int32 kernel's zero divisor first (ZeroDivisionError) where the
    # other backends found no bool kernel (TypeError)
    xp = namespace(backend, "pytorch")
    if not has_values(xp):
        pytest.skip("torch's meta device has a bool kernel of every op (no data to divide)")
    b = xp.asarray([True, False])
    for divisor in (b, False, xp.asarray([True, True])):
        for op in (operator.floordiv, operator.mod):
            with pytest.raises(TypeError, match="kernel"):
                to_numpy(op(b, divisor))


@pytest.mark.parametrize("backend", BACKENDS)
def test_take_out_of_bounds_is_an_index_error(backend: str) -> None:
    # was (hostile review): Dask's take read index 5 of 3 elements as another element; JAX's filled it
    xp = namespace(backend, "numpy")
    if not has_values(xp):
        pytest.skip("meta has no values")
    x = xp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(IndexError):
        to_numpy(xp.take(x, xp.asarray([0, 5])))
    assert to_numpy(xp.take(x, xp.asarray([2, -3]))).tolist() == [3.0, 1.0]
    # was: torch's take_along_axis read index 5 (and -4) of 3 elements as other elements on the CPU; on
    # CUDA its kernel stopped at a device-side assert, after which every CUDA call of the process failed
    for indices, axis in (([0, 5], 0), ([0, -4], 0), ([0, 3], -1)):
        with pytest.raises(IndexError, match="out of bounds"):
            to_numpy(xp.take_along_axis(x, xp.asarray(indices), axis=axis))
    assert to_numpy(xp.take_along_axis(x, xp.asarray([2, -3]), axis=0)).tolist() == [3.0, 1.0]
    # was: torch's take of an axis out of bounds was a ValueError on the CPU ("INDICES element is out of
    # DATA bounds"); a review: checking the bounds first made indices of the wrong dimensions an IndexError
    m2 = xp.reshape(xp.arange(6.0), (2, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        to_numpy(xp.take(m2, xp.asarray([5]), axis=1))
    with pytest.raises(ValueError):
        to_numpy(xp.take_along_axis(m2, xp.asarray([5]), axis=1))
    m = xp.reshape(xp.arange(6.0), (2, 3))
    assert to_numpy(xp.take(m, xp.asarray([2, 0]), axis=1)).tolist() == [[2.0, 0.0], [5.0, 3.0]]
    one = xp.take(m, xp.asarray([0]), axis=1)  # Dask's own shape for one index was the whole axis
    assert one.shape == (2, 1) and to_numpy(one).tolist() == [[0.0], [3.0]]


_INDEX_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")


def _taken(call: Callable[[Any, Any], Any], xp: Any, indices: list[int], dtype: str) -> Any:
    """``call(xp, indices)``'s values, or "IndexError"."""
    try:
        return to_numpy(call(xp, xp.asarray(indices, dtype=getattr(xp, dtype))))
    except IndexError:
        return "IndexError"


@pytest.mark.parametrize("backend", BACKENDS)
def test_index_and_count_arguments_take_every_integer_dtype(backend: str) -> None:
    # was (GPU run 4 and a probe after it): torch's take of int8, uint8 and uint16-64 indices raised its
    # own RuntimeError ("Expected dtype int32 or int64 for index") or TypeError ("ge_cpu" not
    # implemented for 'UInt16'), its searchsorted of a sorter but int64 its RuntimeError, its repeat of
    # unsigned repeats "no kernel"; NumPy's and Dask's repeat of uint64 repeats and NumPy's uint64
    # sorter raised NumPy's own TypeError/ValueError
    xp, reference = namespace(backend, "numpy"), namespace("numpy", "numpy")
    if not has_values(xp):
        pytest.skip("meta has no values")
    calls: dict[str, Callable[[Any, Any], Any]] = {
        "take": lambda xp, i: xp.take(xp.reshape(xp.arange(6.0), (2, 3)), i, axis=1),
        "take_along_axis": lambda xp, i: xp.take_along_axis(xp.asarray([1.0, 2.0, 3.0]), i, axis=0),
        "repeat": lambda xp, i: xp.repeat(xp.asarray([1.0, 2.0]), i),
        "searchsorted": lambda xp, i: xp.searchsorted(xp.asarray([3.0, 1.0]), xp.asarray([2.5]), sorter=i),
    }
    for dtype in _INDEX_DTYPES:
        for name, call in calls.items():
            for indices in ([1, 0], [0, 5]) if name.startswith("take") else ([1, 0],):
                got, want = (_taken(call, space, indices, dtype) for space in (xp, reference))
                assert str(got) == str(want), (name, dtype, indices, got, want)
    with pytest.raises(ValueError, match="side='left' or side='right'"):  # was torch's RuntimeError
        xp.searchsorted(xp.asarray([1.0, 2.0]), xp.asarray([1.5]), side="middle")
    # a review: a negative count or a sorter index out of range was torch's raw RuntimeError, and Dask
    # read a sorter of 2**63 + 1 (a uint64 cast to int64: negative) as another index
    refusals: list[Callable[[Any], Any]] = [
        lambda xp: xp.repeat(xp.asarray([1.0, 2.0]), xp.asarray([-1, 1])),
        lambda xp: xp.repeat(xp.asarray([1.0, 2.0]), xp.asarray([2**63 + 1, 1], dtype=xp.uint64)),
        *(
            lambda xp, s=s, d=d: xp.searchsorted(
                xp.asarray([3.0, 1.0]), xp.asarray([2.5]), sorter=xp.asarray(s, dtype=getattr(xp, d))
            )
            for s, d in (([-1, 0], "int64"), ([2, 0], "int8"), ([2**63 + 1, 0], "uint64"))
        ),
    ]
    for refused in refusals:
        with pytest.raises(ValueError, match=r"negative|out of range|too large"):
            to_numpy(refused(xp))
    with pytest.raises(ValueError):  # a sorter of another length (CuPy and JAX searched the shorter one)
        to_numpy(xp.searchsorted(xp.asarray([3.0, 1.0]), xp.asarray([2.5]), sorter=xp.asarray([1])))


@pytest.mark.parametrize("backend", BACKENDS)
def test_take_refuses_indices_that_are_not_integers(backend: str) -> None:
    # found in review: Dask read bool indices as a mask where the others read them as ints; float
    # indices gave torch's raw RuntimeError and Dask's AttributeError
    xp = namespace(backend, "numpy")
    x = xp.asarray([1.0, 2.0, 3.0])
    for indices in (xp.asarray([True, False, True]), xp.asarray([0.0, 1.0])):
        for call in (xp.take, partial(xp.take_along_axis, axis=0)):
            with pytest.raises(TypeError, match="indices of an integer dtype"):
                call(x, indices)


@pytest.mark.parametrize("backend", BACKENDS)
def test_vecdot_and_cross_check_the_axis_against_both_arrays(backend: str) -> None:
    # found in review: only the first array's axes were checked; Dask computed cross with axis=1 of a 1-d x2
    from numpy.exceptions import AxisError

    xp = namespace(backend, "array-api")
    a, v = xp.ones((2, 3)), xp.ones(3)
    for call in (xp.vecdot, xp.linalg.cross, xp.linalg.vecdot):
        with pytest.raises(AxisError):
            call(a, v, axis=1)
        assert call(a, v, axis=-1).shape[0] == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_var_and_std_with_no_count_left_are_the_standards_nan(backend: str) -> None:
    # was (hostile review): NumPy, torch and Dask gave inf where N - correction <= 0, JAX NaN
    xp = namespace(backend, "pytorch")
    x = xp.asarray([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    calls: list[Callable[[], Any]] = [
        lambda: xp.var(x, axis=1, correction=3),
        lambda: xp.std(x, axis=1, correction=3.5),
        lambda: xp.std(x, correction=6),
        lambda: xp.var(x, axis=(0, 1), correction=7, keepdims=True),
    ]
    for call in calls:
        got = call()
        assert str(got.dtype) == "float32"
        if has_values(xp):
            assert np.isnan(to_numpy(got)).all()
    if has_values(xp):
        assert to_numpy(xp.var(x, axis=1, correction=2)).tolist() == [2.0, 0.0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_integer_scalars_are_int_bounds_of_arange(backend: str) -> None:
    # was (hostile review): arange(np.int64(0), np.int64(3)) was float64 (float32 under pytorch); Dask refused
    xp = namespace(backend, "pytorch")
    assert str(xp.arange(np.int64(0), np.int64(3)).dtype) == "int64"
    assert str(xp.arange(np.int32(3), dtype=xp.int8).dtype) == "int8"
    assert str(xp.arange(np.float32(0.5), 2).dtype) == "float32"
    if has_values(xp):
        assert to_numpy(xp.arange(np.uint8(1), np.int64(7), np.int16(2))).tolist() == [1, 3, 5]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_a_reduction_without_identity_over_an_empty_axis_is_one_value_error(backend: str, name: str) -> None:
    # was (hostile review): NumPy's and JAX's own words, torch's IndexError, Dask's array of a wrong shape
    xp = namespace(backend, "numpy")
    fn = getattr(xp, name)
    z = xp.zeros((0, 3))
    calls: list[Callable[[], Any]] = [
        lambda: fn(z, axis=0),
        lambda: fn(z),
        lambda: fn(xp.asarray([], dtype=xp.float32)),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=rf"{name}\(\) of an array of shape \(0,( 3)?\) reduces an axis"):
            call()
    got = fn(z, axis=1)  # no empty axis reduced: an empty result, as NumPy's
    assert tuple(got.shape) == (0,)
    if has_values(xp):
        assert to_numpy(got).shape == (0,)


_DATA = st.one_of(
    st.integers(-300, 70000),
    st.integers(-2400, 2400).map(lambda i: i / 8),
    st.sampled_from([math.nan, math.inf, 1e20, -0.5, 255.9, 2 + 0j, 1j, True, 2**63]),
)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=80)
@given(data=st.lists(_DATA, min_size=1, max_size=4), dtype=st.sampled_from(_SPACED_DTYPES[1:]))
def test_python_data_into_a_real_dtype_is_the_numpy_backends(
    backend: str, data: list[Any], dtype: str
) -> None:
    """Python floats and complex numbers into a real dtype: NumPy's integer parts, or promo_ns's refusal.

    Was: NumPy's and torch's own words (and torch's RuntimeError for -0.5 into uint8, which NumPy
    takes as 0), a complex's "must be real number".
    """
    call = partial(lambda d, xp: xp.asarray(d, dtype=getattr(xp, dtype)), data)
    want = _outcome(namespace("numpy", "numpy"), call)
    got = _outcome(namespace(backend, "numpy"), call)
    assert _same(got, want, ulps=1), (got, want)


#: The creation functions, called on a namespace and one of its arrays with ``dtype=`` or ``device=``.
_CREATING: dict[str, Callable[..., Any]] = {
    "zeros": lambda xp, x, **kw: xp.zeros(2, **kw),
    "ones": lambda xp, x, **kw: xp.ones(2, **kw),
    "empty": lambda xp, x, **kw: xp.empty(2, **kw),
    "full": lambda xp, x, **kw: xp.full(2, 1, **kw),
    "eye": lambda xp, x, **kw: xp.eye(2, **kw),
    "arange": lambda xp, x, **kw: xp.arange(3, **kw),
    "linspace": lambda xp, x, **kw: xp.linspace(0, 4, 3, **kw),
    "asarray": lambda xp, x, **kw: xp.asarray([1, 2], **kw),
    "zeros_like": lambda xp, x, **kw: xp.zeros_like(x, **kw),
    "ones_like": lambda xp, x, **kw: xp.ones_like(x, **kw),
    "empty_like": lambda xp, x, **kw: xp.empty_like(x, **kw),
    "full_like": lambda xp, x, **kw: xp.full_like(x, 1, **kw),
}
#: Every function taking ``device=``: the creation functions, ``astype`` and ``to_device``.
_ON_DEVICE: dict[str, Callable[[Any, Any, Any], Any]] = {
    **{name: partial(lambda f, xp, x, d: f(xp, x, device=d), f) for name, f in _CREATING.items()},
    "astype": lambda xp, x, d: xp.astype(x, xp.float64, device=d),
    "to_device": lambda xp, x, d: x.to_device(d),
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_devices_text_is_that_device_in_every_function(backend: str) -> None:
    # was (hostile review): JAX's AttributeError "'str' object has no attribute '_is_concrete'" for "cpu"
    xp = namespace(backend, "numpy")
    x = xp.asarray([1.5])
    text = str(x.device).split(":")[0]
    for name, call in _ON_DEVICE.items():
        assert str(call(xp, x, text).device) == str(x.device), name
        with pytest.raises(ValueError, match=rf"{name}\(\): 'bogus' is no device of the"):
            call(xp, x, "bogus")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["numpy", "tf-safe"])
def test_diff_takes_python_scalars_and_0d_arrays_at_its_ends_as_numpy(backend: str, policy: str) -> None:
    # was (hostile review): JAX wrapped prepend=300 into int8 (-44), torch refused a Python scalar or 0-d end
    cases: list[Callable[[Any], Any]] = [
        lambda xp: xp.diff(xp.asarray([[0, 2], [5, 1]], dtype=xp.int8), prepend=300),
        lambda xp: xp.diff(xp.asarray([[0, 2], [5, 1]], dtype=xp.int8), axis=0, append=1.5),
        lambda xp: xp.diff(xp.asarray([0, 2], dtype=xp.int8), prepend=xp.asarray(3, dtype=xp.int8)),
    ]
    for call in cases:
        want = _outcome(namespace("numpy", policy), call)
        assert want[0] == "result"
        assert _same(_outcome(namespace(backend, policy), call), want)


#: asarray calls every backend refuses alike: (what was wrong, the call, the words of promo_ns's ValueError).
_REFUSED_DATA: list[tuple[str, Callable[[Any], Any], str]] = [
    ("ragged lists", lambda xp: xp.asarray([[1, 2], [3]]), "nested sequences of different lengths"),
    ("a list beside a scalar", lambda xp: xp.asarray([[1, 2], 3]), "a sequence beside a scalar"),
    ("Python data, copy=False", lambda xp: xp.asarray([1, 2], copy=False), "of Python data without copying"),
    ("a Python scalar, copy=False", lambda xp: xp.asarray(3.5, copy=False), "of Python data without copying"),
    (
        "another dtype, copy=False",
        lambda xp: xp.asarray(xp.asarray([1, 2], dtype=xp.int16), dtype=xp.float32, copy=False),
        "cannot make a float32 array of int16 data without a copy",
    ),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", _REFUSED_DATA, ids=[c[0] for c in _REFUSED_DATA])
def test_asarray_refuses_alike_in_its_own_words(backend: str, case: tuple[str, Any, str]) -> None:
    # was (hostile review): NumPy's, torch's and JAX's own words; JAX took copy=False where a copy is needed
    _, call, words = case
    with pytest.raises(ValueError, match=words):
        call(namespace(backend, "pytorch"))


#: Every function taking ``dtype=``: the creation functions, ``astype`` and ``sum``.
_WITH_DTYPE: dict[str, Callable[[Any, Any, Any], Any]] = {
    **{name: partial(lambda f, xp, x, d: f(xp, x, dtype=d), f) for name, f in _CREATING.items()},
    "astype": lambda xp, x, d: xp.astype(x, d),
    "sum": lambda xp, x, d: xp.sum(x, dtype=d),
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_dtypes_name_or_numpys_dtype_is_promo_ns_s_in_every_function(backend: str) -> None:
    # was (hostile review): torch's "argument 'dtype' must be torch.dtype, not str"; asarray's AttributeError
    xp = namespace(backend, "pytorch")
    x = xp.asarray([1, 2], dtype=xp.int8)
    for name, call in _WITH_DTYPE.items():
        for named in ("int16", np.int16, np.dtype("int16")):
            assert str(call(xp, x, named).dtype) == "int16", (name, named)
        with pytest.raises(TypeError, match=rf"{name}\(\)'s dtype: 'foo' has no canonical promo_ns dtype"):
            call(xp, x, "foo")


def _unaligned() -> np.ndarray[Any, Any]:
    return np.frombuffer(np.zeros(17, dtype=np.uint8).data, dtype=np.float64, count=2, offset=1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_from_dlpack_without_a_copy_shares_or_raises_the_standards_buffer_error(backend: str) -> None:
    # found in review: JAX's copy=False of unaligned data raised its own ValueError, and torch's and
    # JAX's of read-only or reversed data promo_ns's ValueError, where the standard says BufferError
    xp = namespace(backend, "numpy")
    if not has_values(xp):
        pytest.skip("meta has no values")
    data = {
        "reversed": np.arange(5.0)[::-1],
        "strided": np.arange(12.0).reshape(3, 4)[:, ::2],
        "read-only": _read_only(np.arange(4.0)),
        "unaligned": _unaligned(),
    }
    for name, x in data.items():
        try:
            got = xp.from_dlpack(x, copy=False)
        except BufferError as e:
            assert "copy" in str(e), (name, e)
        else:
            np.testing.assert_array_equal(to_numpy(got), x, err_msg=name)
        np.testing.assert_array_equal(to_numpy(xp.from_dlpack(x)), x, err_msg=name)


@pytest.mark.parametrize("backend", BACKENDS)
def test_from_dlpack_with_a_copy_shares_nothing(backend: str) -> None:
    # found in review: JAX's copy=True shared an aligned NumPy buffer, so a write to it showed through
    xp = namespace(backend, "numpy")
    if not has_values(xp):
        pytest.skip("meta has no values")
    for size in (6, 1000, 4096):
        x = np.arange(float(size))
        got = xp.from_dlpack(x, copy=True)
        x[0] = 42.0
        assert to_numpy(got)[0] == 0.0, size


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("bounds", "dtype"),
    [
        ((-0.0, 3.0), None),
        ((-0.0, -2.0, -0.5), None),
        ((-0.0, 3), "float32"),
        ((-0.0, 3.0), "complex64"),
        ((-0.0, 1e-300, 1e-301), "float32"),  # found in review: the zeros after the first are +0.0
    ],
)
def test_arange_from_negative_zero_starts_with_it(
    backend: str, bounds: tuple[float, ...], dtype: str | None
) -> None:
    # found in review: torch, Dask and JAX started at +0.0 (start + 0 * step), NumPy at start itself
    xp = namespace(backend, "array-api")
    got = xp.arange(*bounds, dtype=None if dtype is None else getattr(xp, dtype))
    want = np.arange(*bounds, dtype=dtype)
    assert str(got.dtype) == str(want.dtype)
    if has_values(xp):
        values = to_numpy(got)
        assert values.tolist() == want.tolist()
        assert np.array_equal(np.signbit(np.real(values)), np.signbit(np.real(want)))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(), (1, 2)])
def test_searchsorted_takes_a_1d_x1_on_every_backend(backend: str, shape: tuple[int, ...]) -> None:
    # found in review: torch searched each row of a 2-d x1 (its NaN ordering then gave indices past a row)
    xp = namespace(backend, "array-api")
    with pytest.raises(ValueError, match="takes a 1-d x1"):
        xp.searchsorted(xp.ones(shape, dtype=xp.float32), xp.asarray([1.0], dtype=xp.float32))
