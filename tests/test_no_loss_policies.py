"""Policies are immutable values freed with their plans; a trace loses no record and keeps no operand."""

from __future__ import annotations

import contextvars
import copy
import dataclasses
import gc
import os
import pickle
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns._dtypes import DType
from promo_ns.policies import Family, Policy, Role
from tests.backends import POLICIES, namespace

# --- immutability -------------------------------------------------------------------------------


def _derived() -> Policy:
    base = promo_ns.get_policy("pytorch")
    return base.derive(
        "test-no-loss-derived",
        cells={("i8", "u8"): "i8"},
        defaults=dict(base.defaults),
        deviations=["a list becomes a tuple"],
    )


def _records(policy: Policy) -> list[tuple[str, Any]]:
    """``(where, record)`` for the policy and each Family it holds."""
    found: list[tuple[str, Any]] = [(policy.name, policy)]
    found += [(f"{policy.name}.families[{k!r}]", fam) for k, fam in policy.families.items()]
    return found


def _values(where: str, value: Any) -> Iterator[tuple[str, Any]]:
    """Every value reachable from a field's value, nested mappings and tuples included."""
    yield where, value
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _values(f"{where}[{key!r}]", item)
    elif isinstance(value, (tuple, frozenset)):
        for item in value:
            yield from _values(f"{where} item", item)


_IMMUTABLE = (str, int, float, bool, type(None), DType, Role, Family, tuple, frozenset)


def _mapping_edits(m: Any) -> list[Callable[[], object]]:
    key = next(iter(m), "new key")
    value = m.get(key)

    def ior() -> None:
        target = m
        target |= {}

    return [
        lambda: m.__setitem__(key, value),
        lambda: m.__delitem__(key),
        m.clear,
        lambda: m.pop(key),
        m.popitem,
        lambda: m.setdefault(key, value),
        lambda: m.update({key: value}),
        ior,
    ]


@pytest.mark.parametrize("name", [*POLICIES, "derived"])
def test_no_field_of_a_policy_can_be_changed(name: str) -> None:
    policy = _derived() if name == "derived" else promo_ns.get_policy(name)
    before = {p: repr(promo_ns.get_policy(p)) for p in POLICIES}
    tried = 0
    for where, record in _records(policy):
        for f in dataclasses.fields(record):
            value = getattr(record, f.name)
            with pytest.raises(AttributeError, match=rf"cannot set '{f.name}'.*immutable.*derive"):
                setattr(record, f.name, value)
            with pytest.raises(AttributeError, match=rf"cannot delete '{f.name}'.*immutable"):
                delattr(record, f.name)
            for at, item in _values(f"{where}.{f.name}", value):
                if isinstance(item, Mapping):
                    for edit in _mapping_edits(item):
                        with pytest.raises(TypeError, match=r"immutable.*derive"):
                            edit()
                        tried += 1
                else:
                    assert isinstance(item, _IMMUTABLE), f"{at} is a mutable {type(item).__name__}"
    assert tried > 100
    with pytest.raises(AttributeError, match="immutable"):
        policy.new_attribute = 1  # type: ignore[attr-defined]
    assert {p: repr(promo_ns.get_policy(p)) for p in POLICIES} == before


def test_derive_shares_nothing_mutable_and_leaves_its_base_as_it_was() -> None:
    base = promo_ns.get_policy("pytorch")
    xp = promo_ns.namespace("numpy", policy="pytorch")
    i8, u8 = xp.ones(2, dtype=xp.int8), xp.ones(2, dtype=xp.uint8)
    assert (i8 + u8).dtype == xp.int16  # the base's plans compiled first
    mine = _derived()
    assert mine.deviations == ("a list becomes a tuple",)
    assert mine.defaults is not base.defaults
    with pytest.raises(TypeError, match="immutable"):
        mine.defaults["float"] = promo_ns.get_policy("numpy").defaults["float"]  # type: ignore[index]
    with pytest.raises(TypeError, match="immutable"):
        mine.arrays[(xp.int8, xp.uint8)] = xp.int64  # type: ignore[index]
    xm = promo_ns.namespace("numpy", policy=mine)
    assert (xm.asarray(i8) + xm.asarray(u8)).dtype == xp.int8  # an operator needs arrays of one policy
    assert (i8 + u8).dtype == xp.int16 and base.defaults["float"] == xp.float32
    assert base.arrays[(xp.int8, xp.uint8)] == xp.int16


def test_a_policy_passed_mutable_data_keeps_its_own_copy() -> None:
    defaults = dict(promo_ns.get_policy("numpy").defaults)
    mine = promo_ns.get_policy("numpy").derive("test-no-loss-copy", defaults=defaults)
    defaults["float"] = promo_ns.get_policy("pytorch").defaults["float"]
    assert mine.defaults["float"] == promo_ns.get_policy("numpy").defaults["float"]


def test_policies_keep_their_identity_and_hash_for_caches() -> None:
    base = promo_ns.get_policy("numpy")
    mine = base.derive("numpy")  # same name, another policy
    assert hash(mine) == hash(base) == hash("numpy")
    assert mine != base and mine == mine and {base: 1, mine: 2}[mine] == 2
    held: weakref.WeakKeyDictionary[Policy, int] = weakref.WeakKeyDictionary({base: 1, mine: 2})
    assert held[base] == 1 and held[mine] == 2
    assert copy.copy(mine) is mine and copy.deepcopy(mine) is mine
    back = pickle.loads(pickle.dumps(mine))
    assert back.arrays == mine.arrays and back.families == mine.families
    with pytest.raises(TypeError, match="immutable"):
        back.defaults["int"] = back.defaults["float"]
    assert promo_ns.namespace("numpy", policy=mine) is promo_ns.namespace("numpy", policy=mine)
    assert promo_ns.namespace("numpy", policy=mine) is not promo_ns.namespace("numpy", policy=base)


# --- replaced and dropped policies are freed with their plans ---------------------------------

_NAME = "test-no-loss-replaced"


def _first_ops(policy: Policy, name: str | Policy) -> None:
    """Compile plans of ``policy``: operators, in and out of a policy block, and functions."""
    xp = promo_ns.namespace("numpy", policy=name)
    a = xp.asarray(np.arange(4, dtype=np.int8))
    b = xp.astype(a, xp.float32)
    a + b, a * 2, xp.where(a > 1, a, b), xp.sum(a)
    with promo_ns.policy(policy):
        a + 1.5


def _cheap_first_ops(policy: Policy, name: str | Policy) -> None:
    """First ops that compile little: a binary op's table takes a tenth of a second to compile."""
    xp = promo_ns.namespace("numpy", policy=name)
    a = xp.asarray(np.arange(4, dtype=np.int8))
    xp.sum(a), xp.astype(a, xp.float32), a[0]


def _replace_once(i: int, first_ops: Callable[[Policy, str], None] = _first_ops) -> weakref.ref[Policy]:
    policy = promo_ns.get_policy("numpy").derive(_NAME, summary=f"version {i}")
    promo_ns.register(policy, replace=True)
    first_ops(policy, _NAME)
    return weakref.ref(policy)


@pytest.mark.usefixtures("young_heap")
def test_a_replaced_policy_is_freed_with_its_namespaces_and_plans() -> None:
    first = _replace_once(0)
    gc.collect()
    assert first() is not None  # registered: kept
    _replace_once(1)
    gc.collect()
    assert first() is None


@pytest.mark.usefixtures("young_heap")
def test_a_dropped_unregistered_policy_is_freed() -> None:
    def use() -> weakref.ref[Policy]:
        policy = promo_ns.get_policy("pytorch").derive("test-no-loss-dropped")
        _first_ops(policy, policy)
        return weakref.ref(policy)

    dropped = use()
    gc.collect()
    assert dropped() is None


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux's /proc/self/statm")
@pytest.mark.usefixtures("young_heap")
def test_300_replacements_do_not_grow_memory() -> None:
    for i in range(30):  # warm up: the backend's and the engine's own caches
        _replace_once(i, _cheap_first_ops)
    gc.collect()
    before = _rss_mib()
    for i in range(300):
        _replace_once(i, _cheap_first_ops)
    gc.collect()
    # Every replaced policy was kept with its namespace: +54 MiB here, +380 MiB where each
    # compiled a binary op's plans (test_a_replaced_policy_is_freed_with_its_namespaces_and_plans).
    assert _rss_mib() - before < 20


# --- a trace shared by threads, and a failing op inside a trace -----------------------------------


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_threads_sharing_a_trace_lose_no_record(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    i8, f32 = xp.ones(4, dtype=xp.int8), xp.ones(4, dtype=xp.float32)
    cond = i8 > 0

    def work() -> None:
        for k in range(600):
            if k % 3 == 0:
                xp.where(cond, i8, f32)
            elif k % 3 == 1:
                xp.concat([i8, f32])
            else:
                i8 + f32

    for _ in range(3):
        with promo_ns.trace() as t:
            threads = [
                threading.Thread(target=contextvars.copy_context().run, args=(work,)) for _ in range(8)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert len(t) == 4800
        assert {op: sum(c.op == op for c in t) for op in ("where", "concat", "add")} == {
            "where": 1600,
            "concat": 1600,
            "add": 1600,
        }


def test_a_failing_inplace_matmul_drops_no_record_of_other_threads() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    i8, f32 = xp.ones(4, dtype=xp.int8), xp.ones(4, dtype=xp.float32)
    square, wide = xp.eye(2, dtype=xp.int8), xp.ones((2, 3), dtype=xp.int8)
    cond = i8 > 0

    def work() -> None:
        for _ in range(600):
            xp.where(cond, i8, f32)

    def failing_matmul() -> None:
        m = xp.ones((2, 2), dtype=xp.float32)
        for _ in range(300):
            with pytest.raises(ValueError, match="change the shape"):
                m @= wide
            m @= square  # runs: one record

    for _ in range(3):
        with promo_ns.trace() as t:
            targets = [work] * 7 + [failing_matmul]
            threads = [threading.Thread(target=contextvars.copy_context().run, args=(f,)) for f in targets]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert (sum(c.op == "where" for c in t), sum(c.op == "matmul" for c in t)) == (4200, 300)


def _native_pair(backend: str) -> tuple[Any, Any]:
    if backend == "numpy":
        return np.ones(4, dtype=np.int8), np.ones(3, dtype=np.float32)
    import torch

    return torch.ones(4, dtype=torch.int8), torch.ones(3, dtype=torch.float32)


def _run(xp: Any, op: str, a: Any, b: Any) -> object:
    """``op`` on arrays of shapes (4,) and (3,), which fails."""
    if op == "where":
        return xp.where(a > 0, a, b)
    if op == "concat":
        return xp.concat([a, b], axis=1)  # no axis 1
    return a + b


@pytest.mark.usefixtures("young_heap")
@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("op", ["where", "concat", "add"])
def test_an_op_failing_inside_a_trace_keeps_no_operand_alive(backend: str, op: str) -> None:
    xp = namespace(backend, "pytorch")
    n1, n2 = _native_pair(backend)
    refs = weakref.ref(n1), weakref.ref(n2)
    a, b = xp.asarray(n1), xp.asarray(n2)
    i8, f32 = xp.ones(2, dtype=xp.int8), xp.ones(2, dtype=xp.float32)
    with promo_ns.trace() as t:
        xp.where(i8 > 0, i8, f32)
        with pytest.raises((ValueError, IndexError)):
            _run(xp, op, a, b)
    del a, b, n1, n2
    gc.collect()
    assert [r() for r in refs] == [None, None]
    with promo_ns.trace() as t:
        xp.concat([i8, f32])
    assert [c.op for c in t] == ["concat"]  # one record: the failed op's note is gone


def test_under_jit_a_trace_records_each_tracing_and_leaks_no_tracer() -> None:
    jax = pytest.importorskip("jax")
    xp = namespace("jax", "pytorch")
    a, b = xp.ones(4, dtype=xp.int8), xp.ones(3, dtype=xp.float32)

    def failing(a: Any, b: Any) -> Any:
        with pytest.raises(ValueError):
            xp.where(a > 0, a, b)
        return a

    def casting(a: Any) -> Any:
        return xp.where(a > 0, a, xp.ones(4, dtype=xp.float32))

    with promo_ns.trace() as t, jax.checking_leaks():
        jax.jit(failing)(a, b)
        compiled = jax.jit(casting)
        for _ in range(3):
            compiled(a)
    assert [c.op for c in t] == ["where"]  # once per tracing, not per call
