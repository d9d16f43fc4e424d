"""The benchmarks compare like with like: every peer's statement computes the same values and dtype.

Nothing here is timed; speed is measured by ``python -m benchmarks``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import benchmarks.__main__ as bench
import promo_ns
from benchmarks.__main__ import Row, report, speed
from benchmarks._timing import Progress
from benchmarks.cases import CASES, Case, setup_code
from benchmarks.minimal import Minimal
from promo_ns._dtypes import DType
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
        elif "] = " in stmt:  # setitem: the array written to
            exec(stmt, ns)
            out[peer] = ns[stmt.split("[")[0]]
        else:
            out[peer] = eval(stmt, ns)
        if isinstance(out[peer], Minimal):
            out[peer] = out[peer].x
    return out


@pytest.mark.parametrize(
    ("backend", "case"),
    [pytest.param(b, c, id=f"{b}-{c.name}") for c in CASES for b in CPU if b in c.backends],
)
def test_every_peer_computes_the_same(backend: str, case: Case) -> None:
    results = _run(backend, case)
    if case.group == "new policy":  # native is a + b, for scale
        got = results["promo_ns"]
        assert isinstance(got, promo_ns.Policy) or str(got.dtype) == "float32", got
        return
    if isinstance(results["promo_ns"], DType):  # result_type: a dtype of each library
        assert {str(got).rpartition(".")[2] for got in results.values()} == {"float32"}, results
        return
    native = np.asarray(to_numpy(results["native"]))
    for peer, got in results.items():
        arr = to_numpy(got) if peer != "strict" else np.asarray(got)
        assert arr.dtype == native.dtype, f"{peer}: {arr.dtype}, native: {native.dtype}"
        # NumPy's own float16 h * 0.1 rounds 0.1 to float16 first, the pytorch policy (torch) does
        # not: their results differ in the last bit.
        rtol = float(np.finfo(native.dtype).eps) if native.dtype == np.float16 else 1e-5
        if not case.name.startswith("a +="):  # in place on shared memory: the values moved on
            np.testing.assert_allclose(arr, native, rtol=rtol, err_msg=peer)


def test_the_report_lists_what_missed_its_target() -> None:
    case = CASES[0]
    rows = {
        "numpy": [
            Row(
                case,
                {"native": 1e-7, "promo_ns": 5e-7, "strict": 4e-6},
                {},
                [("<= 3.5x native", speed(5.0), False), (">= 5x faster than strict", speed(0.125), True)],
            )
        ]
    }
    text, missed = report(rows, [("promo_ns", 0.01, [])], [])
    assert missed == ["numpy, small (n=100), a + b, float32: <= 3.5x native (measured: 5.00x slower)"]
    assert "| <= 3.5x native: 5.00x slower, **missed**; >= 5x faster than strict: 8.00x faster, met |" in text
    assert "| promo_ns | 10 ms | none |" in text


def test_a_missed_faster_than_target_reads_slower() -> None:
    case = next(c for c in CASES if c.group == "workload")
    rows = {"numpy": [Row(case, {"native": 1e-4, "promo_ns": 1.4e-4, "strict": 1e-4}, {}, [])]}
    rows["numpy"][0].verdicts.append(("faster than strict", speed(1.4), False))
    text, missed = report(rows, [], [])
    assert "faster than strict: 1.40x slower, **missed**" in text
    assert missed == [
        "numpy, workload, standardize + logsumexp, 1000x100 float32: "
        "faster than strict (measured: 1.40x slower)"
    ]
    assert "x faster" not in text


@pytest.mark.parametrize(
    ("ratio", "words"),
    [
        (1.4, "1.40x slower"),
        (0.5, "2.00x faster"),
        (1 / 0.7, "1.43x slower"),
        (1.001, "same speed"),
        (3.49, "3.49x slower"),
    ],
)
def test_speed_in_words(ratio: float, words: str) -> None:
    assert speed(ratio) == words


def test_progress_estimates_the_time_left_from_the_steps_so_far() -> None:
    now = iter([100.0, 104.0, 110.0, 112.0])  # start, then one reading per step after the first
    lines: list[str] = []
    progress = Progress(4, lines.append, clock=lambda: next(now))
    for what in ("numpy: a + b", "numpy: a < b", "torch: a + b", "import times"):
        progress.step(what)
    assert lines == [
        "[1/4] numpy: a + b",
        "[2/4] numpy: a < b (about 12 s left)",  # 4 s for one step, 3 steps left
        "[3/4] torch: a + b (about 10 s left)",  # 5 s a step, 2 left
        "[4/4] import times (about 4 s left)",
    ]


def test_the_import_row_is_a_ratio_against_a_peer() -> None:
    imports = [("promo_ns", 0.021, []), ("array_api_compat", 0.014, []), ("numpy", 0.09, ["numpy"])]
    text, missed = report({}, imports, [])
    assert missed == []
    assert "| case | promo_ns | array_api_compat | numpy | promo_ns / array_api_compat | targets |" in text
    assert (
        "| import (fresh interpreter) | 21 ms | 14 ms | 90 ms | 1.50x | "
        "<= 3x array_api_compat: 1.50x slower, met; imports no array library: met |"
    ) in text
    slow = [("promo_ns", 0.05, ["numpy"]), ("array_api_compat", 0.01, [])]
    text, missed = report({}, slow, [])
    assert missed == [
        "import promo_ns: <= 3x array_api_compat (measured: 5.00x slower)",
        "import promo_ns: imports numpy",
    ]
    assert "imports no array library: **missed** (numpy)" in text


def test_import_times_runs_fresh_interpreters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "IMPORT_MODULES", ("promo_ns", "array_api_compat", "not_a_module_here"))
    found = bench.import_times(2)
    assert [(m, libs) for m, _, libs in found] == [("promo_ns", []), ("array_api_compat", [])]
    assert all(t > 0 for _, t, _ in found)
