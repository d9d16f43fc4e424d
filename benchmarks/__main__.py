"""Run every benchmark and print medians and ratios measured in this one run.

Usage::

    python -m benchmarks                      # numpy, torch and jax; torch-cuda and cupy with a GPU
    python -m benchmarks --backend numpy --quick
    python -m benchmarks --write docs/performance.md --check

Install the peers first: ``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from importlib.util import find_spec
from typing import Any

from benchmarks._timing import Progress, peak_memory, time_interleaved
from benchmarks.cases import BACKENDS, BACKENDS_ORDER, CASES, PEERS, Case, Target, setup_code

MEMORY_PEERS = ("native", "promo_ns", "compat", "cast, then op")
MEMORY_SLACK = 1.05  #: promo_ns's peak at most the native op's + 5%
#: The modules whose import is timed, promo_ns first; the others are its peers.
IMPORT_MODULES = ("promo_ns", "array_api_compat", "array_api_strict", "numpy", "torch")
#: ``import promo_ns`` against a peer's import, timed in the same run (a wrapper over
#: array-api-compat should not take much longer to import than array-api-compat itself).
IMPORT_TARGET = Target(("array_api_compat",), 3.0, "<= 3x array_api_compat")


@dataclass
class Row:
    """One case's medians (seconds), peak memory (bytes) and target verdicts on one backend."""

    case: Case
    times: dict[str, float]
    memory: dict[str, int | None]
    verdicts: list[tuple[str, str, bool]]  #: (target text, what was measured, met)


def _fmt_time(s: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def _fmt_bytes(n: int | None) -> str:
    return "n/a" if n is None else f"{n / 2**20:.1f} MiB"


def speed(ratio: float) -> str:
    """promo_ns's time over a peer's, in words: ``"1.40x slower"``, ``"2.5x faster"``, ``"same speed"``.

    Parameters
    ----------
    ratio
        promo_ns's median time divided by the peer's.

    Returns
    -------
    str
        How many times slower (``ratio`` above 1) or faster (below 1) promo_ns is.
    """
    if round(ratio, 2) == 1:
        return "same speed"
    return f"{ratio:.2f}x slower" if ratio > 1 else f"{1 / ratio:.2f}x faster"


def _verdict(target: Target, times: dict[str, float]) -> tuple[str, str, bool] | None:
    """``(target's text, what was measured, met)``, or None where none of the target's peers ran."""
    if not target.peers:  # a time limit
        return target.text, _fmt_time(times["promo_ns"]), times["promo_ns"] <= target.ratio
    peers = [times[p] for p in target.peers if p in times]
    if not peers:
        return None
    ratio = times["promo_ns"] / min(peers)
    return target.text, speed(ratio), ratio <= target.ratio


def available(backend: str) -> bool:
    """Whether ``backend`` can run here (a GPU for torch-cuda and cupy)."""
    if backend == "numpy":
        return find_spec("numpy") is not None
    if backend in ("torch", "jax", "dask"):
        return find_spec(backend) is not None
    if backend == "torch-cuda":
        if find_spec("torch") is None:
            return False
        import torch

        return bool(torch.cuda.is_available())
    if find_spec("cupy") is None:
        return False
    import cupy

    try:
        return bool(cupy.cuda.runtime.getDeviceCount() > 0)
    except cupy.cuda.runtime.CUDARuntimeError:
        return False


def cases_of(backend: str) -> list[Case]:
    """The cases that run on ``backend``."""
    return [case for case in CASES if backend in case.backends]


def run_backend(backend: str, *, rounds: int, memory: bool, progress: Progress) -> list[Row]:
    """Time every case of ``backend`` (peers interleaved), and measure peak memory where asked."""
    sync = BACKENDS[backend][2]
    inputs: dict[int, dict[str, Any]] = {}
    rows = []
    for case in cases_of(backend):
        progress.step(f"{backend}: {case.group}: {case.name}")
        setup = setup_code(backend, case.n)
        if case.n not in inputs:
            inputs[case.n] = {}
            exec(setup, inputs[case.n])
        stmts = {p: f"{s}; {sync}" if sync else s for p, s in case.statements(backend).items()}
        large = case.n >= 10**6
        times = time_interleaved(stmts, inputs[case.n], rounds=rounds, sample_s=0.05 if large else 0.02)
        peaks: dict[str, int | None] = {}
        if memory and case.memory and not sync:
            peaks = {p: peak_memory(setup, stmts[p]) for p in MEMORY_PEERS if p in stmts}
        verdicts = [v for t in case.targets.get(backend, ()) if (v := _verdict(t, times))]
        if peaks.get("native") and peaks.get("promo_ns") is not None:
            ratio = peaks["promo_ns"] / peaks["native"]  # type: ignore[operator]
            verdicts.append(("peak memory <= native + 5%", f"{ratio:.2f}x native's", ratio <= MEMORY_SLACK))
        rows.append(Row(case, times, peaks, verdicts))
    return rows


_IMPORT = (
    "import sys, time; t = time.perf_counter(); import {m}; t = time.perf_counter() - t; "
    "print(t, *[b for b in ('numpy', 'torch', 'cupy') if b in sys.modules])"
)


def import_times(runs: int) -> list[tuple[str, float, list[str]]]:
    """The best import time of promo_ns and of its peers, each in ``runs`` fresh interpreters.

    The modules take turns, run after run, as the peers of a case do, so
    that all of them meet the same machine state; the best run is the one
    least disturbed by the rest of the machine.

    Returns
    -------
    list of (module, seconds, array libraries the import loaded)
        For each installed module of :data:`IMPORT_MODULES`, promo_ns first.
    """
    modules = [m for m in IMPORT_MODULES if find_spec(m) is not None]
    samples: dict[str, list[float]] = {m: [] for m in modules}
    loaded: dict[str, list[str]] = {}
    for _ in range(runs):
        for module in modules:
            words = subprocess.run(
                [sys.executable, "-c", _IMPORT.format(m=module)], check=True, capture_output=True, text=True
            ).stdout.split()
            samples[module].append(float(words[0]))
            loaded[module] = words[1:]
    return [(m, min(samples[m]), loaded[m]) for m in modules]


def _launches(fn: Callable[[], object]) -> list[str]:
    """The names of the CUDA kernels and copies one call of ``fn`` makes (after a warm-up call).

    torch's profiler reads them through CUPTI, which sees every library's kernels in the process,
    CuPy's included.
    """
    import torch

    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return [e.name for e in prof.events() if e.device_type.name == "CUDA"]


def _kernels_and_copies(names: list[str]) -> tuple[int, int]:
    """How many of ``names`` are kernels, and how many copies to the host."""
    to_host = sum("DtoH" in name for name in names)  # "Memcpy DtoH (Device -> Pageable)"
    return len(names) - to_host, to_host


def _small_op_launches(backend: str) -> list[tuple[str, str, bool]]:
    """Kernels and copies to the host of the small functions and the workload: native, then promo_ns."""
    import numpy

    import promo_ns
    from benchmarks.cases import standardize_logsumexp, standardize_logsumexp_torch

    if backend == "cupy":
        import cupy as native
    else:
        import torch as native
    xq = promo_ns.namespace("cupy" if backend == "cupy" else "torch", policy="pytorch")
    rng = numpy.random.default_rng(0)

    def on_gpu(v: Any) -> Any:
        return native.asarray(v) if backend == "cupy" else native.from_numpy(v).to("cuda")

    a, b = (on_gpu(rng.standard_normal(100).astype("float32")) for _ in range(2))
    c = on_gpu(rng.standard_normal(100) > 0)
    x = on_gpu(rng.standard_normal((1000, 100)).astype("float32"))
    qa, qb, qc, qx = (xq.asarray(v) for v in (a, b, c, x))
    nat_work = (
        (lambda: standardize_logsumexp(native, x))
        if backend == "cupy"
        else (lambda: standardize_logsumexp_torch(x))
    )
    cat = native.concatenate if backend == "cupy" else native.cat
    ops: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("n=100 `a * 0.5`", lambda: a * 0.5, lambda: qa * 0.5),
        ("n=100 `xp.where(c, a, b)`", lambda: native.where(c, a, b), lambda: xq.where(qc, qa, qb)),
        ("n=100 `xp.clip(a, -0.5, 0.5)`", lambda: native.clip(a, -0.5, 0.5), lambda: xq.clip(qa, -0.5, 0.5)),
        ("n=100 `xp.concat([a, b])`", lambda: cat([a, b]), lambda: xq.concat([qa, qb])),
        ("n=100 `xp.mean(a)`", lambda: native.mean(a), lambda: xq.mean(qa)),
        ("workload (standardize + logsumexp)", nat_work, lambda: standardize_logsumexp(xq, qx)),
    ]
    checks = []
    for op, nat, ours in ops:
        native_names, names = _launches(nat), _launches(ours)
        (native_kernels, native_copies), (kernels, copies) = map(_kernels_and_copies, (native_names, names))
        text = f"{backend}: {op}: kernels, copies to host (native {native_kernels}, {native_copies})"
        met = kernels <= native_kernels and copies <= native_copies
        checks.append((text, f"{kernels}, {copies}", met))
        if not met:  # what the extra launches are, for the log
            print(f"{text}\n  native:   {native_names}\n  promo_ns: {names}", file=sys.stderr)
    return checks


def gpu_checks(backends: Sequence[str]) -> list[tuple[str, str, bool]]:
    """Kernels launched per op against the native library's, and host synchronizations on torch.

    On torch on CUDA: a mixed op on 100M elements, then five ops under torch's sync debug mode.
    On both GPU backends: the small functions and the workload, kernel by kernel.
    """
    import torch

    import promo_ns

    checks: list[tuple[str, str, bool]] = []
    if "torch-cuda" in backends:
        xq = promo_ns.namespace("torch", policy="pytorch")
        n = 100_000_000
        i8 = torch.ones(n, dtype=torch.int8, device="cuda")
        f32 = torch.ones(n, dtype=torch.float32, device="cuda")
        qi8, qf32 = xq.asarray(i8), xq.asarray(f32)
        native, ours = (len(_launches(fn)) for fn in (lambda: i8 + f32, lambda: qi8 + qf32))
        checks.append((f"int8 + float32, n=100M: CUDA kernels (native {native})", str(ours), ours <= native))
        ops: list[tuple[str, Callable[[], object]]] = [
            ("a + b", lambda: qf32 + qf32),
            ("int8 + float32", lambda: qi8 + qf32),
            ("a + 1.0", lambda: qf32 + 1.0),
            ("a < b", lambda: qf32 < qi8),
            ("a += b", lambda: qf32.__iadd__(qf32)),
        ]
        for text, fn in ops:
            torch.cuda.set_sync_debug_mode("error")
            try:
                fn()
                ok, seen = True, "none"
            except RuntimeError as e:
                ok, seen = False, str(e).splitlines()[0]
            finally:
                torch.cuda.set_sync_debug_mode("default")
            checks.append((f"{text}: host synchronizations", seen, ok))
    for backend in ("torch-cuda", "cupy"):
        if backend in backends:
            checks += _small_op_launches(backend)
    return checks


def _version(dist: str) -> str:
    """``dist``'s version; an imported module's own where it is not installed as ``dist``.

    (promo_ns run from a checkout; CuPy installed as ``cupy-cuda13x``.)
    """
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        module = sys.modules.get(dist.replace("-", "_"))
        return str(getattr(module, "__version__", "not installed"))


def machine() -> list[str]:
    """What the numbers were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], check=False, capture_output=True, text=True
    ).stdout.strip()
    versions = ", ".join(
        f"{d} {_version(d)}"
        for d in ("numpy", "torch", "array-api-compat", "array-api-strict", "cupy")
        if _version(d) != "not installed"
    )
    return [
        f"- date: {date.today().isoformat()}; promo_ns {_version('promo_ns')} at {commit or 'unknown'}",
        f"- machine: {cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}; {versions}",
    ]


def _shown(verdicts: list[tuple[str, str, bool]], missed: list[str], where: str) -> str:
    """The targets cell of a row, ``"<= 3.5x native: 3.49x slower, met; ..."``; misses go to ``missed``."""
    shown = []
    for text, value, ok in verdicts:
        shown.append(f"{text}: {value}, {'met' if ok else '**missed**'}")
        if not ok:
            missed.append(f"{where}: {text} (measured: {value})")
    return "; ".join(shown)


def _import_lines(imports: list[tuple[str, float, list[str]]], missed: list[str]) -> list[str]:
    """The import section: a ratio row like a case's, then each module's time and the libraries it loads."""
    times = {m: t for m, t, _ in imports}
    lines = [
        "## Import",
        "",
        "`import X` in fresh interpreters, the modules in turn, the best run of each; the ratio is "
        "promo_ns's over the peer's, from this run.",
        "",
    ]
    if "promo_ns" in times:
        peers = [m for m in times if m != "promo_ns"]
        peer = IMPORT_TARGET.peers[0]
        verdict = _verdict(IMPORT_TARGET, times)
        shown = [_shown([verdict], missed, "import promo_ns")] if verdict else []
        libs = next(libs for m, _, libs in imports if m == "promo_ns")
        verdict_libs = "met" if not libs else f"**missed** ({', '.join(libs)})"
        shown.append(f"imports no array library: {verdict_libs}")
        if libs:
            missed.append(f"import promo_ns: imports {', '.join(libs)}")
        ratio = f"{times['promo_ns'] / times[peer]:.2f}x" if peer in times else ""
        cells = [_fmt_time(times[m]) for m in ["promo_ns", *peers]]
        lines += [
            "| case | " + " | ".join(["promo_ns", *peers]) + f" | promo_ns / {peer} | targets |",
            "|---|" + "---:|" * (len(peers) + 2) + "---|",
            f"| import (fresh interpreter) | {' | '.join(cells)} | {ratio} | {'; '.join(shown)} |",
            "",
        ]
    lines += ["| module | best | array libraries it imports |", "|---|---:|---|"]
    lines += [f"| {m} | {_fmt_time(t)} | {', '.join(libs) or 'none'} |" for m, t, libs in imports]
    return [*lines, ""]


def _time_table(backend: str, brows: list[Row], missed: list[str]) -> list[str]:
    """The Markdown table of ``brows``' times, with a column per peer any of them has."""
    peers = [p for p in PEERS if any(p in r.times for r in brows)]
    ratio_peers = [p for p in ("native", "minimal") if p in peers]
    lines = ["| case | " + " | ".join([*peers, *(f"promo_ns / {p}" for p in ratio_peers)]) + " | targets |"]
    lines += ["|---|" + "---:|" * (len(peers) + len(ratio_peers)) + "---|"]
    for r in brows:
        t = r.times
        cells = [_fmt_time(t[p]) if p in t else "" for p in peers]
        ratios = [f"{t['promo_ns'] / t[p]:.2f}x" if p in t else "" for p in ratio_peers]
        shown = _shown(r.verdicts, missed, f"{backend}, {r.case.group}, {r.case.name}")
        lines.append(f"| {r.case.group}: {r.case.name} | " + " | ".join([*cells, *ratios, shown]) + " |")
    return lines


def report(
    rows: dict[str, list[Row]], imports: list[tuple[str, float, list[str]]], gpu: list[tuple[str, str, bool]]
) -> tuple[str, list[str]]:
    """The Markdown report and the list of missed targets."""
    lines = ["## Machine", "", *machine(), ""]
    missed: list[str] = []
    for backend, brows in rows.items():
        lines += [
            f"## {backend}",
            "",
            "Medians per call; ratios are promo_ns's over the peer's, from this run.",
            "",
        ]
        outside = [r for r in brows if "outside" in r.times]
        lines += _time_table(backend, [r for r in brows if r not in outside], missed)
        if outside:
            lines += ["", "Inside a `trace()` or `compare()` block, and the same code outside it:", ""]
            lines += _time_table(backend, outside, missed)
        mem = [r for r in brows if r.memory]
        if mem:
            mpeers = [p for p in MEMORY_PEERS if any(p in r.memory for r in mem)]
            lines += ["", "Peak memory beyond the inputs (one call, fresh process):", ""]
            lines += ["| case | " + " | ".join(mpeers) + " |", "|---|" + "---:|" * len(mpeers)]
            lines += [
                f"| {r.case.name} | "
                + " | ".join(_fmt_bytes(r.memory[p]) if p in r.memory else "" for p in mpeers)
                + " |"
                for r in mem
            ]
        lines.append("")
    if imports:
        lines += _import_lines(imports, missed)
    if gpu:
        lines += [
            "## On the GPU: kernels, copies and synchronization",
            "",
            "| check | seen | met |",
            "|---|---|---|",
        ]
        for text, seen, ok in gpu:
            lines.append(f"| {text} | {seen} | {'met' if ok else '**missed**'} |")
            if not ok:
                missed.append(f"GPU: {text}: {seen}")
        lines.append("")
    lines += ["## Targets", ""]
    lines += [f"- missed: {m}" for m in missed] or ["- every target measured in this run was met"]
    return "\n".join(lines) + "\n", missed


MARKER = "<!-- results: written by python -m benchmarks --write -->"


def write(path: str, text: str) -> None:
    """Write the report to ``path``: after its results marker if it has one, else the whole file."""
    try:
        with open(path) as f:
            head = f.read().partition(MARKER)
    except FileNotFoundError:
        head = ("", "", "")
    with open(path, "w") as f:
        f.write(head[0] + MARKER + "\n\n" + text if head[1] else text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; print (and optionally write) the report."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--backend",
        action="append",
        choices=BACKENDS_ORDER,
        help="run only these (repeatable); default: every one available here",
    )
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 21; no memory runs")
    parser.add_argument(
        "--write", metavar="PATH", help="also write the report to PATH (after its results marker, if any)"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    backends = args.backend or [b for b in BACKENDS_ORDER if available(b)]
    rounds = 5 if args.quick else 21

    import_runs = 3 if args.quick else 9
    on_gpu = [b for b in backends if b in ("torch-cuda", "cupy")] if available("torch-cuda") else []
    total = sum(len(cases_of(b)) for b in backends) + 1 + bool(on_gpu)
    progress = Progress(total, lambda line: print(line, file=sys.stderr, flush=True))
    rows = {b: run_backend(b, rounds=rounds, memory=not args.quick, progress=progress) for b in backends}
    progress.step(f"import times: {', '.join(IMPORT_MODULES)}, best of {import_runs} fresh interpreters")
    imports = import_times(import_runs)
    if on_gpu:
        progress.step(f"{', '.join(on_gpu)}: kernels launched and host synchronizations")
    gpu = gpu_checks(on_gpu) if on_gpu else []
    text, missed = report(rows, imports, gpu)
    print(text)
    if args.write:
        write(args.write, text)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
