"""The paddle and tf-safe policies against the generated probe's observations of Paddle 3.3.1 and TF 2.21.

* tf-safe's ``concat``/``stack`` promote by safe mode's table, folding from the left, as
  ``tnp.concatenate``/``tnp.stack`` do; ``cross`` and ``solve`` do not promote (``tf.linalg``);
* the probe's comparison: documented deviations that name a spelling, a value or ``dtype=``
  (:mod:`conformance.probe._deviations`), a dtype decided without a kernel against a value
  error, a known cross-backend difference;
* the stored Paddle observations record searchsorted's dtype requirement as a missing kernel.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.probe import _compare, _deviations, _driver, _space
from promo_ns import PromotionError
from tests.backends import BACKENDS, namespace


def _ones(xp: Any, dtype: str, shape: tuple[int, ...] = (3,)) -> Any:
    return xp.ones(shape, dtype=getattr(xp, dtype))


def _case(key: str) -> _space.Case:
    """The case of ``"<policy>|<case key>"`` (its kind from the op's)."""
    _, op, spelling, *args = key.split("|")
    kind = _space.kind_of(op)
    assert kind is not None
    return _space.Case(kind, op, spelling, tuple(args))


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_safe_concat_and_stack_promote_as_tnp_concatenate(backend: str) -> None:
    # TF 2.21 safe mode: tnp.concatenate([int8, int16]) is int16, [int8, uint8] refused,
    # [uint8, int16, int32] int32, [uint8, int8, int16] refused (u8 + i8 first).
    xp = namespace(backend, "tf-safe")
    i8, i16, u8 = _ones(xp, "int8"), _ones(xp, "int16"), _ones(xp, "uint8")
    assert xp.concat([i8, i16]).dtype == xp.int16
    assert xp.stack([i8, _ones(xp, "float16")]).dtype == xp.float16
    assert xp.stack([u8, i16, _ones(xp, "int32")]).dtype == xp.int32
    assert xp.concat([_ones(xp, "int16"), _ones(xp, "complex128"), _ones(xp, "float32")]).dtype == (
        xp.complex128
    )
    for arrays in ([i8, u8], [_ones(xp, "int32"), _ones(xp, "float32")], [u8, i8, i16]):
        with pytest.raises(PromotionError):
            xp.concat(arrays)
        with pytest.raises(PromotionError):
            xp.stack(arrays)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tf_safe_cross_and_solve_do_not_promote(backend: str) -> None:
    # tf.linalg.cross and tf.linalg.solve: "expected to be a float tensor but is a double tensor".
    xp = namespace(backend, "tf-safe")
    with pytest.raises(PromotionError):
        xp.linalg.cross(_ones(xp, "int8"), _ones(xp, "int16"))
    eye = xp.eye(3, dtype=xp.float32)
    with pytest.raises(PromotionError):
        xp.linalg.solve(eye, xp.eye(3, dtype=xp.float64))
    assert xp.linalg.solve(eye, eye).dtype == xp.float32


@pytest.mark.parametrize(
    ("key", "seen", "got", "bucket"),
    [
        # tnp.add promotes by NumPy's rules; tf-safe follows tf.add and the operators
        ("tf-safe|add|method|int8:nd:one|uint8:nd:one", "int16 3 020004000600", "refused", "deviation"),
        # TF 2.21 wraps int8 & 128; tf-safe follows RFC 431 and refuses it
        ("tf-safe|bitwise_and|operator|int8:nd:one|py:int:128", "int8 3 000000", "refused", "deviation"),
        # Paddle's x @ y casts y to x's dtype; the policy follows paddle.matmul
        ("paddle|matmul|operator|int32:mat:one|bool:mat:one", "int32 3x3 ?", "refused", "deviation"),
        # paddle.isin with a 0-d test_elements returns a 0-d tensor
        ("paddle|isin|function|bool:nd:one|bool:0d:one", "bool - 01", "bool 3 010001", "deviation"),
        # no int8 % kernel in Paddle: its dtype decision cannot meet promo_ns's value error
        ("paddle|remainder|operator|int8:nd:one|py:int:0", "int8 ? ?", "error: ZeroDivisionError", None),
        # an undocumented disagreement stays one
        ("paddle|add|operator|int8:nd:one|int32:nd:one", "int32 3 ?", "refused", "disagree"),
    ],
)
def test_probe_buckets_documented_deviations(key: str, seen: str, got: str, bucket: str | None) -> None:
    policy = key.split("|", 1)[0]
    case = _case(key)
    found, reason = _compare.bucket(policy, case, seen, got)
    assert found == (bucket or "framework cannot run")
    if bucket == "deviation":
        assert reason is not None and _deviations.find(policy, case, seen, got) in (reason, None)


def test_probe_counts_a_known_backend_difference_apart() -> None:
    case = _case("paddle|add|operator|int16:nd:one|py:complex:(inf+0j)")
    seen, got = "complex64 3 0000807f00000000", "complex64 3 0000807f0000c0ff"
    plain = _compare.compare("paddle", "torch", [case], {case.key: seen}, {case.key: got})
    assert plain.counts["disagree"] == 1
    known = _compare.compare(
        "paddle", "torch", [case], {case.key: seen}, {case.key: got}, known=lambda c: "torch's complex kernel"
    )
    assert known.counts["backend difference"] == 1 and known.agreement() == (0, 0)


def test_stored_paddle_searchsorted_dtype_requirement_is_a_missing_kernel() -> None:
    # "The received values data type int8 can not meet input requirements ... must be bfloat16,
    # float16, float32, float64, int32 or int64": Paddle has no kernel for int8 values at all.
    observed = _driver.load("paddle")["observations"]
    assert observed["searchsorted|function|int32:sorted:one|int8:nd:one"].startswith("unsupported")
