"""``promo_ns.trace()``: every implicit cast recorded, nothing else; nesting with policy blocks."""

from __future__ import annotations

import threading

import pytest

import promo_ns
from promo_ns._dtypes import float32, int8
from tests.backends import BACKENDS, namespace


@pytest.mark.parametrize("backend", BACKENDS)
def test_trace_records_implicit_casts_only(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    i8, f32 = xp.ones(10, dtype=xp.int8), xp.ones(10, dtype=xp.float32)
    u8 = xp.ones(10, dtype=xp.uint8)
    with promo_ns.trace() as t:
        f32 + f32  # same dtype: no cast
        f32 * 2.0  # a Python scalar: no array converted
        r = i8 + f32
        _ = i8 < f32
        i8 + u8  # int16: wider than both inputs
        f32 += i8
        xp.where(f32 > 0, i8, f32)
    assert r.dtype is float32
    assert [c.op for c in t] == ["add", "less", "add", "add", "where"]
    first = t.records[0]
    assert first.operands == ("int8 (n-d array)", "float32 (n-d array)")
    assert first.converted == ("int8 -> float32",) and first.bytes == 40
    assert first.result is float32 and not first.widened
    assert t.records[1].result.name == "bool" and t.records[1].compute is float32
    assert t.records[2].widened and t.records[2].bytes == 2 * 10 * 2
    assert "int8 -> float32" in str(first)
    summary = t.summary()
    assert summary.splitlines()[0] == f"5 implicit casts, {sum(c.bytes for c in t)} bytes converted"
    assert "[widened]" in summary


def test_nothing_is_recorded_outside_the_block_or_after_it() -> None:
    xp = promo_ns.namespace("numpy", policy="pytorch")
    i8, f32 = xp.ones(3, dtype=int8), xp.ones(3, dtype=float32)
    with promo_ns.trace() as t:
        pass
    i8 + f32
    assert len(t) == 0


def test_trace_and_policy_blocks_nest_both_ways() -> None:
    xp = promo_ns.namespace("numpy")  # array-api: refuses int8 + float32
    i8, f32 = xp.ones(3, dtype=int8), xp.ones(3, dtype=float32)
    with promo_ns.trace() as t, promo_ns.policy("numpy"):
        assert (i8 + f32).dtype.name == "float32"
    with promo_ns.policy("pytorch"), promo_ns.trace() as u:
        i8 + f32
    with pytest.raises(promo_ns.PromotionError), promo_ns.trace() as v:
        i8 + f32  # the namespace's policy again, and a refusal records nothing
    assert (len(t), len(u), len(v)) == (1, 1, 0)


def test_trace_is_local_to_its_thread() -> None:
    xp = promo_ns.namespace("numpy", policy="pytorch")
    i8, f32 = xp.ones(3, dtype=int8), xp.ones(3, dtype=float32)
    with promo_ns.trace() as t:
        thread = threading.Thread(target=lambda: i8 + f32)
        thread.start()
        thread.join()
    assert len(t) == 0
