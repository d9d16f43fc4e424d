"""The compiled plans of functions of several operands (promo_ns/_plan_functions.py, _plan_products.py).

``where``, ``clip``, ``concat``, ``stack``, the products (``matmul``,
``tensordot``, ``vecdot``, also of ``linalg``) and ``result_type``.

Outside blocks these functions look their plan up by the operands' codes; the
general path (inside a ``promo_ns.policy(...)`` block) is the reference.  For
operands drawn over dtypes, roles (n-d and 0-d arrays, Python bool, int,
float and complex scalars, values past every dtype's range among them) and
every built-in policy, on NumPy and torch, the call that compiles the plan,
the call that finds it cached and the call in a block give the same dtype,
values and error (class and message).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import promo_ns
from promo_ns._dtypes import DTYPES
from tests.backends import POLICIES, to_numpy

BACKENDS = ["numpy", "torch"]
_DTYPES = [d.name for d in DTYPES]
#: An array's values by its dtype's kind: each fits every dtype of the kind.
_VALUES: dict[str, list[Any]] = {
    "b": [True, False, True],
    "i": [0, 3, -7],
    "u": [0, 3, 7],
    "f": [-1.25, 0.5, math.nan],
    "c": [1 + 2j, -0.5, complex(math.nan, 0)],
}
#: Python scalars of each role: in range of some dtypes and past others', NaN and infinities.
_SCALARS: dict[str, list[Any]] = {
    "bool": [True, False],
    "int": [
        0,
        1,
        -1,
        2,
        127,
        128,
        -129,
        255,
        256,
        70000,
        2**31,
        2**53 + 1,
        2**63,
        -(2**63) - 1,
        2**64,
        10**40,
    ],
    "float": [0.5, -2.5, 0.1, -0.0, math.nan, math.inf, -math.inf, 70000.0, 1e39, 1e300, 3.0],
    "complex": [1 + 0j, 1.5 - 2j, complex(math.nan, 0), 2j],
}
_ROLES = ["nd", "0d", "bool", "int", "float", "complex"]
Outcome = tuple[Any, ...]
#: A drawn operand: ``(role, dtype name, value)`` (see :func:`operands`).
Spec = tuple[str, str, Any]


@st.composite
def operands(draw: st.DrawFn, roles: list[str] = _ROLES) -> tuple[str, str, Any]:
    """A drawn operand: ``(role, dtype name, value)``; an array's value is the index of its values.

    Role ``"dtype"``: a dtype, of the name drawn.
    """
    role = draw(st.sampled_from(roles))
    if role in ("nd", "0d", "dtype"):
        return role, draw(st.sampled_from(_DTYPES)), draw(st.integers(0, 2))
    return role, "", draw(st.sampled_from(_SCALARS[role]))


#: Finite values of each kind: products of vectors holding a NaN would all be NaN.
_FINITE = {**_VALUES, "f": [-1.25, 0.5, 3.0], "c": [1 + 2j, -0.5, 2j]}


def _make(xp: Any, spec: tuple[str, str, Any], table: dict[str, list[Any]] = _VALUES) -> Any:
    """The operand ``spec`` in ``xp``: a promo_ns array (of ``table``'s values) or the Python scalar."""
    role, name, value = spec
    if role not in ("nd", "0d"):
        return value
    dtype = getattr(xp, name)
    kind = "i" if name.startswith("int") else "u" if name.startswith("uint") else None
    values = table[kind or {"bool": "b", "complex64": "c", "complex128": "c"}.get(name, "f")]
    values = values[value:] + values[:value]
    return xp.asarray(values[0] if role == "0d" else values, dtype=dtype)


def _outcome(f: Callable[[], Any]) -> Outcome:
    """What ``f()`` gives: its dtype, shape and bytes, or its error's class and message."""
    try:
        out = f()
    except Exception as e:
        return ("raises", type(e), str(e))
    got = to_numpy(out)
    return ("returns", str(out.dtype), tuple(out.shape), got.dtype.str, got.tobytes())


def _check(backend: str, policy: str, call: Callable[[Any], Any]) -> None:
    """``call(xp)`` gives the same outcome compiling its plan, with it cached, and in a policy block."""
    xp = promo_ns.namespace(backend, policy=policy)
    with np.errstate(all="ignore"):
        first = _outcome(lambda: call(xp))
        cached = _outcome(lambda: call(xp))
        with promo_ns.policy(policy):
            block = _outcome(lambda: call(xp))
    assert first == cached == block, (first, cached, block)


@pytest.mark.parametrize("backend", BACKENDS)
@given(
    policy=st.sampled_from(POLICIES),
    condition=st.tuples(st.sampled_from(["nd", "0d"]), st.sampled_from(["bool"] * 5 + ["int8"]), st.just(1)),
    x1=operands(),
    x2=operands(),
)
def test_where(
    backend: str,
    policy: str,
    condition: tuple[str, str, int],
    x1: tuple[str, str, Any],
    x2: tuple[str, str, Any],
) -> None:
    """``where(condition, x1, x2)``: the plan's outcome is the general path's."""
    _check(backend, policy, lambda xp: xp.where(_make(xp, condition), _make(xp, x1), _make(xp, x2)))


@pytest.mark.parametrize("backend", BACKENDS)
@given(
    policy=st.sampled_from(POLICIES),
    x=operands(["nd", "0d"]),
    lo=st.none() | operands(),
    hi=st.none() | operands(),
)
def test_clip(
    backend: str,
    policy: str,
    x: tuple[str, str, Any],
    lo: tuple[str, str, Any] | None,
    hi: tuple[str, str, Any] | None,
) -> None:
    """``clip(x, lo, hi)``: the plan's outcome is the general path's."""

    def call(xp: Any) -> Any:
        return xp.clip(
            _make(xp, x), None if lo is None else _make(xp, lo), None if hi is None else _make(xp, hi)
        )

    _check(backend, policy, call)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["concat", "stack"])
@given(
    policy=st.sampled_from(POLICIES),
    arrays=st.lists(operands(["nd"] * 6 + ["0d", "int"]), min_size=1, max_size=4),
    axis=st.sampled_from([0, -1, None, 1]),
)
def test_joined(
    backend: str, name: str, policy: str, arrays: list[tuple[str, str, Any]], axis: int | None
) -> None:
    """``concat`` and ``stack`` of arrays: the plan's outcome is the general path's."""
    _check(backend, policy, lambda xp: getattr(xp, name)([_make(xp, a) for a in arrays], axis=axis))


#: The products of two arrays, each with the keywords it is called with here.
_PRODUCTS: dict[str, dict[str, Any]] = {
    "matmul": {},
    "tensordot": {"axes": 1},
    "vecdot": {},
    "linalg.matmul": {},
    "linalg.tensordot": {"axes": 1},
    "linalg.vecdot": {"axis": 0},
}


def _function(xp: Any, name: str) -> Any:
    """``xp.<name>``, ``name`` dotted for an extension's function (``"linalg.matmul"``)."""
    owner, _, short = name.rpartition(".")
    return getattr(getattr(xp, owner) if owner else xp, short)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", list(_PRODUCTS))
@given(
    policy=st.sampled_from(POLICIES),
    x1=operands(["nd"] * 6 + ["0d", "float"]),
    x2=operands(["nd"] * 6 + ["0d", "int"]),
    matrices=st.tuples(st.booleans(), st.booleans()),
)
def test_products(
    backend: str,
    name: str,
    policy: str,
    x1: tuple[str, str, Any],
    x2: tuple[str, str, Any],
    matrices: tuple[bool, bool],
) -> None:
    """Products of vectors and 3x3 matrices (0-d arrays, scalars raise): the plan's is the general path's."""

    def operand(xp: Any, spec: tuple[str, str, Any], matrix: bool) -> Any:
        x = _make(xp, spec, _FINITE)
        return xp.stack([x, x, x]) if matrix and getattr(x, "ndim", 0) == 1 else x

    def call(xp: Any) -> Any:
        a, b = (operand(xp, spec, matrix) for spec, matrix in zip((x1, x2), matrices, strict=True))
        return _function(xp, name)(a, b, **_PRODUCTS[name])

    _check(backend, policy, call)


@pytest.mark.parametrize("backend", BACKENDS)
@given(
    policy=st.sampled_from(POLICIES),
    args=st.lists(operands(["nd", "0d", "dtype"]), min_size=1, max_size=4),
)
def test_result_type(backend: str, policy: str, args: list[tuple[str, str, Any]]) -> None:
    """``result_type`` of arrays and dtypes: the dtype kept from the first call is the general path's."""
    xp = promo_ns.namespace(backend, policy=policy)
    operands = [
        getattr(xp, name) if role == "dtype" else _make(xp, (role, name, i)) for role, name, i in args
    ]

    def outcome() -> Outcome:
        try:
            return ("returns", xp.result_type(*operands))
        except Exception as e:
            return ("raises", type(e), str(e))

    first, cached = outcome(), outcome()
    with promo_ns.policy(policy):
        block = outcome()
    assert first == cached == block, (first, cached, block)


_FRAMES: dict[str, Callable[[Any, Any, Any, Any], Any]] = {
    "where(c, a, b)": lambda xp, c, a, b: xp.where(c, a, b),  # float32 with int8: a cast
    "where(c, a, a)": lambda xp, c, a, b: xp.where(c, a, a),
    "clip(a, -0.5, 0.5)": lambda xp, c, a, b: xp.clip(a, -0.5, 0.5),
    "clip(a, None, 0.5)": lambda xp, c, a, b: xp.clip(a, None, 0.5),
    "concat([a, b])": lambda xp, c, a, b: xp.concat([a, b]),
    "stack([a, a, a])": lambda xp, c, a, b: xp.stack([a, a, a]),
    "matmul(a, a)": lambda xp, c, a, b: xp.matmul(a, a),
    "a @ b": lambda xp, c, a, b: a @ b,  # a cast
    "linalg.vecdot(a, a)": lambda xp, c, a, b: xp.linalg.vecdot(a, a),
    "result_type(a, b, float64)": lambda xp, c, a, b: xp.result_type(a, b, xp.float64),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("call", list(_FRAMES))
def test_planned_calls_run_few_frames(backend: str, call: str) -> None:
    """A planned call runs few promo_ns frames (the operators' budget, 10), none of the general path."""
    xp = promo_ns.namespace(backend, policy="numpy")
    a = xp.asarray([1.0, 2.0], dtype=xp.float32)
    b = xp.asarray([3, 4], dtype=xp.int8)
    c = a > 1.5
    _FRAMES[call](xp, c, a, b)  # compiles the plan
    frames: list[str] = []

    def profile(frame: Any, event: str, _: Any) -> None:
        if event == "call" and "promo_ns" in frame.f_code.co_filename:
            frames.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        _FRAMES[call](xp, c, a, b)
    finally:
        sys.setprofile(None)
    assert len(frames) <= 10 and "promoted" not in frames, frames


def _placed(f: Callable[[], Any]) -> Outcome:
    """What ``f()`` gives: its dtype, shape and device (torch's meta device holds no values), or its error."""
    try:
        out = f()
    except Exception as e:
        return ("raises", type(e), str(e))
    return ("returns", str(out.dtype), tuple(out.shape), str(out.device))


_ON_DEVICES: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
    "where(c, a, m)": lambda xp, v: xp.where(v["c"], v["a"], v["m"]),
    "where(cm, a, a)": lambda xp, v: xp.where(v["cm"], v["a"], v["a"]),
    "where(c, m0, a)": lambda xp, v: xp.where(v["c"], v["m0"], v["a"]),
    "where(c, a0, m)": lambda xp, v: xp.where(v["c"], v["a0"], v["m"]),
    "where(cm, m, 1.0)": lambda xp, v: xp.where(v["cm"], v["m"], 1.0),
    "clip(a, m)": lambda xp, v: xp.clip(v["a"], v["m"]),
    "clip(m, a0)": lambda xp, v: xp.clip(v["m"], v["a0"]),
    "clip(a, m0)": lambda xp, v: xp.clip(v["a"], v["m0"]),
    "clip(m, 0.5, 1.0)": lambda xp, v: xp.clip(v["m"], 0.5, 1.0),
    "concat([a, m])": lambda xp, v: xp.concat([v["a"], v["m"]]),
    "stack([a0, m0])": lambda xp, v: xp.stack([v["a0"], v["m0"]]),
    "concat([m, m])": lambda xp, v: xp.concat([v["m"], v["m"]]),
    "matmul(a, m)": lambda xp, v: xp.matmul(v["a"], v["m"]),
    "vecdot(m, a)": lambda xp, v: xp.vecdot(v["m"], v["a"]),
    "matmul(m, m)": lambda xp, v: xp.matmul(v["m"], v["m"]),
    "tensordot(a0, m)": lambda xp, v: xp.tensordot(v["a0"], v["m"], axes=0),
}


@pytest.mark.parametrize("call", list(_ON_DEVICES))
def test_arrays_on_two_devices_meet_as_in_a_block(call: str) -> None:
    """Arrays of one torch namespace on the CPU and on the meta device (n-d, 0-d) meet as in a block."""
    xp = promo_ns.namespace("torch")
    a, m = xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.0], device="meta")
    v = {"a": a, "m": m, "c": a > 1, "cm": m > 1, "a0": xp.asarray(1.0), "m0": xp.asarray(1.0, device="meta")}
    first, cached = _placed(lambda: _ON_DEVICES[call](xp, v)), _placed(lambda: _ON_DEVICES[call](xp, v))
    with promo_ns.policy(xp.policy.name):
        block = _placed(lambda: _ON_DEVICES[call](xp, v))
    assert first == cached == block, (first, cached, block)
