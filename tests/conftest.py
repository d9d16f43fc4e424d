from __future__ import annotations

import gc
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
# pytest --hypothesis-profile thorough: many more examples (the generated differential tests).
settings.register_profile("thorough", max_examples=5000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# A test process holds every policy's decision tables and plans and three frameworks' modules:
# each full collection walked them all (about 0.4 s, 10% of a grid test's time). Collections of
# the young generation come after 50,000 allocations instead of 700, full ones rarely. Tests that
# need garbage gone call gc.collect().
gc.set_threshold(50_000, 20, 100)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker whose results are sent finishes its clean-up rather than being interrupted.

    xdist stops its workers as soon as they report, and execnet sends a worker
    that is still cleaning up 5 s later a SIGINT: the KeyboardInterrupt lands
    wherever the worker is, typically in JAX's or Hypothesis' garbage
    collection callback, and the run ends with a PytestUnraisableExceptionWarning
    traceback.  The worker ignores it; execnet ends a worker still running 10 s
    after that.
    """
    if hasattr(session.config, "workerinput"):  # trylast: after xdist has sent this worker's results
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture(autouse=True)
def _no_block_outlives_its_test() -> Iterator[None]:
    """A test leaves no promo_ns policy, trace or compare block open: the next test would run in it."""
    from promo_ns._context import current

    yield
    left = current()  # a block closed in another context is dropped here
    if left is not None:
        pytest.fail(f"this test left a promo_ns block open: {left!r}")


@pytest.fixture(autouse=True)
def _registry_as_it_was() -> Iterator[None]:
    """Policies a test registers (or replaces) are gone after it: the next test sees the built-in ones."""
    from promo_ns.policies import _model

    with _model._LOCK:
        registered, kept = dict(_model._REGISTERED), dict(_model._KEPT)
    yield
    with _model._LOCK:
        _model._REGISTERED.clear()
        _model._REGISTERED.update(registered)
        _model._KEPT.clear()
        _model._KEPT.update(kept)


@pytest.fixture
def young_heap() -> Iterator[None]:
    """The test's ``gc.collect()`` calls walk only the objects made since it began.

    What was alive before (every policy's tables and plans, the frameworks' modules: a full
    collection of them took a second or two) is frozen until the test ends (``gc.freeze()``,
    then ``gc.unfreeze()``), and ``gc.get_objects()`` leaves it out. The test's own objects, and
    cycles among them, are collected as before; one held by an older object stays alive, so a
    test of what is freed can fail here for no defect, never pass for one.
    """
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs site, built once per test process (strict, as CI builds it).

    Tests read its pages and never change them (the browser tests add copies of their own).
    """
    pytest.importorskip("mkdocs.config")
    from tests.test_docs import build

    return build(tmp_path_factory.mktemp("site"))
