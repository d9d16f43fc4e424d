"""Run the official array-api-tests suite against a promo_ns namespace and summarize it.

The suite is not a package on the registry and is never committed here. Get it with::

    git clone https://github.com/data-apis/array-api-tests ~/array-api-tests
    cd ~/array-api-tests && git checkout 55fcc601 && git submodule update --init
    pip install -r requirements.txt

then run::

    python -m conformance.array_api_tests --suite ~/array-api-tests --backend numpy

(or set ``ARRAY_API_TESTS_SUITE`` instead of ``--suite``). It runs the suite
against ``promo_ns.<backend>`` (policy ``array-api``) at the standard's version
the namespace declares, with fixed hypothesis settings (``--max-examples``,
derandomized, no deadline: timings on a shared machine are no conformance
question), leaves out the dtypes :data:`SKIP_DTYPES` names, marks the tests
listed in ``conformance/xfails/<backend>.txt`` as expected failures and writes
``array-api-tests-<backend>.md`` and ``.json`` into the folder ``--out`` names
(default: ``promo_ns-array-api-tests`` in the system's temporary folder), and
prints where. Only ``--write-docs`` writes them into ``docs/conformance/``
instead, over the committed pages.
``--module compat`` or ``--module strict`` runs the same suite against
``array_api_compat.<backend>`` (``array_api_compat.dask.array`` on Dask) or
``array_api_strict`` with the same settings
(no xfails), for comparison. The exit status is 0 when every failure is an
expected one.

Dask and JAX::

    python -m conformance.array_api_tests --backend dask
    python -m conformance.array_api_tests --backend dask --module compat
    python -m conformance.array_api_tests --backend jax
    python -m conformance.array_api_tests --backend jax --module native

The suite reads values with ``bool()``, ``int()`` and ``float()``, which
compute the graph of promo_ns's lazy Dask arrays, as Dask's own arrays (and so
``array_api_compat.dask.array``) do. On ``--backend dask`` the runner imports
``promo_ns.dask`` in the suite's process after
:func:`promo_ns.backends.dask.compute_conversions` ``(True)``, so that a
setting turned off elsewhere does not apply there. On ``--backend jax`` the suite runs with
``JAX_ENABLE_X64=1`` (promo_ns's default integers are int64, and JAX has no
64-bit dtypes without it). array-api-compat has no JAX module: ``jax.numpy``
is an Array API namespace itself, and ``--module native`` runs the suite on
it, at the version it declares, for comparison.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The suite commit (and its ``array-api`` submodule commit) these xfails were made on.
SUITE_COMMIT = "55fcc60179efa2680ddd6cd926ddf17b83530e2b"
SPEC_COMMIT = "5f847a3858875c682ae901aa22b0413bf24be9da"
ROOT = Path(__file__).resolve().parents[1]
#: Where ``--write-docs`` puts the summaries: the committed pages.
DOCS = ROOT / "docs" / "conformance"
#: Where the summaries go unless ``--out`` or ``--write-docs`` says otherwise: outside the checkout.
DEFAULT_OUT = Path(tempfile.gettempdir()) / "promo_ns-array-api-tests"
MODULES = {
    "promo_ns": "promo_ns.{backend}",
    "compat": "array_api_compat.{backend}",
    "strict": "array_api_strict",
    "native": "{native}",
}
#: array-api-compat's namespace for a backend where it is not ``array_api_compat.<backend>``.
COMPAT = {"dask": "array_api_compat.dask.array"}
#: The backend libraries that are Array API namespaces themselves (``--module native``).
NATIVE = {"jax": "jax.numpy"}
#: The backends array-api-compat has no module for (``--module compat`` refuses them).
NO_COMPAT = {"jax": "jax.numpy is an Array API namespace itself: run --module native"}
#: What the suite imports instead of the module's name, per module tested and backend: Python
#: run in the suite's process (its ``exec('...')`` form) that binds ``xp``. promo_ns's Dask
#: arrays compute for ``bool()``/``int()``/``float()`` there, which the suite reads values with.
SETUP: dict[str, dict[str, str]] = {
    "promo_ns": {
        "dask": (
            "from promo_ns.backends import dask; dask.compute_conversions(True); import promo_ns.dask as xp"
        ),
    },
}
#: Environment the suite runs with, per backend: JAX's 64-bit dtypes (promo_ns's default ints are int64).
BACKEND_ENV: dict[str, dict[str, str]] = {"jax": {"JAX_ENABLE_X64": "1"}}
#: Dtypes the suite leaves out (``ARRAY_API_TESTS_SKIP_DTYPES``), per module tested and backend:
#: torch stores and casts uint16/32/64 but has no CPU kernels for most ops on them, so
#: array-api-compat cannot compute them (its own CI skips them too). promo_ns computes them
#: exactly (promo_ns/backends/_torch_unsigned.py) and runs the suite with every dtype.
SKIP_DTYPES: dict[str, dict[str, tuple[str, ...]]] = {
    "compat": {"torch": ("uint16", "uint32", "uint64")},
}
HOW_TO_GET = f"""\
Get the suite (it is not on the package registry) with:
    git clone https://github.com/data-apis/array-api-tests PATH
    cd PATH && git checkout {SUITE_COMMIT[:8]} && git submodule update --init
    pip install -r requirements.txt
and pass --suite PATH or set ARRAY_API_TESTS_SUITE=PATH."""


class SuiteMissing(SystemExit):
    """The suite path is not given or is not an array-api-tests checkout."""


def find_suite(path: str | None) -> Path:
    """The suite checkout from ``--suite`` or ``ARRAY_API_TESTS_SUITE``.

    Raises
    ------
    SuiteMissing
        Neither is set, or the path holds no ``array_api_tests`` package or no
        ``array-api`` submodule checkout; the message says how to get the suite.
    """
    given = path or os.environ.get("ARRAY_API_TESTS_SUITE")
    if not given:
        raise SuiteMissing(f"no array-api-tests suite given.\n{HOW_TO_GET}")
    suite = Path(given).expanduser().resolve()
    if not (suite / "array_api_tests").is_dir():
        raise SuiteMissing(f"{suite} is not an array-api-tests checkout.\n{HOW_TO_GET}")
    if not (suite / "array-api" / "spec").is_dir():
        raise SuiteMissing(
            f"{suite} has no array-api submodule checked out; run "
            f"`git submodule update --init` in it.\n{HOW_TO_GET}"
        )
    return suite


@dataclass(frozen=True)
class Xfail:
    """One expected failure: a test id (or id prefix) and why it fails."""

    test: str
    reason: str


def read_xfails(path: Path) -> list[Xfail]:
    """Parse an xfails file: ``<test id>  # <reason>`` per line; blank lines and ``#`` lines skipped.

    Raises
    ------
    ValueError
        A line has no reason.
    """
    if not path.exists():
        return []
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        test, sep, reason = line.partition("  # ")
        if not sep or not reason.strip():
            raise ValueError(f"{path}:{n}: every expected failure needs a reason: '<test id>  # <reason>'")
        out.append(Xfail(test.strip(), reason.strip()))
    return out


@dataclass
class Summary:
    """Outcomes of one run, per test file."""

    module: str
    backend: str
    settings: dict[str, Any]
    versions: dict[str, str]
    per_file: dict[str, Counter[str]] = field(default_factory=dict)
    failures: list[tuple[str, str]] = field(default_factory=list)
    xfailed: list[tuple[str, str]] = field(default_factory=list)
    xpassed: list[str] = field(default_factory=list)

    @property
    def totals(self) -> Counter[str]:
        """Outcome counts over every file."""
        total: Counter[str] = Counter()
        for c in self.per_file.values():
            total.update(c)
        return total

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return {
            "module": self.module,
            "backend": self.backend,
            "settings": self.settings,
            "versions": self.versions,
            "totals": dict(self.totals),
            "per_file": {f: dict(c) for f, c in sorted(self.per_file.items())},
            "failures": [{"test": t, "message": m} for t, m in self.failures],
            "xfailed": [{"test": t, "reason": r} for t, r in self.xfailed],
            "xpassed": self.xpassed,
        }

    def to_markdown(self) -> str:
        """The summary as a Markdown page."""
        outcomes = ("passed", "failed", "xfailed", "xpassed", "skipped", "error")
        lines = [
            f"# array-api-tests: `{self.module}`",
            "",
            "Generated by `python -m conformance.array_api_tests`; do not edit by hand.",
            "",
            *(f"- {k}: `{v}`" for k, v in {**self.settings, **self.versions}.items()),
            "",
            "| test file | " + " | ".join(outcomes) + " |",
            "|---|" + "---:|" * len(outcomes),
        ]
        rows = [*sorted(self.per_file.items()), ("**total**", self.totals)]
        lines += [f"| {f} | " + " | ".join(str(c.get(o, 0)) for o in outcomes) + " |" for f, c in rows]
        if self.failures:
            lines += ["", "## Unexpected failures", ""]
            lines += [f"- `{t}`: {m}" for t, m in self.failures]
        if self.xfailed:
            lines += ["", "## Expected failures", ""]
            lines += [f"- `{t}`: {r}" for t, r in self.xfailed]
        if self.xpassed:
            lines += ["", "## Expected failures that passed", ""]
            lines += [f"- `{t}`" for t in self.xpassed]
        return "\n".join(lines) + "\n"


def _match(test: str, xfails: Iterable[Xfail]) -> Xfail | None:
    """The xfail entry covering ``test`` (an exact id, a file, or an id without parameters)."""
    for x in xfails:
        if test == x.test or test.split("[", 1)[0] == x.test or test.split("::", 1)[0] == x.test:
            return x
    return None


def summarize(
    report: dict[str, Any],
    xfails: Sequence[Xfail],
    *,
    module: str,
    backend: str,
    settings: dict[str, Any],
    versions: dict[str, str],
) -> Summary:
    """Turn a pytest-json-report document into a :class:`Summary`."""
    summary = Summary(module, backend, settings, versions)
    for test in report.get("tests", []):
        nodeid: str = test["nodeid"]
        outcome: str = test["outcome"]
        expected = _match(nodeid, xfails)
        if outcome == "xfailed" and expected is not None:
            summary.xfailed.append((nodeid, expected.reason))
        elif outcome == "xpassed":
            summary.xpassed.append(nodeid)
        elif outcome in ("failed", "error"):
            summary.failures.append((nodeid, _message(test)))
        file = nodeid.split("::", 1)[0].removeprefix("array_api_tests/")
        summary.per_file.setdefault(file, Counter())[outcome] += 1
    for collector in report.get("collectors", []):  # a test file that did not import: none of it ran
        if collector.get("outcome") == "failed":
            nodeid = collector.get("nodeid") or "(the session)"
            lines = [line for line in str(collector.get("longrepr", "")).splitlines() if line.strip()]
            why = lines[-1].strip()[:200] if lines else "failed"
            summary.failures.append((nodeid, f"not collected: {why}"))
            file = nodeid.split("::", 1)[0].removeprefix("array_api_tests/")
            summary.per_file.setdefault(file, Counter())["error"] += 1
    return summary


def _message(test: dict[str, Any]) -> str:
    for stage in ("call", "setup", "teardown"):
        crash = test.get(stage, {}).get("crash")
        if crash:
            text = str(crash.get("message", "")).strip().splitlines()
            return text[0][:200] if text else "failed"
    return "failed"


def _git_head(path: Path) -> str:
    """The commit ``path`` is checked out at; ``unknown`` where it is no checkout of its own (a copy)."""

    def git(*args: str) -> str:
        out = subprocess.run(["git", *args], cwd=path, capture_output=True, text=True, check=False)
        return out.stdout.strip()

    top = git("rev-parse", "--show-toplevel")
    if not top or Path(top).resolve() != path.resolve():
        return "unknown"
    return git("rev-parse", "HEAD") or "unknown"


def _versions(module: str, backend: str) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    names = {
        "promo_ns": "promo_ns",
        "compat": "array-api-compat",
        "strict": "array-api-strict",
        "native": backend,
    }
    out = {"python": platform.python_version()}
    extra = ["jaxlib"] if backend == "jax" else []
    for dist in dict.fromkeys([names[module], backend, *extra, "hypothesis"]):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            # not installed as itself: run from a checkout (promo_ns), or under another name (cupy-cuda13x)
            imported = sys.modules.get(dist.replace("-", "_")) or _imported(dist.replace("-", "_"))
            out[dist] = getattr(imported, "__version__", "not installed")
    return out


def _imported(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def module_name(module: str, backend: str) -> str:
    """The importable name of what the suite tests: ``module`` (a key of :data:`MODULES`) on ``backend``.

    Parameters
    ----------
    module
        ``promo_ns``, ``compat``, ``strict`` or ``native``.
    backend
        The backend's name (``numpy``, ``dask``, ``jax``, ...).

    Returns
    -------
    str
        ``promo_ns.dask``, ``array_api_compat.torch``, ``array_api_compat.dask.array``, ``jax.numpy``, ...

    Raises
    ------
    SystemExit
        array-api-compat has no module for ``backend``, or ``backend``'s
        library is no Array API namespace itself (``native``).
    """
    if module == "compat" and backend in NO_COMPAT:
        raise SystemExit(f"array-api-compat has no {backend} module: {NO_COMPAT[backend]}")
    if module == "native" and backend not in NATIVE:
        raise SystemExit(
            f"--module native runs the suite on a backend library that is an Array API namespace "
            f"itself ({', '.join(NATIVE)}), not on {backend}"
        )
    if module == "compat" and backend in COMPAT:
        return COMPAT[backend]
    return MODULES[module].format(backend=backend, native=NATIVE.get(backend, ""))


def suite_module(module: str, backend: str) -> str:
    """What ``ARRAY_API_TESTS_MODULE`` says for ``module`` on ``backend``: its name, or :data:`SETUP`'s code.

    Parameters
    ----------
    module
        A key of :data:`MODULES`.
    backend
        The backend's name.

    Returns
    -------
    str
        The module's name, or ``exec('<code binding xp>')``, which the suite runs instead of an import.
    """
    setup = SETUP.get(module, {}).get(backend)
    return f"exec('{setup}')" if setup else module_name(module, backend)


def backend_env(backend: str) -> dict[str, str]:
    """The environment variables the suite runs with on ``backend`` (:data:`BACKEND_ENV`)."""
    return dict(BACKEND_ENV.get(backend, {}))


def skipped_dtypes(module: str, backend: str) -> tuple[str, ...]:
    """The dtypes the suite leaves out when it tests ``module`` (a key of :data:`MODULES`) on ``backend``."""
    return SKIP_DTYPES.get(module, {}).get(backend, ())


def api_version(module: str) -> str:
    """The standard's version the suite tests ``module`` at (its ``api_version``).

    ``ARRAY_API_TESTS_VERSION`` where set, else the module's ``__array_api_version__``,
    else the suite's default, ``2025.12``.

    Parameters
    ----------
    module
        The importable name of the namespace under test (``promo_ns.numpy``).
    """
    given = os.environ.get("ARRAY_API_TESTS_VERSION")
    if given:
        return given
    try:
        declared = getattr(importlib.import_module(module), "__array_api_version__", "2025.12")
    except ImportError:
        return "unknown"
    return str(declared)


def run(args: argparse.Namespace) -> int:
    """Run the suite as ``args`` say, write the summary, and return the exit status."""
    suite = find_suite(args.suite)
    module = module_name(args.module, args.backend)
    imported = suite_module(args.module, args.backend)
    extra_env = backend_env(args.backend)
    xfails = (
        read_xfails(ROOT / "conformance" / "xfails" / f"{args.backend}.txt")
        if args.module == "promo_ns"
        else []
    )
    out_dir = output_dir(args)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"array-api-tests-{args.backend}" + ("" if args.module == "promo_ns" else f"-{args.module}")
    with _environment(extra_env):
        version = api_version(module)
    skipped = ",".join(skipped_dtypes(args.module, args.backend))
    settings = {
        "suite commit": _git_head(suite),
        "array-api commit": _git_head(suite / "array-api"),
        "api version": version,
        "max examples": args.max_examples,
        "derandomize": True,
        "deadline": "none",
        "skipped dtypes": skipped or "none",
    }
    if extra_env:
        settings["environment"] = " ".join(f"{k}={v}" for k, v in extra_env.items())
    if imported != module:
        settings["imported as"] = imported
    if settings["suite commit"] != SUITE_COMMIT:
        print(
            f"note: the suite is at {settings['suite commit'][:8]}; the expected failures were made at "
            f"{SUITE_COMMIT[:8]}",
            file=sys.stderr,
        )
    with tempfile.TemporaryDirectory() as tmp:
        ids = Path(tmp, "xfails.txt")
        ids.write_text("".join(f"{x.test}\n" for x in xfails))
        report = Path(tmp, "report.json")
        command = [
            sys.executable,
            "-m",
            "pytest",
            "array_api_tests",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--max-examples={args.max_examples}",
            "--derandomize",
            "--disable-deadline",
            f"--xfails-file={ids}",
            "--json-report",
            f"--json-report-file={report}",
            *(["-n", str(args.jobs)] if args.jobs > 1 else []),
            *args.pytest_args,
        ]
        env = {
            **os.environ,
            **extra_env,
            "ARRAY_API_TESTS_MODULE": imported,
            "ARRAY_API_TESTS_SKIP_DTYPES": skipped,
        }
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        shown = " ".join(f"{k}={v}" for k, v in extra_env.items())
        print(
            f"{shown} ARRAY_API_TESTS_MODULE={imported!r} {' '.join(command)}  (in {suite})".lstrip(),
            flush=True,
        )
        subprocess.run(command, cwd=suite, env=env, check=False)
        if not report.exists():
            print("the suite wrote no report; see its output above", file=sys.stderr)
            return 2
        data = json.loads(report.read_text())
    summary = summarize(
        data,
        xfails,
        module=module,
        backend=args.backend,
        settings=settings,
        versions=_versions(args.module, args.backend),
    )
    (out_dir / f"{stem}.json").write_text(json.dumps(summary.to_json(), indent=1) + "\n")
    (out_dir / f"{stem}.md").write_text(summary.to_markdown())
    t = summary.totals
    print(
        f"{module}: {t['passed']} passed, {t['failed'] + t['error']} failed "
        f"({len(summary.failures)} unexpected), {t['xfailed']} xfailed, {t['xpassed']} xpassed, "
        f"{t['skipped']} skipped\nwrote {out_dir / stem}.md and {stem}.json"
        + ("" if args.write_docs else " (--write-docs writes them into docs/conformance/)")
    )
    return 1 if summary.failures else 0


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(
        prog="python -m conformance.array_api_tests",
        description="Run array-api-tests against promo_ns (policy array-api) and summarize the outcome.",
        epilog=HOW_TO_GET,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--suite", help="array-api-tests checkout (default: $ARRAY_API_TESTS_SUITE)")
    p.add_argument("--backend", choices=("numpy", "torch", "cupy", "dask", "jax"), required=True)
    p.add_argument(
        "--module",
        choices=tuple(MODULES),
        default="promo_ns",
        help="what to test: promo_ns (default), or for comparison array_api_compat (compat), "
        "array_api_strict (strict) or the backend's own namespace (native: jax.numpy)",
    )
    p.add_argument("--max-examples", type=int, default=20, help="hypothesis max_examples (default 20)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="pytest-xdist workers (default 1)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--out",
        metavar="DIR",
        help=f"the folder the .md/.json summary goes to, created if missing (default: {DEFAULT_OUT})",
    )
    where.add_argument(
        "--write-docs",
        action="store_true",
        help="write the summary into docs/conformance/ instead, over the committed pages",
    )
    p.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    return p


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` set, restored afterwards (for importing the module under test here)."""
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def output_dir(args: argparse.Namespace) -> Path:
    """The folder the summaries go to: ``docs/conformance`` with ``--write-docs``, else ``--out``'s.

    Parameters
    ----------
    args
        The parsed command line.

    Returns
    -------
    Path
        :data:`DOCS`, the ``--out`` folder, or :data:`DEFAULT_OUT`.
    """
    if args.write_docs:
        return DOCS
    return Path(args.out).expanduser() if args.out else DEFAULT_OUT


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m conformance.array_api_tests``."""
    return run(parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
