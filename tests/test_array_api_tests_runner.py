"""The array-api-tests runner: finding the suite, expected failures, the summary.

The suite itself is not a dependency: the end-to-end test runs only where
``ARRAY_API_TESTS_SUITE`` points at a checkout (see conformance/array_api_tests.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance import array_api_tests as runner

#: The suite's expected failures per backend (marray.txt lists marray's own tests, for marray_tests.py).
XFAILS = sorted(p for p in (runner.ROOT / "conformance" / "xfails").glob("*.txt") if p.stem != "marray")


def test_a_missing_suite_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ARRAY_API_TESTS_SUITE", raising=False)
    with pytest.raises(runner.SuiteMissing, match=r"git clone https://github\.com/data-apis/array-api-tests"):
        runner.find_suite(None)
    with pytest.raises(runner.SuiteMissing, match="is not an array-api-tests checkout"):
        runner.find_suite(str(tmp_path))
    (tmp_path / "array_api_tests").mkdir()
    with pytest.raises(runner.SuiteMissing, match="git submodule update --init"):
        runner.find_suite(str(tmp_path))
    (tmp_path / "array-api" / "spec").mkdir(parents=True)
    monkeypatch.setenv("ARRAY_API_TESTS_SUITE", str(tmp_path))
    assert runner.find_suite(None) == tmp_path.resolve()


def test_the_command_exits_with_the_message_when_the_suite_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ARRAY_API_TESTS_SUITE", raising=False)
    with pytest.raises(SystemExit) as exc:
        runner.main(["--backend", "numpy"])
    assert "no array-api-tests suite given" in str(exc.value.code)


def test_every_expected_failure_has_a_reason(tmp_path: Path) -> None:
    bad = tmp_path / "x.txt"
    bad.write_text("# comment\n\narray_api_tests/test_a.py::test_b\n")
    with pytest.raises(ValueError, match=r"x.txt:3: every expected failure needs a reason"):
        runner.read_xfails(bad)
    assert runner.read_xfails(tmp_path / "absent.txt") == []


@pytest.mark.parametrize("path", XFAILS, ids=[p.stem for p in XFAILS])
def test_shipped_xfails_parse_and_name_suite_tests(path: Path) -> None:
    xfails = runner.read_xfails(path)
    assert xfails, f"{path} lists nothing"
    assert all(x.test.startswith("array_api_tests/test_") for x in xfails)
    assert len({x.test for x in xfails}) == len(xfails), "duplicate lines"
    # None of them may be about promotion or operators' dtypes: those are promo_ns's job.
    assert not [x for x in xfails if "promot" in x.reason.lower() or "dtype" in x.reason.lower()]


def _report() -> dict[str, object]:
    def test(nodeid: str, outcome: str, message: str = "") -> dict[str, object]:
        return {
            "nodeid": nodeid,
            "outcome": outcome,
            "call": {"crash": {"message": message}} if message else {},
        }

    return {
        "tests": [
            test("array_api_tests/test_a.py::test_x", "passed"),
            test("array_api_tests/test_a.py::test_y[1]", "failed", "AssertionError: 1 != 2\nmore"),
            test("array_api_tests/test_b.py::test_z[p]", "xfailed"),
            test("array_api_tests/test_b.py::test_w", "xpassed"),
            test("array_api_tests/test_b.py::test_s", "skipped"),
        ]
    }


def test_summary_counts_per_file_and_lists_failures() -> None:
    xfails = [runner.Xfail("array_api_tests/test_b.py::test_z", "NumPy numerics")]
    s = runner.summarize(
        _report(), xfails, module="m", backend="numpy", settings={"max examples": 20}, versions={}
    )
    assert s.per_file["test_a.py"] == {"passed": 1, "failed": 1}
    assert s.totals == {"passed": 1, "failed": 1, "xfailed": 1, "xpassed": 1, "skipped": 1}
    assert s.failures == [("array_api_tests/test_a.py::test_y[1]", "AssertionError: 1 != 2")]
    assert s.xfailed == [("array_api_tests/test_b.py::test_z[p]", "NumPy numerics")]
    assert s.xpassed == ["array_api_tests/test_b.py::test_w"]
    page = s.to_markdown()
    assert "| test_a.py | 1 | 1 | 0 | 0 | 0 | 0 |" in page
    assert "| **total** | 1 | 1 | 1 | 1 | 1 | 0 |" in page
    assert "## Unexpected failures" in page and "NumPy numerics" in page
    data = json.loads(json.dumps(s.to_json()))
    assert data["totals"]["failed"] == 1 and data["settings"] == {"max examples": 20}


def test_a_test_file_that_does_not_import_is_a_failure() -> None:
    # pytest-json-report lists it among the collectors, not the tests: a missing dependency of the
    # suite (ndindex) must not read as a clean run of the files that did import
    report = {
        **_report(),
        "collectors": [
            {"nodeid": "array_api_tests/test_a.py", "outcome": "passed", "longrepr": ""},
            {
                "nodeid": "array_api_tests/test_c.py",
                "outcome": "failed",
                "longrepr": "Traceback:\n...\nE   ModuleNotFoundError: No module named 'ndindex'\n",
            },
        ],
    }
    s = runner.summarize(report, [], module="m", backend="numpy", settings={}, versions={})
    assert s.per_file["test_c.py"] == {"error": 1}
    assert s.totals["error"] == 1
    why = "not collected: E   ModuleNotFoundError: No module named 'ndindex'"
    assert ("array_api_tests/test_c.py", why) in s.failures


def test_the_summary_goes_outside_docs_unless_asked() -> None:
    parse = runner.parser().parse_args
    default = runner.output_dir(parse(["--backend", "numpy"]))
    assert default == runner.DEFAULT_OUT and runner.ROOT / "docs" not in default.parents
    assert runner.output_dir(parse(["--backend", "numpy", "--out", "here"])) == Path("here")
    assert (
        runner.output_dir(parse(["--backend", "numpy", "--write-docs"]))
        == runner.ROOT / "docs" / "conformance"
    )
    with pytest.raises(SystemExit):
        parse(["--backend", "numpy", "--out", "here", "--write-docs"])
    assert str(runner.DEFAULT_OUT) in runner.parser().format_help()


@pytest.fixture
def fake_suite(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A suite checkout whose pytest run only writes :func:`_report`, and a docs folder in ``tmp_path``."""
    suite = tmp_path / "suite"
    (suite / "array_api_tests").mkdir(parents=True)
    (suite / "array-api" / "spec").mkdir(parents=True)

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        for arg in command:
            if arg.startswith("--json-report-file="):
                Path(arg.split("=", 1)[1]).write_text(json.dumps(_report()))
        return subprocess.CompletedProcess(command, 0, stdout=f"{runner.SUITE_COMMIT}\n", stderr="")

    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setattr(runner, "DOCS", tmp_path / "docs")
    monkeypatch.setattr(runner, "DEFAULT_OUT", tmp_path / "default")
    return suite


def test_a_plain_run_writes_into_the_default_folder_and_says_where(
    fake_suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.main(["--suite", str(fake_suite), "--backend", "numpy"]) == 1  # one unexpected failure
    written = sorted(p.name for p in (tmp_path / "default").iterdir())
    assert written == ["array-api-tests-numpy.json", "array-api-tests-numpy.md"]
    assert not (tmp_path / "docs").exists()
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / 'default' / 'array-api-tests-numpy'}.md and array-api-tests-numpy.json" in out
    assert "--write-docs writes them into docs/conformance/" in out


def test_out_and_write_docs_choose_the_folder(fake_suite: Path, tmp_path: Path) -> None:
    runner.main(
        ["--suite", str(fake_suite), "--backend", "torch", "--module", "compat", "--out", str(tmp_path / "o")]
    )
    assert (tmp_path / "o" / "array-api-tests-torch-compat.md").exists()
    runner.main(["--suite", str(fake_suite), "--backend", "numpy", "--write-docs"])
    assert sorted(p.name for p in (tmp_path / "docs").iterdir()) == [
        "array-api-tests-numpy.json",
        "array-api-tests-numpy.md",
    ]
    assert not (tmp_path / "default").exists()


def test_the_suite_runs_with_the_recorded_settings(
    fake_suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARRAY_API_TESTS_VERSION", raising=False)
    calls: list[tuple[list[str], dict[str, str]]] = []
    fake = subprocess.run

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        calls.append((command, kwargs.get("env") or {}))
        return fake(command, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    runner.main(["--suite", str(fake_suite), "--backend", "numpy", "--out", str(tmp_path / "o")])
    (command, env), *_ = [c for c in calls if "pytest" in c[0]]
    assert {"--max-examples=20", "--derandomize", "--disable-deadline"} <= set(command)
    assert env["ARRAY_API_TESTS_MODULE"] == "promo_ns.numpy" and env["ARRAY_API_TESTS_SKIP_DTYPES"] == ""
    settings = json.loads((tmp_path / "o" / "array-api-tests-numpy.json").read_text())["settings"]
    assert settings["api version"] == "2025.12" and settings["deadline"] == "none"
    assert settings["skipped dtypes"] == "none"


def test_the_version_is_the_declared_one_unless_the_suite_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARRAY_API_TESTS_VERSION", raising=False)
    assert runner.api_version("promo_ns.numpy") == "2025.12"
    assert runner.api_version("no_such_module_here") == "unknown"
    monkeypatch.setenv("ARRAY_API_TESTS_VERSION", "2024.12")
    assert runner.api_version("promo_ns.numpy") == "2024.12"


def test_dtypes_are_skipped_per_module_and_backend() -> None:
    # array-api-compat cannot compute torch's uint16/32/64; promo_ns runs the suite with every dtype.
    assert runner.skipped_dtypes("compat", "torch") == ("uint16", "uint32", "uint64")
    assert runner.skipped_dtypes("promo_ns", "torch") == runner.skipped_dtypes("promo_ns", "numpy") == ()
    assert runner.skipped_dtypes("strict", "numpy") == ()


def test_what_the_suite_tests_per_module_and_backend() -> None:
    assert runner.module_name("promo_ns", "dask") == "promo_ns.dask"
    assert runner.module_name("compat", "dask") == "array_api_compat.dask.array"  # the namespace
    assert runner.module_name("compat", "torch") == "array_api_compat.torch"
    assert runner.module_name("promo_ns", "jax") == "promo_ns.jax"
    assert runner.module_name("native", "jax") == "jax.numpy"
    with pytest.raises(SystemExit, match=r"no jax module: jax\.numpy is an Array API namespace itself"):
        runner.module_name("compat", "jax")
    with pytest.raises(SystemExit, match="not on numpy"):
        runner.module_name("native", "numpy")
    # Only promo_ns's Dask namespace is imported through code: the others by name.
    assert runner.suite_module("compat", "dask") == "array_api_compat.dask.array"
    assert runner.suite_module("promo_ns", "jax") == "promo_ns.jax"
    assert runner.suite_module("promo_ns", "dask").startswith("exec('")
    assert runner.backend_env("jax") == {"JAX_ENABLE_X64": "1"} and runner.backend_env("dask") == {}


def test_the_dask_setup_binds_promo_ns_dask_with_computing_conversions() -> None:
    pytest.importorskip("dask")
    given = runner.suite_module("promo_ns", "dask")
    # What the suite does with ARRAY_API_TESTS_MODULE="exec('...')" (array_api_tests/__init__.py),
    # in a process of its own: the switch is process-wide.
    assert given.startswith("exec('") and given.endswith("')") and "'" not in given[6:-2]
    check = f"{given[6:-2]}\nprint(xp.__name__, float(xp.asarray([2.5])[0]), bool(xp.asarray(1)))"
    out = subprocess.run(
        [sys.executable, "-c", check], cwd=runner.ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["promo_ns.dask", "2.5", "True"]


@pytest.mark.parametrize(
    ("backend", "module", "imported", "environment"),
    [
        ("dask", "promo_ns", "exec('from promo_ns.backends import dask;", None),
        ("dask", "compat", "array_api_compat.dask.array", None),
        ("jax", "promo_ns", "promo_ns.jax", "JAX_ENABLE_X64=1"),
        ("jax", "native", "jax.numpy", "JAX_ENABLE_X64=1"),
    ],
)
def test_dask_and_jax_runs_import_and_record_what_they_ran_with(
    fake_suite: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    backend: str,
    module: str,
    imported: str,
    environment: str | None,
) -> None:
    monkeypatch.delenv("ARRAY_API_TESTS_VERSION", raising=False)
    calls: list[dict[str, str]] = []
    fake = subprocess.run

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        if "pytest" in command:
            calls.append(kwargs.get("env") or {})
        return fake(command, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setattr(runner, "api_version", lambda module: "2025.12")  # imports nothing here
    runner.main(
        ["--suite", str(fake_suite), "--backend", backend, "--module", module, "--out", str(tmp_path)]
    )
    (env,) = calls
    assert env["ARRAY_API_TESTS_MODULE"].startswith(imported)
    assert env.get("JAX_ENABLE_X64") == ("1" if backend == "jax" else os.environ.get("JAX_ENABLE_X64"))
    stem = f"array-api-tests-{backend}" + ("" if module == "promo_ns" else f"-{module}")
    data = json.loads((tmp_path / f"{stem}.json").read_text())
    assert data["module"] == runner.module_name(module, backend)
    assert data["settings"].get("environment") == environment
    assert ("imported as" in data["settings"]) == (backend == "dask" and module == "promo_ns")


@pytest.mark.skipif(
    not os.environ.get("ARRAY_API_TESTS_SUITE"),
    reason="no array-api-tests checkout: set ARRAY_API_TESTS_SUITE (see conformance/array_api_tests.py)",
)
@pytest.mark.parametrize("backend", ["numpy", "dask", "jax"])
def test_runs_the_suite_on_a_slice(tmp_path: Path, backend: str) -> None:
    # On Dask the suite reads values with int()/float() (the setup makes them compute); on JAX
    # test_add takes int64 arrays (JAX_ENABLE_X64 in the suite's environment).
    pytest.importorskip(backend)
    code = runner.main(
        [
            "--backend",
            backend,
            "--out",
            str(tmp_path),
            "--max-examples",
            "5",
            "--",
            "-k",
            "test_add or test_result_type or test_take",
        ]
    )
    data = json.loads((tmp_path / f"array-api-tests-{backend}.json").read_text())
    assert code == 0, data["failures"]
    assert data["totals"]["passed"] > 5
