"""Run marray's own test suite against promo_ns namespaces and array-api-strict, and compare.

`marray <https://github.com/mdhaber/marray>`_ (masked arrays over any Array API
namespace) ships its test suite in its wheel (``marray/tests/test_marray.py``);
it is never committed here. Install it and run::

    pip install marray array-api-strict
    python -m conformance.marray_tests                  # promo_ns.numpy, promo_ns.torch, array_api_strict
    python -m conformance.marray_tests --target promo_ns.numpy --target array_api_strict -- -k sum

(``--suite PATH`` takes another copy of ``test_marray.py``, e.g. from a clone.)
The suite parametrizes every test over a module-level list ``xps`` of namespaces
(NumPy, array-api-strict, array-api-compat's torch). This runner copies the
suite into a temporary folder and runs it once per ``--target``, in a pytest
process of its own, with ``xps`` holding that target alone (this module is the
plugin that swaps it, ``-p conformance.marray_tests``), under marray's own pytest
settings (warnings are errors but for NumPy's floating-point ones). Test ids
name the namespace (``test_sum[promo_ns.numpy-int8-...]``); the comparison
replaces the name by ``XP``.

A test the suite passes on ``array_api_strict`` must pass on every promo_ns target
unless ``conformance/xfails/marray.txt`` lists it, with its reason: the exit
status is 1 otherwise (a test the suite skips here is no failure). The summary
(``marray-tests.md`` and ``.json``) goes to ``--out`` (default:
``promo_ns-marray-tests`` in the system's temporary folder), with every test's
outcome (``marray-tests-outcomes.json``, which ``--outcomes`` turns into the
summary again without running anything); ``--write-docs`` writes the summary
into ``docs/conformance/``. The suite draws its data afresh in every run, so a
few outcomes differ between runs. ``--no-backend-skips`` turns off the suite's
``pass_backend``, which skips or expects to fail many tests on a namespace
whose name has "torch" in it (written for array-api-compat's torch).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from conformance.array_api_tests import Xfail, read_xfails

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "conformance"
DEFAULT_OUT = Path(tempfile.gettempdir()) / "promo_ns-marray-tests"
#: The reference every promo_ns target is held to.
REFERENCE = "array_api_strict"
DEFAULT_TARGETS = ("promo_ns.numpy", "promo_ns.torch", REFERENCE)
#: Expected differences from the reference: ``<test id with XP>  # <reason>`` per line.
DIFFERENCES = ROOT / "conformance" / "xfails" / "marray.txt"
#: marray's own ``[tool.pytest.ini_options]`` (its pyproject.toml), which the wheel does not carry.
PYTEST_INI = """\
[pytest]
filterwarnings =
    error
    ignore:invalid value encountered:RuntimeWarning
    ignore:divide by zero encountered:RuntimeWarning
    ignore:overflow encountered:RuntimeWarning
"""
#: The environment variables through which the runner tells the plugin what to do.
TARGET_ENV = "PROMO_NS_MARRAY_TARGET"
RESULTS_ENV = "PROMO_NS_MARRAY_RESULTS"
NO_BACKEND_SKIPS_ENV = "PROMO_NS_MARRAY_NO_BACKEND_SKIPS"
OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped")


def load_target(name: str) -> Any:
    """The namespace ``name`` says: an importable module, or ``promo_ns.<backend>[:policy]``.

    Parameters
    ----------
    name
        ``array_api_strict``, ``numpy``, ``array_api_compat.torch``, ``promo_ns.numpy``,
        ``promo_ns.torch:pytorch``, ...
    """
    module, _, policy = name.partition(":")
    if module.startswith("promo_ns.") and policy:
        import promo_ns

        return promo_ns.namespace(module.removeprefix("promo_ns."), policy=policy)
    return importlib.import_module(module)


def target_id(name: str) -> str:
    """The id pytest gives namespace ``name`` in the suite's test ids (its ``__name__``)."""
    return str(load_target(name).__name__)


# --- the plugin, in the suite's processes (xdist workers too) --------------------------------------

_results: dict[str, dict[str, str]] = {}


def pytest_pycollect_makeitem(collector: Any, name: str, obj: Any) -> None:
    """Put the target alone into the suite's ``xps`` before its tests are parametrized over it."""
    module = getattr(collector, "obj", None)
    xps = getattr(module, "xps", None)
    target = os.environ.get(TARGET_ENV)
    if target and isinstance(xps, list) and not getattr(module, "_promo_ns_target", False):
        xps[:] = [load_target(target)]  # the parametrize marks hold this very list
        module._promo_ns_target = True  # type: ignore[union-attr]
        if os.environ.get(NO_BACKEND_SKIPS_ENV) and hasattr(module, "pass_backend"):
            module.pass_backend = _run_anyway  # type: ignore[union-attr]


def _run_anyway(**kwargs: Any) -> None:
    """The suite's ``pass_backend`` (skip or xfail where the namespace's name has, e.g., "torch"): no-op."""


def _message(report: Any) -> str:
    """The first line of what a report says: the root exception of a failure, a skip's or xfail's reason."""
    if getattr(report, "wasxfail", None) is not None and report.skipped:
        text = str(report.wasxfail)
    elif report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2])
    else:
        # the suite raises AssertionError(seed) from the error it met: that error is the one before last
        chain = getattr(report.longrepr, "chain", None) or []
        crash = chain[max(len(chain) - 2, 0)][1] if chain else getattr(report.longrepr, "reprcrash", None)
        text = str(getattr(crash, "message", "") or report.longreprtext)
    lines = text.strip().splitlines()
    return lines[0][:240] if lines else ""


def pytest_runtest_logreport(report: Any) -> None:
    """Record each test's outcome (the controller's copy of the reports, under xdist)."""
    if report.when != "call" and not (report.failed or report.skipped):
        return
    if getattr(report, "wasxfail", None) is not None:
        outcome = "xfailed" if report.skipped else "xpassed"
    else:
        outcome = report.outcome
    if report.nodeid in _results and _results[report.nodeid]["outcome"] == "failed":
        return  # a teardown after a failed call keeps the call's report
    _results[report.nodeid] = {"outcome": outcome, "message": "" if outcome == "passed" else _message(report)}


def pytest_sessionfinish(session: Any) -> None:
    """Write the outcomes where the runner reads them (in the controller, not in xdist's workers)."""
    path = os.environ.get(RESULTS_ENV)
    if path and not hasattr(session.config, "workerinput"):
        Path(path).write_text(json.dumps(_results, indent=0, sort_keys=True))


# --- the runner ----------------------------------------------------------------------------------


def generic(nodeid: str, xp_id: str) -> str:
    """``nodeid`` with the namespace's id replaced by ``XP`` (the same test on every target)."""
    return re.sub(rf"(?<=[\[-]){re.escape(xp_id)}(?=[-\]])", "XP", nodeid, count=1)


def _covered(test: str, differences: Iterable[Xfail]) -> Xfail | None:
    for d in differences:
        if test == d.test or test.startswith(d.test):
            return d
    return None


def find_suite(path: str | None) -> Path:
    """``test_marray.py``: ``path`` (the file or a marray checkout), else the installed marray's.

    Raises
    ------
    SystemExit
        No suite there, or marray is not installed.
    """
    if path:
        given = Path(path).expanduser().resolve()
        for candidate in (given, given / "marray" / "tests" / "test_marray.py", given / "test_marray.py"):
            if candidate.is_file():
                return candidate
        raise SystemExit(f"{given} holds no marray test suite (marray/tests/test_marray.py)")
    spec = importlib.util.find_spec("marray")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("marray is not installed: pip install marray (its wheel carries its tests)")
    suite = Path(next(iter(spec.submodule_search_locations))) / "tests" / "test_marray.py"
    if not suite.is_file():
        raise SystemExit(f"the installed marray has no {suite}; pass --suite PATH")
    return suite


def run_target(
    suite: Path, target: str, jobs: int, pytest_args: Sequence[str], *, backend_skips: bool = True
) -> dict[str, dict[str, str]]:
    """Run the suite on ``target`` alone; its outcomes by generic test id.

    ``backend_skips`` False turns the suite's ``pass_backend`` off: the tests it skips or expects
    to fail for a namespace whose name has "torch" in it (array-api-compat's torch) run.
    """
    xp_id = target_id(target)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(suite, Path(tmp, "test_marray.py"))
        Path(tmp, "pytest.ini").write_text(PYTEST_INI)
        results = Path(tmp, "results.json")
        command = [
            sys.executable,
            "-m",
            "pytest",
            "test_marray.py",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "conformance.marray_tests",
            *(["-n", str(jobs)] if jobs > 1 else []),
            *pytest_args,
        ]
        env = {**os.environ, TARGET_ENV: target, RESULTS_ENV: str(results)}
        if not backend_skips:
            env[NO_BACKEND_SKIPS_ENV] = "1"
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        print(f"{TARGET_ENV}={target} {' '.join(command)}", flush=True)
        subprocess.run(command, cwd=tmp, env=env, check=False, stdout=subprocess.DEVNULL)
        if not results.exists():
            raise SystemExit(f"the suite wrote no results on {target}; run it by hand to see why")
        raw: dict[str, dict[str, str]] = json.loads(results.read_text())
    return {generic(k, xp_id): v for k, v in raw.items()}


def _function(test: str) -> str:
    return test.split("::", 1)[-1].split("[", 1)[0]


#: Dtype names and numbers in a message, which :func:`_kind` writes as ``T`` and ``N``.
_DTYPE_NAMES = re.compile(r"\b(bool|u?int\d+|b?float\d+|complex\d+)\b")
_NUMBERS = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(e-?\d+)?\b")


_REFUSAL = re.compile(r"PromotionError: policy '([^']+)' refuses (\w+)\(")


def _kind(message: str) -> str:
    """What ``message`` says, whatever the dtypes, numbers and op: a policy's refusal, or its first words."""
    refused = _REFUSAL.search(message)
    if refused:
        return f"PromotionError: policy {refused.group(1)!r} refuses the op for these dtypes"
    return _NUMBERS.sub("N", _DTYPE_NAMES.sub("T", message))[:140]


def _message_groups(rows: Iterable[dict[str, Any]], key: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """``rows`` grouped by ``row[key]``, the largest group first."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(str(r[key]), []).append(r)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def summarized(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` in groups of one kind of message (:func:`_kind`).

    Each group: how many tests, the reference's outcomes on them, one of them, and the ops a
    policy refused in them.
    """
    return [
        {
            "count": len(group),
            "reference": dict(Counter(r["reference"] for r in group)),
            "example": group[0]["test"],
            "message": kind,
            "ops": sorted({m.group(2) for r in group if (m := _REFUSAL.search(r["message"]))}),
        }
        for kind, group in _message_groups([{**r, "kind": _kind(r["message"])} for r in rows], "kind")
    ]


def compare(outcomes: dict[str, dict[str, dict[str, str]]], differences: Sequence[Xfail]) -> dict[str, Any]:
    """Counts per target, and per promo_ns target how its outcomes differ from the reference's.

    ``regressions``: tests that fail here and pass on the reference, each with the reason
    :data:`DIFFERENCES` gives for it (None: unexpected); ``not_run``: tests the reference passes
    that the suite skips or expects to fail here (its own choices, e.g. for every namespace whose
    name has "torch" in it); ``other_failures``: tests that fail here that the reference does not
    pass either (it skips them, or raises an error the suite expects: an xfail).
    """
    report: dict[str, Any] = {"totals": {}, "regressions": {}, "not_run": {}, "other_failures": {}}
    reference = outcomes.get(REFERENCE, {})
    for target, tests in outcomes.items():
        report["totals"][target] = dict(Counter(t["outcome"] for t in tests.values()))
        if target == REFERENCE or not reference:
            continue
        there = {test: reference.get(test, {}).get("outcome", "missing") for test in tests}
        rows = [{"test": test, "reference": there[test], **result} for test, result in sorted(tests.items())]
        report["regressions"][target] = [
            {**r, "expected": covered.reason if (covered := _covered(r["test"], differences)) else None}
            for r in rows
            if r["outcome"] == "failed" and r["reference"] == "passed"
        ]
        report["not_run"][target] = summarized(
            [r for r in rows if r["outcome"] in ("skipped", "xfailed") and r["reference"] == "passed"]
        )
        report["other_failures"][target] = summarized(
            [r for r in rows if r["outcome"] == "failed" and r["reference"] != "passed"]
        )
    return report


def to_markdown(report: dict[str, Any], settings: dict[str, str]) -> str:
    """The comparison as a Markdown page."""
    lines = [
        "# marray's test suite on promo_ns",
        "",
        "Generated by `python -m conformance.marray_tests`; do not edit by hand.",
        "",
        *(f"- {k}: `{v}`" for k, v in settings.items()),
        "",
        "| namespace | "
        + " | ".join(OUTCOMES)
        + " | failed here, passed on the reference | of which expected | passed there, not run here |",
        "|---|" + "---:|" * (len(OUTCOMES) + 3),
    ]
    for target, totals in report["totals"].items():
        rows = report["regressions"].get(target)
        extra = (
            ["-", "-", "-"]
            if rows is None
            else [
                str(len(rows)),
                str(sum(1 for r in rows if r["expected"])),
                str(sum(g["count"] for g in report["not_run"][target])),
            ]
        )
        lines.append(
            f"| `{target}` | " + " | ".join([*(str(totals.get(o, 0)) for o in OUTCOMES), *extra]) + " |"
        )
    for target, rows in report["regressions"].items():
        if not rows:
            continue
        lines += ["", f"## `{target}`: failed here, passed on `{REFERENCE}`", ""]
        for reason, group in _message_groups(
            [{**r, "why": r["expected"] or "NOT EXPECTED"} for r in rows], "why"
        ):
            shown = reason.replace("*", "\\*")  # (x *= y in a reason is no emphasis)
            lines.append(f"- **{shown}** ({len(group)}):")
            lines.append("")
            lines += [f"    - `{r['test']}`: {r['message']}" for r in group[:6]]
            if len(group) > 6:
                lines.append(f"    - ... and {len(group) - 6} more")
    for title, key in (
        ("passed on `{ref}`, skipped or an expected failure here (the suite's choice)", "not_run"),
        ("failed here, not passed on `{ref}` either (it skips them, or expects its error)", "other_failures"),
    ):
        for target, groups in report[key].items():
            if not groups:
                continue
            lines += ["", f"## `{target}`: {title.format(ref=REFERENCE)}", ""]
            lines += ["| tests | there | e.g. | message (T: a dtype, N: a number) |", "|---:|---|---|---|"]
            for g in groups:
                there = ", ".join(f"{n} {o}" for o, n in g["reference"].items())
                message = g["message"].replace("|", "\\|").replace("*", "\\*")
                if g["ops"]:
                    message += f" ({', '.join(g['ops'])})"
                lines.append(f"| {g['count']} | {there} | `{g['example']}` | {message} |")
    return "\n".join(lines) + "\n"


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for dist in ("marray", "array-api-strict", "numpy", "torch"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = "not installed"
    return out


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(
        prog="python -m conformance.marray_tests",
        description="Run marray's test suite on promo_ns namespaces and array-api-strict, and compare.",
    )
    p.add_argument("--suite", help="test_marray.py or a marray checkout (default: the installed marray's)")
    p.add_argument(
        "--target",
        action="append",
        help="a namespace to run the suite on (repeatable): promo_ns.numpy, promo_ns.torch[:POLICY], "
        f"array_api_strict, numpy, ... (default: {', '.join(DEFAULT_TARGETS)})",
    )
    p.add_argument("--jobs", "-j", type=int, default=1, help="pytest-xdist workers (default 1)")
    p.add_argument(
        "--no-backend-skips",
        action="store_true",
        help="run the tests the suite skips or expects to fail by the namespace's name (its pass_backend: "
        "every promo_ns.torch test it leaves out for array-api-compat's torch)",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", metavar="DIR", help=f"where the summary goes (default: {DEFAULT_OUT})")
    where.add_argument("--write-docs", action="store_true", help="write the summary into docs/conformance/")
    p.add_argument(
        "--outcomes",
        metavar="FILE",
        help="write the summary from the outcomes a run stored (marray-tests-outcomes.json), running nothing",
    )
    p.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m conformance.marray_tests``."""
    args = parser().parse_args(argv)
    suite = find_suite(args.suite)
    targets = list(dict.fromkeys(args.target or DEFAULT_TARGETS))
    if REFERENCE not in targets:
        targets.append(REFERENCE)
    out_dir = DOCS if args.write_docs else Path(args.out).expanduser() if args.out else DEFAULT_OUT
    # every test's outcome, which --outcomes reads back: next to the summary, but never into docs/
    raw = (DEFAULT_OUT if args.write_docs else out_dir) / "marray-tests-outcomes.json"
    if args.outcomes:
        raw = Path(args.outcomes).expanduser()
        outcomes = json.loads(raw.read_text())
    else:
        outcomes = {
            t: run_target(suite, t, args.jobs, args.pytest_args, backend_skips=not args.no_backend_skips)
            for t in targets
        }
        raw.parent.mkdir(parents=True, exist_ok=True)
        raw.write_text(json.dumps(outcomes, indent=0, sort_keys=True) + "\n")
    report = compare(outcomes, read_xfails(DIFFERENCES))
    settings = {"suite": suite.name, **_versions()}
    if args.pytest_args:
        settings["pytest arguments"] = " ".join(args.pytest_args)
    if args.no_backend_skips:
        settings["the suite's pass_backend"] = "off (--no-backend-skips)"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "marray-tests.json").write_text(json.dumps({"settings": settings, **report}, indent=1) + "\n")
    (out_dir / "marray-tests.md").write_text(to_markdown(report, settings))
    unexpected = 0
    for target, totals in report["totals"].items():
        rows = report["regressions"].get(target, [])
        bad = sum(1 for r in rows if not r["expected"])
        unexpected += bad
        print(f"{target}: {totals}; failed here, passed on {REFERENCE}: {len(rows)} ({bad} not expected)")
    print(f"wrote {out_dir / 'marray-tests.md'} and .json; every test's outcome: {raw}")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
