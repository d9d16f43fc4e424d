"""Functions of one array after their first call: the compiled path gives what the full path gives.

A function of one array (``log``, ``mean``), a reduction (``sum``) or
``astype`` that ran once outside any block keeps what it decided for that
input dtype and runs it again directly.  Generated over every such function
of the elementwise and statistical chapters, every dtype, every policy and
backend: the second call (the compiled path) and the same call in a
``promo_ns.policy`` block (always the full path) give the first call's dtype,
shape and values bit for bit, or its error, word for word.  JAX and Dask run
one dtype of each kind, and on JAX each function one of them, in turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns._dtypes import DTYPES
from promo_ns._functions import elementwise, statistical
from tests.backends import (
    POLICIES,
    VALUE_BACKENDS,
    backend_marks,
    backend_name,
    dtypes_of,
    namespace,
    to_numpy,
)

#: Every function of the namespace built by ``decided`` or ``reduction`` with no argument but the array.
ONE_ARRAY = sorted(
    name
    for name, fn in {**elementwise.FUNCTIONS, **statistical.FUNCTIONS}.items()
    if fn.__code__.co_name in ("one", "reduce", "std", "var")  # decided(), reduction(): named as the function
)
NAMES = [d.name for d in DTYPES]
#: The dtypes on JAX and Dask, one of each kind: JAX compiles each op per dtype, Dask builds and
#: computes a graph per call, and the compiled paths they take are NumPy's, which runs every dtype.
_KINDS = ["bool", "int8", "uint16", "float32", "complex64"]
VALUES = [0, 1, -2, 3, 100]


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        out = fn(*args)
    except Exception as e:
        return f"error {type(e).__name__}: {e}", None
    return f"{out.dtype} {tuple(out.shape)}", to_numpy(out)


def _same(first: tuple[str, Any], other: tuple[str, Any], what: str) -> None:
    assert other[0] == first[0], what
    if first[1] is not None:  # the same kernel on the same input: bit for bit (NaNs too)
        assert np.ascontiguousarray(other[1]).tobytes() == np.ascontiguousarray(first[1]).tobytes(), what


def _arrays(xp: Any, backend: str) -> list[Any]:
    out = []
    for name in _KINDS if backend in ("jax", "dask") else dtypes_of(backend, NAMES):
        dtype = getattr(xp, name)
        values = [v != 0 for v in VALUES] if name == "bool" else [abs(v) for v in VALUES]
        out.append(xp.asarray(values, dtype=dtype))
        if backend != "jax":  # JAX compiles each op per shape: 0-d arrays on the other backends
            out.append(xp.asarray(values[1], dtype=dtype))  # 0-d: a code of its own
    return out


#: The policies run per backend: JAX compiles each op of each dtype and shape eagerly, and Dask
#: builds a graph per op; both share the compiled path with NumPy's backend, which runs every policy.
_SOME_POLICIES = {"jax": ("jax",), "dask": ("numpy", "pytorch")}
_CASES = [
    pytest.param(
        backend_name(backend),
        policy,
        marks=backend_marks(backend),
        id=f"{backend_name(backend)}-{policy}",
    )
    for backend in VALUE_BACKENDS
    for policy in POLICIES
    if policy in _SOME_POLICIES.get(backend_name(backend), POLICIES)
]


def _calls_agree(policy: str, what: str, fn: Any, *args: Any) -> bool:
    """The second call and the call in a block give the first call's outcome; whether that is a result."""
    first = _outcome(fn, *args)
    _same(first, _outcome(fn, *args), what + ": second call")
    with promo_ns.policy(policy):
        _same(first, _outcome(fn, *args), what + ": in a block")
    return not first[0].startswith("error ")


@pytest.mark.parametrize(("backend", "policy"), _CASES)
def test_second_call_and_block_call_give_the_first_calls_outcome(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    arrays = _arrays(xp, backend)
    where = f"under {policy} on {backend}"
    for k, name in enumerate(ONE_ARRAY):
        fn = getattr(xp, name)
        # JAX compiles each function per dtype (about 50 ms): there each function starts at another
        # array, in turn, and runs until one gives a result, so every function and dtype runs
        turn = k % len(arrays) if backend == "jax" else 0
        for x in arrays[turn:] + arrays[:turn]:
            if _calls_agree(policy, f"{name}({x.dtype}, ndim {x.ndim}) {where}", fn, x) and backend == "jax":
                break
    for x in arrays:
        for target in _KINDS if backend in ("jax", "dask") else dtypes_of(backend, NAMES):
            _calls_agree(policy, f"astype({x.dtype}, {target}) {where}", xp.astype, x, getattr(xp, target))


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
def test_a_compiled_function_follows_a_policy_block_and_a_trace(backend: str) -> None:
    xp = namespace(backend, "array-api")
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    assert xp.sum(x).dtype is xp.int64 and xp.sum(x).dtype is xp.int64  # compiled under array-api
    with promo_ns.policy("pytorch"):
        assert xp.sum(x).dtype is xp.int64
    with promo_ns.policy("tf-safe"):
        assert xp.sum(x).dtype is xp.int8  # TF's sum keeps the dtype: the block's policy decides
    f = xp.asarray([1.0, 2.0], dtype=xp.float32)
    xp.astype(f, xp.float64), xp.log(f)
    with promo_ns.compare("array-api", "numpy") as report, promo_ns.trace() as trace:
        xp.astype(f, xp.float64), xp.log(f), xp.sum(x)
    assert {record.op for record in trace.records} >= {"sum"}  # the implicit int8 -> int64
    assert report.differences == []


def test_the_compiled_paths_count_few_frames() -> None:
    import sys

    xp = promo_ns.namespace("numpy", policy="array-api")
    a, i8 = xp.asarray(np.ones(10, np.float32)), xp.asarray(np.ones(10, np.int8))
    calls: dict[str, Callable[[], Any]] = {
        "log": lambda: xp.log(a),
        "mean": lambda: xp.mean(a),
        "sum": lambda: xp.sum(i8),
    }
    calls["astype"] = lambda: xp.astype(a, xp.float64)
    frames: list[str] = []

    def count(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and "promo_ns" in frame.f_code.co_filename:
            frames.append(frame.f_code.co_name)

    for name, call in calls.items():
        call()
        frames.clear()
        sys.settrace(count)
        try:
            call()
        finally:
            sys.settrace(None)
        assert len(frames) <= _FRAMES[name], (name, frames)


#: promo_ns frames of a repeated call: the function (with its axis check), its wrapping of the result.
_FRAMES = {"log": 2, "mean": 4, "sum": 4, "astype": 3}
