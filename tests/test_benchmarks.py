"""The benchmarks compare like with like: every peer's statement computes the same values and dtype.

Nothing here is timed; speed is measured by ``python -m benchmarks``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.__main__ import report
from benchmarks.cases import CASES, Case, setup_code
from tests.backends import to_numpy

CPU = ("numpy", "torch")


def _run(backend: str, case: Case) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(setup_code(backend, 64), ns)
    out = {}
    for peer, stmt in case.statements(backend).items():
        if stmt.startswith("global"):
            exec(stmt, ns)
            out[peer] = ns[stmt.split()[1].rstrip(";")]
        else:
            out[peer] = eval(stmt, ns)
    return out


@pytest.mark.parametrize("case", [c for c in CASES if set(CPU) & set(c.backends)], ids=lambda c: c.name)
@pytest.mark.parametrize("backend", CPU)
def test_every_peer_computes_the_same(backend: str, case: Case) -> None:
    results = _run(backend, case)
    native = np.asarray(to_numpy(results["native"]))
    for peer, got in results.items():
        arr = to_numpy(got) if peer != "strict" else np.asarray(got)
        assert arr.dtype == native.dtype, f"{peer}: {arr.dtype}, native: {native.dtype}"
        if not case.name.startswith("a +="):  # in place on shared memory: the values moved on
            np.testing.assert_allclose(arr, native, rtol=1e-5, err_msg=peer)


def test_the_report_lists_what_missed_its_target() -> None:
    from benchmarks.__main__ import Row

    case = CASES[0]
    rows = {
        "numpy": [
            Row(
                case, {"native": 1e-7, "promo_ns": 5e-7, "strict": 4e-6}, {}, [("<= 3.5x native", 5.0, False)]
            )
        ]
    }
    text, missed = report(rows, [("promo_ns", 0.01, [])], [])
    assert missed == ["numpy, small (n=100), a + b, float32: <= 3.5x native (5.00x)"]
    assert "**missed**" in text
    assert "| promo_ns | 10.0 ms | none |" in text
