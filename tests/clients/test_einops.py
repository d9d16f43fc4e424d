"""einops (its Array API entry points, ``einops.array_api``) on promo_ns arrays.

einops finds the namespace through ``__array_namespace__``; the reference is
einops's NumPy backend on the same data. Reductions take the dtype the same
promo_ns reduction gives under the policy.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import namespace
from tests.clients.support import POLICIES, backend_of, check, held_to_reference

einops = pytest.importorskip("einops")
ea = pytest.importorskip("einops.array_api")

_rng = np.random.default_rng(16)
DATA = {
    "float32": _rng.standard_normal((2, 3, 4)).astype(np.float32),
    "int32": _rng.integers(-5, 6, (2, 3, 4)).astype(np.int32),
}
REDUCTIONS = ["sum", "max", "min", "prod", "mean"]


def _reference(xp: Any, key: Any, run: Any) -> AbstractContextManager[None]:
    """The plain backend's outcome on JAX; on Dask none, as on NumPy and torch: array-api-strict's.

    einops's Array API entry points call ``x.__array_namespace__()``, which Dask's own arrays lack
    (array-api-compat's Dask namespace gives no array type of its own): the plain backend cannot
    be asked, so promo_ns's Dask is held to pass every case, as its NumPy and torch are.
    """
    return nullcontext() if backend_of(xp) == "dask" else held_to_reference(xp, key, run)


@pytest.fixture(params=list(DATA))
def dtype(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def test_rearrange(xp: Any, dtype: str) -> None:
    data = DATA[dtype]
    with _reference(xp, ("rearrange", dtype), lambda m: ea.rearrange(m.asarray(data), "a b c -> c (a b)")):
        got = ea.rearrange(xp.asarray(data), "a b c -> c (a b)")
        check(got, einops.rearrange(data, "a b c -> c (a b)"), xp, getattr(xp, dtype))


def test_rearrange_a_list_of_arrays(xp: Any, dtype: str) -> None:
    data = DATA[dtype]
    with _reference(
        xp,
        ("rearrange list", dtype),
        lambda m: ea.rearrange([m.asarray(d) for d in data], "n b c -> b (n c)"),
    ):
        got = ea.rearrange([xp.asarray(d) for d in data], "n b c -> b (n c)")
        check(got, einops.rearrange(list(data), "n b c -> b (n c)"), xp, getattr(xp, dtype))


def test_repeat(xp: Any, dtype: str) -> None:
    data = DATA[dtype]
    with _reference(xp, ("repeat", dtype), lambda m: ea.repeat(m.asarray(data), "a b c -> a (b r) c", r=2)):
        got = ea.repeat(xp.asarray(data), "a b c -> a (b r) c", r=2)
        check(got, einops.repeat(data, "a b c -> a (b r) c", r=2), xp, getattr(xp, dtype))


def test_pack_and_unpack(xp: Any, dtype: str) -> None:
    data = DATA[dtype]

    def pack_and_unpack(m: Any) -> Any:
        packed, shapes = ea.pack([m.asarray(data), m.asarray(data[:, :, 0])], "a b *")
        return ea.unpack(packed, shapes, "a b *")

    with _reference(xp, ("pack", dtype), pack_and_unpack):
        packed, shapes = ea.pack([xp.asarray(data), xp.asarray(data[:, :, 0])], "a b *")
        want, _ = einops.pack([data, data[:, :, 0]], "a b *")
        check(packed, want, xp, getattr(xp, dtype))
        first, second = ea.unpack(packed, shapes, "a b *")
        check(first, data, xp, getattr(xp, dtype))
        check(second, data[:, :, 0], xp, getattr(xp, dtype))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_reduce_gives_the_dtype_of_the_same_reduction(xp: Any, dtype: str, reduction: str) -> None:
    data = DATA[dtype]
    x = xp.asarray(data)
    if reduction == "mean" and dtype == "int32":
        # the mean of integers: refused by array-api (the standard, array-api-strict) and pytorch (torch.mean)
        with pytest.raises(promo_ns.PromotionError, match="mean"):
            ea.reduce(x, "a b c -> a c", reduction)
        return
    with _reference(
        xp, ("reduce", dtype, reduction), lambda m: ea.reduce(m.asarray(data), "a b c -> a c", reduction)
    ):
        want_dtype = getattr(xp, reduction)(x, axis=1).dtype
        check(
            ea.reduce(x, "a b c -> a c", reduction),
            einops.reduce(data, "a b c -> a c", reduction),
            xp,
            want_dtype,
        )


@pytest.mark.parametrize("policy", POLICIES)
def test_dtypes_on_torch_meta(policy: str, dtype: str) -> None:
    xp = namespace("torch:meta", policy)
    x = xp.asarray(np.zeros((2, 3, 4), dtype=dtype))
    assert ea.rearrange(x, "a b c -> c (a b)").dtype == x.dtype
    assert ea.repeat(x, "a b c -> a b c r", r=2).shape == (2, 3, 4, 2)
    for reduction in ("sum", "max", "prod"):
        got = ea.reduce(x, "a b c -> a", reduction)
        assert str(got.device) == "meta"
        assert got.dtype == getattr(xp, reduction)(x, axis=(1, 2)).dtype
