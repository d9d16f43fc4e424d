"""scikit-learn (``array_api_dispatch=True``) on promo_ns arrays: fit, predict, pickle, clone, deepcopy.

Each estimator and metric here supports the Array API (it runs on array-api-strict);
the reference is the same estimator fitted on NumPy arrays without dispatch.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import promo_ns
from tests.backends import namespace, to_numpy
from tests.clients.support import (
    BACKENDS,
    POLICIES,
    check,
    held_to_reference,
    require_scipy_array_api,
    rtol,
)

require_scipy_array_api()
sklearn = pytest.importorskip("sklearn")
array_api_compat = pytest.importorskip("array_api_compat")
base = pytest.importorskip("sklearn.base")
discriminant_analysis = pytest.importorskip("sklearn.discriminant_analysis")
decomposition = pytest.importorskip("sklearn.decomposition")
linear_model = pytest.importorskip("sklearn.linear_model")
preprocessing = pytest.importorskip("sklearn.preprocessing")
metrics = pytest.importorskip("sklearn.metrics")
pairwise = pytest.importorskip("sklearn.metrics.pairwise")
# StandardScaler's first partial_fit divides 0 by 0 and masks the NaN; it silences the warning with
# np.errstate only when the namespace is NumPy's itself (not for array-api-strict either).
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")

_rng = np.random.default_rng(16)
X = _rng.standard_normal((40, 4))
X32 = X.astype(np.float32)
LABELS = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.int64) + (X[:, 2] > 1)  # classes 0, 1, 2
TARGET = X @ np.array([1.0, -2.0, 0.5, 3.0]) + 0.1 * _rng.standard_normal(40)
QUERY = _rng.standard_normal((7, 4))


@dataclass(frozen=True)
class Estimator:
    """An estimator, the method whose output is checked, its training data, and that output's dtype."""

    name: str
    make: Callable[[], Any]
    method: str
    x: np.ndarray[Any, Any]
    y: np.ndarray[Any, Any] | None
    dtype: str  # the same under array-api and pytorch: scikit-learn keeps X's floating dtype

    def fit(self, xp: Any) -> Any:
        """The estimator fitted on ``xp``'s arrays (NumPy's with ``xp=np``)."""
        model = self.make()
        x = xp.asarray(self.x)
        return model.fit(x) if self.y is None else model.fit(x, xp.asarray(self.y))

    def output(self, model: Any, xp: Any) -> Any:
        """The checked method on the query points, as arrays of ``xp``."""
        return getattr(model, self.method)(xp.asarray(QUERY.astype(self.x.dtype)))


ESTIMATORS = [
    Estimator("LDA.predict", discriminant_analysis.LinearDiscriminantAnalysis, "predict", X, LABELS, "int64"),
    Estimator(
        "LDA.predict_proba",
        discriminant_analysis.LinearDiscriminantAnalysis,
        "predict_proba",
        X32,
        LABELS,
        "float32",
    ),
    Estimator(
        "PCA.transform", lambda: decomposition.PCA(2, svd_solver="full"), "transform", X, None, "float64"
    ),
    Estimator("Ridge.predict", lambda: linear_model.Ridge(solver="svd"), "predict", X, TARGET, "float64"),
    Estimator("StandardScaler.transform", preprocessing.StandardScaler, "transform", X32, None, "float32"),
    Estimator("MinMaxScaler.transform", preprocessing.MinMaxScaler, "transform", X, None, "float64"),
]


@pytest.fixture(autouse=True)
def _dispatch() -> Any:
    with sklearn.config_context(array_api_dispatch=True):
        yield


def _reference(est: Estimator) -> Any:
    with sklearn.config_context(array_api_dispatch=False):
        return est.output(est.fit(np), np)


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: e.name)
def test_estimator_on_promo_ns_arrays_as_on_numpy(est: Estimator, xp: Any) -> None:
    with held_to_reference(xp, ("sklearn", est.name), lambda m: est.output(est.fit(m), m)):
        model = est.fit(xp)
        check(est.output(model, xp), _reference(est), xp, getattr(xp, est.dtype), atol=1e-6)


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: e.name)
def test_fitted_estimator_survives_pickle_deepcopy_and_clone(est: Estimator, xp: Any) -> None:
    with held_to_reference(
        xp, ("sklearn pickled", est.name), lambda m: est.output(pickle.loads(pickle.dumps(est.fit(m))), m)
    ):
        model = est.fit(xp)
        want = to_numpy(est.output(model, xp))
        dtype = getattr(xp, est.dtype)
        for again in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
            check(est.output(again, xp), want, xp, dtype)
        fresh = base.clone(model)
        assert fresh.get_params() == model.get_params()
        fresh.fit(*[xp.asarray(a) for a in (est.x, est.y) if a is not None])
        check(est.output(fresh, xp), want, xp, dtype)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: e.name)
def test_fit_and_predict_on_arrays_of_two_namespace_calls(est: Estimator, backend: str, policy: str) -> None:
    """Fitted on one ``namespace()`` call's arrays, used with another's: one namespace to scikit-learn."""
    with held_to_reference(namespace(backend), ("sklearn", est.name), lambda m: est.output(est.fit(m), m)):
        xp = promo_ns.namespace(backend, policy=policy)
        again = promo_ns.namespace(backend, policy=policy)
        assert again is xp
        x1, x2 = xp.asarray(est.x), again.asarray(QUERY)
        assert array_api_compat.array_namespace(x1, x2) is xp
        assert array_api_compat.array_namespace(x2) is array_api_compat.array_namespace(x1)
        model = est.fit(xp)
        check(est.output(model, again), _reference(est), xp, getattr(xp, est.dtype), atol=1e-6)


PAIRS = [
    ("pairwise_distances", metrics.pairwise_distances, "float64"),
    ("euclidean_distances", pairwise.euclidean_distances, "float64"),
    ("cosine_similarity", pairwise.cosine_similarity, "float64"),
    ("rbf_kernel", pairwise.rbf_kernel, "float64"),
    ("pairwise_distances_argmin", metrics.pairwise_distances_argmin, "int64"),
]


@pytest.mark.parametrize(("name", "fn", "dtype"), PAIRS, ids=[p[0] for p in PAIRS])
def test_pairwise_metrics_as_on_numpy(name: str, fn: Callable[..., Any], dtype: str, xp: Any) -> None:
    with held_to_reference(xp, ("sklearn", name), lambda m: fn(m.asarray(QUERY), m.asarray(X[:9]))):
        with sklearn.config_context(array_api_dispatch=False):
            want = fn(QUERY, X[:9])
        check(fn(xp.asarray(QUERY), xp.asarray(X[:9])), want, xp, getattr(xp, dtype), atol=1e-12)


def test_r2_score_as_on_numpy(xp: Any) -> None:
    # r2_score's output_scores[valid_score] = ... sets through a boolean mask on a one-element axis.
    prediction = TARGET * 0.9 + 0.2
    with held_to_reference(
        xp, "r2_score", lambda m: metrics.r2_score(m.asarray(TARGET), m.asarray(prediction))
    ):
        with sklearn.config_context(array_api_dispatch=False):
            want = metrics.r2_score(TARGET, prediction)
        got = metrics.r2_score(xp.asarray(TARGET), xp.asarray(prediction))
        assert got == pytest.approx(want, rel=rtol("float64"))


def test_scores_that_return_python_floats(xp: Any) -> None:
    prediction = TARGET * 0.9 + 0.2
    shuffled = LABELS[::-1].copy()
    with held_to_reference(
        xp,
        "scores",
        lambda m: (
            metrics.mean_squared_error(m.asarray(TARGET), m.asarray(prediction)),
            metrics.accuracy_score(m.asarray(LABELS), m.asarray(shuffled)),
        ),
    ):
        with sklearn.config_context(array_api_dispatch=False):
            mse = metrics.mean_squared_error(TARGET, prediction)
            accuracy = metrics.accuracy_score(LABELS, shuffled)
        assert metrics.mean_squared_error(xp.asarray(TARGET), xp.asarray(prediction)) == pytest.approx(mse)
        assert metrics.accuracy_score(xp.asarray(LABELS), xp.asarray(shuffled)) == pytest.approx(accuracy)
