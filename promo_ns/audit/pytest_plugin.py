"""The pytest plugin: ``pytest --promo-compare numpy,pytorch`` audits a test suite with :func:`compare`.

Installed with promo_ns (the ``pytest11`` entry point ``promo_ns``); it does
nothing unless ``--promo-compare`` is given.  Each test's call runs inside
``promo_ns.compare(*policies)``; the reports of all tests (and of all
pytest-xdist workers) are merged and printed at the end, grouped by location,
and ``--promo-compare-json PATH`` writes them as JSON.  Tests pass or fail as
they would under ``promo_ns.policy(first)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from promo_ns.audit.compare import Comparison, compare
from promo_ns.policies import get_policy

__all__ = ["pytest_addoption"]

_KEY = "promo_ns_compare"


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--promo-compare POLICIES`` and ``--promo-compare-json PATH``."""
    group = parser.getgroup("promo_ns", "promo_ns migration audit")
    group.addoption(
        "--promo-compare",
        metavar="POLICIES",
        help="run the tests under the first of these comma-separated policies and report the ops the "
        "others decide otherwise, e.g. --promo-compare numpy,pytorch",
    )
    group.addoption("--promo-compare-json", metavar="PATH", help="also write the report as JSON to PATH")


def pytest_configure(config: pytest.Config) -> None:
    """Register the audit when ``--promo-compare`` is given."""
    names = config.getoption("promo_compare", None)
    if not names:
        return
    policies = [get_policy(n.strip()) for n in names.split(",") if n.strip()]
    if len(policies) < 2:
        raise pytest.UsageError(
            f"--promo-compare takes two or more comma-separated policies, e.g. numpy,pytorch (got {names!r})"
        )
    config.pluginmanager.register(_Audit(policies), _KEY)


class _Audit:
    """The merged report of every test's ``compare`` block."""

    def __init__(self, policies: list[Any]) -> None:
        self.policies = policies
        self.report = Comparison(policies, None)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        with compare(*self.policies) as report:
            yield
        self.report.merge(report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:  # a pytest-xdist worker: the controller merges
            workeroutput[_KEY] = self.report.to_json()
            return
        path = session.config.getoption("promo_compare_json", None)
        if path:
            Path(path).write_text(self.report.to_json() + "\n")

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        found = getattr(node, "workeroutput", {}).get(_KEY)
        if found:
            self.report.merge(Comparison.from_json(found))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if hasattr(terminalreporter.config, "workeroutput"):
            return
        terminalreporter.section("promo_ns compare")
        terminalreporter.write_line(str(self.report))
