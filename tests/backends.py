"""Backends under test, and conversion to NumPy for checks.

numpy, torch and torch on its ``meta`` device (a real non-CPU device without
data: dtypes, refusals and devices are checked there, values are not) run
everywhere; torch on ``cuda`` and cupy need a GPU and skip without one.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import policies
from promo_ns._dtypes import DType, native


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


_GPU = [
    pytest.param(
        "torch:cuda", marks=pytest.mark.skipif(not _torch_cuda(), reason="torch sees no CUDA GPU here")
    ),
    pytest.param(
        "cupy", marks=pytest.mark.skipif(not _cupy_gpu(), reason="CuPy needs a CUDA GPU; none here")
    ),
]
#: backends whose arrays hold values.
VALUE_BACKENDS = ["numpy", "torch", *_GPU]
#: every backend and device under test.
BACKENDS = ["numpy", "torch", "torch:meta", *_GPU]
POLICIES = policies()


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
        return np.asarray(x.cpu().numpy())
    if type(x).__module__.startswith("cupy"):
        return np.asarray(x.get())
    return np.asarray(x)


def close(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any], result: DType) -> bool:
    """Whether ``got`` equals reference ``want``: exactly, or within a few ulps of ``result``."""
    if got.shape != want.shape:
        return False
    if result.kind in "fc":
        eps = 2.0**-7 if result.name == "bfloat16" else float(np.finfo(native(result, np)).eps)
        a, b = got.astype(np.complex128), want.astype(np.complex128)
        return bool(np.allclose(a, b, rtol=4 * eps, atol=4 * eps, equal_nan=True))
    return bool(np.array_equal(got, want))
