"""CuPy gives the NumPy backend's values and refusals where CuPy's own kernels differ (GPU run of 2026-11-26).

Each test runs on CuPy where a GPU is, and everywhere on a stand-in: the CuPy
adapter's code paths (``NumpyLike("cupy")``) with NumPy as the module, and,
where the test is about one of CuPy's ufuncs, that ufunc's CuPy behaviour
written with NumPy (:class:`CupyLikeUfunc`, :func:`cupy_floor_divide`), as
CuPy's sources have it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType, SimpleNamespace
from typing import Any

import array_api_compat.numpy
import ml_dtypes
import numpy as np
import pytest

import promo_ns
from promo_ns._namespace import _new_namespace
from promo_ns.backends._cupy_compat import CupyCompat
from promo_ns.backends._cupy_ufuncs import float16_nextafter, floor_divide, loop_casts_operands, remainder
from promo_ns.backends.numpylike import NumpyLike
from promo_ns.policies import get_policy
from tests.backends import VALUE_BACKENDS, namespace, to_numpy

#: CuPy 14.2's ``power`` loops, in its order (``cupy/_core/_routines_math.pyx``): bool's first.
CUPY_POWER = "??->b bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d FF->F DD->D"


class CupyLikeUfunc:
    """NumPy's ``ufunc`` choosing its loop for ``dtype=`` as CuPy does: the first whose output is ``dtype``.

    The operands are cast to that loop's inputs (``_Ops._guess_routine_from_dtype``,
    ``cupy/_core/_kernel.pyx``); the loops are read by :func:`loop_casts_operands`
    as CuPy's (``_ops.ops``, each with ``in_types`` and ``out_types``).
    """

    def __init__(self, ufunc: Any, loops: str, by_output: str = "") -> None:
        self._ufunc = ufunc
        self._ops = self._loops(loops)
        self._out_ops = self._loops(by_output) if by_output else None

    @staticmethod
    def _loops(loops: str) -> SimpleNamespace:
        """CuPy's ``_Ops`` of loops written ``"bb->b ..."``."""
        return SimpleNamespace(
            ops=[
                SimpleNamespace(
                    in_types=tuple(np.dtype(t).type for t in loop.split("->")[0]),
                    out_types=(np.dtype(loop.split("->")[1]).type,),
                )
                for loop in loops.split()
            ]
        )

    def __call__(self, x: Any, y: Any, /, *, dtype: Any = None, **kwargs: Any) -> Any:
        if dtype is not None:
            ops = (self._out_ops or self._ops).ops
            loop = next(op for op in ops if np.dtype(op.out_types[0]) == np.dtype(dtype))
            x, y = (np.asarray(v).astype(t) for v, t in zip((x, y), loop.in_types, strict=True))
        return self._ufunc(x, y, dtype=dtype, **kwargs)


def cupy_floor_divide(x: Any, y: Any, /, **kwargs: Any) -> Any:
    """CuPy's floating ``floor_divide``: ``floor(x / y)`` (``cupy/_core/include/cupy/carray.cuh``)."""
    out = kwargs.pop("out", None)
    q = np.floor(np.true_divide(x, y, **kwargs))
    if out is None:
        return q
    out[...] = q
    return out


def cupy_remainder(x: Any, y: Any, /, **kwargs: Any) -> Any:
    """CuPy's floating ``remainder``: ``x - floor(x / y) * y`` (``cupy/_core/_routines_math.pyx``)."""
    out = kwargs.pop("out", None)
    r = np.subtract(x, np.floor(np.true_divide(x, y, **kwargs)) * y, **kwargs)
    if out is None:
        return r
    out[...] = r
    return out


class _Standin(NumpyLike):
    """The CuPy adapter with NumPy as its module."""

    def __init__(self) -> None:
        super().__init__("cupy", module="numpy")

    def scalar(self, value: object, dtype: Any, like: Any) -> Any:
        """CuPy's 0-d array of ``value``, without the device block NumPy's arrays have none of."""
        return self._asarray(value, dtype=self.native_dtype(dtype))


def standin(policy: str, **ufuncs: Callable[..., Any]) -> Any:
    """A namespace of the CuPy adapter with NumPy as its module, and ``ufuncs`` (op -> ufunc) as CuPy's."""
    backend = _Standin()
    backend._ufunc.update(ufuncs)
    return _new_namespace(backend, get_policy(policy), None, "2025.12")


_CUPY = [b for b in VALUE_BACKENDS if "cupy" in str(b)]


def _space(backend: str, policy: str, **ufuncs: Callable[..., Any]) -> Any:
    return standin(policy, **ufuncs) if backend == "standin" else namespace(backend, policy)


# --- dtype= picks CuPy's first loop of that output: int8 power was bool's -------------------------


def test_the_loop_check_reads_cupys_loops() -> None:
    power = CupyLikeUfunc(np.power, CUPY_POWER)
    assert loop_casts_operands(power, np.dtype(np.int8))  # ??->b
    assert not loop_casts_operands(power, np.dtype(np.uint8))
    assert not loop_casts_operands(power, np.dtype(np.float32))
    assert not loop_casts_operands(np.power, np.dtype(np.int8))  # not CuPy's: nothing to read
    # true_divide chooses among its loops by output (out_ops): its first float64 loop there is dd->d
    divide = CupyLikeUfunc(np.true_divide, "qq->d ee->e ff->f dd->d", by_output="ee->e ff->f dd->d")
    assert not loop_casts_operands(divide, np.dtype(np.float64))


@pytest.mark.parametrize("backend", ["standin", *_CUPY])
@pytest.mark.parametrize("policy", ["pytorch", "numpy"])
def test_int8_power_computes_in_int8(backend: str, policy: str) -> None:
    # was: CuPy's power(x, y, dtype=int8) ran its ??->b loop: 2 ** int8 array was all 1
    xp = _space(backend, policy, pow=CupyLikeUfunc(np.power, CUPY_POWER))
    x = xp.asarray([1, 0, 3], dtype=xp.int8)
    for got, want in (
        (2**x, [2, 1, 8]),
        (xp.pow(2, x), [2, 1, 8]),
        (x ** xp.asarray(2, dtype=xp.int8), [1, 0, 9]),
        (xp.pow(x, xp.asarray([2, 2, 2], dtype=xp.int8)), [1, 0, 9]),
    ):
        assert got.dtype == xp.int8 and to_numpy(got).tolist() == want
    x **= 3
    assert to_numpy(x).tolist() == [1, 0, 27]


# --- floating floor_divide: CuPy's floor(x / y), NumPy's and torch's fmod-based quotient ------------

_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.1, -0.1, 3.0, 7.0, 0.5, -2.5, 1 / 3, 1e-30, 6e4]


def _same_bits(got: Any, want: Any) -> bool:
    g, w = to_numpy(got), np.asarray(want)
    same = ((g == w) & (np.signbit(g) == np.signbit(w))) | (np.isnan(g) & np.isnan(w))
    return bool(g.dtype == w.dtype and same.all())


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize(("ours", "numpys"), [(floor_divide, np.floor_divide), (remainder, np.remainder)])
def test_the_floating_division_is_numpys_bit_for_bit(ours: Any, numpys: Any, dtype: str) -> None:
    rng = np.random.default_rng(3)
    values = np.concatenate([_SPECIALS, rng.normal(0, 10, 200), 10.0 ** rng.integers(-20, 20, 100)])
    with np.errstate(all="ignore"):
        a = values.astype(dtype)
        x, y = np.meshgrid(a, a)
        assert _same_bits(ours(np, np.asarray, np.dtype(dtype), x, y), numpys(x, y))
        for s in (0.1, 1 / 3, -2.0, 7, -0.0, np.inf, -np.inf):
            assert _same_bits(ours(np, np.asarray, np.dtype(dtype), a, s), numpys(a, s))
            assert _same_bits(ours(np, np.asarray, np.dtype(dtype), s, a), numpys(s, a))
        out = np.empty_like(a)
        assert ours(np, np.asarray, np.dtype(dtype), a, 0.1, out=out) is out
        assert _same_bits(out, numpys(a, 0.1))


@pytest.mark.parametrize("backend", ["standin", *_CUPY])
@pytest.mark.parametrize("policy", ["numpy", "pytorch"])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's invalid values and overflows, on either side
def test_floor_division_gives_the_numpy_backends_values(backend: str, policy: str) -> None:
    # was: floor(x / y): 1.0 // 0.1 was 10.0 (9.0), inf // 2.0 inf (nan), float16 // 0.1 off by one
    xp, reference = _space(backend, policy, floor_divide=cupy_floor_divide), namespace("numpy", policy)
    values = np.array([1.0, 2.0, 0.5, -0.75, 6e4, np.inf, -0.0, 3.0], dtype=np.float16)
    for dtype in ("float16", "float32", "float64"):
        x = xp.asarray(values, dtype=getattr(xp, dtype))
        r = reference.asarray(values, dtype=getattr(xp, dtype))
        for got, want in (
            (x // 0.1, r // 0.1),
            (0.1 // x, 0.1 // r),
            (xp.floor_divide(70000.0, x), reference.floor_divide(70000.0, r)),
            (x // xp.asarray(0.1, dtype=xp.float32), r // reference.asarray(0.1, dtype=xp.float32)),
            (x // x[::-1], r // r[::-1]),
        ):
            assert _same_bits(got, to_numpy(want)), (dtype, to_numpy(got), to_numpy(want))
        x //= 0.1
        r //= 0.1
        assert _same_bits(x, to_numpy(r)), dtype


@pytest.mark.parametrize("backend", ["standin", *_CUPY])
@pytest.mark.parametrize("policy", ["numpy", "pytorch", "paddle"])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_the_remainder_gives_the_numpy_backends_values(backend: str, policy: str) -> None:
    # was (array-api-tests on CuPy): 0.0 % -2.0 was +0.0 (-0.0); 1.0 % 0.1 was 0.0 (0.09999999999999995)
    xp = _space(backend, policy, remainder=cupy_remainder)
    reference = namespace("numpy", policy)
    values = np.array([1.0, 0.0, -0.0, -0.75, 6e4, np.inf, 3.0, -2.0], dtype=np.float64)
    for dtype in ("float16", "float32", "float64"):
        x = xp.asarray(values, dtype=getattr(xp, dtype))
        r = reference.asarray(values, dtype=getattr(xp, dtype))
        for got, want in (
            (x % 0.1, r % 0.1),
            (x % -2.0, r % -2.0),
            (1.0 % x, 1.0 % r),
            (xp.remainder(x, xp.asarray(-np.inf, dtype=x.dtype)), reference.remainder(r, -np.inf)),
            (x % x[::-1], r % r[::-1]),
        ):
            assert _same_bits(got, to_numpy(want)), (dtype, to_numpy(got), to_numpy(want))
        x %= -2.0
        r %= -2.0
        assert _same_bits(x, to_numpy(r)), dtype


# --- float16 nextafter: CuPy's is nan from an infinity ------------------------------------------------


def cupy_nextafter(x: Any, y: Any, /, **kwargs: Any) -> Any:
    """NumPy's ``nextafter``, but nan from a float16 infinity, as CuPy 14's float16 loop gave on the H200."""
    out = np.nextafter(x, y, **kwargs)
    if out.dtype == np.float16:
        out[np.isinf(np.broadcast_to(x, out.shape))] = np.nan
    return out


def test_float16_nextafter_is_numpys_bit_for_bit() -> None:
    every = np.arange(-(2**15), 2**15).astype(np.int16).view(np.float16)  # every float16, nan and inf too
    with np.errstate(all="ignore"):
        for towards in (*_SPECIALS, 6e-8, -6e-8, 65504.0, -65504.0):
            t = np.float16(towards)
            assert _same_bits(float16_nextafter(np, np.asarray, every, t), np.nextafter(every, t)), t
            assert _same_bits(float16_nextafter(np, np.asarray, t, every), np.nextafter(t, every)), t


@pytest.mark.parametrize("backend", ["standin", *_CUPY])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # 65520.0 overflows float16, on either side
def test_nextafter_of_float16_gives_the_numpy_backends_values(backend: str) -> None:
    # was: nextafter(65520.0, float16 0.0) was nan on CuPy (65520.0 rounds to inf; NumPy: 65504)
    xp, reference = _space(backend, "array-api", nextafter=cupy_nextafter), namespace("numpy", "array-api")

    def outcomes(space: Any) -> list[Any]:
        x = space.asarray([np.inf, -np.inf, 0.0, -0.0, 1.0, 65504.0, 6e-8], dtype=space.float16)
        return [space.nextafter(x, space.asarray(0.0, dtype=space.float16)), space.nextafter(65520.0, x)]

    for got, want in zip(outcomes(xp), outcomes(reference), strict=True):
        assert got.dtype == xp.float16 and _same_bits(got, to_numpy(want))


# --- complex logical_not and integer reciprocal: CuPy has no loop / gives 0 ----------------------


def _cupy_like_compat() -> CupyCompat:
    """The CuPy adapter's compat over NumPy's with CuPy's ``logical_not`` and integer ``reciprocal``."""
    base = ModuleType("cupy_like")
    base.__dict__.update(vars(array_api_compat.numpy))

    def logical_not(x: Any, /) -> Any:
        if x.dtype.kind == "c":
            raise TypeError("Wrong type ((<class 'numpy.complex64'>,)) of arguments for cupy_logical_not")
        return np.logical_not(x)

    def reciprocal(x: Any, /) -> Any:
        if x.dtype.kind not in "iu":
            return np.reciprocal(x)
        safe = np.where(x == 0, 1, x)
        return np.where(x == 0, 0, np.reciprocal(safe)).astype(x.dtype)

    def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        return np.take_along_axis(x, indices % x.shape[axis], axis=axis)  # CuPy's fancy indexing wraps

    def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        return np.take(x, indices, axis=axis, mode="wrap")  # CuPy's _take_kernel_core: indices % n

    def clip(x: Any, low: Any, high: Any) -> Any:  # cupy/_core/_routines_math.pyx's cupy_clip kernel
        return np.where(low > high, high, np.where(x < low, low, np.where(x > high, high, x))).astype(x.dtype)

    module = ModuleType("cupy_like")
    module.__dict__.update(vars(np))
    module.clip = clip  # type: ignore[attr-defined]
    base.logical_not, base.reciprocal = logical_not, reciprocal  # type: ignore[attr-defined]
    base.take_along_axis, base.take = take_along_axis, take  # type: ignore[attr-defined]
    return CupyCompat(base, module)


def test_take_out_of_bounds_is_numpys_index_error() -> None:
    # was (GPU run 4): CuPy's take and take_along_axis read index 5 of 3 elements as index 2
    compat, x = _cupy_like_compat(), np.arange(6.0).reshape(2, 3)
    for indices, axis in (([[0], [5]], 1), ([[0], [-4]], -1), ([[2, 0, 0]], 0)):
        with pytest.raises(IndexError, match=r"take_along_axis: index .* is out of bounds for axis"):
            compat.take_along_axis(x, np.asarray(indices), axis=axis)
    assert compat.take_along_axis(x, np.asarray([[2], [-3]]), axis=1).tolist() == [[2.0], [3.0]]
    with pytest.raises(ValueError):  # indices of other dimensions: the library's shape error first
        compat.take_along_axis(x, np.asarray([5]), axis=1)
    for flat, take_axis in (([0, 5], 1), ([-4], -1), ([2], 0), ([6], None)):
        with pytest.raises(IndexError, match=r"take: index .* is out of bounds for axis"):
            compat.take(x, np.asarray(flat), axis=take_axis)
    assert compat.take(x, np.asarray([2, -3]), axis=1).tolist() == [[2.0, 0.0], [5.0, 3.0]]
    assert compat.take(x, np.asarray([5, -6])).tolist() == [5.0, 0.0]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int64"])
def test_clip_is_compats_on_every_bound(dtype: str) -> None:
    # CupyCompat's clip selects with where (compat's assigns through masks, one host sync each); a
    # Python bound that is no NaN is compared without a NaN check; two such bounds of a floating array
    # go to CuPy's clip kernel (GPU run 5: 10 launches against CuPy's 1)
    floating = np.dtype(dtype).kind == "f"
    x = np.array([0, 1, 2, 3, 100, 127], dtype=dtype)
    scalars: list[Any] = [None, 0, 2, 127]
    if floating:
        x = np.concatenate([x, np.array([-3.0, np.nan, -0.0, np.inf], dtype=dtype)])
        scalars += [-1, -0.5, 0.0, -0.0, 1.5, np.nan, 1e300, -(2**70)]
    finite = [b for b in scalars if b is not None and not math.isnan(b) and abs(b) < 100]
    bounds = (
        scalars
        + [np.asarray(b, dtype=dtype) for b in finite]
        + ([np.asarray(np.nan, dtype)] if floating else [])
    )
    ours = _cupy_like_compat()
    for lo in bounds:
        for hi in bounds:
            with np.errstate(all="ignore"):
                got, want = ours.clip(x, lo, hi), array_api_compat.numpy.clip(x, lo, hi)  # type: ignore[attr-defined]
            # the sign of a zero at a bound is left open (compat's generic clip, NumPy's and torch's differ)
            assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), (lo, hi, got, want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_logical_not_of_complex_is_numpys(dtype: str) -> None:
    x = np.array([0j, 1 + 0j, 1j, complex("nan"), -0.0 + 0j], dtype=dtype)
    assert _cupy_like_compat().logical_not(x).tolist() == np.logical_not(x).tolist()


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
def test_the_integer_reciprocal_of_zero_is_numpys(dtype: str) -> None:
    x = np.array([0, 1, 2, 3, 0], dtype=dtype)
    with np.errstate(all="ignore"):
        want = np.reciprocal(x)
    got = _cupy_like_compat().reciprocal(x)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()


@pytest.mark.parametrize("backend", _CUPY)
def test_complex_logical_not_and_integer_reciprocal_give_the_numpy_backends_values(backend: str) -> None:
    # was: logical_not of complex64/128 raised CuPy's "Wrong type" (every policy but array-api takes
    # it); tf-safe's reciprocal of an int32
    # zero was 0 (NumPy: -2147483648)
    cases: list[tuple[str, Callable[[Any], Any]]] = [
        ("numpy", lambda xp: xp.logical_not(xp.asarray([0j, 1j, 2 + 0j]))),
        ("tf-safe", lambda xp: xp.reciprocal(xp.asarray([0, 1, 2, -1], dtype=xp.int32))),
        ("tf-safe", lambda xp: xp.reciprocal(xp.asarray([0, 1, -1], dtype=xp.int64))),
    ]
    for policy, call in cases:
        got, want = call(namespace(backend, policy)), call(namespace("numpy", policy))
        assert str(got.dtype) == str(want.dtype) and to_numpy(got).tolist() == to_numpy(want).tolist()


# --- bfloat16: refused on CuPy, however it comes ------------------------------------------------


@pytest.mark.parametrize("backend", ["standin", *_CUPY])
def test_bfloat16_is_refused_on_cupy_with_what_to_use_instead(backend: str) -> None:
    # was: cupy.asarray of a NumPy bfloat16 array made one (CuPy 14 takes ml_dtypes' bfloat16), which
    # promo_ns wrapped and then failed in the middle of an op
    xp = _space(backend, "pytorch")
    data = np.array([1.0, 2.5], dtype=ml_dtypes.bfloat16)
    makers: list[Callable[[], Any]] = [
        lambda: xp.asarray(data),
        lambda: xp.asarray([1.0, 2.5], dtype=xp.bfloat16),
    ]
    for make in makers:
        with pytest.raises(TypeError, match=r"cupy backend has no bfloat16 dtype.*numpy/torch backend"):
            make()
    assert xp.asarray(data.astype(np.float32)).dtype == xp.float32


def test_the_numpy_backend_keeps_bfloat16() -> None:
    xp = promo_ns.namespace("numpy", policy="pytorch")
    x = xp.asarray(np.array([1.0, 2.5], dtype=ml_dtypes.bfloat16))
    assert x.dtype == xp.bfloat16 and to_numpy(x // 2.0).tolist() == [0.0, 1.0]
