"""The generated probe's page, ``docs/conformance/probe.md``, from one summary per policy.

``python -m conformance.probe [POLICY ...] [--backends numpy,torch,...] [--every dask=10,jax=100]``
runs each policy's probe (:func:`conformance.probe._run.run_policy`), writes
its summary to ``docs/conformance/probe-<policy>.json`` and renders the page
from every summary there, so that policies are rerun one at a time.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from conformance.probe import _compare, _run, _space, promo
from conformance.probe._compare import BUCKETS, ULPS

__all__ = ["main", "render", "summary"]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "conformance"
PAGE = DOCS / "probe.md"


def _counts(c: Any) -> dict[str, int]:
    return {b: int(c[b]) for b in BUCKETS if c[b]}


def _short(obs: str, width: int = 70) -> str:
    return obs if len(obs) <= width else obs[: width - 3] + "..."


def summary(result: _run.PolicyRun) -> dict[str, Any]:
    """A policy's probe as JSON data: framework agreement and cross-backend differences per backend."""
    out: dict[str, Any] = {
        "policy": result.policy,
        "framework": result.framework,
        "version": result.version,
        "cases": result.cases,
        "runs": {b: {"cases": n, "seconds": round(s, 1)} for b, (n, s) in result.runs.items()},
        "fidelity": {},
        "cross": {},
    }
    for backend, cmp in result.fidelity.items():
        agree, total = cmp.agreement()
        out["fidelity"][backend] = {
            "agree": agree,
            "compared": total,
            "counts": _counts(cmp.counts),
            "by_family": {f: _counts(c) for f, c in sorted(cmp.by_family.items())},
            "by_spelling": {s: _counts(c) for s, c in sorted(cmp.by_spelling.items())},
            "classes": [
                {"class": cls, "count": n, "example": list(ex)}
                for cls, n, ex in _run.classes(cmp.disagreements)
            ],
            "deviations": dict(cmp.deviations),
        }
    for backend, diffs in result.cross.items():
        unknown = [(c, r, g) for c, r, g, why in diffs if why is None]
        by_family: dict[str, int] = {}
        for c, _, _ in unknown:
            by_family[_space.family(c)] = by_family.get(_space.family(c), 0) + 1
        known: dict[str, int] = {}
        for _, _, _, why in diffs:
            if why is not None:
                known[why] = known.get(why, 0) + 1
        out["cross"][backend] = {
            "compared": result.cross_compared[backend],
            "differ": len(unknown),
            "known": known,
            "by_family": dict(sorted(by_family.items())),
            "classes": [
                {"class": cls, "count": n, "example": list(ex)}
                for cls, n, ex in _run.classes([(c.key, r, g) for c, r, g in unknown])
            ],
        }
    return out


def _rate(agree: int, total: int) -> str:
    return f"{100 * agree / total:.1f}%" if total else "-"


def _fidelity_section(s: dict[str, Any]) -> list[str]:
    lines = [f"### {s['policy']}: promo_ns against {s['framework']} {s['version']}", ""]
    head = "| backend | cases | agreement | " + " | ".join(BUCKETS) + " |"
    lines += [head, "|---|---:|---:|" + "---:|" * len(BUCKETS)]
    for backend, f in s["fidelity"].items():
        row = " | ".join(str(f["counts"].get(b, 0)) for b in BUCKETS)
        lines.append(
            f"| {backend} | {s['runs'][backend]['cases']} | {_rate(f['agree'], f['compared'])} | {row} |"
        )
    first = next(iter(s["fidelity"].values()))
    for title, key in (("op family", "by_family"), ("spelling", "by_spelling")):
        lines += [
            "",
            f"By {title} (NumPy backend):",
            "",
            f"| {title} | agreement | agree | disagree | not compared |",
        ]
        lines.append("|---|---:|---:|---:|---:|")
        for name, c in first[key].items():
            other = sum(v for b, v in c.items() if b not in ("agree", "disagree"))
            a, d = c.get("agree", 0), c.get("disagree", 0)
            lines.append(f"| {name} | {_rate(a, a + d)} | {a} | {d} | {other} |")
    lines += ["", "The most frequent disagreements (NumPy backend), one example each:", ""]
    lines += ["| class | cases | example | framework | promo_ns |", "|---|---:|---|---|---|"]
    for c in first["classes"]:
        key, seen, got = c["example"]
        cls = c["class"].replace("|", "\\|")
        lines.append(
            f"| {cls} | {c['count']} | `{key.replace('|', ' ')}` | `{_short(seen)}` | `{_short(got)}` |"
        )
    return [*lines, ""]


def render(summaries: list[dict[str, Any]]) -> str:
    """The page, from the summaries of the policies probed."""
    lines = [
        "# The generated probe",
        "",
        "Every public function and operator form of promo_ns, generated from its op registry by "
        "`conformance/probe/_space.py`: binary functions, `x op y`, `s op x`, `x op= y` and the "
        "framework's methods; one-array functions with `dtype=`; arities 1-4 of the n-ary functions; "
        "`result_type`, `can_cast` and `astype` over every pair of dtypes; creation with default dtypes; "
        "every dtype in every role (n-d, 0-d, Python scalar, NumPy scalar for `numpy`), benign values "
        "and the values at the edges of every dtype.  Each framework's observations are stored in "
        "`tests/reference/probe-<policy>.json.gz` (`python -m conformance.probe.<framework>`); "
        "`python -m conformance.probe POLICY ...` runs promo_ns and writes this page.",
        "",
        "A case agrees when both refuse alike or both give the same dtypes, shapes and values: bit for bit "
        f"(NaNs alike), within {ULPS} ulps of the result dtype for transcendental functions, float "
        "reductions, products, `linalg`, `fft` and `linspace` (the same bound on every backend).  "
        "Agreement is over the cases both sides decided (agree + disagree).",
        "",
        "## Agreement with the framework",
        "",
        "| policy | framework | " + " | ".join(promo.BACKENDS) + " |",
        "|---|---|" + "---:|" * len(promo.BACKENDS),
    ]
    for s in summaries:
        if not s["fidelity"]:
            continue
        cells = [
            _rate(s["fidelity"][b]["agree"], s["fidelity"][b]["compared"]) if b in s["fidelity"] else "-"
            for b in promo.BACKENDS
        ]
        lines.append(f"| {s['policy']} | {s['framework']} {s['version']} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Backends against the NumPy backend",
        "",
        "Under one policy every backend should give the NumPy backend's outcome on every case.  "
        "`differ` counts the cases outside the table of known differences "
        "(`conformance/probe/_known.py`); `known` the cases it lists.",
        "",
        "| policy | backend | cases | differ | known |",
        "|---|---|---:|---:|---:|",
    ]
    for s in summaries:
        for backend, c in s["cross"].items():
            lines.append(
                f"| {s['policy']} | {backend} | {c['compared']} | {c['differ']} "
                f"| {sum(c['known'].values())} |"
            )
    reasons: dict[str, dict[str, int]] = {}
    for s in summaries:
        for backend, c in s["cross"].items():
            for why, n in c["known"].items():
                reasons.setdefault(why, {}).setdefault(backend, 0)
                reasons[why][backend] += n
    backends = [b for b in promo.BACKENDS if b != "numpy"]
    lines += ["", "The known differences, cells summed over the policies:", ""]
    lines += ["| reason | " + " | ".join(backends) + " |", "|---|" + "---:|" * len(backends)]
    for why, by in sorted(reasons.items(), key=lambda kv: -sum(kv[1].values())):
        lines.append(f"| {why} | " + " | ".join(str(by.get(b, 0)) for b in backends) + " |")
    lines += ["", "## Each policy", ""]
    for s in summaries:
        if s["fidelity"]:
            lines += _fidelity_section(s)
        for backend, c in s["cross"].items():
            if not c["classes"]:
                continue
            lines += [f"{s['policy']} on {backend}, differences from the NumPy backend:", ""]
            lines += ["| class | cases | example | numpy | " + backend + " |", "|---|---:|---|---|---|"]
            for k in c["classes"][:10]:
                key, ref, got = k["example"]
                cls = (
                    k["class"].replace("|", "\\|").replace("framework", "numpy").replace("promo_ns", backend)
                )
                lines.append(
                    f"| {cls} | {k['count']} | `{key.replace('|', ' ')}` "
                    f"| `{_short(ref)}` | `{_short(got)}` |"
                )
            lines.append("")
    runs = ", ".join(
        f"{b}: {r['cases']} cases in {r['seconds']} s" for s in summaries[:1] for b, r in s["runs"].items()
    )
    lines += ["", f"Cases run per backend ({summaries[0]['policy'] if summaries else ''}): {runs}.", ""]
    return "\n".join(lines)


def _every(text: str) -> dict[str, int]:
    return {k: int(v) for k, _, v in (p.partition("=") for p in text.split(",") if p)}


def main(argv: list[str] | None = None) -> int:
    """Run the probe of each policy named (default: all), write its summary and the page."""
    parser = argparse.ArgumentParser(prog="python -m conformance.probe", description=__doc__)
    parser.add_argument("policies", nargs="*", default=list(_compare.FRAMEWORKS))
    parser.add_argument("--backends", default=",".join(promo.BACKENDS))
    parser.add_argument("--every", default="", help="backend=N: run one case in N there (dask=10,jax=100)")
    args = parser.parse_args(argv)
    backends = tuple(b for b in args.backends.split(",") if b)
    for policy in args.policies:
        start = time.perf_counter()
        result = _run.run_policy(policy, backends, _every(args.every))
        (DOCS / f"probe-{policy}.json").write_text(json.dumps(summary(result), indent=1) + "\n")
        print(f"{policy}: {time.perf_counter() - start:.0f} s", flush=True)
    summaries = [
        json.loads((DOCS / f"probe-{p}.json").read_text())
        for p in _compare.FRAMEWORKS
        if (DOCS / f"probe-{p}.json").exists()
    ]
    PAGE.write_text(render(summaries))
    print(f"wrote {PAGE}")
    return 0
