"""Each policy against its real framework, cell by cell, through promo_ns on every backend.

The observations (dtype or refusal, and value, of every cell) are stored in
``tests/reference/<policy>.json``; torch's, NumPy's and array-api-strict's are
also probed live here to show that the stored ones are current.  The reports in
``docs/conformance/<policy>.md`` (operators, one-array functions, nested creation)
must be what the page writer makes of the stored observations now, byte for byte,
and ``docs/conformance/README.md`` must carry each policy's summary row.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conformance.frameworks import _cells, _fidelity, _report
from promo_ns.policies._model import FUNCTION_FAMILIES
from tests.backends import GRID_VALUE_BACKENDS as VALUE_BACKENDS
from tests.golden import observations

POLICIES = list(_fidelity.CHECKERS)
LIVE = [p for p, (_, live) in _fidelity.CHECKERS.items() if live]


@cache
def stored(policy: str) -> dict[str, Any]:
    return _cells.load(_cells.reference(policy))


def _listing(f: _fidelity.Fidelity, limit: int = 60) -> str:
    rows = [f"{b:<6} {op:<20} {key:<30} framework={s}  promo_ns={g}" for b, op, key, s, g in f.disagreements]
    more = [f"... and {len(rows) - limit} more"] if len(rows) > limit else []
    return "\n".join(
        [f"{len(rows)} cells where promo_ns ({f.policy}) disagrees with {f.framework}:", *rows[:limit], *more]
    )


def _same_observation(now: Any, stored: Any) -> bool:
    """Equal, or floats within two float32 ulps: libm's float32 atan2 differs by one across CPUs (SIMD).

    A stored NaN compares by kind elsewhere.
    """
    if now == stored or stored != stored:
        return True
    if isinstance(now, float) and isinstance(stored, float):
        return abs(now - stored) <= 2.0**-22 * max(abs(now), abs(stored))
    return False


@pytest.mark.parametrize("policy", LIVE)
def test_stored_observations_are_current(policy: str) -> None:
    live = observations(policy)
    data = stored(policy)
    assert live["version"] == data["version"], f"regenerate with {data['command']}"
    for part in ("ops", "values"):
        changed = [
            f"{op} {key}: stored {value!r}, now {live[part][op][key]!r}"
            for op, cells in data[part].items()
            for key, value in cells.items()
            if not _same_observation(live[part][op][key], value)
        ]
        assert not changed, f"{len(changed)} cells changed; regenerate with {data['command']}:\n" + "\n".join(
            changed[:40]
        )


#: backend -> k: every k-th stored cell of each op runs there.  CuPy compiles a kernel (NVRTC) for
#: each new dtype signature: with a cold kernel cache the 24,000 cells took over the 120 s a test
#: has on the GPU (tests/test_namespace_grid.py runs every operator cell on CuPy).
SAMPLED = {"cupy": 31}


def _sample(data: dict[str, Any], step: int) -> dict[str, Any]:
    """The stored observations with every ``step``-th cell of each op."""
    return {**data, "ops": {op: dict(list(cells.items())[::step]) for op, cells in data["ops"].items()}}


def _agrees(f: _fidelity.Fidelity, step: int = 1) -> None:
    """No disagreement; on each backend the cells agree; the deviations are only the documented ones.

    Run on every cell (``step`` 1), each documented deviation is still needed.
    """
    assert not f.disagreements, _listing(f)
    for backend, counts in f.counts.items():
        assert counts["agree"] > 10_000 // step, (backend, counts)
    documented = {d.reason for d in _fidelity.DEVIATIONS.get(f.policy, ())}
    assert set(f.deviations) == documented if step == 1 else set(f.deviations) <= documented


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", [b for b in VALUE_BACKENDS if b not in _fidelity.BACKENDS])
def test_policy_agrees_with_its_framework(backend: str, policy: str) -> None:
    """On a backend the report does not run (test_report_and_readme_rows_are_current checks its backends)."""
    step = SAMPLED.get(backend, 1)
    _agrees(_fidelity.compare(policy, _sample(stored(policy), step), (backend,)), step)


@pytest.mark.parametrize("policy", POLICIES)
def test_report_and_readme_rows_are_current(policy: str, tmp_path: Path) -> None:
    """The report, made now from the stored observations, writes the committed page and README rows.

    One test per policy, so its report (promo_ns's run over every stored cell on
    numpy and torch) is made once: promo_ns agrees on each backend.
    """
    made = _report.report(policy)
    fresh = _report.write_page(made, tmp_path).read_bytes()
    committed = (_fidelity.DOCS / f"{policy}.md").read_bytes()
    assert fresh == committed, (
        f"docs/conformance/{policy}.md is stale: run python -m conformance.frameworks {policy}"
    )
    readme = (_fidelity.DOCS / "README.md").read_text()
    assert _report.SUMMARY_HEAD in readme
    assert _report.EDGES_SUMMARY_HEAD in readme
    row = _report.summary_row(made)
    assert row in readme, f"docs/conformance/README.md: the summary row of {policy} is now\n{row}"
    row = _report.edges_summary_row(made)
    assert row in readme, f"docs/conformance/README.md: the edges row of {policy} is now\n{row}"
    assert not made.disagreements
    _agrees(made.operators)


@pytest.mark.parametrize("policy", POLICIES)
def test_report_page_has_every_part(policy: str) -> None:
    page = (_fidelity.DOCS / f"{policy}.md").read_text()
    for part in (
        "## Operators and binary functions",
        "## One-array functions",
        "## Creation from nested data",
        "## Values and refusals at the edges",
    ):
        assert part in page
    for family in FUNCTION_FAMILIES:
        assert f"\n| {family} | " in page, family


def test_same_value_tolerates_ulps_not_more() -> None:
    assert _fidelity.same_value(1.0 + 2.0**-12, 1.0, "float16")
    assert not _fidelity.same_value(1.01, 1.0, "float16")
    assert _fidelity.same_value([1.0, float("nan")], [1.0, float("nan")], "complex64")
    assert not _fidelity.same_value(float("nan"), 1.0, "float64")
    assert not _fidelity.same_value(2, 3, "int8")
    assert _fidelity.same_value(None, 3, "int8")


def test_a_disagreement_is_reported_with_both_answers() -> None:
    data = {
        "framework": "fake",
        "version": "0",
        "ops": {
            "add": {
                "int8:nd|int8:nd": "int16",
                "int8:nd|py:int": "int8",
                "uint16:nd|py:int": "unsupported: x",
            }
        },
        "values": {"add": {"int8:nd|int8:nd": 2, "int8:nd|py:int": 3, "uint16:nd|py:int": None}},
    }
    f = _fidelity.compare("array-api", data, ("numpy",))
    assert f.disagreements == [
        ("numpy", "add", "int8:nd|int8:nd", "int16", "int8"),
        ("numpy", "add", "int8:nd|py:int", "int8 = 3", "int8 = 2"),
    ]
    assert f.counts["numpy"]["framework cannot run"] == 1
    page = _report.markdown(f)
    assert "| numpy | add | `int8:nd|int8:nd` | int16 | int8 |" in page
    assert "0.00%" in page


def test_in_place_contract_reads_a_dtype_change_as_a_refusal() -> None:
    assert _fidelity.in_place_contract("iadd", "int8:nd|float32:nd", "float32") == "refused"
    assert _fidelity.in_place_contract("iadd", "float32:nd|int8:nd", "float32") == "float32"
    assert _fidelity.in_place_contract("add", "int8:nd|float32:nd", "float32") == "float32"


def test_report_command_rejects_an_unknown_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert _report.main(["jax-ish"]) == 2
    assert "unknown policy 'jax-ish'" in capsys.readouterr().err


def test_edge_verdict_compares_values_and_refusals_and_skips_gaps() -> None:
    from conformance.frameworks.edge_agreement import verdict

    result = {"dtype": "int8", "values": [1, 2]}
    refused = {"error": "RuntimeError", "message": "overflow", "kind": "refused"}
    ours = {"error": "PromotionError", "message": "out of range", "kind": "refused"}
    raw = {"error": "RuntimeError", "message": "backend", "kind": "raw"}
    assert verdict(result, dict(result)) == "agree"
    assert verdict(result, {"dtype": "int8", "values": [1, 3]}) == "differ"
    assert verdict(result, ours) == "differ"
    assert verdict(refused, ours) == "agree"
    assert verdict(refused, raw) == "differ"  # a backend's error getting through is no refusal
    assert verdict(refused, result) == "differ"
    assert verdict({"error": "TypeError", "kind": "no_loop"}, result) is None
    no_kernel = {"error": "RuntimeError", "kind": "no_kernel", "decided": {"dtype": "uint16"}}
    assert verdict(no_kernel, {"dtype": "uint16", "values": [1]}) == "agree"
    assert verdict(no_kernel, {"dtype": "int32", "values": [1]}) == "differ"
    assert verdict(no_kernel, ours) is None
