"""uint16/uint32/uint64 on torch: every op computes exactly what NumPy computes in the same dtypes.

torch's CPU has no ``add``/``lt``/``maximum``/``floor_divide``/... kernels for
these dtypes; promo_ns computes them through the signed dtype of the same size
(``promo_ns/backends/_torch_unsigned.py``).  Values are drawn by hypothesis over
the whole range of each dtype, with its edges (0, 1, max, max - 1, 2**(bits-1)
and its neighbours) always likely.  On ``meta`` (no data) the dtypes are checked.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import promo_ns
import promo_ns._operands
import promo_ns._plan
from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import BY_NAME, DType, native
from promo_ns._engine.decisions import compute_table, family_name
from promo_ns._engine.functions import accumulation_dtype, function_dtype
from promo_ns._engine.operands import Operand, Refusal
from promo_ns._engine.resolution import resolve
from promo_ns._ops import NATIVE
from promo_ns.policies import Role
from tests.backends import close, namespace, to_numpy

UNSIGNED = ("uint16", "uint32", "uint64")
#: the other operand's dtypes: every unsigned one, and one of each promotion step of the others
#: (bfloat16 has no NumPy array torch takes).
PARTNERS = (
    *("bool", "int8", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    *("float16", "float32", "float64", "complex128"),
)
POLICIES = ("numpy", "array-api")
TORCH = [
    "torch",
    pytest.param(
        "torch:cuda",
        marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA GPU here"),
    ),
]
_DIVISIONS = frozenset(("floor_divide", "remainder"))
#: ops whose complex kernels torch has as NumPy has them (no complex ordering on torch, and its
#: complex ``0 ** 0`` is nan): complex compute dtypes are checked for these only.
_COMPLEX_OPS = frozenset(("add", "subtract", "multiply", "divide", "equal", "not_equal"))

#: a drawn element: an edge of the dtype (a negative index into ``_edges``) or any 64-bit pattern.
RAW = st.one_of(st.integers(-8, -1), st.integers(0, 2**64 - 1))
PAIRS = st.lists(st.tuples(RAW, RAW), min_size=1, max_size=8)


def _edges(dtype: str) -> list[Any]:
    """0, 1, 2, max - 1, max, and the sign bit and its neighbours (signed: min, min + 1, -1)."""
    np_dtype = np.dtype(dtype)
    if np_dtype.kind == "b":
        return [False, True] * 4
    if np_dtype.kind in "fc":
        return [0.0, 1.0, 2.0, -1.0, 0.5, 65535.0, 2.0**32, 2.0**63]
    info = np.iinfo(np_dtype)
    if np_dtype.kind == "i":
        return [0, 1, 2, int(info.max) - 1, int(info.max), int(info.min), int(info.min) + 1, -1]
    half = 1 << (info.bits - 1)
    return [0, 1, 2, int(info.max) - 1, int(info.max), half, half - 1, half + 1]


def _element(raw: int, dtype: str) -> Any:
    """The element of ``dtype`` that drawn ``raw`` stands for."""
    if raw < 0:
        return _edges(dtype)[-raw - 1]
    np_dtype = np.dtype(dtype)
    if np_dtype.kind == "b":
        return bool(raw & 1)
    if np_dtype.kind in "fc":
        return (raw % 2**24) / 16 - 2**18
    bits = np_dtype.itemsize * 8
    value = raw % 2**bits
    return value - 2**bits if np_dtype.kind == "i" and value >> (bits - 1) else value


def _array(raws: list[int], dtype: str) -> np.ndarray[Any, Any]:
    with np.errstate(over="ignore"):  # float16 edges past its range: inf, on both sides
        return np.array([_element(r, dtype) for r in raws], dtype=dtype)


def _cell(policy: str, op: str, a: tuple[DType | None, Role], b: tuple[DType | None, Role]) -> Any:
    pol = get_policy(policy)
    return compute_table(pol, family_name(pol, op))[(a[0], a[1], b[0], b[1])]


def _int_refused(policy: str, op: str, *operands: tuple[tuple[DType | None, Role], Any]) -> bool:
    """Whether the policy refuses the value of a Python int among ``operands`` ((key, value) pairs)."""
    a, b = (Operand(*key, value if key[0] is None else None) for key, value in operands)
    try:
        resolve(get_policy(policy), op, a, b)
    except (PromotionError, OverflowError, ValueError):
        return True
    return False


def _reference(op: str, x: Any, y: Any, compute: DType, result: DType) -> np.ndarray[Any, Any]:
    """NumPy's ``op`` on the operands cast to ``compute``, cast to ``result``."""
    c = native(compute, np)
    xs, ys = (v.astype(c) if isinstance(v, np.ndarray) else np.array(v, dtype=c) for v in (x, y))
    with np.errstate(all="ignore"):
        out = getattr(np, NATIVE[op][0])(xs, ys)
    return np.asarray(out).astype(native(result, np))


class _Drawn:
    """The drawn values as NumPy arrays of each dtype (and Python ints), and the namespace's arrays."""

    def __init__(self, xp: Any, pairs: list[tuple[int, int]]) -> None:
        self.xp = xp
        self.pairs = pairs
        self._np: dict[tuple[str, int], np.ndarray[Any, Any]] = {}
        self._xp: dict[tuple[str, int], Any] = {}

    def numpy(self, dtype: str, side: int) -> np.ndarray[Any, Any]:
        found = self._np.get((dtype, side))
        if found is None:
            found = self._np[(dtype, side)] = _array([p[side] for p in self.pairs], dtype)
        return found

    def operands(self, left: str, right: str) -> tuple[Any, Any]:
        """``left``'s values and ``right``'s (a Python int of ``left``'s range for ``right == "int"``)."""
        if right == "int":
            return self.numpy(left, 0), int(self.numpy(left, 1)[0])
        return self.numpy(left, 0), self.numpy(right, 1)

    def wrapped(self, v: Any) -> Any:
        """The namespace's array of NumPy array ``v`` (one of :meth:`numpy`'s, or a fitted copy)."""
        if not isinstance(v, np.ndarray):
            return v
        key = next((k for k, a in self._np.items() if a is v), None)
        if key is None:
            return self.xp.asarray(v)
        found = self._xp.get(key)
        if found is None:
            found = self._xp[key] = self.xp.asarray(v)
        return found


def _fit(op: str, y: Any, compute: DType) -> Any:
    """Second operand ``y`` without the values whose integer results NumPy and torch leave undefined.

    Integer ``x // 0`` is 0 on both (torch's own kernel raises; tested
    below); NumPy refuses negative integer powers.
    """
    if op in _DIVISIONS and compute.kind in "iu":
        if isinstance(y, np.ndarray):
            return np.where(y == 0, 1, y).astype(y.dtype) if (y == 0).any() else y
        return y or 1
    if op == "pow" and isinstance(y, np.ndarray) and y.dtype.kind == "i" and (y < 0).any():
        return np.where(y < 0, 1, y).astype(y.dtype)
    return y


#: the other operands also checked on the left: a Python int, and one dtype of each kind.
REFLECTED = ("int", "bool", "uint8", "int32", "float64")


def _cells() -> list[tuple[str, str, bool]]:
    """(unsigned dtype, other operand: a dtype or "int", reflected) for every pair checked."""
    out = []
    for left in UNSIGNED:
        for right in (*PARTNERS, "int"):
            out.append((left, right, False))
            if right in REFLECTED:
                out.append((left, right, True))
    return out


CELLS = _cells()


def _run(xp: Any, policy: str, op: str, pairs: list[tuple[int, int]], values: bool) -> list[str]:
    """Every cell of ``op`` with a uint16/32/64 operand: wrong dtypes or values, described."""
    wrong: list[str] = []
    fn = getattr(xp, op)
    drawn = _Drawn(xp, pairs)
    for left, right, reflected in CELLS:
        x, y = drawn.operands(left, right)
        a_key: tuple[DType | None, Role] = (BY_NAME[left], Role.ND)
        b_key: tuple[DType | None, Role] = (None, Role.INT) if right == "int" else (BY_NAME[right], Role.ND)
        if reflected:
            a_key, b_key, x, y = b_key, a_key, y, x
        cell = _cell(policy, op, a_key, b_key)
        label = f"{op}({a_key[0] or 'int'}, {b_key[0] or 'int'})"
        if isinstance(cell, Refusal):
            xa, ya = drawn.wrapped(x), drawn.wrapped(y)
            with pytest.raises((PromotionError, OverflowError)):
                fn(xa, ya)
            continue
        result, compute = cell
        if compute.kind == "c" and op not in _COMPLEX_OPS:
            continue
        y = _fit(op, y, compute)
        if _int_refused(policy, op, (a_key, x), (b_key, y)):
            with pytest.raises((PromotionError, OverflowError, ValueError)):
                fn(drawn.wrapped(x), drawn.wrapped(y))
            continue
        got = fn(drawn.wrapped(x), drawn.wrapped(y))
        if got.dtype is not result:
            wrong.append(f"{label}: {got.dtype}, the policy says {result}")
            continue
        if not values:
            continue
        want = _reference(op, x, y, compute, result)
        have = to_numpy(got)
        same = (
            close(have, want, result)
            if result.kind in "fc"
            else have.dtype == want.dtype and np.array_equal(have, want)
        )
        if not same:
            wrong.append(f"{label}: {have.tolist()} != NumPy's {want.tolist()} for {x!r}, {y!r}")
    return wrong


@pytest.mark.parametrize("op", list(NATIVE))
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", TORCH)
@settings(max_examples=max(10, settings().max_examples // 5))  # an example is every cell of op
@given(pairs=PAIRS)
def test_binary_ops_match_numpy(backend: str, policy: str, op: str, pairs: list[tuple[int, int]]) -> None:
    wrong = _run(namespace(backend, policy), policy, op, pairs, values=True)
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("op", list(NATIVE))
@pytest.mark.parametrize("policy", POLICIES)
def test_binary_op_dtypes_on_meta(policy: str, op: str) -> None:
    wrong = _run(namespace("torch:meta", policy), policy, op, [(-1, -2), (5, 7)], values=False)
    assert not wrong, "\n".join(wrong[:20])


_INPLACE = ("add", "subtract", "multiply", "floor_divide", "remainder", "pow", "bitwise_left_shift")


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("backend", TORCH)
@given(pairs=PAIRS)
def test_in_place_ops_match_numpy(backend: str, dtype: str, pairs: list[tuple[int, int]]) -> None:
    xp = namespace(backend, "numpy")
    for op in _INPLACE:
        x, y = _Drawn(xp, pairs).operands(dtype, dtype)
        y = _fit(op, y, BY_NAME[dtype])
        a = xp.asarray(x.copy())
        getattr(a, f"__i{_DUNDER.get(op, op)}__")(xp.asarray(y))
        want = _reference(op, x, y, BY_NAME[dtype], BY_NAME[dtype])
        assert a.dtype.name == dtype
        np.testing.assert_array_equal(to_numpy(a), want, err_msg=op)
        a = xp.asarray(x.copy())
        getattr(a, f"__i{_DUNDER.get(op, op)}__")(int(y[0]))
        want = _reference(op, x, y[:1], BY_NAME[dtype], BY_NAME[dtype])
        np.testing.assert_array_equal(to_numpy(a), want, err_msg=op)


_DUNDER = {
    "subtract": "sub",
    "multiply": "mul",
    "floor_divide": "floordiv",
    "remainder": "mod",
    "bitwise_left_shift": "lshift",
}


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("op", sorted(_DIVISIONS))
def test_integer_division_by_zero_gives_zero_as_numpy_does(dtype: str, op: str) -> None:
    # torch raises "ZeroDivisionError" for signed ints; promo_ns gives NumPy's 0, emulated dtypes too.
    xp = namespace("torch")
    for d in (xp.int64, BY_NAME[dtype]):
        out = getattr(xp, op)(xp.asarray([5, 6], dtype=d), xp.asarray([2, 0], dtype=d))
        np.testing.assert_array_equal(to_numpy(out), [2 if op == "floor_divide" else 1, 0])


@pytest.mark.parametrize("op", ["divide", "copysign", "nextafter", "hypot", "atan2", "logaddexp"])
def test_ops_with_no_exact_method_raise_promo_ns_type_error(op: str) -> None:
    # Paddle keeps uint16/32/64 for these (outside its lattice); no kernel gives an unsigned result.
    xp = namespace("torch", "paddle")
    for dtype in UNSIGNED:
        d = BY_NAME[dtype]
        cell = _cell("paddle", op, (d, Role.ND), (d, Role.ND))
        if isinstance(cell, Refusal) or cell[0] is not d:
            continue
        with pytest.raises(TypeError, match=rf"torch .*{op!r}.*{dtype}"):
            getattr(xp, op)(xp.asarray([1, 2], dtype=d), xp.asarray([3, 4], dtype=d))


# --- one-array functions, reductions, sorting and searching -------------------------------------

ROWS = st.lists(st.lists(RAW, min_size=4, max_size=4), min_size=1, max_size=4)


def _matrix(rows: list[list[int]], dtype: str) -> np.ndarray[Any, Any]:
    return np.array([[_element(r, dtype) for r in row] for row in rows], dtype=dtype)


def _same(got: Any, want: Any, what: str) -> None:
    """promo_ns array ``got`` holds NumPy's ``want``: the same dtype, the same elements."""
    want = np.asarray(want)
    have = to_numpy(got)
    assert have.dtype == want.dtype, f"{what}: {have.dtype}, NumPy: {want.dtype}"
    np.testing.assert_array_equal(have, want, err_msg=what)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("backend", TORCH)
@given(rows=ROWS)
def test_reductions_match_numpy(backend: str, dtype: str, policy: str, rows: list[list[int]]) -> None:
    xp = namespace(backend, policy)
    x = _matrix(rows, dtype)
    a = xp.asarray(x)
    acc = native(accumulation_dtype(get_policy(policy), "sum", BY_NAME[dtype]), np)
    with np.errstate(all="ignore"):
        for axis in (None, 0, 1):
            _same(xp.sum(a, axis=axis), np.sum(x, axis=axis, dtype=acc), f"sum {axis}")
            _same(xp.prod(a, axis=axis), np.prod(x, axis=axis, dtype=acc), f"prod {axis}")
            _same(xp.max(a, axis=axis), np.max(x, axis=axis), f"max {axis}")
            _same(xp.min(a, axis=axis), np.min(x, axis=axis), f"min {axis}")
            _same(xp.argmax(a, axis=axis), np.argmax(x, axis=axis), f"argmax {axis}")
            _same(xp.argmin(a, axis=axis), np.argmin(x, axis=axis), f"argmin {axis}")
        _same(xp.cumulative_sum(a, axis=1), np.cumsum(x, axis=1, dtype=acc), "cumulative_sum")
        _same(xp.cumulative_prod(a, axis=0), np.cumprod(x, axis=0, dtype=acc), "cumulative_prod")
        _same(xp.max(a, axis=1, keepdims=True), np.max(x, axis=1, keepdims=True), "max keepdims")


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("backend", TORCH)
@given(rows=ROWS)
def test_sorting_and_sets_match_numpy(backend: str, dtype: str, rows: list[list[int]]) -> None:
    xp = namespace(backend)
    x = _matrix(rows, dtype)
    a = xp.asarray(x)
    _same(xp.sort(a), np.sort(x, axis=-1), "sort")
    _same(xp.sort(a, axis=0, descending=True), np.flip(np.sort(x, axis=0), axis=0), "sort descending")
    _same(xp.argsort(a, axis=-1), np.argsort(x, axis=-1, kind="stable"), "argsort")
    flat = x.ravel()
    descending = sorted(range(flat.size), key=lambda i: (-int(flat[i]), i))  # stable: ties in order
    _same(xp.argsort(xp.reshape(a, (-1,)), descending=True), np.array(descending), "argsort descending")
    _same(xp.unique_values(a), np.unique(x), "unique_values")
    values, counts = np.unique(x, return_counts=True)
    got = xp.unique_counts(a)
    _same(got.values, values, "unique_counts values")
    _same(got.counts, counts, "unique_counts counts")
    values, inverse = np.unique(x, return_inverse=True)
    got = xp.unique_inverse(a)
    _same(got.values, values, "unique_inverse values")
    _same(got.inverse_indices, inverse.reshape(x.shape), "unique_inverse indices")
    got = xp.unique_all(a)
    _same(got.values, values, "unique_all values")
    sorted_ = np.sort(flat)
    for side in ("left", "right"):
        _same(
            xp.searchsorted(xp.asarray(sorted_), a, side=side),
            np.searchsorted(sorted_, x, side=side),
            f"searchsorted {side}",
        )
    order = np.argsort(flat, kind="stable")
    _same(
        xp.searchsorted(xp.asarray(flat), a, sorter=xp.asarray(order)),
        np.searchsorted(flat, x, sorter=order),
        "searchsorted sorter",
    )
    _same(xp.isin(a, xp.asarray(flat[::2])), np.isin(x, flat[::2]), "isin")


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("backend", TORCH)
@given(rows=ROWS, bounds=st.tuples(RAW, RAW))
def test_elementwise_functions_match_numpy(
    backend: str, dtype: str, rows: list[list[int]], bounds: tuple[int, int]
) -> None:
    xp = namespace(backend, "numpy")
    x = _matrix(rows, dtype)
    a = xp.asarray(x)
    for name in ("abs", "negative", "sign", "square", "positive"):
        result = native(function_dtype(get_policy("numpy"), name, BY_NAME[dtype]), np)
        with np.errstate(all="ignore"):
            _same(getattr(xp, name)(a), getattr(np, name)(x).astype(result), name)
    _same(xp.bitwise_invert(a), np.invert(x), "bitwise_invert")
    _same(~a, np.invert(x), "~")
    lo, hi = (_element(b, dtype) for b in bounds)
    _same(xp.clip(a, lo, hi), np.minimum(np.maximum(x, np.array(lo, dtype)), np.array(hi, dtype)), "clip")
    lo_a = xp.asarray(np.array(lo, dtype=dtype))
    _same(xp.clip(a, min=lo_a), np.maximum(x, np.array(lo, dtype)), "clip min")
    _same(xp.where(a > lo_a, a, lo_a), np.where(x > lo, x, np.array(lo, dtype)), "where")


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("backend", TORCH)
@given(rows=ROWS)
def test_moving_elements_matches_numpy(backend: str, dtype: str, rows: list[list[int]]) -> None:
    xp = namespace(backend)
    x = _matrix(rows, dtype)
    a = xp.asarray(x)
    _same(xp.flip(a), np.flip(x), "flip")
    _same(xp.roll(a, 1, axis=1), np.roll(x, 1, axis=1), "roll")
    _same(xp.take(a, xp.asarray([3, 0, 0]), axis=1), np.take(x, [3, 0, 0], axis=1), "take")
    idx = np.zeros((x.shape[0], 1), dtype=np.int64)
    _same(xp.take_along_axis(a, xp.asarray(idx), axis=1), np.take_along_axis(x, idx, axis=1), "take_along")
    for got, want in zip(xp.nonzero(a), np.nonzero(x), strict=True):
        _same(got, want, "nonzero")
    _same(xp.count_nonzero(a), np.int64(np.count_nonzero(x)), "count_nonzero")
    _same(xp.diff(a, axis=1), np.diff(x, axis=1), "diff")
    _same(a[::-1, ::-2], x[::-1, ::-2], "negative steps")
    _same(xp.concat([a, a]), np.concatenate([x, x]), "concat")
    _same(xp.matmul(a, xp.matrix_transpose(a)), x @ x.T, "matmul")
    square = x[:, : x.shape[0]]
    with promo_ns.policy("numpy"):  # array-api's matrix_power takes floating arrays only
        powered = xp.linalg.matrix_power(xp.asarray(square), 3)
    _same(powered, np.linalg.matrix_power(square, 3), "matrix_power")


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("backend", TORCH)
@given(rows=ROWS, raw=RAW)
def test_setitem_writes_the_same_bits(backend: str, dtype: str, rows: list[list[int]], raw: int) -> None:
    xp = namespace(backend)
    x = _matrix(rows, dtype)
    value = _element(raw, dtype)
    for key in (
        (slice(None), 1),
        (xp.asarray([0]), slice(None)),
        (slice(None, None, -1), slice(None, None, -2)),
    ):
        a = xp.asarray(x.copy())
        want = x.copy()
        np_key = tuple(to_numpy(k) if hasattr(k, "dtype") else k for k in key)
        a[key] = value
        want[np_key] = value
        _same(a, want, f"setitem {key} = {value}")
        a = xp.asarray(x.copy())
        a[key] = xp.asarray(np.array(value, dtype=dtype))
        _same(a, want, f"setitem {key} = 0-d array")
    a = xp.asarray(x.copy())
    mask = x > value // 2
    a[xp.asarray(mask)] = value
    want = x.copy()
    want[mask] = value
    _same(a, want, "setitem mask")


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_functions_give_their_dtypes_on_meta(dtype: str) -> None:
    xp = namespace("torch:meta")
    a = xp.ones((2, 3), dtype=BY_NAME[dtype])
    d = a.dtype
    assert xp.max(a).dtype is d and xp.min(a, axis=0).dtype is d
    assert xp.argmax(a).dtype is xp.int64 and xp.argsort(a).dtype is xp.int64
    assert xp.sort(a).dtype is d and xp.sum(a).dtype is xp.uint64
    assert xp.cumulative_sum(a, axis=1).dtype is xp.uint64
    assert xp.searchsorted(xp.ones(3, dtype=d), a).dtype is xp.int64
    assert (a + a).dtype is d and (a < a).dtype is xp.bool and (a // 3).dtype is d
    assert xp.flip(a).dtype is d and xp.clip(a, 1, 2).dtype is d and xp.negative(a).dtype is d


def test_the_fast_path_is_untouched_for_dtypes_with_kernels() -> None:
    xp = namespace("torch")
    policy, same, nk = get_policy("array-api"), promo_ns._operands.code_of, promo_ns._operands._NK
    for name in ("int64", "float32", "uint8", "int16"):
        code = same(BY_NAME[name], False)
        plan = promo_ns._plan.plan_of(policy, xp._backend, "add", code * nk + code)
        assert plan is not None and plan.direct and plan.kernel is torch.add
    for name in UNSIGNED:
        code = same(BY_NAME[name], False)
        plan = promo_ns._plan.plan_of(policy, xp._backend, "add", code * nk + code)
        assert plan is not None and not plan.direct
    # torch's CPU multiplies uint16/32/64 itself, CUDA does not: the cells go through binary(),
    # which runs torch's kernel on the CPU.
    code = same(BY_NAME["uint64"], False)
    mul = promo_ns._plan.plan_of(policy, xp._backend, "multiply", code * nk + code)
    assert mul is not None and not mul.direct
    calls = []

    def counted(a: Any, b: Any) -> Any:
        calls.append(a.dtype)
        return torch.mul(a, b)

    xp._backend._fn["multiply"] = counted
    try:
        a = xp.asarray([3, 2**64 - 1], dtype=xp.uint64)
        assert to_numpy(a * a).tolist() == [9, 1] and calls == [torch.uint64]
    finally:
        xp._backend._fn["multiply"] = torch.mul


def test_torch_still_lacks_these_cpu_kernels() -> None:
    # The fact the emulation exists for; if torch grows the kernels, the cells can go direct.
    a = torch.ones(2, dtype=torch.uint32)
    for fn in (torch.add, torch.lt, torch.maximum, torch.floor_divide):
        with pytest.raises(NotImplementedError):
            fn(a, a)
    assert torch.mul(a, a).dtype == torch.uint32


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_spaces_unsigned_values_as_numpy_does(dtype: str, endpoint: bool) -> None:
    xp = namespace("torch", "array-api")
    got = xp.linspace(3, 200, 7, dtype=getattr(xp, dtype), endpoint=endpoint)
    assert got.dtype == getattr(xp, dtype)
    want = np.linspace(3, 200, 7, dtype=dtype, endpoint=endpoint)
    np.testing.assert_array_equal(to_numpy(got), want)


@pytest.mark.parametrize("value", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_int_and_index_of_a_uint64_beyond_int64(value: int) -> None:
    xp = namespace("torch", "array-api")
    x = xp.asarray(value, dtype=xp.uint64)
    assert int(x) == value
    assert x.__index__() == value
    assert [0, 1, 2][xp.asarray(2, dtype=xp.uint64)] == 2
