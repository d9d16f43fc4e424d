"""Backends under test: numpy and torch always, cupy only with a GPU; conversion to NumPy for checks."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import policies


def _cuda() -> bool:
    if importlib.util.find_spec("cupy") is None:
        return False
    try:
        import cupy  # type: ignore[import-not-found]

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
