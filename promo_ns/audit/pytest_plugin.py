"""The pytest plugin: ``pytest --promo-compare numpy,pytorch`` audits a test suite with :func:`compare`.

Installed with promo_ns (the ``pytest11`` entry point ``promo_ns``); it does
nothing unless ``--promo-compare`` is given.  Each test's setup (its
fixtures), call and teardown run inside ``promo_ns.compare(*policies)``; the reports of all tests (and of all
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
    """Register the audit when ``--promo-compare`` is given.

    Raises
    ------
    pytest.UsageError
        Fewer than two policies, an unknown one, ``--promo-compare-json`` without
        ``--promo-compare``, or into a folder that does not exist: before any test runs.
    """
    names = config.getoption("promo_compare", None)
    path = config.getoption("promo_compare_json", None)
    if not names:
        if path:
            raise pytest.UsageError(
                "--promo-compare-json writes the report of --promo-compare, which is not given: "
                "add e.g. --promo-compare numpy,pytorch"
            )
        return
    try:
        policies = [get_policy(n.strip()) for n in names.split(",") if n.strip()]
    except ValueError as e:
        raise pytest.UsageError(f"--promo-compare {names}: {e.args[0] if e.args else e}") from None
    if len(policies) < 2:
        raise pytest.UsageError(
            f"--promo-compare takes two or more comma-separated policies, e.g. numpy,pytorch (got {names!r})"
        )
    if path and not Path(path).resolve().parent.is_dir():
        raise pytest.UsageError(
            f"--promo-compare-json {path}: no folder {str(Path(path).resolve().parent)!r} to write it in"
        )
    config.pluginmanager.register(_Audit(policies), _KEY)


class _Audit:
    """The merged report of every test's ``compare`` block."""

    def __init__(self, policies: list[Any]) -> None:
        self.policies = policies
        self.report = Comparison(policies, None)

    def _audited(self) -> Iterator[None]:
        with compare(*self.policies) as report:
            yield
        self.report.merge(report)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        """The test's fixtures, set up."""
        yield from self._audited()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        """The test."""
        yield from self._audited()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        """The fixtures' teardown."""
        yield from self._audited()

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
