"""CuPy's ways promo_ns works around, checked on the CPU with NumPy standing in for CuPy.

The NumPy-like adapter runs its CuPy branch for any library named ``cupy``:
here that branch runs over NumPy, whose functions are given the limits CuPy
14's sources have (each stand-in names the CuPy code it copies), so that a
machine without a GPU checks what the GPU run found.  The same cases run on
the real CuPy where tests/backends.py finds a GPU (``cupy`` in
VALUE_BACKENDS), and every answer must be the NumPy backend's.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace
from typing import Any

import array_api_compat.numpy as compat_numpy
import numpy as np
import pytest

import promo_ns
from promo_ns import get_policy
from promo_ns._dtypes import bfloat16, native
from promo_ns._namespace import API_VERSION, Namespace
from promo_ns.backends._cupy_compat import CupyCompat
from promo_ns.backends.numpylike import NumpyLike
from tests.backends import VALUE_BACKENDS, namespace, to_numpy
from tests.generated import Case, Outcome
from tests.test_array_namespace import native_ones
from tests.test_generated import expected
from tests.test_namespace import _backend_has


class _CupyLikePower:
    """``numpy.power`` choosing its loop and computing integer powers as ``cupy.power`` does.

    With ``dtype=``, CuPy runs the first loop of its list that gives that
    dtype (``_Ops._guess_routine_from_dtype`` in cupy/_core/_kernel.pyx), its
    inputs cast to that loop's: ``power``'s list starts ``'??->b', 'bb->b'``
    (cupy/_core/_routines_math.pyx), so int8 is computed from bools.  Its
    ``integral_power`` gives a negative exponent 1, -1 or 0 where NumPy raises.
    """

    types = ("??->b", "bb->b", "BB->B", "hh->h", "HH->H", "ii->i", "II->I", "ll->l", "LL->L")
    #: the loops as CuPy's ufuncs list them (``_ops.ops``, each with ``in_types`` and ``out_types``)
    _ops = SimpleNamespace(
        ops=[
            SimpleNamespace(
                in_types=tuple(np.dtype(c).type for c in t[:2]), out_types=(np.dtype(t[-1]).type,)
            )
            for t in types
        ]
    )

    def __call__(self, x: Any, y: Any, *, dtype: Any = None, out: Any = None, **kwargs: Any) -> Any:
        if dtype is not None:
            char = np.dtype(dtype).char
            ins = next(t[:2] for t in self.types if t[-1] == char)
            x, y = (np.asarray(v).astype(t).astype(char) for v, t in zip((x, y), ins, strict=True))
        x, y = np.asarray(x), y if isinstance(y, int) else np.asarray(y)
        negative = np.asarray(y) < 0
        if not negative.any() or x.dtype.kind not in "iu":
            return np.power(x, y, out=out, **kwargs)
        result = np.power(x, np.where(negative, 0, y), **kwargs)
        odd = np.asarray(y) % 2 == 1
        unit = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0)).astype(result.dtype)
        result = np.where(negative, unit, result)
        if out is None:
            return result
        out[...] = result
        return out


class _Uncompilable:
    """A ufunc whose complex loops CUDA cannot compile (CuPy's atan2, hypot, copysign, nextafter)."""

    def __init__(self, ufunc: Any) -> None:
        self._ufunc = ufunc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        dtype = kwargs.get("dtype")
        if any(np.asarray(a).dtype.kind == "c" for a in args) or (dtype and np.dtype(dtype).kind == "c"):
            raise RuntimeError("CompileException: no instance of overloaded function matches the arguments")
        return self._ufunc(*args, **kwargs)


class _CupyLikeCompat(ModuleType):
    """``array_api_compat.numpy`` with CuPy's limits in reductions and ``linspace``."""

    def __init__(self) -> None:
        super().__init__("array_api_compat.cupy", None)
        self.linalg = compat_numpy.linalg

    def __getattr__(self, name: str) -> Any:
        return getattr(compat_numpy, name)

    @staticmethod
    def _reduction(name: str, x: Any, dtype: Any, **kwargs: Any) -> Any:
        # CuPy's reduction kernels cast each element with static_cast, which CUDA has none of
        # from a complex to a real type: a CompileException when the kernel is built.
        if x.dtype.kind == "c" and dtype is not None and np.dtype(dtype).kind != "c":
            raise RuntimeError("CompileException: no suitable conversion function to _type_reduce")
        return getattr(compat_numpy, name)(x, dtype=dtype, **kwargs)

    def sum(self, x: Any, /, *, dtype: Any = None, **kwargs: Any) -> Any:
        return self._reduction("sum", x, dtype, **kwargs)

    def prod(self, x: Any, /, *, dtype: Any = None, **kwargs: Any) -> Any:
        return self._reduction("prod", x, dtype, **kwargs)

    @staticmethod
    def arange(start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, **kwargs: Any) -> Any:
        # cupy.arange returns an empty array for no values, else casts start and step to the
        # dtype's scalar type (numpy.uint8(-3) is an OverflowError)
        first, last = (0, start) if stop is None else (start, stop)
        if dtype is not None and np.dtype(dtype).kind in "iu" and math.ceil((last - first) / step) > 0:
            cast = np.dtype(dtype).type
            cast(0 if stop is None else start), cast(step)
        return compat_numpy.arange(start, stop, step, dtype=dtype, **kwargs)  # type: ignore[attr-defined]

    @staticmethod
    def repeat(x: Any, repeats: Any, /, *, axis: Any = None) -> Any:
        # CuPy's _repeat casts array repeats to int64 'safe': uint64 is a raw TypeError
        if getattr(repeats, "dtype", None) == np.uint64:
            raise TypeError(
                "Cannot cast array data from dtype('uint64') to dtype('int64') according to 'safe'"
            )
        return compat_numpy.repeat(x, repeats, axis=axis)  # type: ignore[attr-defined]

    @staticmethod
    def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        # cupy.searchsorted reads x1 through its sorter as CuPy's take does: indices wrap around
        x1 = x1 if sorter is None else np.take(x1, sorter, mode="wrap")
        return compat_numpy.searchsorted(x1, x2, side=side)  # type: ignore[attr-defined]

    @staticmethod
    def from_dlpack(x: Any, /, *, copy: bool | None = None) -> Any:
        # cupy/_core/dlpack.pyx: an exporter on the CPU (device type 1) is refused
        if x.__dlpack_device__()[0] == 1:
            raise TypeError("CPU arrays cannot be directly imported to CuPy.")
        raise AssertionError("the stand-in has only CPU arrays")

    def linspace(self, start: Any, stop: Any, /, num: int, **kwargs: Any) -> Any:
        if isinstance(start, (int, float, complex)) and isinstance(stop, (int, float, complex)):
            float(stop - start)  # type: ignore[arg-type]  # cupy's _linspace_scalar: a TypeError for complex
        return np.linspace(start, stop, num, **kwargs)


def _standin(policy: str) -> Any:
    """A promo_ns namespace whose adapter takes its CuPy branch, over NumPy with CuPy's limits."""
    backend = NumpyLike("cupy", module="numpy")
    backend.compat = CupyCompat(_CupyLikeCompat(), np)
    backend._ufunc["pow"] = _CupyLikePower()
    for op in ("atan2", "hypot", "copysign", "nextafter"):
        backend._ufunc[op] = _Uncompilable(backend._ufunc[op])
    return Namespace(backend, get_policy(policy), None, f"promo_ns.cupy-standin[{policy}]", API_VERSION)


_REAL_CUPY = [b for b in VALUE_BACKENDS if getattr(b, "values", (b,))[0] == "cupy"]


@pytest.fixture(params=["standin", *_REAL_CUPY])
def cupy_xp(request: pytest.FixtureRequest, policy: str) -> Iterator[Any]:
    """The namespace under ``policy``: the stand-in, or the real CuPy where a GPU is there."""
    yield _standin(policy) if request.param == "standin" else namespace(request.param, policy)


def _same(got: Any, want: Any) -> None:
    assert got.dtype is want.dtype
    np.testing.assert_array_equal(to_numpy(got), to_numpy(want))


# --- pow in int8: CuPy's dtype= picks the bool loop -------------------------------------------


@pytest.mark.parametrize("policy", ["array-api", "numpy", "pytorch"])
def test_int8_powers_compute_in_int8(cupy_xp: Any, policy: str) -> None:
    xp, ref = cupy_xp, promo_ns.namespace("numpy", policy=policy)
    a, r = xp.asarray([1, 2, 3], dtype=xp.int8), ref.asarray([1, 2, 3], dtype=ref.int8)
    _same(a**2, r**2)
    _same(2**a, 2**r)
    _same(xp.pow(a, 2), ref.pow(r, 2))
    _same(xp.pow(2, xp.asarray(3, dtype=xp.int8)), ref.pow(2, ref.asarray(3, dtype=ref.int8)))
    _same(xp.pow(a, xp.asarray(2, dtype=xp.int16)), ref.pow(r, ref.asarray(2, dtype=ref.int16)))
    a **= xp.asarray([2, 2, 2], dtype=xp.int8)
    r **= ref.asarray([2, 2, 2], dtype=ref.int8)
    _same(a, r)
    a **= 1
    _same(a, r)


@pytest.mark.parametrize("policy", ["array-api", "numpy"])
def test_negative_integer_exponents_are_refused_as_numpy_refuses_them(cupy_xp: Any, policy: str) -> None:
    xp, ref = cupy_xp, promo_ns.namespace("numpy", policy=policy)
    for dtype in ("int8", "int16", "int64"):
        base = xp.asarray([2, 3], dtype=getattr(xp, dtype))
        with pytest.raises(ValueError, match=r"(?i)integers to negative integer powers"):
            base ** xp.asarray([1, -1], dtype=getattr(xp, dtype))
        with pytest.raises(ValueError, match=r"(?i)integers to negative integer powers"):
            xp.pow(base, xp.asarray(-1, dtype=xp.int8))
        with pytest.raises(ValueError, match=r"(?i)integers to negative integer powers"):
            base **= xp.asarray([-1, 1], dtype=getattr(xp, dtype))
        np.testing.assert_array_equal(to_numpy(base), [2, 3])
        want = ref.asarray([2, 3], dtype=getattr(ref, dtype)) ** ref.asarray([0, 2], dtype=ref.uint8)
        _same(base ** xp.asarray([0, 2], dtype=xp.uint8), want)


@pytest.mark.parametrize("policy", ["pytorch", "paddle"])
def test_negative_integer_exponents_compute_where_the_policy_says(cupy_xp: Any, policy: str) -> None:
    xp, ref = cupy_xp, promo_ns.namespace("numpy", policy=policy)
    exponents = [-1, -2, -3, 2]
    for bases in ([1, -1, 2, -1], [0, 3, -1, 2]):
        got = xp.asarray(bases, dtype=xp.int16) ** xp.asarray(exponents, dtype=xp.int16)
        _same(got, ref.asarray(bases, dtype=ref.int16) ** ref.asarray(exponents, dtype=ref.int16))


# --- complex kernels CuPy lists but CUDA cannot compile ---------------------------------------


def _operands(ns: Any) -> list[tuple[Any, Any]]:
    """Operand pairs of complex ``atan2``/``hypot``/...: arrays, a 0-d bool with a Python complex."""
    z = ns.asarray([1 + 2j, 0.5j], dtype=ns.complex64)
    return [(z, z), (ns.asarray(False), 1 + 2j), (z, 1.5)]


@pytest.mark.parametrize("policy", ["pytorch", "paddle", "jax", "numpy"])
@pytest.mark.parametrize("op", ["atan2", "hypot", "copysign", "nextafter", "logaddexp"])
def test_complex_float_only_ops_are_promo_ns_type_errors(cupy_xp: Any, policy: str, op: str) -> None:
    xp, ref = cupy_xp, promo_ns.namespace("numpy", policy=policy)
    for (x, y), (rx, ry) in zip(_operands(xp), _operands(ref), strict=True):
        with pytest.raises(TypeError) as want:
            getattr(ref, op)(rx, ry)
        if isinstance(want.value, promo_ns.PromotionError):
            with pytest.raises(promo_ns.PromotionError):
                getattr(xp, op)(x, y)
        else:
            with pytest.raises(TypeError, match=f"has no '{op}' kernel for complex"):
                getattr(xp, op)(x, y)


@pytest.mark.parametrize("policy", ["paddle", "tf-safe", "tf-all", "tf-legacy"])
@pytest.mark.parametrize("op", ["floor_divide", "remainder"])
def test_complex_floor_division_is_a_promo_ns_type_error_and_leaves_the_operand(
    cupy_xp: Any, policy: str, op: str
) -> None:
    xp = cupy_xp
    z = xp.asarray([1 + 2j, 0.5j], dtype=xp.complex128)
    before = to_numpy(z).copy()
    with pytest.raises(TypeError, match=f"'{op}' kernel for complex128"):
        getattr(xp, op)(z, z)
    with pytest.raises(TypeError, match=f"'{op}' kernel for complex128"):
        getattr(z, f"__i{'floordiv' if op == 'floor_divide' else 'mod'}__")(z)
    np.testing.assert_array_equal(to_numpy(z), before)


# --- sum/prod of complex data into a real dtype ------------------------------------------------


@pytest.mark.filterwarnings("ignore:Casting complex values to real")
@pytest.mark.parametrize("policy", ["numpy", "pytorch", "tf-safe", "tf-all", "tf-legacy"])
@pytest.mark.parametrize("name", ["sum", "prod"])
def test_complex_data_reduces_into_a_real_dtype_as_numpy(cupy_xp: Any, policy: str, name: str) -> None:
    xp, ref = cupy_xp, promo_ns.namespace("numpy", policy=policy)
    values = [1.5 + 0.5j, 0.5 - 1j, 2.0 + 1j]
    for dtype in ("bool", "int8", "uint16", "int64", "float32"):
        for data in (values, values[0]):
            x, r = xp.asarray(data, dtype=xp.complex64), ref.asarray(data, dtype=ref.complex64)
            got = getattr(xp, name)(x, dtype=getattr(xp, dtype))
            _same(got, getattr(ref, name)(r, dtype=getattr(ref, dtype)))


# --- linspace with complex bounds --------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Casting complex values to real")
@pytest.mark.parametrize("policy", ["array-api", "pytorch"])
def test_linspace_takes_complex_bounds(cupy_xp: Any, policy: str) -> None:
    xp, ref = cupy_xp, promo_ns.namespace("numpy", policy=policy)
    for start, stop in ((0j, 2), (1, 2 + 2j), (0.5 - 1j, -0.5j)):
        for dtype in (None, "complex64", "float32", "bool"):
            kw, rkw = ({"dtype": getattr(ns, dtype)} if dtype else {} for ns in (xp, ref))
            for num, endpoint in ((3, True), (4, False), (1, True), (0, True)):
                got = xp.linspace(start, stop, num, endpoint=endpoint, **kw)
                want = ref.linspace(start, stop, num, endpoint=endpoint, **rkw)
                assert got.dtype is want.dtype
                np.testing.assert_allclose(to_numpy(got), to_numpy(want), rtol=1e-6)


# --- arange, repeat and from_dlpack: CuPy's casts and its refusal of CPU data ---------------------


@pytest.mark.parametrize("policy", ["array-api"])
def test_integer_arange_of_negative_steps_and_int64_edges_is_numpys(cupy_xp: Any, policy: str) -> None:
    # was (GPU run 5): CuPy cast start and step to the dtype, an OverflowError for a negative step into
    # an unsigned dtype ("Python integer -4611686018427387904 out of bounds for uint64")
    for bounds, dtype in (
        ((10, 0, -3), "uint8"),
        ((5, 1, -1), "uint32"),
        ((2**64 - 1, 2**63, -(2**62)), "uint64"),
        ((2**63 - 1, 2**63 - 4, -1), "int64"),
        ((-(2**63), -(2**63) + 3), "int64"),
        ((2**63, 2**63 + 3), "uint64"),
        ((7, 2, 2), "uint16"),
        ((0, 10, 300), "int8"),  # a step the dtype cannot hold (found in review)
        ((0, -5, -200), "int8"),
        ((0, 2**63, 2**63 - 1), "int64"),  # NumPy's count: the difference divided in floating point
        ((0, 2**63 + 1, 2**62), "uint64"),
        ((0, 0, 2**63 - 1), "int8"),
    ):
        got = cupy_xp.arange(*bounds, dtype=getattr(cupy_xp, dtype))
        assert str(got.dtype) == dtype
        assert to_numpy(got).tolist() == np.arange(*bounds, dtype=dtype).tolist(), (bounds, dtype)


@pytest.mark.parametrize("policy", ["numpy"])
def test_repeat_and_searchsorted_take_uint64_counts(cupy_xp: Any, policy: str) -> None:
    # was (GPU run 5): CuPy's repeat of uint64 repeats raised NumPy's raw casting TypeError
    x = cupy_xp.asarray([1.0, 2.0])
    got = cupy_xp.repeat(x, cupy_xp.asarray([1, 2], dtype=cupy_xp.uint64))
    assert to_numpy(got).tolist() == [1.0, 2.0, 2.0]
    sorter = cupy_xp.asarray([1, 0], dtype=cupy_xp.uint64)
    found = cupy_xp.searchsorted(cupy_xp.asarray([3.0, 1.0]), cupy_xp.asarray([2.5]), sorter=sorter)
    assert to_numpy(found).tolist() == [1]


@pytest.mark.parametrize("policy", ["numpy"])
def test_counts_and_sorter_indices_out_of_range_are_numpys_value_error(cupy_xp: Any, policy: str) -> None:
    # was (GPU run 5): CuPy's searchsorted read a sorter index out of range around, with no error
    xp = cupy_xp
    x, v = xp.asarray([3.0, 1.0]), xp.asarray([2.5])
    for indices, dtype in (([-1, 0], "int64"), ([2, 0], "int8"), ([2**63 + 1, 0], "uint64")):
        with pytest.raises(ValueError, match=r"searchsorted\(\): sorter index out of range \(x1 has 2"):
            xp.searchsorted(x, v, sorter=xp.asarray(indices, dtype=getattr(xp, dtype)))
    with pytest.raises(ValueError, match="the sorter has 3 indices for the 2 elements"):  # CuPy: no error
        xp.searchsorted(x, v, sorter=xp.asarray([1, 0, 2]))
    for counts, dtype in (([-1, 1], "int64"), ([2**63 + 1, 1], "uint64"), ([2**63 - 1, 0], "int64")):
        with pytest.raises(ValueError, match=r"repeats may not contain negative values|too large"):
            xp.repeat(xp.asarray([1.0, 2.0]), xp.asarray(counts, dtype=getattr(xp, dtype)))


@pytest.mark.parametrize("policy", ["array-api"])
def test_from_dlpack_copies_cpu_data_to_the_gpu(cupy_xp: Any, policy: str) -> None:
    # was (GPU run 5): CuPy refuses data on the CPU ("CPU arrays cannot be directly imported to CuPy");
    # CuPy holds GPU memory only, so it is copied, as asarray copies it, unless copy=False
    read_only = np.arange(4, dtype=np.int32)
    read_only.flags.writeable = False
    for data in (np.arange(5)[::-1], np.arange(12.0).reshape(3, 4)[:, ::2], read_only, np.float32(1.5)):
        got = cupy_xp.from_dlpack(np.asarray(data))
        assert str(got.dtype) == str(np.asarray(data).dtype)
        np.testing.assert_array_equal(to_numpy(got), data)
        assert (
            to_numpy(cupy_xp.from_dlpack(np.asarray(data), copy=True)).tolist() == np.asarray(data).tolist()
        )
    with pytest.raises(BufferError, match="copy=False"):
        cupy_xp.from_dlpack(np.arange(3), copy=False)
    assert np.signbit(to_numpy(cupy_xp.from_dlpack(np.asarray(-0.0))))  # CuPy's 0-d fill: +0.0 (review)


# --- the tests' own expectations on CuPy ----------------------------------------------------------


def _no_bfloat16() -> TypeError:
    """promo_ns's error for bfloat16 on CuPy, as making an operand raises it."""
    try:
        native(bfloat16, ModuleType("cupy"))
    except TypeError as e:
        return e
    raise AssertionError("CuPy has bfloat16?")


def test_native_cupy_arrays_are_made_without_device(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = ModuleType("cupy")
    fake.ones = lambda shape, dtype=float, order="C": np.ones(shape, dtype)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cupy", fake)  # cupy.ones(shape, dtype, order): no device=
    assert native_ones("cupy").shape == (3,)


def test_generated_cases_with_a_dtype_cupy_lacks_compare_nothing() -> None:
    case = Case("abs", "one_array", (), "array-api")
    ref, got = Outcome(dtype="bfloat16", values=[0.0]), Outcome(error=_no_bfloat16(), built=False)
    assert expected("cupy", case, ref, got) is not None
    assert expected("cupy", case, ref, Outcome(error=TypeError("bad"), built=False)) is None
    assert expected("cupy", case, ref, Outcome(error=_no_bfloat16())) is None  # built: an op's error


def test_seed_examples_skip_a_dtype_the_backend_lacks() -> None:
    lacking = SimpleNamespace(native_dtype=lambda d: native(d, ModuleType("cupy")))
    cupy_like = SimpleNamespace(_backend=lacking)
    assert not _backend_has(cupy_like, bfloat16)
    assert _backend_has(promo_ns.namespace("numpy"), bfloat16)


def test_clip_by_python_floats_is_one_call_of_cupys_clip_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # was (GPU run 5): 10 launches against CuPy's 1 (two fills, then a comparison, a NaN check, an or
    # and a where per bound); bounds in order now go to cupy.clip as scalars of the array's dtype
    xp = _standin("pytorch")
    calls: list[tuple[Any, Any]] = []
    module = ModuleType("cupy_like")
    module.__dict__.update(vars(np))

    def clip(x: Any, low: Any, high: Any) -> Any:
        calls.append((low, high))
        return np.clip(x, low, high)

    module.clip = clip  # type: ignore[attr-defined]
    monkeypatch.setattr(xp._backend.compat, "_module", module)
    a = xp.asarray([-1.0, 0.2, 3.0], dtype=xp.float32)
    for _ in range(2):  # the first call compiles the plan, the second runs it
        assert to_numpy(xp.clip(a, -0.5, 0.5)).tolist() == [-0.5, np.float32(0.2), 0.5]
    assert calls == [(-0.5, 0.5)] * 2
    assert all(type(bound) is np.float32 for call in calls for bound in call)
    assert to_numpy(xp.clip(a, 0.5, -0.5)).tolist() == [-0.5] * 3  # crossed: compat's selection
    assert len(calls) == 2
