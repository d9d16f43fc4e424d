"""Operators on two n-d arrays after their first call: the fast path gives what the full path gives.

Once a cell of ``a op b`` (or ``a op= b``) of two n-d arrays of one namespace
is compiled, a repeat outside any block runs the plan's native function
directly (``Plan.arrays_kernel``, ``Plan.inplace_kernel``).  Generated over
every operator, every dtype pair, every policy and the backends with such
functions: the second call gives the first call's (which compiled the cell on
the full path) dtype and values bit for bit, or its error word for word; an
in-place op gives what it gives in a ``promo_ns.policy`` block (always the full
path); an in-place op that raises leaves ``x`` as it was.
"""

from __future__ import annotations

import operator
import sys
import warnings
from functools import partial
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns._binary_plans import plans
from promo_ns._dtypes import DTYPES
from promo_ns._operands import _NK, _SCALAR_CODE
from promo_ns._ops import INPLACE_OPERATORS, OPERATORS
from tests.backends import (
    GRID_VALUE_BACKENDS,
    POLICIES,
    backend_marks,
    backend_name,
    dtypes_of,
    namespace,
    to_numpy,
)

NAMES = [d.name for d in DTYPES]
#: Values with a zero (division), a negative (shifts, powers) and a large one (overflow).
VALUES = [0, 1, -2, 3, 100]


def _array(xp: Any, name: str) -> Any:
    dtype = getattr(xp, name)
    if name == "bool":
        return xp.asarray([v != 0 for v in VALUES], dtype=dtype)
    return xp.asarray([abs(v) if name.startswith("uint") else v for v in VALUES], dtype=dtype)


def _outcome(f: Any) -> tuple[str, bytes | None]:
    try:
        out = f()
    except Exception as e:
        return f"error {type(e).__name__}: {e}", None
    return str(out.dtype), np.ascontiguousarray(to_numpy(out)).tobytes()


def _stored(xp: Any, op: str, a: Any, b: Any) -> tuple[str, bytes | None]:
    """``x op= b`` on a copy of ``a``: what ``x`` holds, or the error with ``x`` left as it was."""
    x = xp.asarray(a, copy=True)
    before = np.ascontiguousarray(to_numpy(x)).tobytes()
    try:
        INPLACE_OPERATORS[op](x, b)
    except Exception as e:
        assert np.ascontiguousarray(to_numpy(x)).tobytes() == before, f"a raising {op}= changed x"
        return f"error {type(e).__name__}: {e}", None
    return str(x.dtype), np.ascontiguousarray(to_numpy(x)).tobytes()


_CASES = [
    pytest.param(
        backend_name(backend),
        policy,
        marks=backend_marks(backend),
        id=f"{backend_name(backend)}-{policy}",
    )
    for backend in GRID_VALUE_BACKENDS
    for policy in POLICIES
]


@pytest.mark.parametrize(("backend", "policy"), _CASES)
def test_the_fast_path_gives_the_full_paths_outcome(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    arrays = [_array(xp, name) for name in dtypes_of(backend, NAMES)]
    fast_cells = 0
    for op, name in OPERATORS.items():
        fn = getattr(operator, name, None) or getattr(operator, f"{name}_")  # operator.and_
        for a in arrays:
            for b in arrays:
                first = _outcome(partial(fn, a, b))  # the full path: it compiles the cell
                assert _outcome(partial(fn, a, b)) == first, (op, a.dtype, b.dtype)
                if op not in INPLACE_OPERATORS:
                    continue
                with promo_ns.policy(policy):  # the full path
                    full = _stored(xp, op, a, b)
                assert _stored(xp, op, a, b) == full, (op, a.dtype, b.dtype, "in place")
                plan = plans(xp.policy, xp._backend, op, function=False)[a._k * _NK + b._k]
                fast_cells += plan is not None and plan.inplace_kernel is not None
    assert fast_cells, "no in-place cell took the fast path"


def _masked_store(xp: Any, a: Any, mask: Any, value: Any) -> tuple[str, bytes | None]:
    """``x[mask] = value`` on a copy of ``a``: what ``x`` holds, or the error with ``x`` left as it was."""
    x = xp.asarray(a, copy=True)
    before = np.ascontiguousarray(to_numpy(x)).tobytes()
    try:
        x[mask] = value
    except Exception as e:
        assert np.ascontiguousarray(to_numpy(x)).tobytes() == before, "a raising setitem changed x"
        return f"error {type(e).__name__}", None
    return str(x.dtype), np.ascontiguousarray(to_numpy(x)).tobytes()


#: Python scalars stored by ``x[mask] = value``: in and out of every dtype's range, of every kind.
_STORED = [0, 1, -1, 300, 2**40, 2**70, 0.5, -0.0, 1e40, float("nan"), True, 1 + 2j]


@pytest.mark.parametrize(("backend", "policy"), _CASES)
def test_setitem_of_a_mask_and_a_scalar_gives_the_full_paths_outcome(backend: str, policy: str) -> None:
    # x[mask] = scalar runs the backend's own store from the setitem cell where it takes the scalar as
    # it is (NumPy); a policy block makes it take the full path
    xp = namespace(backend, policy)
    arrays = [_array(xp, name) for name in dtypes_of(backend, NAMES)]
    mask = xp.asarray([True, False, True, False, True])
    fast_cells = 0
    for a in arrays:
        for value in _STORED:
            stored = partial(_masked_store, xp, a, mask, value)
            with promo_ns.policy(policy):  # the full path
                full = stored()
            assert stored() == full, (a.dtype, value)
            assert stored() == full, (a.dtype, value, "compiled")
            cells = xp._plans.get("setitem")
            code = _SCALAR_CODE[type(value)]
            plan = None if cells is None else cells[a._k * _NK + code]
            fast_cells += plan is not None and plan.inplace_kernel is not None
    assert fast_cells or backend not in ("numpy", "torch"), "no setitem cell took the fast path"


def _torch_operands() -> dict[str, Any]:
    """Torch tensors the fast paths must leave to the full path, or take as it does."""
    import torch

    with torch.inference_mode():
        inference = torch.ones(5)
    return {
        "plain": torch.ones(5),
        "inference": inference,
        "leaf needing its gradient": torch.ones(5, requires_grad=True),
        "broadcast view": torch.ones(1).expand(5),
        "transposed": torch.ones(5, 2).T[0],
        "meta": torch.ones(5, device="meta"),
        "uint32": torch.ones(5, dtype=torch.uint32),
        "rows": torch.ones(5, 2),
    }


def _torch_keys() -> dict[str, Any]:
    import torch

    return {
        "mask": torch.tensor([True, False, True, False, True]),
        "mask on meta": torch.ones(5, dtype=torch.bool, device="meta"),
        "short mask": torch.tensor([True, False]),
        "0-d mask": torch.tensor(True),
        "indices": torch.tensor([0, 4]),
        "indices out of bounds": torch.tensor([0, 9]),
    }


def _torch_outcome(xp: Any, f: Any, x: Any) -> tuple[str, Any]:
    """``f(x)`` on a clone of native ``x`` wrapped: what it holds, or the error with ``x`` as it was."""
    import torch

    inference = x.is_inference()
    with torch.inference_mode(inference):  # the clone of an inference tensor is one
        native = x.clone().requires_grad_(x.requires_grad)
    if x.is_contiguous() is False and x.stride()[0] == 0:
        native = native[:1].expand(x.shape)
    a = xp.asarray(native)
    before = None if x.is_meta else native.detach().clone()
    try:
        f(a)
    except Exception as e:
        if before is not None:
            assert torch.equal(native.detach(), before), "a raising op changed x"
        return f"error {type(e).__name__}: {e}", None
    return "stored", None if x.is_meta else native.detach().tolist()


@pytest.mark.parametrize("policy", POLICIES)
def test_torch_fast_paths_leave_what_they_cannot_check_to_the_full_path(policy: str) -> None:
    # torch's in-place methods and x[mask] = scalar skip promo_ns's checks: on every tensor torch
    # writes before refusing (inference tensors, broadcast views, index tensors out of bounds) or
    # takes where promo_ns refuses (a mask on another device), they give the full path's outcome
    pytest.importorskip("torch")
    import torch

    xp = promo_ns.namespace("torch", policy=policy)
    operands, keys = _torch_operands(), _torch_keys()
    for x_name, x in operands.items():
        for key_name, key in keys.items():

            def store(a: Any, key: Any = key) -> None:
                a[xp.asarray(key)] = 2.0

            with promo_ns.policy(policy):
                full = _torch_outcome(xp, store, x)
            for _ in range(2):  # the first call compiles the cell
                assert _torch_outcome(xp, store, x) == full, (x_name, key_name)
        for y_name, y in operands.items():
            if y.dtype != torch.float32 or y.is_inference():
                continue

            def add(a: Any, y: Any = y) -> None:
                b = xp.asarray(y)
                a += b

            with promo_ns.policy(policy):
                full = _torch_outcome(xp, add, x)
            for _ in range(2):
                assert _torch_outcome(xp, add, x) == full, (x_name, y_name, "+=")


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_an_operator_of_two_arrays_runs_one_frame_beside_the_kernel(backend: str) -> None:
    """The operator's own frame, then the backend's kernel (NumPy's mixed dtypes: one casting first)."""
    xp = promo_ns.namespace(backend, policy="pytorch")
    a = xp.asarray([1.0, 2.0], dtype=xp.float32)
    b = xp.asarray([3, 4], dtype=xp.int8)
    a.__add__(b), a.__iadd__(b)  # compiles the cells
    frames: list[str] = []

    def profile(frame: Any, event: str, _: Any) -> None:
        path = frame.f_code.co_filename
        if event == "call" and "promo_ns" in path and "backends" not in path:
            frames.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        a.__add__(b)
        a += b
    finally:
        sys.setprofile(None)
    assert frames == ["binary", "binary"], frames


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_in_place_ops_on_views_of_one_array_read_y_before_writing(backend: str, policy: str) -> None:
    # torch computes overlapping strided views element by element, reading what it has written;
    # NumPy reads y first: every backend gives NumPy's, on the full path and on the fast path
    pytest.importorskip(backend)
    xp = promo_ns.namespace(backend, policy=policy)
    for _ in range(2):  # the first call compiles the cell, the second takes the fast path
        b = xp.asarray([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], dtype=xp.float32)
        x = b[::2][1:]
        x += b[::2][:-1]
        assert to_numpy(b).tolist() == [1, 2, 4, 4, 8, 6, 12, 8]
        m = xp.reshape(xp.asarray([1.0, 2.0, 3.0, 4.0], dtype=xp.float32), (2, 2))
        m += m.T
        assert to_numpy(m).tolist() == [[2, 5], [5, 8]]


@pytest.mark.parametrize("policy", POLICIES)
def test_a_python_float_stored_into_float16_is_rounded_once_on_every_backend(policy: str) -> None:
    # torch rounds a Python float to float16 through float32 (twice); NumPy rounds it once
    pytest.importorskip("torch")
    value = 1 + 2**-11 + 2**-40  # just above halfway between 1 and the next float16
    stored = []
    for backend in ("numpy", "torch"):
        xp = promo_ns.namespace(backend, policy=policy)
        x = xp.zeros(3, dtype=xp.float16)
        for _ in range(2):  # the full path, then the fast path where the cell has one
            x[xp.asarray([True, False, True])] = value
            x[...] = value
            stored.append(to_numpy(x).tolist())
    assert stored[0] == [1.0009765625] * 3
    assert all(s == stored[0] for s in stored), stored


def test_a_leaf_needing_its_gradient_is_refused_in_place_with_promo_ns_words() -> None:
    # autograd refuses to change such a leaf (or its view) in place: promo_ns says so, before writing
    torch = pytest.importorskip("torch")
    from promo_ns.backends.torch import GradientLeafError

    xp = promo_ns.namespace("torch", policy="pytorch")
    leaf = torch.zeros(3, requires_grad=True)
    mask = xp.asarray([True, False, True])
    for x in (xp.asarray(leaf), xp.asarray(leaf)[1:]):

        def add_one(x: Any) -> None:
            x += xp.ones_like(x)

        def store_two(x: Any) -> None:
            x[mask[: x.shape[0]]] = 2.0

        for update in (add_one, store_two):
            for _ in range(2):  # the full path, then the fast path where the cell has one
                with pytest.raises(GradientLeafError, match=r"requires its gradient.*torch\.no_grad"):
                    update(x)
                assert leaf.tolist() == [0.0, 0.0, 0.0]
    with torch.no_grad():
        x = xp.asarray(leaf)
        x += xp.ones_like(x)
    assert leaf.tolist() == [1.0, 1.0, 1.0]


def test_x_op_equals_x_needing_its_gradient_gives_autograds_gradient() -> None:
    # autograd keeps the y of x *= x, which the store into x would change: y is read from a copy
    torch = pytest.importorskip("torch")
    xp = promo_ns.namespace("torch", policy="pytorch")
    for _ in range(2):  # the full path, then the fast path's cell
        w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        x = xp.asarray(w * 1)
        x *= x
        promo_ns.unwrap(x).sum().backward()
        assert w.grad is not None
        assert w.grad.tolist() == [2.0, 4.0, 6.0]


@pytest.mark.parametrize("policy", POLICIES)
def test_an_in_place_op_of_tensors_sharing_numpy_memory_reads_y_first(policy: str) -> None:
    # torch.from_numpy of two overlapping NumPy views: two storages over one memory (the full path)
    pytest.importorskip("torch")
    xp = promo_ns.namespace("torch", policy=policy)
    b = np.arange(1.0, 9.0, dtype=np.float32)
    x, y = xp.asarray(b[1:]), xp.asarray(b[:-1])
    with promo_ns.policy(policy):
        x += y
    assert b.tolist() == [1, 3, 5, 7, 9, 11, 13, 15]


def test_an_in_place_op_under_fake_tensors_warns_of_nothing() -> None:
    # FakeTensor's data pointer is not to be read: views of one storage are found without it
    torch = pytest.importorskip("torch")
    from torch._subclasses.fake_tensor import FakeTensorMode

    xp = promo_ns.namespace("torch", policy="pytorch")
    with warnings.catch_warnings(), FakeTensorMode():
        warnings.simplefilter("error")
        a = torch.zeros(8)
        x = xp.asarray(a[1:])
        x += xp.asarray(a[:-1])
        assert x.shape == (7,)
