"""Each policy's one-array function grid against its framework: every function x input dtype.

``promo_ns._engine.functions.function_dtype`` (or its refusal) is compared with what the
framework does: probed live for torch, NumPy and array-api-strict (skipped where
one is not installed), read from ``tests/reference/<policy>-functions.json`` for
Paddle and TensorFlow (regenerated with ``python -m conformance.frameworks.paddle``
/ ``python -m conformance.frameworks.tensorflow``).  Cells the framework cannot
run (``"unsupported: ..."``) are not compared; documented deviations are listed
in ``conformance.frameworks._fidelity.FUNCTION_DEVIATIONS``.  The report pages show the
same comparison per family (``conformance.frameworks._report``); here every family must agree
on 100% of the cells the framework decides, and promo_ns's ``asarray`` of nested data must agree
with the framework's creation call but for ``_fidelity.NESTED_DEVIATIONS``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from conformance.frameworks import _cells, _fidelity, _report
from promo_ns import get_policy
from promo_ns._ops import FUNCTION_FAMILY
from promo_ns.policies._model import FUNCTION_FAMILIES
from tests.golden import report

POLICIES = list(_fidelity.CHECKERS)
LIVE = [p for p, (_, live) in _fidelity.CHECKERS.items() if live]
#: The module each live checker needs.
_NEEDS = {"pytorch": "torch", "numpy": "ml_dtypes", "array-api": "array_api_strict"}


@cache
def _observed(policy: str) -> dict[str, Any]:
    return _fidelity.function_observations(policy)


def observed(policy: str) -> dict[str, Any]:
    """The framework's function observations (live where cheap), skipping if it is not installed."""
    if policy in _NEEDS:
        pytest.importorskip(_NEEDS[policy])
    return _observed(policy)


@cache
def stored(policy: str) -> dict[str, Any]:
    return _cells.load(_cells.function_reference(policy))


@pytest.mark.parametrize("op", _cells.FUNCTION_OPS)
@pytest.mark.parametrize("policy", POLICIES)
def test_function_grid_agrees_with_the_framework(policy: str, op: str) -> None:
    cells = observed(policy)["ops"][op]
    rows, _ = _fidelity.function_diff(policy, {op: cells})
    assert not rows, report(get_policy(policy), rows)


@pytest.mark.parametrize("policy", POLICIES)
def test_function_deviations_are_the_documented_ones(policy: str) -> None:
    _, deviations = _fidelity.function_diff(policy, observed(policy)["ops"])
    documented = {d.reason for d in _fidelity.FUNCTION_DEVIATIONS.get(policy, ())}
    assert set(deviations) == documented, "a documented deviation no longer applies, or one is missing"
    assert len(get_policy(policy).deviations) >= len(documented)


@pytest.mark.parametrize("policy", LIVE)
def test_stored_function_observations_are_current(policy: str) -> None:
    live = observed(policy)
    data = stored(policy)
    assert live["version"] == data["version"], f"regenerate with {data['command']}"
    changed = [
        f"{op} {key}: stored {value!r}, now {live['ops'][op][key]!r}"
        for op, cells in data["ops"].items()
        for key, value in cells.items()
        if live["ops"][op][key] != value
    ]
    assert not changed, f"{len(changed)} cells changed; regenerate with {data['command']}:\n" + "\n".join(
        changed[:40]
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_every_function_and_dtype_is_observed(policy: str) -> None:
    ops = stored(policy)["ops"]
    assert set(ops) == set(_cells.FUNCTION_OPS) == set(FUNCTION_FAMILY)
    for op, cells in ops.items():
        assert list(cells) == _cells.function_cells(op), op


def _primary(op: str, seen: str) -> str:
    """The output of an observation that the ``functions`` grid describes."""
    parts = seen.split(",")
    outputs = _fidelity.FUNCTION_OUTPUTS.get(op, ("same",))
    return parts[outputs.index("same")] if len(parts) == len(outputs) else parts[0]


@pytest.mark.parametrize("policy", POLICIES)
def test_the_functions_of_a_family_agree_in_each_framework(policy: str) -> None:
    """A family is one column of the grid: where the framework decides, its functions agree."""
    ops = stored(policy)["ops"]
    differ = []
    for family in FUNCTION_FAMILIES:
        members = [op for op, f in FUNCTION_FAMILY.items() if f == family]
        for key in _cells.function_cells(members[0]):
            seen = {
                op: _primary(op, ops[op][key])
                for op in members
                if not ops[op][key].startswith("unsupported")
                and _fidelity.function_deviation(policy, op, key, ops[op][key]) is None
            }
            if len(set(seen.values())) > 1:
                differ.append(f"{family} {key}: {seen}")
    assert not differ, "\n".join(differ)


def test_a_function_disagreement_is_listed_cell_by_cell() -> None:
    observed = {
        "log": {"int8:nd": "float16", "int32:nd": "refused", "uint16:nd": "unsupported: no kernel"},
        "linalg.eigh": {"float32:nd": "float32,float32", "complex64:nd": "complex64,complex64"},
    }
    rows, _ = _fidelity.function_diff("pytorch", observed)
    assert rows == [
        f"{'log':<20} {'int8:nd':<28} framework={'float16':<20} promo_ns=float32",
        f"{'log':<20} {'int32:nd':<28} framework={'refused':<20} promo_ns=float32",
        f"{'linalg.eigh':<20} {'complex64:nd':<28} framework={'complex64,complex64':<20} "
        "promo_ns=float32,complex64",
    ]
    message = report(get_policy("pytorch"), rows)
    assert message.startswith("3 cells differ between policy 'pytorch' and PyTorch 2.13:")


@pytest.mark.parametrize("policy", POLICIES)
def test_every_family_agrees_on_every_cell_the_framework_decides(policy: str) -> None:
    ff = _fidelity.compare_functions(policy, stored(policy), backends=())
    assert list(ff.families) == list(FUNCTION_FAMILIES)
    short = {
        f: "{} / {}".format(*ff.agreement(f)) for f in FUNCTION_FAMILIES if len(set(ff.agreement(f))) > 1
    }
    assert not short, f"families short of 100% of decided cells: {short}\n{ff.disagreements}"
    assert set(ff.deviations) == {d.reason for d in _fidelity.FUNCTION_DEVIATIONS.get(policy, ())}
    # Every cell the framework decided without a kernel is counted, in its family or as a deviation.
    no_kernel = _fidelity.decided_without_kernel(stored(policy))
    assert {(op, key) for op, key, *_ in ff.decided} == no_kernel


@pytest.mark.parametrize("policy", POLICIES)
def test_nested_creation_agrees_but_for_the_documented_deviations(policy: str) -> None:
    nf = _fidelity.compare_nested(policy, _cells.load(_cells.reference("nested-creation")))
    for backend in nf.counts:
        agree, decided = nf.agreement(backend)
        assert agree == decided, f"{backend}: {nf.buckets}"
    assert set(nf.deviations) == {d.reason for d in _fidelity.NESTED_DEVIATIONS.get(policy, ())}


def test_cells_decided_without_a_kernel_are_read_from_either_spelling() -> None:
    data = {"no_kernel": ["abs bool:nd: \"abs_cpu\" not implemented for 'Bool'", "linalg.det float16:nd"]}
    assert _fidelity.decided_without_kernel(data) == {("abs", "bool:nd"), ("linalg.det", "float16:nd")}


def test_a_function_disagreement_is_on_the_page() -> None:
    data = {
        "framework": "fake",
        "version": "0",
        "ops": {"log": {"int8:nd": "float16", "int32:nd": "float32", "uint16:nd": "unsupported: no kernel"}},
        "no_kernel": ["log int32:nd"],
    }
    ff = _fidelity.compare_functions("pytorch", data, backends=())
    assert ff.disagreements == [("log", "int8:nd", "float16", "float32")]
    assert ff.families["float"]["decided without a kernel"] == 1
    assert ff.agreement("float") == (1, 2)
    page = _report.function_markdown(ff)
    assert "| the policy | `log` | int8 | float16 | float32 |" in page
    assert "| float | " in page and "| 50.00% |" in page
    assert "| `log` | uint16 | no kernel |" in page
