"""SciPy (``SCIPY_ARRAY_API=1``) on promo_ns arrays: values as on NumPy, dtypes as the policy says.

Only functions that SciPy runs on a generic Array API namespace (array-api-strict)
are here; the NumPy reference is the same call on NumPy arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import namespace
from tests.clients.support import BACKENDS, check, held_to_reference, require_scipy_array_api

require_scipy_array_api()
special = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")
signal = pytest.importorskip("scipy.signal")
vq = pytest.importorskip("scipy.cluster.vq")
sfft = pytest.importorskip("scipy.fft")

_rng = np.random.default_rng(16)
F32 = _rng.standard_normal((4, 6)).astype(np.float32)
F64 = _rng.standard_normal((4, 6))
POSITIVE = _rng.uniform(0.5, 3.0, (4, 6))
I64 = _rng.integers(1, 10, (4, 6))
SIGNAL = _rng.standard_normal(64)
KERNEL32 = _rng.standard_normal(5).astype(np.float32)
B, A = signal.butter(3, 0.3)


@dataclass(frozen=True)
class Case:
    """A SciPy call on module ``xp`` (NumPy for the reference) and the dtype the policy gives it."""

    name: str
    run: Callable[[Any], Any]
    dtype: Callable[[Any], Any]
    atol: float = 0.0


def _float32(xp: Any) -> Any:
    return xp.float32


def _float64(xp: Any) -> Any:
    return xp.float64


CASES = [
    Case("special.logsumexp", lambda xp: special.logsumexp(xp.asarray(F32), axis=1), _float32),
    Case(
        "special.logsumexp weighted",
        lambda xp: special.logsumexp(xp.asarray(F32), axis=1, b=xp.asarray(POSITIVE)),
        lambda xp: xp.result_type(xp.float32, xp.float64),
    ),
    Case("special.softmax", lambda xp: special.softmax(xp.asarray(F64), axis=1), _float64),
    Case("special.log_softmax", lambda xp: special.log_softmax(xp.asarray(F32), axis=0), _float32),
    Case("stats.gmean", lambda xp: stats.gmean(xp.asarray(POSITIVE), axis=1), _float64),
    Case("stats.zscore", lambda xp: stats.zscore(xp.asarray(F32), axis=0), _float32, atol=1e-6),
    Case("stats.moment", lambda xp: stats.moment(xp.asarray(F64), order=3, axis=0), _float64),
    Case("stats.skew", lambda xp: stats.skew(xp.asarray(F64), axis=1), _float64),
    Case(
        "stats.pearsonr",
        lambda xp: stats.pearsonr(xp.asarray(SIGNAL[:32]), xp.asarray(SIGNAL[32:])).statistic,
        _float64,
    ),
    Case(
        "signal.correlate",
        lambda xp: signal.correlate(xp.asarray(SIGNAL), xp.asarray(KERNEL32)),
        lambda xp: xp.result_type(xp.float64, xp.float32),
        atol=1e-12,
    ),
    Case(
        "signal.filtfilt",
        lambda xp: signal.filtfilt(xp.asarray(B), xp.asarray(A), xp.asarray(SIGNAL)),
        _float64,
    ),
    Case(
        "signal.lfilter",
        lambda xp: signal.lfilter(xp.asarray(B), xp.asarray(A), xp.asarray(SIGNAL)),
        _float64,
    ),
    Case("cluster.vq.whiten", lambda xp: vq.whiten(xp.asarray(F64)), _float64),
    Case("fft.fft", lambda xp: sfft.fft(xp.asarray(SIGNAL)), lambda xp: xp.complex128, atol=1e-12),
    Case("fft.rfft", lambda xp: sfft.rfft(xp.asarray(F32), axis=1), lambda xp: xp.complex64, atol=1e-5),
    # no input array: the policy's default floating dtype (float64; float32 under pytorch)
    Case("fft.fftfreq", lambda xp: sfft.fftfreq(8, d=0.5, xp=xp), lambda xp: xp.asarray(0.5).dtype),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_values_as_on_numpy_and_dtypes_as_the_policy_says(case: Case, xp: Any) -> None:
    with held_to_reference(xp, ("scipy", case.name), case.run):
        check(case.run(xp), case.run(np), xp, case.dtype(xp), atol=case.atol)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_cases_are_generic_they_run_on_array_api_strict(case: Case) -> None:
    strict = pytest.importorskip("array_api_strict")
    got = case.run(strict)
    assert got.dtype == case.dtype(strict)
    np.testing.assert_allclose(np.asarray(got), case.run(np), rtol=2e-5, atol=1e-5)


def test_gmean_of_integers_follows_the_policy(xp: Any) -> None:
    """SciPy takes the log of int64 data: refused by the standard (and array-api-strict); pytorch: float32."""
    x = xp.asarray(I64)
    if xp.policy.name == "array-api":
        strict = pytest.importorskip("array_api_strict")
        with pytest.raises(TypeError):
            stats.gmean(strict.asarray(I64), axis=1)
        with pytest.raises(promo_ns.PromotionError, match="log"):
            stats.gmean(x, axis=1)
        return
    with held_to_reference(xp, "scipy gmean of integers", lambda m: stats.gmean(m.asarray(I64), axis=1)):
        check(stats.gmean(x, axis=1), stats.gmean(I64, axis=1), xp, xp.log(x).dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_arrays_of_two_namespace_calls_are_one_namespace_to_scipy(backend: str) -> None:
    """SciPy refuses arrays of several namespaces: equal ``namespace()`` calls must give one."""
    with held_to_reference(
        namespace(backend),
        "scipy correlate",
        lambda m: signal.correlate(m.asarray(SIGNAL), m.asarray(SIGNAL[:5])),
    ):
        x = namespace(backend, "pytorch").asarray(SIGNAL)
        y = promo_ns.namespace(backend, policy="pytorch").asarray(SIGNAL[:5])
        got = signal.correlate(x, y)
        check(got, signal.correlate(SIGNAL, SIGNAL[:5]), x.__array_namespace__(), x.dtype, atol=1e-12)
