"""What the client tests share: the backends and policies they run on, the references, and the checks.

Clients run on the backends whose arrays hold values (``torch:meta`` has none:
the tests that look only at dtypes add it themselves), under ``array-api`` and
``pytorch``: the standard's rules, and a framework's that promote where the
standard refuses. The ``xp`` fixture (``conftest.py``) gives every pair.

What a case is held to: on NumPy and torch, every case runs on array-api-strict
too (each test module's ``test_the_cases_are_generic...``), and must pass on
promo_ns. On Dask and JAX the reference is the plain backend, as a client meets
it through array-api-compat (``array_api_compat.dask.array``; ``jax.numpy``,
which is an Array API namespace itself, with JAX's standard promotion): a case
that fails on promo_ns fails the suite where it passes there, and is skipped,
with the reference's own error, where the plain backend fails too
(:func:`held_to_reference`). The reference runs only for a case that fails on
promo_ns: a case the plain backend fails and promo_ns passes is a pass.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Hashable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import to_numpy

_DASK = pytest.param(
    "dask", marks=pytest.mark.skipif(importlib.util.find_spec("dask") is None, reason="dask is not installed")
)
_JAX = pytest.param(
    "jax", marks=pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="JAX is not installed")
)
#: the backends clients run on, with values (a name, or pytest.param(name, marks=skip where missing)).
BACKENDS: list[Any] = ["numpy", "torch", _DASK, _JAX]
#: the backends whose reference is the plain backend through array-api-compat.
PLAIN_REFERENCE = ("dask", "jax")
#: the policies clients run under.
POLICIES = ["array-api", "pytorch"]


def rtol(dtype: Any) -> float:
    """The relative tolerance for results of ``dtype`` against a reference computed with NumPy."""
    return 2e-5 if str(dtype) in ("float16", "bfloat16", "float32", "complex64") else 1e-10


def check(got: Any, want: Any, xp: Any, dtype: Any, atol: float = 0.0) -> None:
    """``got`` is an array of ``xp`` with ``dtype`` and the values of the NumPy reference ``want``."""
    assert isinstance(got, promo_ns.Array), f"the client returned a {type(got).__name__}, not an xp array"
    assert got.__array_namespace__() is xp
    assert got.dtype == dtype, f"the client's result is {got.dtype}; the policy gives {dtype}"
    want = np.asarray(want)
    assert got.shape == want.shape
    np.testing.assert_allclose(to_numpy(got), want, rtol=rtol(dtype), atol=atol)


def require_scipy_array_api() -> None:
    """Skip the module unless SciPy is installed and was imported with ``SCIPY_ARRAY_API=1``."""
    pytest.importorskip("scipy")
    from scipy._lib import _array_api

    if not _array_api.SCIPY_ARRAY_API:
        pytest.skip(
            "SciPy was imported before tests/clients/conftest.py set SCIPY_ARRAY_API=1; "
            "run the client tests in a process of their own: python -m pytest tests/clients",
            allow_module_level=True,
        )


def backend_of(xp: Any) -> str:
    """The name of promo_ns namespace ``xp``'s backend (``numpy``, ``torch``, ``dask``, ``jax``)."""
    return str(xp.__name__).removeprefix("promo_ns.").split(":")[0].split("[")[0]


def plain(backend: str) -> Any:
    """The plain backend as a client meets it through array-api-compat (Dask and JAX).

    ``array_api_compat.array_namespace`` of a Dask array is ``array_api_compat.dask.array``;
    of a JAX array, ``jax.numpy`` (an Array API namespace itself).
    """
    if backend == "dask":
        import array_api_compat.dask.array as da

        return da
    import jax.numpy as jnp

    return jnp


def plain_context(backend: str) -> AbstractContextManager[Any]:
    """What the reference runs in: JAX's standard promotion (tests.backends turns on strict for promo_ns)."""
    if backend == "jax":
        import jax

        standard: AbstractContextManager[Any] = jax.numpy_dtype_promotion("standard")
        return standard
    return nullcontext()


_references: dict[tuple[Hashable, str], str | None] = {}


@contextmanager
def held_to_reference(xp: Any, key: Hashable, run: Callable[[Any], Any]) -> Iterator[None]:
    """Run the block (a case on promo_ns); on Dask and JAX, skip where it fails and so does the reference.

    The block's error stands where the reference passes, and always on NumPy and torch (whose
    cases are held to array-api-strict by each module's ``test_the_cases_are_generic...``). The
    reference runs only when the block fails, once per ``key`` and backend.

    Parameters
    ----------
    xp
        The promo_ns namespace the block runs the case on.
    key
        What the case is (its test's name and parameters but the policy).
    run
        The case, called with the plain backend's namespace; its result (arrays, or tuples of them)
        is computed, so that a lazy reference fails here rather than nowhere.
    """
    try:
        yield
    except Exception:
        backend = backend_of(xp)
        if backend not in PLAIN_REFERENCE:
            raise
        if (key, backend) not in _references:
            _references[key, backend] = _failure(backend, run)
        reason = _references[key, backend]
        if reason is None:
            raise
        pytest.skip(f"fails on the plain backend ({plain(backend).__name__}) too: {reason[:300]}")


def _failure(backend: str, run: Callable[[Any], Any]) -> str | None:
    """How ``run`` fails on the plain ``backend``; None where it runs."""
    try:
        with plain_context(backend):
            _computed(run(plain(backend)))
    except Exception as e:  # the reference's own failure, whatever it is, is the skip's reason
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return None


def _computed(result: Any) -> Any:
    if isinstance(result, (tuple, list)):
        return [_computed(r) for r in result]
    return np.asarray(result) if hasattr(result, "__array_namespace__") else result


@dataclass(frozen=True)
class Case:
    """Client code over namespace ``xp`` (NumPy for the reference) and its data's dtype under the policy."""

    name: str
    run: Callable[[Any], Any]
    dtype: Callable[[Any], Any]


def on_array_api_strict(case: Case) -> Any:
    """``case`` run on array-api-strict, with the dtype the policy gives there checked; None for an
    ``"array ..."`` case (a promo_ns array with the client's object), which array-api-strict's
    operators refuse with a TypeError (they return no NotImplemented).
    """
    strict = pytest.importorskip("array_api_strict")
    if case.name.startswith("array "):
        with pytest.raises(TypeError):
            case.run(strict)
        return None
    got = case.run(strict)
    assert got.dtype == case.dtype(strict)
    return got
