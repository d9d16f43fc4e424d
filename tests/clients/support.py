"""What the client tests share: the backends and policies they run on, and the checks.

Clients run on the backends whose arrays hold values (``torch:meta`` has none:
the tests that look only at dtypes add it themselves), under ``array-api`` and
``pytorch``: the standard's rules, and a framework's that promote where the
standard refuses. The ``xp`` fixture (``conftest.py``) gives every pair.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import to_numpy

#: the backends clients run on, with values.
BACKENDS = ["numpy", "torch"]
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
