"""N-ary promotion, result_type's Python scalars and the array-api policy's input kinds, live.

Each test asks the framework itself (NumPy 2.4 with ml_dtypes, array-api-strict
2.6) and promo_ns the same question: NumPy's n-ary promotion is not a left fold
of its pairwise table (``result_type(int8, uint8, float16)`` is float16), and
array-api-strict refuses ``logical_not(int8)``, ``imag`` of a real array and
``astype`` of complex to a real dtype.
"""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import promo_ns
from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import DTYPES, float16, float32, int8, uint8
from tests.backends import BACKENDS, VALUE_BACKENDS, has_values, namespace, to_numpy

NP = {d: np.dtype(ml_dtypes.bfloat16) if d.name == "bfloat16" else np.dtype(d.name) for d in DTYPES}
TRIO = ("int8", "uint8", "float16")


def _numpy_answer(*args: Any) -> str | None:
    """``np.result_type``'s dtype name, None where NumPy has no promotion (ml_dtypes' bfloat16)."""
    try:
        return str(np.result_type(*args))
    except TypeError:
        return None


def test_numpy_policy_promotes_every_dtype_triple_as_numpy() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    compared = 0
    for ts in itertools.product(DTYPES, repeat=3):
        want = _numpy_answer(*(NP[t] for t in ts))
        if want is None:  # ml_dtypes registers no such bfloat16 promotion: the policy's deviation
            continue
        assert str(xp.result_type(*ts)) == want, ts
        compared += 1
    assert compared > 2900


def test_numpy_policy_promotes_dtype_quadruples_as_numpy() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    rng = random.Random(24)
    for _ in range(3000):
        ts = tuple(rng.choice(DTYPES) for _ in range(4))
        want = _numpy_answer(*(NP[t] for t in ts))
        if want is not None:
            assert str(xp.result_type(*ts)) == want, ts


def test_numpy_policy_with_python_scalars_among_three_operands() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    plain = [d for d in DTYPES if d.name != "bfloat16"]
    for a, b in itertools.product(plain, repeat=2):
        for s in (True, 1, 1.5, 1j):
            arrays = [np.ones(2, NP[a]), np.ones(2, NP[b])]
            want = str(np.result_type(*arrays, s))
            assert str(xp.result_type(*(xp.asarray(x) for x in arrays), s)) == want, (a, b, s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_int8_uint8_float16_trio_is_float16_under_numpy(backend: str) -> None:
    xp = namespace(backend, "numpy")
    arrays = [xp.ones(2, dtype=getattr(xp, t)) for t in TRIO]
    assert str(np.result_type(*TRIO)) == "float16"
    assert xp.result_type(*arrays) is xp.float16
    assert xp.concat(arrays).dtype is xp.float16
    assert xp.stack(arrays).dtype is xp.float16
    assert xp.clip(*arrays).dtype is xp.float16
    assert str(np.clip(*(np.ones(2, t) for t in TRIO)).dtype) == "float16"
    if has_values(xp):
        assert to_numpy(xp.concat(arrays)).tolist() == [1.0] * 6


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize(("policy", "expected"), [("array-api", None), ("pytorch", "float16")])
def test_other_policies_fold_pairwise(backend: str, policy: str, expected: str | None) -> None:
    xp = namespace(backend, policy)
    arrays = [xp.ones(2, dtype=getattr(xp, t)) for t in TRIO]
    if expected is None:
        with pytest.raises(PromotionError):
            xp.concat(arrays)
    else:
        assert str(xp.concat(arrays).dtype) == expected
    assert get_policy(policy).nary == "pairwise"


def test_nary_is_policy_data() -> None:
    numpy = get_policy("numpy")
    pairwise = numpy.derive("numpy-folding", nary="pairwise", nary_order=())
    xp = promo_ns.namespace("numpy", policy=pairwise)
    assert xp.result_type(int8, uint8, float16) is float32  # (int8, uint8) is int16; with float16, float32
    assert promo_ns.namespace("numpy", policy=numpy).result_type(int8, uint8, float16) is float16
    # The main dtype is the operand latest in the order, whatever the policy's name: int8 here, and
    # int8 with uint8 is int16, int8 with float16 float16, which fold to float32.
    reordered = numpy.derive("numpy-int8-main", nary_order=(*[d for d in DTYPES if d is not int8], int8))
    assert promo_ns.namespace("numpy", policy=reordered).result_type(int8, uint8, float16) is float32


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"nary": "main-dtype", "nary_order": ()}, ["nary_order", "lacks bool"]),
        ({"nary_order": tuple(DTYPES)}, ["nary='pairwise'", "leave it empty"]),
        ({"nary": "main-dtype", "nary_order": (*DTYPES, int8)}, ["repeats int8"]),
        ({"nary": "fold"}, ["nary", "'pairwise', 'main-dtype'"]),
    ],
)
def test_nary_fields_are_checked(changes: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        get_policy("array-api").derive("bad-nary", **changes)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("value", [127, 128, 1000, -1, 2**63, 2**64, 2**70, -(2**63) - 1])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64", "float16"])
def test_result_type_converts_no_python_int_under_numpy(dtype: str, value: int) -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    assert str(xp.result_type(getattr(xp, dtype), value)) == str(np.result_type(np.dtype(dtype), value))
    assert str(xp.result_type(xp.int8, getattr(xp, dtype), value)) == str(
        np.result_type(np.int8, np.dtype(dtype), value)
    )


@pytest.mark.parametrize(
    "scalars", [(True,), (1,), (1.5,), (1j,), (True, 1), (1, 1.5), (1.5, 1j), (-1, 2**63)]
)
def test_python_scalars_alone_take_numpys_default_dtypes(scalars: tuple[Any, ...]) -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    assert str(xp.result_type(*scalars)) == str(np.result_type(*scalars))
    with pytest.raises(PromotionError, match="at least one operand must be an array"):
        promo_ns.namespace("numpy", policy="array-api").result_type(*scalars)


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_where_of_two_python_scalars_under_numpy(backend: str) -> None:
    xp = namespace(backend, "numpy")
    c = xp.asarray([True, False])
    out = xp.where(c, 1, 1.5)
    assert out.dtype is xp.float64
    assert to_numpy(out).tolist() == np.where(np.array([True, False]), 1, 1.5).tolist()
    with pytest.raises(TypeError, match="needs at least one promo_ns array"):
        xp.add(1, 2.0)  # arithmetic of Python scalars alone stays refused


def _has_bfloat16(xp: Any) -> bool:
    try:
        xp._backend.native_dtype(xp.bfloat16)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
@pytest.mark.parametrize("dtype", ["int8", "float16", "float64", "bfloat16"])
def test_bfloat16_numpy_scalars_are_numpy_scalars(backend: str, dtype: str) -> None:
    xp = namespace(backend, "numpy")
    s = ml_dtypes.bfloat16(2)
    if not _has_bfloat16(xp):  # CuPy: a bfloat16 operand is refused, naming the missing dtype
        with pytest.raises(TypeError, match="cupy backend has no bfloat16 dtype"):
            xp.asarray([1, 1], dtype=xp.float32) * s
        return
    x = np.ones(2, NP[next(d for d in DTYPES if d.name == dtype)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = x * s
    got = xp.asarray([1, 1], dtype=getattr(xp, dtype)) * s
    assert str(got.dtype) == str(want.dtype)
    assert to_numpy(got).astype(np.float64).tolist() == want.astype(np.float64).tolist()
    if _numpy_answer(x, s) is not None:  # ml_dtypes has no float16 with bfloat16 there: a deviation
        assert str(xp.result_type(xp.asarray(x), s)) == _numpy_answer(x, s)
    assert xp.asarray(s).dtype is xp.bfloat16


def test_torch_reads_bfloat16_numpy_data() -> None:
    xp = promo_ns.namespace("torch", policy="numpy")
    data = np.array([1.5, -2.0, np.inf], ml_dtypes.bfloat16)
    out = xp.asarray(data)
    assert out.dtype is xp.bfloat16
    assert to_numpy(out).tolist() == [1.5, -2.0, np.inf]


# --- the array-api policy against array-api-strict ------------------------------------------

xs = pytest.importorskip("array_api_strict")
STRICT = [d.name for d in DTYPES if hasattr(xs, d.name)]


@pytest.fixture(autouse=True)
def _strict_at_the_newest_version() -> Iterator[None]:
    """array-api-strict at the standard's version with ``isin`` (a conformance module imported in the
    same process may have set an older one for its own runs)."""
    with xs.ArrayAPIStrictFlags(api_version="2025.12"):
        yield


KIND_CHECKED = [
    *("logical_not", "imag", "real", "conj", "isnan", "isinf", "isfinite", "signbit", "sort", "argsort"),
    *("diff", "fft.fftshift", "fft.ifftshift", "linalg.matrix_power"),
]


def _call(m: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    owner, _, short = name.rpartition(".")
    fn = getattr(getattr(m, owner) if owner else m, short)
    return fn(*args, **kwargs)


def _refuses(fn: Any, *args: Any, **kwargs: Any) -> bool:
    """Whether ``fn(*args, **kwargs)`` refuses its input (a TypeError); it may compute, or fail on values."""
    try:
        fn(*args, **kwargs)
    except TypeError:
        return True
    except (ValueError, ArithmeticError):  # values (a singular matrix), not the input's kind
        return False
    return False


def _matrix(m: Any, dtype: str) -> Any:
    return m.astype(m.asarray([[2, 1], [1, 2]]), getattr(m, dtype))


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("name", KIND_CHECKED)
def test_array_api_input_kinds_are_array_api_strict(backend: str, name: str) -> None:
    xp = namespace(backend, "array-api")
    args = (2,) if name == "linalg.matrix_power" else ()
    for dtype in STRICT:
        strict = _refuses(_call, xs, name, _matrix(xs, dtype), *args)
        mine = _refuses(_call, xp, name, _matrix(xp, dtype), *args)
        assert mine == strict, (name, dtype, strict)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_array_api_astype_follows_array_api_strict(backend: str) -> None:
    xp = namespace(backend, "array-api")
    for a, b in itertools.product(STRICT, repeat=2):
        strict = _refuses(xs.astype, _matrix(xs, a), getattr(xs, b))
        assert _refuses(xp.astype, _matrix(xp, a), getattr(xp, b)) == strict, (a, b)
    with pytest.raises(PromotionError, match=r"astype.*complex64.*xp\.real\(x\)"):
        xp.astype(xp.ones(2, dtype=xp.complex64), xp.int8)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_array_api_isin_and_reductions_with_dtype_follow_array_api_strict(backend: str) -> None:
    xp = namespace(backend, "array-api")
    for a, b in itertools.product(STRICT, repeat=2):
        strict = _refuses(xs.isin, _matrix(xs, a), _matrix(xs, b))
        assert _refuses(xp.isin, _matrix(xp, a), _matrix(xp, b)) == strict, ("isin", a, b)
        for name in ("sum", "prod", "cumulative_sum", "linalg.trace"):
            kwargs: dict[str, Any] = {"axis": 0} if name == "cumulative_sum" else {}
            strict = _refuses(_call, xs, name, _matrix(xs, a), dtype=getattr(xs, b), **kwargs)
            mine = _refuses(_call, xp, name, _matrix(xp, a), dtype=getattr(xp, b), **kwargs)
            assert mine == strict, (name, a, b)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_bool_cumulative_accumulation_is_numpys_logical_or_and(backend: str, name: str) -> None:
    xp = namespace(backend, "numpy")
    data = np.array([[1, -1], [0, 2]], np.int8)
    for initial in (False, True):
        got = getattr(xp, name)(xp.asarray(data), axis=0, dtype=xp.bool, include_initial=initial)
        assert got.dtype is xp.bool
        if has_values(xp):
            want = getattr(np, name)(data, axis=0, dtype=np.bool_, include_initial=initial)
            assert to_numpy(got).tolist() == want.tolist()


def test_refusals_name_the_function_and_a_fix() -> None:
    xp = promo_ns.namespace("numpy", policy="array-api")
    with pytest.raises(PromotionError, match=r"logical_not\(x: int8 array\).*bool arrays.*xp\.bool"):
        xp.logical_not(xp.ones(2, dtype=xp.int8))
    with pytest.raises(PromotionError, match=r"fft\.fftshift\(x: int64 array\).*floating-point or complex"):
        xp.fft.fftshift(xp.ones(2, dtype=xp.int64))
    with promo_ns.policy("numpy"):  # NumPy computes them: the refusals are array-api's data
        assert xp.logical_not(xp.ones(2, dtype=xp.int8)).dtype is xp.bool
        assert xp.astype(xp.ones(2, dtype=xp.complex64), xp.int8).dtype is xp.int8


def test_input_kinds_are_checked() -> None:
    with pytest.raises(ValueError, match=r"input_kinds names 'logical_nto'.*did you mean 'logical_not'"):
        get_policy("array-api").derive("bad-kinds", input_kinds={"logical_nto": "b"})
    with pytest.raises(ValueError, match="astype_kinds"):
        get_policy("array-api").derive("bad-casts", astype_kinds={"c": "cx"})


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", ["array-api", "numpy", "pytorch"])
def test_fftfreq_takes_real_floating_dtypes_only(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    for dtype in (xp.int64, xp.bool, xp.complex64):
        with pytest.raises(ValueError, match=r"fft\.fftfreq\(\).*real floating-point"):
            xp.fft.fftfreq(4, dtype=dtype)
        with pytest.raises(ValueError, match=r"fft\.rfftfreq\(\)"):
            xp.fft.rfftfreq(4, dtype=dtype)
    assert xp.fft.fftfreq(4, dtype=xp.float32).dtype is xp.float32


def test_python_scalar_roles_are_data() -> None:
    assert get_policy("numpy").defaults["float"].name == "float64"
    assert get_policy("numpy").scalars_alone == "defaults"
    assert get_policy("array-api").scalars_alone == "refused"
