"""The one table of known cross-backend differences: cases where a backend's outcome is not NumPy's.

Each entry names the policies and backends it covers, the cells (a predicate
over the case and both observations, as narrow as the difference), and why.
The test suite (``tests/test_probe.py``) lets these cells differ and fails on
any other; an entry is deleted when the backends agree there.  The page
``docs/conformance/probe.md`` counts the cells of each entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from conformance.probe._space import Case

__all__ = ["KNOWN", "Known", "known"]


@dataclass(frozen=True)
class Known:
    """A known difference: ``applies(policy, backend, case, numpy's, backend's)``."""

    reason: str
    applies: Callable[[str, str, Case, str, str], bool]


KNOWN: tuple[Known, ...] = ()


def known(policy: str, backend: str, case: Case, ref: str, got: str) -> str | None:
    """The reason of the known difference covering a cell, None where it is not known."""
    return next((k.reason for k in KNOWN if k.applies(policy, backend, case, ref, got)), None)
