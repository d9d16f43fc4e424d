"""Backends under test: numpy and torch always, cupy only with a GPU; conversion to NumPy for checks."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import policies
from promo_ns._dtypes import DType, native


def _cuda() -> bool:
    if importlib.util.find_spec("cupy") is None:
        return False
    try:
        import cupy

        return bool(cupy.cuda.runtime.getDeviceCount() > 0)
    except Exception:
        return False


BACKENDS = [
    "numpy",
    "torch",
    pytest.param("cupy", marks=pytest.mark.skipif(not _cuda(), reason="CuPy needs a CUDA GPU; none here")),
]
POLICIES = policies()


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
