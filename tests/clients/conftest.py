"""Client libraries' switches, set before any of them is imported, and the ``xp`` fixture.

SciPy reads ``SCIPY_ARRAY_API`` once, when it is first imported (scikit-learn
imports SciPy, and its ``array_api_dispatch`` needs the same variable). This
file is imported when pytest collects ``tests/clients``, before the test modules
of this folder import SciPy or scikit-learn; no test module outside this folder
imports either. :func:`tests.clients.support.require_scipy_array_api` skips,
naming the cause, if SciPy was imported earlier without it.
"""

from __future__ import annotations

import os

os.environ["SCIPY_ARRAY_API"] = "1"

from collections.abc import Iterator
from typing import Any

import pytest

from tests.backends import namespace
from tests.clients.support import BACKENDS, POLICIES


def _pairs() -> Iterator[Any]:
    for backend in BACKENDS:
        # a backend is its name, or pytest.param(name, marks=skip where its library is missing)
        name, marks = (backend, ()) if isinstance(backend, str) else (backend.values[0], backend.marks)
        for policy in POLICIES:
            yield pytest.param((name, policy), marks=marks, id=f"{name}-{policy}")


@pytest.fixture(params=list(_pairs()))
def xp(request: pytest.FixtureRequest) -> Any:
    """A promo_ns namespace: each backend of ``BACKENDS`` under each policy of ``POLICIES``."""
    backend, policy = request.param
    return namespace(backend, policy)
