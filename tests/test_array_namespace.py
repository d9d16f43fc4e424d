"""promo_ns.array_namespace: the namespace of promo_ns arrays, or of native arrays' backend."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import BACKENDS


def native_ones(backend: str) -> Any:
    """A native array of ones of ``backend`` (``torch:meta`` is a torch tensor on ``meta``)."""
    name, _, device = backend.partition(":")
    if name == "numpy":
        return np.ones(3)
    if name == "dask":
        return pytest.importorskip("dask.array").ones(3)
    if name == "jax":
        return pytest.importorskip("jax.numpy").ones(3)
    module = pytest.importorskip(name)
    return module.ones(3, device=device) if device else module.ones(3)  # cupy.ones takes no device=


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "policy", ["array-api", "pytorch", "paddle", "tf-safe", "numpy", "tf-all", "tf-legacy"]
)
def test_native_arrays_give_their_backends_namespace(backend: str, policy: str) -> None:
    x = native_ones(backend)
    xp = promo_ns.array_namespace(x, 1.5, None, policy=policy)
    assert xp.policy.name == policy
    assert xp.__name__.startswith(f"promo_ns.{backend.partition(':')[0]}")
    a = xp.asarray(x)
    assert promo_ns.unwrap(a) is x
    assert promo_ns.array_namespace(a) is a.__array_namespace__()


@pytest.mark.parametrize("backend", BACKENDS)
def test_default_policy_for_native_arrays_is_array_api(backend: str) -> None:
    assert promo_ns.array_namespace(native_ones(backend)).policy.name == "array-api"


@pytest.mark.parametrize("backend", BACKENDS)
def test_promo_ns_arrays_keep_their_namespace_or_take_the_policy_asked(backend: str) -> None:
    name, _, device = backend.partition(":")
    xp = promo_ns.namespace(name, policy="pytorch", device=device or None)
    a = xp.asarray([1, 2])
    assert promo_ns.array_namespace(a, a, 3) is xp
    assert promo_ns.array_namespace(a, native_ones(backend)) is xp
    assert promo_ns.array_namespace(a, policy="numpy").policy.name == "numpy"


def test_numpy_scalars_count_as_numpy_arrays() -> None:
    assert promo_ns.array_namespace(np.float32(1)).__name__ == "promo_ns.numpy"


def test_arrays_of_two_namespaces_need_a_policy() -> None:
    a = promo_ns.namespace("numpy", policy="pytorch").asarray([1])
    b = promo_ns.namespace("numpy", policy="numpy").asarray([1])
    with pytest.raises(TypeError, match=r"several promo_ns namespaces .*policy="):
        promo_ns.array_namespace(a, b)
    assert promo_ns.array_namespace(a, b, policy="paddle").policy.name == "paddle"


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((), "at least one array"),
        ((1, 2.0, None), "at least one array"),
        (("abc",), r"builtins\.str, which is neither"),
        (([1, 2],), r"builtins\.list"),
    ],
)
def test_bad_input_is_named(args: tuple[Any, ...], match: str) -> None:
    with pytest.raises(TypeError, match=match):
        promo_ns.array_namespace(*args)


def test_two_backends_are_refused() -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match=r"several backends \(numpy, torch\)"):
        promo_ns.array_namespace(np.ones(2), torch.ones(2))
