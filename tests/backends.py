"""Backends under test, and conversion to NumPy for checks.

numpy, torch and torch on its ``meta`` device (a real non-CPU device without
data: dtypes, refusals and devices are checked there, values are not) run
everywhere; torch on ``cuda`` and cupy need a GPU and skip without one; jax
(CPU, or its default device) skips where JAX is not installed.  JAX runs with
64-bit types on (the policies' defaults are int64/float64) and with strict
promotion, which refuses every implicit cast: a promo_ns op that relied on
JAX's own promotion would fail every test it is in.

dask skips where Dask is not installed.  Building a Dask op takes about a
millisecond, and so does computing one: the exhaustive grids, which compute
cell by cell, leave Dask out (``GRID_BACKENDS``), and tests/test_dask.py runs a
sample of every grid on Dask, computed in one go.
"""

from __future__ import annotations

import importlib.util
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import policies
from promo_ns._dtypes import DType, native
from promo_ns._ops import NATIVE, family_of


def _cupy_gpu() -> bool:
    if importlib.util.find_spec("cupy") is None:
        return False
    try:
        import cupy

        return bool(cupy.cuda.runtime.getDeviceCount() > 0)
    except Exception:
        return False


def _torch_cuda() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def _jax() -> bool:
    if importlib.util.find_spec("jax") is None:
        return False
    import jax

    jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]
    jax.config.update("jax_numpy_dtype_promotion", "strict")  # type: ignore[no-untyped-call]
    return True


_JAX = pytest.param("jax", marks=pytest.mark.skipif(not _jax(), reason="JAX is not installed"))
_GPU = [
    pytest.param(
        "torch:cuda", marks=pytest.mark.skipif(not _torch_cuda(), reason="torch sees no CUDA GPU here")
    ),
    pytest.param(
        "cupy", marks=pytest.mark.skipif(not _cupy_gpu(), reason="CuPy needs a CUDA GPU; none here")
    ),
]
_DASK = pytest.param(
    "dask", marks=pytest.mark.skipif(importlib.util.find_spec("dask") is None, reason="dask is not installed")
)
#: backends whose arrays hold values.
VALUE_BACKENDS = ["numpy", "torch", _DASK, _JAX, *_GPU]
#: every backend and device under test.
BACKENDS = ["numpy", "torch", "torch:meta", _DASK, _JAX, *_GPU]
#: the backends of the exhaustive grids, which compute cell by cell (Dask's: tests/test_dask.py;
#: JAX's, which would compile every cell's signature, is traced in tests/test_jax.py).
GRID_BACKENDS = [b for b in BACKENDS if b is not _DASK and b is not _JAX]
GRID_VALUE_BACKENDS = [b for b in VALUE_BACKENDS if b is not _DASK and b is not _JAX]
POLICIES = policies()


#: backend -> {dtype name: why promo_ns refuses it there}: the library's limitation, for a skip's reason.
NO_DTYPE: dict[str, dict[str, str]] = {
    "cupy": {
        "bfloat16": "promo_ns refuses bfloat16 on CuPy with a TypeError (CuPy 14's ml_dtypes bfloat16 is "
        "experimental, not in every kernel): tests/test_gpu_cupy_values.py checks the refusal"
    },
}


def dtypes_of(backend: str, names: Iterable[str]) -> list[str]:
    """Dtype ``names`` less those promo_ns refuses on ``backend`` (:data:`NO_DTYPE`)."""
    missing = NO_DTYPE.get(backend, {})
    return [name for name in names if name not in missing]


def skip_without(backend: str, dtype: str) -> None:
    """Skip the test where promo_ns refuses ``dtype`` on ``backend``, naming why (:data:`NO_DTYPE`)."""
    reason = NO_DTYPE.get(backend, {}).get(dtype)
    if reason is not None:
        pytest.skip(reason)


def backend_name(backend: Any) -> str:
    """The label of an entry of BACKENDS (a plain label, or a GPU's ``pytest.param`` with its skip)."""
    return str(backend.values[0] if hasattr(backend, "values") else backend)


def backend_marks(backend: Any) -> tuple[Any, ...]:
    """The marks of an entry of BACKENDS (a GPU's skip), none for a plain label."""
    return tuple(getattr(backend, "marks", ()))


def one_op_per_family(policy: str) -> tuple[str, ...]:
    """The first binary op of each of ``policy``'s families, in the registry's order.

    The ops of one family (the policy's own, where it moves an op into a family
    of its own) read one decision table, so their cells take the same casts.
    """
    pol = promo_ns.get_policy(policy)
    first = {pol.op_families.get(op) or family_of(op): op for op in reversed(NATIVE)}
    return tuple(op for op in NATIVE if op in first.values())


def sampled(cell: str, backend: str, policy: str, *grid: str, among: Sequence[str] = POLICIES) -> bool:
    """Whether a sampled grid (of ``backend``, ``policy`` and any ``grid`` labels) runs ``cell``.

    It runs one cell in ``len(among)``, picked by the checksum of the cell's
    label, not by position, which would keep whole columns of a grid; the
    policies ``among`` which run the grid take the shares in turn, so each
    cell runs under one of them.  Sampled are only the grids whose cells
    another grid runs whole (torch on the CPU for torch's meta device, which
    has no values, and the namespace's own policy for a ``promo_ns.policy``
    block).
    """
    share = zlib.crc32("|".join((backend, *grid)).encode()) + among.index(policy)
    return zlib.crc32(cell.encode()) % len(among) == share % len(among)


def namespace(backend: str, policy: str = "array-api") -> Any:
    """The namespace under test: a backend name, or ``torch:DEVICE``."""
    name, _, device = backend.partition(":")
    return promo_ns.namespace(name, policy=policy, device=device or None)


def has_values(xp: Any) -> bool:
    """Whether the arrays of namespace ``xp`` hold data (not on torch's meta device)."""
    return str(xp.__array_namespace_info__().default_device()) != "meta"


def on_device(x: Any, xp: Any) -> bool:
    """Whether promo_ns array ``x`` lives on namespace ``xp``'s default device (``cuda`` is ``cuda:0``)."""
    want = xp.__array_namespace_info__().default_device()
    return str(getattr(x.device, "type", x.device)) == str(getattr(want, "type", want))


def to_numpy(x: Any) -> np.ndarray[Any, Any]:
    """A promo_ns or native array as a NumPy array (bfloat16 via float32)."""
    x = promo_ns.unwrap(x)
    if type(x).__module__.startswith("torch"):
        import torch

        if x.dtype == torch.bfloat16:
            x = x.float()
        return np.asarray(x.cpu().resolve_conj().resolve_neg().numpy())
    if type(x).__module__.startswith("cupy"):
        return np.asarray(x.get())
    return np.asarray(x)


def close(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any], result: DType) -> bool:
    """Whether ``got`` equals reference ``want``: exactly, or within a few ulps of ``result``."""
    if got.shape != want.shape:
        return False
    if got.dtype == want.dtype and np.array_equal(got, want):  # most cells: no tolerance to work out
        return True
    if result.kind in "fc":
        eps = 2.0**-7 if result.name == "bfloat16" else float(np.finfo(native(result, np)).eps)
        a, b = got.astype(np.complex128), want.astype(np.complex128)
        return bool(np.allclose(a, b, rtol=4 * eps, atol=4 * eps, equal_nan=True))
    return bool(np.array_equal(got, want))


#: The namespace's errors for arguments torch refuses too: under torch_policy, torch's RuntimeError.
_TORCHS_OWN = frozenset({"ValueError", "ZeroDivisionError", "IndexError", "AxisError", "RuntimeError"})


def agrees_under_torch_policy(got: str, want: str) -> bool:
    """Whether torch_policy's outcome ``got`` (a result, or an error's class) is the namespace's ``want``.

    Where the namespace refuses an argument that torch refuses too (shapes that do not fit, an
    integer division by zero), the block raises torch's own RuntimeError, as outside it.
    """
    return got == want or (got == "RuntimeError" and want in _TORCHS_OWN)
